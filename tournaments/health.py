"""Health checks used by /healthz: a real database query and a real broker connection.

``health_status`` answers from a result at most ``HEALTHZ_CACHE_SECONDS`` old, so a flood of
anonymous requests makes at most one probe per process every few seconds. The broker probe runs
in a helper thread and the request waits for it at most ``HEALTHZ_BROKER_TIMEOUT`` seconds: a
broker that accepts connections and never answers cannot hold a request worker longer than
that, and while such a probe hangs no second one is started.
"""

import functools
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection
from kombu import Connection


def _elapsed_ms(start: float) -> float:
    return round((time.monotonic() - start) * 1000, 1)


def database_check() -> dict[str, Any]:
    start = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "vendor": connection.vendor, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor, "latency_ms": _elapsed_ms(start)}


def broker_check() -> dict[str, Any]:
    """Eager mode needs no broker; otherwise connect (and PING Redis) with a short timeout."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    url = settings.CELERY_BROKER_URL
    mode = urlsplit(url).scheme or "unknown"
    timeout = settings.HEALTHZ_BROKER_TIMEOUT
    start = time.monotonic()
    broker = Connection(
        url,
        connect_timeout=timeout,
        transport_options={"socket_timeout": timeout, "socket_connect_timeout": timeout},
    )
    try:
        broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
        client = getattr(broker.default_channel, "client", None)
        if client is not None and hasattr(client, "ping"):
            client.ping()
    except Exception as exc:
        return {"ok": False, "mode": mode, "error": type(exc).__name__}
    finally:
        broker.release()
    return {"ok": True, "mode": mode, "latency_ms": _elapsed_ms(start)}


_executor: ThreadPoolExecutor | None = None
_broker_probe: "Future[dict[str, Any]] | None" = None
_probe_lock = threading.Lock()
_refresh_lock = threading.Lock()
_cached: tuple[float, dict[str, Any]] | None = None


def _broker_timed_out() -> dict[str, Any]:
    mode = urlsplit(settings.CELERY_BROKER_URL).scheme or "unknown"
    return {"ok": False, "mode": mode, "error": "Timeout"}


@functools.lru_cache(maxsize=8)
def _transport_imported(url: str) -> bool:
    """Import the broker's transport (kombu, redis-py) once per process, before the clock
    runs: a cold import on a busy machine can take longer than the timeout. No network."""
    try:
        Connection(url).transport  # noqa: B018
    except Exception:  # an unknown transport: the probe reports it
        return False
    return True


def broker_check_bounded(*, wait: float) -> dict[str, Any]:
    """``broker_check`` in the helper thread, waited for at most ``wait`` seconds. A probe
    still hanging from an earlier request is waited for again, never doubled."""
    global _executor, _broker_probe
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    with _probe_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="healthz-broker")
        if _broker_probe is None or _broker_probe.done():
            _broker_probe = _executor.submit(broker_check)
        probe = _broker_probe
    try:
        return probe.result(timeout=max(wait, 0.0))
    except FutureTimeout:
        return _broker_timed_out()


def _answer(checked_at: float, result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "age_seconds": round(time.monotonic() - checked_at, 1)}


def health_status() -> dict[str, Any]:
    """The latest result if it is at most ``HEALTHZ_CACHE_SECONDS`` old, otherwise a new probe.

    One probe at a time per process: a request that finds another one probing waits for it,
    and nobody waits (for the lock and the broker together) longer than the broker timeout.
    """
    global _cached
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        _transport_imported(settings.CELERY_BROKER_URL)
    deadline = time.monotonic() + settings.HEALTHZ_BROKER_TIMEOUT
    cached = _cached
    if cached is not None and time.monotonic() - cached[0] < settings.HEALTHZ_CACHE_SECONDS:
        return _answer(*cached)
    if not _refresh_lock.acquire(timeout=settings.HEALTHZ_BROKER_TIMEOUT):
        # Another request's probe is still running: its broker is slow or hanging.
        if _cached is not None:
            return _answer(*_cached)
        database = database_check()
        return {"status": "degraded", "database": database, "broker": _broker_timed_out()}
    try:
        cached = _cached
        if cached is not None and time.monotonic() - cached[0] < settings.HEALTHZ_CACHE_SECONDS:
            return _answer(*cached)
        database = database_check()
        broker = broker_check_bounded(wait=deadline - time.monotonic())
        healthy = database["ok"] and broker["ok"]
        result = {
            "status": "ok" if healthy else "degraded",
            "database": database,
            "broker": broker,
        }
        _cached = (time.monotonic(), result)
        return _answer(*_cached)
    finally:
        _refresh_lock.release()


def health_cache_clear() -> None:
    """Forget the cached result (tests, and after a settings change)."""
    global _cached
    _cached = None
