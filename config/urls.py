"""URLs, split by audience: public pages, director screens, referee API."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from referee.api.auth import token_obtain
from tournaments.views.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI whose set-up script is a file of its own (/api/docs/?script=) and whose
    # assets are static files (drf-spectacular-sidecar): no inline script, no CDN (CSP).
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("api/v1/auth/token/", token_obtain, name="api-token"),
    path("api/v1/", include("referee.api.urls")),
    path("director/", include("tournaments.urls_director")),
    path("referee/", include("tournaments.urls_referee")),
    path("", include("tournaments.urls_public")),
]

# JSON under /api/, Django's HTML pages elsewhere (used when DEBUG is off).
handler404 = "referee.api.exception_handlers.page_not_found"
handler500 = "referee.api.exception_handlers.server_error"
