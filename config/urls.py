"""URLs, split by audience: public pages, director screens, referee API."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from tournaments.views.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/referee/", include("referee.api.urls")),
    path("director/", include("tournaments.urls_director")),
    path("", include("tournaments.urls_public")),
]
