import socket
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.utils import timezone

from tests import factories
from tests.tournaments.builders import tournament_with_entries
from tournaments.common import health
from tournaments.common.health import health_cache_clear
from tournaments.models import Tournament, WorkerHeartbeat
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tasks import worker_heartbeat

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


@pytest.mark.django_db(transaction=True)  # on PostgreSQL the probe reads committed rows
def test_healthz_ok(client: Any) -> None:
    worker_heartbeat()  # with a broker, a live worker is part of "ok"
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

    # Every connection's (on PostgreSQL the probe runs on a helper thread's own one).
    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", lambda self: BrokenCursor())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "vendor": response.json()["database"]["vendor"],
        "error": "ConnectionError",
    }


def test_healthz_is_not_cached_and_get_only(client: Any, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no worker needed for "ok"
    response = client.get("/healthz")
    control = response["Cache-Control"]  # never kept (private, no-store: cache_control)
    assert "no-store" in control or "no-cache" in control or "max-age=0" in control
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
    # A new probe starts once the hanging one has given up (its own socket limits, about
    # 2 s; longer on a loaded machine): no second probe runs beside a hanging one.
    deadline = time.monotonic() + 8
    while len(hanging_broker.accepted) == probes and time.monotonic() < deadline:
        client.get("/healthz")
        time.sleep(0.05)
    assert len(hanging_broker.accepted) > probes


# ----------------------------------------------------------------- per-dependency limits


@pytest.fixture
def broker_answers(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker mode (not eager) whose probe answers at once: only the other checks count."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(health._broker_probe, "check", lambda: {"ok": True, "mode": "redis"})
    monkeypatch.setattr(health, "_transport_imported", lambda url: True)


def test_a_hanging_database_is_named_and_costs_at_most_its_own_limit(
    client: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, broker_answers: None
) -> None:
    """Reproduction: PostgreSQL frozen (SIGSTOP) held /healthz for the whole outage and
    then blamed the broker. The database probe runs in its own thread with its own limit."""
    settings.HEALTHZ_DATABASE_TIMEOUT = 0.3
    settings.HEALTHZ_BROKER_TIMEOUT = 0.3
    release = threading.Event()

    def frozen() -> dict[str, Any]:
        release.wait(10)
        return {"database": {"ok": True}, "worker": {"ok": True}, "standings": {"ok": True}}

    monkeypatch.setattr(health._database_probe, "check", frozen)
    monkeypatch.setattr(connection, "vendor", "postgresql")  # the helper-thread path
    try:
        start = time.monotonic()
        response = client.get("/healthz")
        elapsed = time.monotonic() - start
    finally:
        release.set()
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"]
    assert body["database"]["error"] == "Timeout"
    assert body["broker"]["ok"] is True  # not blamed
    assert body["worker"]["ok"] is None and body["standings"]["ok"] is None  # not checked
    assert elapsed < 0.3 + 0.5


def test_the_database_probe_runs_on_its_own_connection_in_its_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The helper thread closes its connection after each probe: the next one connects
    again (with DATABASE_CONNECT_TIMEOUT) instead of reusing a socket to a frozen server."""
    closed: list[bool] = []
    monkeypatch.setattr(health, "database_probe", lambda: {"database": {"ok": True}})
    monkeypatch.setattr(health.connection, "close", lambda: closed.append(True))
    assert health._database_in_own_thread() == {"database": {"ok": True}}
    assert closed == [True]


def test_eager_mode_has_no_worker_to_check(client: Any, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    body = client.get("/healthz").json()
    assert body["worker"] == {"ok": True, "mode": "eager"}
    assert body["standings"] == {"ok": True, "lag": 0}
    assert body["failing"] == []


def test_no_worker_heartbeat_fails_healthz(client: Any, broker_answers: None) -> None:
    """Reproduction: /healthz answered "ok" while no Celery worker ran."""
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["worker"]
    assert response.json()["worker"] == {"ok": False, "error": "no_heartbeat"}


# The rows must be committed: on PostgreSQL the probe reads on its own connection.
@pytest.mark.django_db(transaction=True)
def test_a_recent_heartbeat_is_a_live_worker_and_an_old_one_is_not(
    client: Any, settings: Any, broker_answers: None
) -> None:
    worker_heartbeat()  # the beat task's body, as a worker runs it
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["worker"]["ok"] is True
    assert 0 <= response.json()["worker"]["heartbeat_age_seconds"] < 5

    WorkerHeartbeat.objects.update(beat_at=timezone.now() - timedelta(seconds=121))
    settings.HEALTHZ_WORKER_STALE_SECONDS = 120
    health_cache_clear()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["worker"]
    assert response.json()["worker"]["error"] == "stale"


# The rows must be committed: on PostgreSQL the probe reads on its own connection.
@pytest.mark.django_db(transaction=True)
def test_standings_lag_above_the_threshold_fails_healthz(client: Any, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the worker is another test's
    tournament, _ = tournament_with_entries(3)
    standings_snapshot_update(tournament_id=tournament.pk)  # the snapshot is current
    assert client.get("/healthz").json()["standings"] == {"ok": True, "lag": 0}

    # Score changes the worker never caught up with (it is stuck, or failing).
    factories.log_moved_on(tournament.pk, 7)
    settings.HEALTHZ_STANDINGS_LAG_MAX = 6
    health_cache_clear()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failing"] == ["standings"]
    assert response.json()["standings"] == {"ok": False, "lag": 7, "error": "behind"}

    settings.HEALTHZ_STANDINGS_LAG_MAX = 7
    health_cache_clear()
    assert client.get("/healthz").status_code == 200


def test_a_tournament_never_computed_lags_by_its_whole_log(settings: Any) -> None:
    tournament, _ = tournament_with_entries(3)
    factories.log_moved_on(tournament.pk, 4)
    Tournament.objects.create(name="No entries", slug="no-entries", log_version=99)
    assert health.standings_lag() == 4  # a tournament without entries has no standings
