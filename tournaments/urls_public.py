"""Public (anonymous, read-only) pages."""

from django.urls import path

from tournaments.views import public

app_name = "public"

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament-detail"),
]
