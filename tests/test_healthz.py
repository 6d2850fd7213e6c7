import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tournaments.health import health_cache_clear

pytestmark = pytest.mark.django_db

#: Ports of this worktree's range (8660-8679) for the hanging broker.
HANGING_BROKER_PORTS = range(8661, 8680)


@pytest.fixture(autouse=True)
def fresh_health_cache() -> Iterator[None]:
    health_cache_clear()
    yield
    health_cache_clear()


class HangingBroker:
    """Accepts TCP connections and never answers (nor closes them)."""

    def __init__(self) -> None:
        for port in HANGING_BROKER_PORTS:
            try:
                self.listener = socket.create_server(("127.0.0.1", port), backlog=128)
            except OSError:
                continue
            self.port = port
            break
        else:
            raise RuntimeError("no free port in 8661-8679 for the hanging broker")
        self.accepted: list[socket.socket] = []
        self.closed = False
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        self.closed = True
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        self.listener.close()
        self.thread.join(timeout=5)
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def hanging_broker(settings: Any) -> Iterator[HangingBroker]:
    broker = HangingBroker()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{broker.port}/0"
    settings.HEALTHZ_BROKER_TIMEOUT = 0.5
    settings.HEALTHZ_CACHE_SECONDS = 5.0
    yield broker
    broker.close()


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


def test_healthz_does_not_hold_a_worker_longer_than_its_timeout_on_a_hanging_broker(
    client: Any, hanging_broker: HangingBroker
) -> None:
    start = time.monotonic()
    response = client.get("/healthz")
    elapsed = time.monotonic() - start
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
    assert elapsed < 0.5 + 0.5  # the timeout, plus the database check and the test client
    assert len(hanging_broker.accepted) >= 1  # the broker was really asked


@pytest.mark.django_db(transaction=True)
def test_thirty_requests_at_once_against_a_hanging_broker_make_one_probe(
    hanging_broker: HangingBroker,
) -> None:
    """Reproduction: 30 anonymous requests at once stalled a 3-worker server for 10 s."""
    statuses: list[int] = []
    durations: list[float] = []

    def request() -> None:
        try:
            start = time.monotonic()
            statuses.append(Client().get("/healthz").status_code)
            durations.append(time.monotonic() - start)
        finally:
            connection.close()

    threads = [threading.Thread(target=request) for _ in range(30)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    elapsed = time.monotonic() - start

    assert statuses == [503] * 30
    assert max(durations) < 0.5 + 0.75
    assert elapsed < 3
    # One probe for all of them (kombu may open a second socket while it gives up).
    assert 1 <= len(hanging_broker.accepted) <= 2


def test_healthz_answers_from_a_recent_result(
    client: Any, hanging_broker: HangingBroker, settings: Any
) -> None:
    first = client.get("/healthz").json()
    probes = len(hanging_broker.accepted)
    start = time.monotonic()
    again = [client.get("/healthz").json() for _ in range(20)]
    assert time.monotonic() - start < 1.0
    assert len(hanging_broker.accepted) == probes
    assert all(body["broker"] == first["broker"] for body in again)
    assert all(0 <= body["age_seconds"] <= settings.HEALTHZ_CACHE_SECONDS for body in again)

    settings.HEALTHZ_CACHE_SECONDS = 0.0  # the result is now too old: probe again
    client.get("/healthz")
    deadline = time.monotonic() + 2
    while len(hanging_broker.accepted) == probes and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(hanging_broker.accepted) > probes
