"""Referee API under /api/referee/."""

from django.urls import path

from referee.api.views import MeApi

app_name = "referee-api"

urlpatterns = [
    path("me/", MeApi.as_view(), name="me"),
]
