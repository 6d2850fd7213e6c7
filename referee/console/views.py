"""Referee console pages: sign-in (Django's LoginView, throttled by django-axes), the
one-time sign-in link a director hands out, and the console shell. Every write the
console makes goes through the referee API v1."""

import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse, reverse_lazy
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from django.views.decorators.debug import sensitive_post_parameters

from referee.console.strings import console_strings
from tournaments.common.errors import ApplicationError
from tournaments.rounds.login_links import link_user


class RefereeLoginView(LoginView):
    template_name = "referee/login.html"
    redirect_authenticated_user = True

    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("referee:console"))


class RefereeLogoutView(LogoutView):
    def get_default_redirect_url(self) -> str:
        return str(reverse_lazy("referee:login"))


#: When the session of the account a console page was shown to ends (epoch milliseconds).
SESSION_ENDS_HEADER = "X-Session-Ends"


@login_required(login_url=reverse_lazy("referee:login"))
@ensure_csrf_cookie
def console(request: HttpRequest) -> HttpResponse:
    """The console shell: the JS reads its tables and hands from the API.

    It is shown to one account until one moment: the page names the account (its id, which
    every write the page queues carries, ``X-Typed-By``) and when its session ends (epoch
    milliseconds, also in the ``X-Session-Ends`` header that the service worker reads on
    its cached copy). Past that moment, offline too, neither shows a saved hand."""
    ends = int(request.session.get_expiry_date().timestamp() * 1000)
    context: dict[str, Any] = {"strings": console_strings(), "session_ends": ends}
    response = render(request, "referee/console.html", context)
    response[SESSION_ENDS_HEADER] = str(ends)
    return response


#: The console's static files, kept by its service worker for offline use.
CONSOLE_ASSETS = (
    "referee/console/main.js",
    "referee/console/api.js",
    "referee/console/queue.js",
    "referee/console/views.js",
    "referee/console/dom.js",
    "referee/console/provisional.js",
    "referee/console/entry.js",
    "referee/console/round.js",
    "referee/console/history.js",
    "referee/console/result.js",
    "referee/console.css",
    "referee/entry.css",
    "tournaments/icons/favicon.svg",
    "tournaments/icons/icon-192.png",
    "tournaments/icons/icon-512.png",
    "tournaments/icons/icon-maskable-512.png",
    "tournaments/icons/apple-touch-icon.png",
    "tournaments/site.css",
    "tournaments/site.js",
)


@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The console's service worker, served under /referee/ so that its scope is the
    console. It is told the URLs the page uses for its assets (hashed names when the
    manifest storage is on; the modules' own imports use the plain names, so both), and its
    cache name changes with the assets' contents."""
    urls: list[str] = []
    digest = hashlib.sha256()
    for name in CONSOLE_ASSETS:
        for url in (static(name), settings.STATIC_URL.rstrip("/") + "/" + name):
            url = url if url.startswith("/") else "/" + url
            if url not in urls:
                urls.append(url)
        path = finders.find(name)
        if isinstance(path, str):
            with open(path, "rb") as handle:
                digest.update(handle.read())
    static_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    context = {
        "version": digest.hexdigest()[:16],
        "page": json.dumps(reverse("referee:console")),
        "logout": json.dumps(reverse("referee:logout")),
        "static_prefix": json.dumps(static_prefix),
        "assets": json.dumps(urls),
        "manifest": json.dumps(reverse("referee:manifest")),
        "session_ends_header": json.dumps(SESSION_ENDS_HEADER),
        "scope": reverse("referee:console"),
    }
    return render(request, "referee/sw.js", context, content_type="text/javascript")


#: The console's colour (its buttons', the icons' green): the phone's bar when installed.
THEME_COLOUR = "#1f6f43"


def web_manifest(request: HttpRequest) -> HttpResponse:
    """The console's web app manifest, in the reader's language: installed on a phone's home
    screen, it opens the console standalone (no browser bar)."""
    console = reverse("referee:console")

    def icon(name: str, size: str, kind: str, purpose: str = "any") -> dict[str, str]:
        return {
            "src": static(f"tournaments/icons/{name}"),
            "sizes": size,
            "type": kind,
            "purpose": purpose,
        }

    manifest = {
        "name": _("Dou Dizhu referee console"),
        "short_name": _("Referee"),
        "description": _("Enter the hands of a Dou Dizhu table, online or offline."),
        "lang": get_language(),
        "id": console,
        "start_url": console,
        "scope": console,
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": [
            icon("icon-192.png", "192x192", "image/png"),
            icon("icon-512.png", "512x512", "image/png"),
            icon("icon-maskable-512.png", "512x512", "image/png", "maskable"),
            icon("favicon.svg", "any", "image/svg+xml"),
        ],
    }
    response = JsonResponse(
        manifest,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


@never_cache
@sensitive_post_parameters("code")
@csrf_protect
def link_login(request: HttpRequest) -> HttpResponse:
    """A one-time sign-in link's page. GET shows a form (its static JS copies the sign-in
    code from the link's ``#`` part, never sent to the server); only the POST signs in, so
    a link preview that fetches the page uses nothing up."""
    if request.method != "POST":
        return render(request, "referee/link_login.html", {})
    try:
        user = link_user(code=request.POST.get("code", ""))
    except ApplicationError as exc:
        context = {"message": exc.message, "code": exc.code}
        return render(request, "referee/link_invalid.html", context, status=400)
    login(request, user, backend="tournaments.common.usernames.CaseInsensitiveModelBackend")
    return redirect("referee:console")
