import socket
from typing import Any

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A loopback port with nothing listening on it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_healthz_ok(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] in {"sqlite", "postgresql"}
    assert body["broker"]["ok"] is True
    expected_mode = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else "redis"
    assert body["broker"]["mode"] == expected_mode


def test_healthz_eager_mode_needs_no_broker(client: Any, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    body = client.get("/healthz").json()
    assert body["broker"] == {"ok": True, "mode": "eager"}


def test_healthz_degraded_when_the_broker_is_unreachable(client: Any, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    settings.HEALTHZ_BROKER_TIMEOUT = 0.5

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is False
    assert body["broker"]["mode"] == "redis"
    assert body["broker"]["error"]


def test_healthz_degraded_when_the_database_fails(client: Any, monkeypatch: Any) -> None:
    class BrokenCursor:
        def __enter__(self) -> Any:
            raise ConnectionError("database is down")

        def __exit__(self, *args: Any) -> None:
            return None

    monkeypatch.setattr("tournaments.health.connection.cursor", lambda: BrokenCursor())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "vendor": response.json()["database"]["vendor"],
        "error": "ConnectionError",
    }


def test_healthz_is_not_cached_and_get_only(client: Any) -> None:
    response = client.get("/healthz")
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    refused = client.post("/healthz")
    assert refused.status_code == 405
    assert refused.json()["code"] == "method_not_allowed"
    assert client.head("/healthz").status_code == 200
