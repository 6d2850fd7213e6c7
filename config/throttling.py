"""Sign-in throttling per client address: the API token endpoint and the HTML sign-in forms.

django-axes locks one (username, address) pair after a few failures; that alone let 16
threads posting random usernames keep the server hashing passwords (a referee's read went
from 0.13 s to 7.3 s). This throttle counts every sign-in attempt (POST) from one client
address, whatever the username, and refuses beyond ``SIGN_IN_RATE`` (e.g. ``30/min``) with
429 and ``Retry-After``, before any password is hashed.

The throttle is DRF's (``SimpleRateThrottle``: a sliding window kept in Django's "shared"
cache, which every process sees: the database cache table, or Redis with CACHE_URL). The
HTML forms (the admin and director sign-in, the referee console's) go through the same class
with ``sign_in_throttled``, so there is one rate and one count per address.
On PostgreSQL the check of one address is serialised by an advisory lock (see
``allow_request``). The address is REMOTE_ADDR, or the one ``TRUSTED_PROXIES`` hops back
in X-Forwarded-For behind that many reverse proxies (DRF's NUM_PROXIES).
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

THROTTLED_CODE = "throttled"


class SignInRateThrottle(SimpleRateThrottle):
    """At most ``SIGN_IN_RATE`` sign-in attempts per client address."""

    scope = "sign_in"

    @property
    def cache(self) -> Any:  # type: ignore[override]
        """Django's shared cache (settings.SHARED_CACHE), not the process's own."""
        return caches[settings.SHARED_CACHE]

    def get_rate(self) -> str | None:
        # Read per request (not once at import, as DRF's THROTTLE_RATES): a setting.
        return settings.SIGN_IN_RATE or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Any, view: Any) -> bool:
        # DRF reads the address's window from the cache and writes it back: two attempts at
        # once would both read the same window (16 threads got 43 of 64 attempts past a rate
        # of 5). On PostgreSQL a transaction-scoped advisory lock per address makes the read
        # and the write of one address's window one step for every process.
        if self.rate is None:
            return True
        key = self.get_cache_key(request, view)
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])
            return super().allow_request(request, view)


def throttled_message() -> str:
    return _("Too many sign-in attempts from this address; wait a moment and try again.")


def sign_in_throttled(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """An HTML sign-in view whose POSTs count against the address's sign-in rate; beyond
    it, a plain 429 page with ``Retry-After``."""

    @wraps(view)
    def throttled_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method == "POST":
            throttle = SignInRateThrottle()
            if not throttle.allow_request(request, None):
                wait = throttle.wait()
                response = HttpResponse(
                    throttled_message(), status=429, content_type="text/plain; charset=utf-8"
                )
                if wait is not None:
                    response["Retry-After"] = str(max(1, round(wait)))
                return response
        return view(request, *args, **kwargs)

    return throttled_view
