"""URLs, split by audience: public pages, director screens, referee API."""

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.throttling import sign_in_throttled
from referee.api.auth import token_obtain
from referee.api.exception_handlers import api_unknown_path
from tournaments.common.healthz import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The admin and director sign-in, throttled per client address (config/throttling.py).
    path("admin/login/", sign_in_throttled(admin.site.login)),
    path("admin/", admin.site.urls),
    # The language form of the pages kept in the public page cache, which carry no CSRF token
    # (one token for every spectator would be nobody's): choosing the language of the pages
    # is all it does (a forged post can only change the language its victim reads in).
    path("i18n/public/", csrf_exempt(set_language), name="set-language-public"),
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
    # Anything else under /api/: the JSON 404 (ids beyond a bigint end here too), a path
    # with a newline in it as well ("." would not match one; an inline (?s) flag makes
    # every reverse() fail: "Non-reversible reg-exp portion").
    re_path(r"^api/(?P<rest>[\s\S]*)$", csrf_exempt(api_unknown_path), name="api-unknown"),
    path("director/", include("tournaments.director.urls")),
    path("referee/", include("referee.console.urls")),
    path("", include("tournaments.public.urls")),
]

# JSON under /api/, Django's HTML pages elsewhere (used when DEBUG is off).
handler400 = "referee.api.exception_handlers.bad_request"
handler403 = "referee.api.exception_handlers.permission_denied"
handler404 = "referee.api.exception_handlers.page_not_found"
handler500 = "referee.api.exception_handlers.server_error"
