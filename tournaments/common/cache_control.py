"""Cache-Control on every answer: the contract with the caching proxy in front (nginx).

- A GET or HEAD of a public page by somebody without a session cookie or an Authorization
  header, answered without Set-Cookie: ``Cache-Control: public, max-age=1`` (unless the view
  said ``public`` with a longer max-age: the favicon) and ``Vary: Accept-Language, Cookie,
  Accept-Encoding``; the views add the ETag (``tournaments.public.page_cache``). One second
  is the live board's own freshness (``PUBLIC_BOARD_SECONDS``): a proxy that keeps the
  answer that long serves a thousand spectators' polls with one request here.
- Everything else says ``Cache-Control: private, no-store``: any answer under ``/referee/``,
  ``/director/``, ``/admin/``, ``/api/`` and ``/healthz`` (a health check is never
  answered by a cache: ``PRIVATE_PREFIXES``), any answer that sets a
  cookie, any answer to a request that carries a session cookie or credentials
  (Authorization), any other method than GET and HEAD, and every server error.

Static files (``STATIC_URL``, WhiteNoise's own long-lived headers) are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

PRIVATE_PREFIXES = ("/referee/", "/director/", "/admin/", "/api/", "/healthz")
PUBLIC = "public, max-age=1"
PRIVATE = "private, no-store"
VARY = ("Accept-Language", "Cookie", "Accept-Encoding")


def is_private(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether ``response`` is for its reader only (the module's docstring)."""
    return (
        request.path.startswith(PRIVATE_PREFIXES)
        or bool(response.cookies)
        or "Set-Cookie" in response
        or settings.SESSION_COOKIE_NAME in request.COOKIES
        or "HTTP_AUTHORIZATION" in request.META
        or request.method not in ("GET", "HEAD")
        or response.status_code >= 500
        or "private" in response.get("Cache-Control", "")
        or "no-store" in response.get("Cache-Control", "")
    )


def _keeps_own(response: HttpResponse) -> bool:
    """A public answer that says for how long already (more than a second): the favicon."""
    control = [d.strip() for d in response.get("Cache-Control", "").split(",")]
    ages = [d.removeprefix("max-age=") for d in control if d.startswith("max-age=")]
    return "public" in control and any(a.isdigit() and int(a) > 1 for a in ages)


class CacheControlMiddleware:
    """Marks every answer public (for a second) or private (never stored): first in the
    list after SecurityMiddleware, so it sees the cookies the session and CSRF middleware
    set on the way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
            return response
        if is_private(request, response):
            response["Cache-Control"] = PRIVATE
        elif not _keeps_own(response):
            response["Cache-Control"] = PUBLIC
        if response["Cache-Control"] != PRIVATE:
            patch_vary_headers(response, VARY)
        return response
