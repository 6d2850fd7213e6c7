"""Sign-in throttling per client address: the API token endpoint and the HTML sign-in forms.

django-axes locks one (username, address) pair after a few failures; that alone let 16
threads posting random usernames keep the server hashing passwords (a referee's read went
from 0.13 s to 7.3 s). This throttle counts every sign-in attempt (POST) from one client
address, whatever the username, and refuses beyond its allowance with 429 and
``Retry-After``, before any password is hashed.

The allowance is a token bucket: ``SIGN_IN_BURST`` attempts at once, then one more each time
``SIGN_IN_RATE`` (e.g. ``30/min``: every 2 s) allows it. A window of 30 a minute had let a
burst of 30 hashes from one address run at once (a referee's read peaked at 6-18 s under 16
threads); the bucket lets a few through at once and spreads the rest.

The bucket lives in Django's "shared" cache, which every process sees (the database cache
table, or Redis with CACHE_URL). The HTML forms (the admin and director sign-in, the referee
console's) go through the same class with ``sign_in_throttled``, so there is one allowance
per address. On PostgreSQL the check of one address is serialised by an advisory lock (see
``allow_request``). The address is REMOTE_ADDR, or the one ``TRUSTED_PROXIES`` hops back
in X-Forwarded-For behind that many reverse proxies (DRF's NUM_PROXIES).
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

THROTTLED_CODE = "throttled"


@dataclass(frozen=True)
class Bucket:
    """One address's allowance: ``tokens`` left (a fraction refills between attempts) as of
    ``at`` (seconds since the epoch)."""

    tokens: float
    at: float


@dataclass(frozen=True)
class Take:
    """The answer for one attempt: allowed or not, the bucket after it, the seconds until
    the next attempt would be allowed (0 when this one was)."""

    allowed: bool
    bucket: Bucket
    wait: float


def bucket_take(bucket: Bucket | None, *, now: float, burst: int, per_second: float) -> Take:
    """Takes one attempt from ``bucket`` (None: an address not seen lately, a full bucket).
    In any span of ``d`` seconds at most ``burst + d * per_second`` attempts are allowed."""
    if bucket is None:
        tokens = float(burst)
    else:
        # A clock that went back refills nothing (never a negative span).
        tokens = min(float(burst), bucket.tokens + max(0.0, now - bucket.at) * per_second)
    if tokens >= 1:
        return Take(allowed=True, bucket=Bucket(tokens - 1, now), wait=0.0)
    return Take(allowed=False, bucket=Bucket(tokens, now), wait=(1 - tokens) / per_second)


class SignInRateThrottle(SimpleRateThrottle):
    """``SIGN_IN_BURST`` sign-in attempts at once per client address, then ``SIGN_IN_RATE``."""

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
        # Two attempts at once would both read the same bucket and both take its last token
        # (16 threads got 43 of 64 attempts past a window of 5). On PostgreSQL a
        # transaction-scoped advisory lock per address makes the read and the write of one
        # address's bucket one step for every process.
        num_requests, duration = self.parse_rate(self.rate)
        if num_requests is None or duration is None:
            return True
        key = self.get_cache_key(request, view)
        per_second = num_requests / duration
        burst = max(1, settings.SIGN_IN_BURST)
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])
            stored = self.cache.get(key)
            bucket = Bucket(*stored) if isinstance(stored, list | tuple) else None
            take = bucket_take(bucket, now=self.timer(), burst=burst, per_second=per_second)
            self._wait = take.wait
            if take.allowed:
                # Kept until it would be full again; a refusal changes nothing stored.
                refill = (burst - take.bucket.tokens) / per_second
                self.cache.set(key, [take.bucket.tokens, take.bucket.at], math.ceil(refill) + 1)
        return take.allowed

    def wait(self) -> float | None:
        return getattr(self, "_wait", None) or None


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
