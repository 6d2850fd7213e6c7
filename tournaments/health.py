"""Health checks used by /healthz: a real database query and a real broker connection."""

import time
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
