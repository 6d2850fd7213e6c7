"""Health checks used by /healthz: each dependency probed with its own time limit.

* database: ``SELECT 1`` (on PostgreSQL in a helper thread with its own connection, so a
  frozen server costs a request at most ``HEALTHZ_DATABASE_TIMEOUT`` seconds);
* broker: a real connection (and PING for Redis), in a helper thread, waited for at most
  ``HEALTHZ_BROKER_TIMEOUT`` seconds;
* worker: the age of the heartbeat that only a live Celery worker writes (beat sends
  ``worker_heartbeat`` every ``WORKER_HEARTBEAT_SECONDS``); older than
  ``HEALTHZ_WORKER_STALE_SECONDS`` fails. In eager mode (no broker) there is no worker;
* standings: the lag, the largest log version minus latest snapshot version over the
  tournaments; above ``HEALTHZ_STANDINGS_LAG_MAX`` fails.

The probes run at the same time, each against its own deadline, and the answer names the
failing ones (``failing``): a slow database is never blamed on the broker. ``health_status``
answers from a result at most ``HEALTHZ_CACHE_SECONDS`` old, so a flood of anonymous
requests makes at most one probe per process every few seconds, and a probe still hanging
from an earlier request is waited for again, never doubled.
"""

import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection
from kombu import Connection

from tournaments.common.health_selectors import standings_lag, worker_heartbeat_age


def _elapsed_ms(start: float) -> float:
    return round((time.monotonic() - start) * 1000, 1)


_NOT_CHECKED: dict[str, Any] = {"ok": None, "error": "database_unavailable"}


def database_check() -> dict[str, Any]:
    start = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return {"ok": False, "vendor": connection.vendor, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor, "latency_ms": _elapsed_ms(start)}


def worker_check() -> dict[str, Any]:
    """Eager mode has no worker; otherwise the heartbeat must be recent."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    age = worker_heartbeat_age()
    if age is None:
        return {"ok": False, "error": "no_heartbeat"}
    ok = age <= settings.HEALTHZ_WORKER_STALE_SECONDS
    return {"ok": ok, "heartbeat_age_seconds": round(age, 1), **({} if ok else {"error": "stale"})}


def standings_check() -> dict[str, Any]:
    lag = standings_lag()
    ok = lag <= settings.HEALTHZ_STANDINGS_LAG_MAX
    return {"ok": ok, "lag": lag, **({} if ok else {"error": "behind"})}


def database_probe() -> dict[str, dict[str, Any]]:
    """The database, and what is read from it: the worker's heartbeat, the standings lag."""
    database = database_check()
    if not database["ok"]:
        return {"database": database, "worker": _NOT_CHECKED, "standings": _NOT_CHECKED}
    try:
        return {"database": database, "worker": worker_check(), "standings": standings_check()}
    except Exception as exc:
        failed = {"ok": False, "vendor": connection.vendor, "error": type(exc).__name__}
        return {"database": failed, "worker": _NOT_CHECKED, "standings": _NOT_CHECKED}


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


class _BoundedProbe:
    """One check run in its own helper thread; a request waits for it at most ``wait``
    seconds, and while one run hangs no second one is started."""

    def __init__(self, name: str, check: Callable[[], dict[str, Any]]) -> None:
        self.name, self.check = name, check
        self._executor: ThreadPoolExecutor | None = None
        self._running: Future[dict[str, Any]] | None = None
        self._lock = threading.Lock()

    def start(self) -> "Future[dict[str, Any]]":
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix=f"healthz-{self.name}"
                )
            if self._running is None or self._running.done():
                self._running = self._executor.submit(self.check)
            return self._running


def _wait(probe: "Future[dict[str, Any]]", deadline: float) -> dict[str, Any] | None:
    try:
        return probe.result(timeout=max(deadline - time.monotonic(), 0.0))
    except FutureTimeout:
        return None


def _database_in_own_thread() -> dict[str, Any]:
    """``database_probe`` on this helper thread's own connection, closed afterwards: the
    next probe connects again (``DATABASE_CONNECT_TIMEOUT``) rather than reuse a socket
    to a server that stopped answering."""
    try:
        return database_probe()
    finally:
        connection.close()


_broker_probe = _BoundedProbe("broker", broker_check)
_database_probe = _BoundedProbe("database", _database_in_own_thread)
_refresh_lock = threading.Lock()
_cached: tuple[float, dict[str, Any]] | None = None


def _broker_timed_out() -> dict[str, Any]:
    mode = urlsplit(settings.CELERY_BROKER_URL).scheme or "unknown"
    return {"ok": False, "mode": mode, "error": "Timeout"}


def _database_timed_out() -> dict[str, Any]:
    return {
        "database": {"ok": False, "vendor": connection.vendor, "error": "Timeout"},
        "worker": _NOT_CHECKED,
        "standings": _NOT_CHECKED,
    }


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
    """``broker_check`` in the helper thread, waited for at most ``wait`` seconds."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    return _wait(_broker_probe.start(), time.monotonic() + wait) or _broker_timed_out()


def _database_start() -> "Future[dict[str, Any]] | dict[str, Any]":
    """PostgreSQL: the probe in its helper thread. SQLite (a file on this machine, and the
    test database that only this thread's connection sees): here, at once."""
    if connection.vendor == "sqlite":
        return database_probe()
    return _database_probe.start()


def _answer(checked_at: float, result: dict[str, Any]) -> dict[str, Any]:
    return {**result, "age_seconds": round(time.monotonic() - checked_at, 1)}


def _result(database: dict[str, Any], broker: dict[str, Any]) -> dict[str, Any]:
    checks = {**database, "broker": broker}
    failing = [name for name, check in checks.items() if check["ok"] is False]
    return {"status": "degraded" if failing else "ok", **checks, "failing": failing}


def health_status() -> dict[str, Any]:
    """The latest result if it is at most ``HEALTHZ_CACHE_SECONDS`` old, otherwise new probes.

    One refresh at a time per process: a request that finds another one probing waits for
    it at most the longer of the two timeouts, then answers with what it has.
    """
    global _cached
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        _transport_imported(settings.CELERY_BROKER_URL)
    longest = max(settings.HEALTHZ_BROKER_TIMEOUT, settings.HEALTHZ_DATABASE_TIMEOUT)
    cached = _cached
    if cached is not None and time.monotonic() - cached[0] < settings.HEALTHZ_CACHE_SECONDS:
        return _answer(*cached)
    if not _refresh_lock.acquire(timeout=longest):
        # Another request's probes are still running: a dependency is slow or hanging.
        if _cached is not None:
            return _answer(*_cached)
        return {**_result(_database_timed_out(), _broker_timed_out()), "age_seconds": 0.0}
    try:
        cached = _cached
        if cached is not None and time.monotonic() - cached[0] < settings.HEALTHZ_CACHE_SECONDS:
            return _answer(*cached)
        started = time.monotonic()
        database_probe_ = _database_start()  # both run at once, each against its own limit
        broker = broker_check_bounded(wait=settings.HEALTHZ_BROKER_TIMEOUT)
        if isinstance(database_probe_, dict):
            database = database_probe_
        else:
            waited = _wait(database_probe_, started + settings.HEALTHZ_DATABASE_TIMEOUT)
            database = waited or _database_timed_out()
        _cached = (time.monotonic(), _result(database, broker))
        return _answer(*_cached)
    finally:
        _refresh_lock.release()


def health_cache_clear() -> None:
    """Forget the cached result (tests, and after a settings change)."""
    global _cached
    _cached = None
