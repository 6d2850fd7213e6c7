"""A write never waits on the broker (tournaments/common/broker_publish.py).

Reproduction: with Redis stopped, each write that queued a standings recompute took
9-19 s (the publish retried its connection inside the request). Now the request only
claims the flag; the publisher thread sends with short timeouts and no retries and, when
the send fails, releases the flag for the next change or beat's sweep.
"""

import queue
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from config import celery_app
from tests.test_healthz import HangingBroker, closed_port
from tests.tournaments.builders import tournament_with_entries
from tournaments.common import broker_publish
from tournaments.models import StandingsState
from tournaments.standings.snapshots import standings_request

pytestmark = pytest.mark.django_db(transaction=True)  # the publisher thread writes


@pytest.fixture
def broker_at(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Point Celery at a broker URL for the test (not eager), and back afterwards."""
    saved = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = False
    celery_app.conf.task_always_eager = False
    settings.BROKER_PUBLISH_TIMEOUT = 0.3

    def point(url: str) -> None:
        settings.CELERY_BROKER_URL = url
        monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its settings
        celery_app.conf.broker_url = url

    yield point
    celery_app.conf.broker_url, celery_app.conf.task_always_eager = saved
    assert broker_publish.broker_publish_drain(timeout=10)


def flag_released(tournament_id: int, within: float) -> bool:
    """The publisher thread gave up and released the flag. It waits for the thread to
    finish before reading: on SQLite's shared-cache test database a read beside the
    thread's UPDATE makes that UPDATE fail at once ("database table is locked"; no busy
    wait for table locks), which a real database file or PostgreSQL never does."""
    if not broker_publish.broker_publish_drain(timeout=within):
        return False
    return StandingsState.objects.get(tournament_id=tournament_id).queued_at is None


def test_a_stopped_broker_costs_the_request_nothing(broker_at: Any) -> None:
    broker_at(f"redis://127.0.0.1:{closed_port()}/0")
    tournament, _ = tournament_with_entries(3)
    durations = []
    for _ in range(5):
        started = time.monotonic()
        standings_request(tournament_id=tournament.pk)
        durations.append(time.monotonic() - started)
        assert flag_released(tournament.pk, within=5)  # the send failed: the sweep's turn
    assert max(durations) < 0.2, durations


def test_a_hanging_broker_costs_the_request_nothing_and_the_publish_gives_up(
    broker_at: Any,
) -> None:
    hanging = HangingBroker()
    try:
        broker_at(f"redis://127.0.0.1:{hanging.port}/0")
        tournament, _ = tournament_with_entries(3)
        started = time.monotonic()
        assert standings_request(tournament_id=tournament.pk) is True
        assert time.monotonic() - started < 0.2
        assert StandingsState.objects.get(tournament=tournament).queued_at is not None
        assert flag_released(tournament.pk, within=5)  # gave up after its short timeouts
        assert broker_publish.broker_publish_drain(timeout=5)
        assert len(hanging.accepted) >= 1  # the broker was really asked
    finally:
        hanging.close()


def test_a_full_publish_queue_refuses_at_once_and_releases_the_flag(broker_at: Any) -> None:
    broker_at(f"redis://127.0.0.1:{closed_port()}/0")
    full: queue.Queue[Any] = queue.Queue(maxsize=1)
    full.put_nowait(object())  # nobody takes from this one
    saved, broker_publish._queue = broker_publish._queue, full
    try:
        tournament, _ = tournament_with_entries(3)
        assert standings_request(tournament_id=tournament.pk) is False
    finally:
        broker_publish._queue = saved
    assert StandingsState.objects.get(tournament=tournament).queued_at is None


def test_the_publish_connection_has_short_timeouts_and_no_retries(settings: Any) -> None:
    settings.BROKER_PUBLISH_TIMEOUT = 0.4
    conn = broker_publish.broker_connection()
    try:
        assert conn.connect_timeout == 0.4
        assert conn.transport_options["socket_timeout"] == 0.4
        assert conn.transport_options["socket_connect_timeout"] == 0.4
        assert conn.transport_options["max_retries"] == 1
    finally:
        conn.release()


def test_the_closed_port_is_really_closed() -> None:
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", closed_port()), 0.5):
        pass
