"""Director (staff) screens."""

from django.urls import path

from tournaments.views import director

app_name = "director"

urlpatterns = [
    path("", director.dashboard, name="dashboard"),
]
