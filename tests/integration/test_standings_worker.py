"""Standings through a REAL Celery worker, Redis broker and PostgreSQL (committed data).

Finishing hands updates the snapshot; a burst while a recompute runs leaves one task
waiting; a worker killed in the middle of a recompute is replaced and the snapshot
converges (acks late + reject on worker lost: Redis hands the message to the next worker).
"""

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from config import celery_app
from tests.integration.test_celery_worker import wait_until_ready
from tournaments.common.broker_publish import broker_publish_drain
from tournaments.common.health import health_cache_clear
from tournaments.models import StandingSnapshot, Tournament, WorkerHeartbeat
from tournaments.standings import snapshots as standings_service
from tournaments.standings.queries import standings_compute
from tournaments.tasks import worker_heartbeat

from ..tournaments.builders import finish, table_of, tournament_with_entries

pytestmark = [pytest.mark.broker, pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

REPO = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"


def _test_database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


class Workers:
    """Celery workers on one private queue, using the test database."""

    def __init__(self, queue: str, log_dir: Path) -> None:
        self.queue = queue
        self.log_dir = log_dir
        self.env = {
            **os.environ,
            "DATABASE_URL": _test_database_url(),
            # Hand a dead worker's message on quickly: visible again after 3 s, looked for
            # every second.
            "CELERY_VISIBILITY_TIMEOUT": "3",
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "CELERY_UNACKED_RESTORE_THROTTLE": "1",
        }
        self.running: list[subprocess.Popen[str]] = []

    def start(self) -> subprocess.Popen[str]:
        nodename = f"{self.queue}-{len(self.running)}@{socket.gethostname()}"
        worker = subprocess.Popen(
            [
                str(CELERY),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-gossip",
                "--without-mingle",
                "-Q",
                self.queue,
                "-n",
                nodename,
                "--loglevel=INFO",
            ],
            cwd=REPO,
            env=self.env,
            stdout=self.log(len(self.running)).open("w"),
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.running.append(worker)
        wait_until_ready(worker, nodename)
        return worker

    def log(self, index: int) -> Path:
        return self.log_dir / f"worker-{index}.log"

    def logs(self) -> str:
        return "\n".join(
            f"--- worker {i} ---\n{self.log(i).read_text()}" for i in range(len(self.running))
        )

    def stop_all(self) -> None:
        for worker in self.running:
            if worker.poll() is None:
                worker.terminate()
                try:
                    worker.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    worker.kill()
                    worker.wait(timeout=10)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    queue = f"pytest-standings-{uuid.uuid4().hex[:10]}"
    previous = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue  # the services' tasks go to this queue
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()
        celery_app.conf.task_default_queue = previous
        with celery_app.connection_for_write() as conn:
            conn.default_channel.queue_delete(queue)
            conn.default_channel.queue_delete(f"{queue}.unacked")


def wait_for_snapshot(tournament_id: int, timeout: float = 60, workers: Any = None) -> int:
    """Wait until the latest snapshot is at the tournament's log version; return it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = Tournament.objects.get(pk=tournament_id).log_version
        if StandingSnapshot.objects.filter(
            tournament_id=tournament_id, log_version=version
        ).exists():
            return version
        time.sleep(0.1)
    logs = workers.logs() if workers is not None else ""
    pytest.fail(
        f"no snapshot at the log version of tournament {tournament_id} in {timeout}s\n{logs}"
    )


def totals(tournament: Tournament) -> dict[int, tuple[int, int]]:
    version = Tournament.objects.get(pk=tournament.pk).log_version
    return {
        s.entry_id: (s.rank, s.total)
        for s in StandingSnapshot.objects.filter(tournament=tournament, log_version=version)
    }


def recomputed(tournament: Tournament) -> dict[int, tuple[int, int]]:
    tournament.refresh_from_db()
    return {s.entry_id: (s.rank, s.total) for s in standings_compute(tournament=tournament)}


def waiting_for_lock(tournament_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND classid = %s AND objid = %s",
            [standings_service._ADVISORY_LOCK_CLASS, tournament_id],
        )
        return bool(cursor.fetchone()[0])


def queue_length(queue: str) -> int:
    with celery_app.connection_for_write() as conn:
        return int(conn.default_channel.client.llen(queue))


class ComputationLock:
    """Holds the tournament's computation lock from the test: a recompute that starts
    waits inside, with its message taken and unacknowledged."""

    def __init__(self, tournament_id: int) -> None:
        self.args = [standings_service._ADVISORY_LOCK_CLASS, tournament_id]
        self.tournament_id = tournament_id

    def __enter__(self) -> "ComputationLock":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s, %s)", self.args)
        return self

    def __exit__(self, *exc: object) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", self.args)

    def wait_until_a_recompute_waits(self) -> None:
        deadline = time.monotonic() + 30
        while not waiting_for_lock(self.tournament_id):
            assert time.monotonic() < deadline, "the recompute never started"
            time.sleep(0.05)


def test_finished_hands_update_the_snapshot_and_a_killed_worker_converges(
    workers: Workers,
) -> None:
    tournament, entries = tournament_with_entries(6)
    table = table_of(tournament, 1, 1, entries[:3])
    other = table_of(tournament, 1, 2, entries[3:])
    worker = workers.start()

    # Finish a hand: the snapshot follows.
    hand = finish(table, landlord=0, bid=3, winner="landlord")
    wait_for_snapshot(tournament.pk, workers=workers)
    assert totals(tournament)[entries[0].pk] == (1, hand.score_of(0))
    assert totals(tournament) == recomputed(tournament)

    # Kill the worker in the middle of a recompute; no other message is queued, so only
    # the redelivery of the killed one can bring the snapshot up to date.
    with ComputationLock(tournament.pk) as lock:
        finish(other, landlord=1, bid=2, winner="defenders")
        lock.wait_until_a_recompute_waits()
        assert queue_length(workers.queue) == 0
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=10)
    version = Tournament.objects.get(pk=tournament.pk).log_version
    time.sleep(1)
    assert not StandingSnapshot.objects.filter(tournament=tournament, log_version=version).exists()
    workers.start()
    assert wait_for_snapshot(tournament.pk, workers=workers) == version
    assert totals(tournament) == recomputed(tournament)

    # A burst while a recompute runs: one more task waits, the others coalesce.
    with ComputationLock(tournament.pk) as lock:
        finish(table, landlord=2, bid=1, winner="landlord")
        lock.wait_until_a_recompute_waits()
        for number in range(4):
            finish(table if number % 2 else other, landlord=number % 3, bid=1, winner="landlord")
        assert queue_length(workers.queue) == 1
    wait_for_snapshot(tournament.pk, workers=workers)
    assert totals(tournament) == recomputed(tournament)
    assert sum(total for _, total in totals(tournament).values()) == 0


def test_the_sweep_requeues_a_tournament_whose_message_was_lost(
    workers: Workers, django_db_blocker: Any
) -> None:
    tournament, entries = tournament_with_entries(3)
    table = table_of(tournament, 1, 1, entries)
    finish(table, landlord=2, bid=1, winner="landlord")  # queued: no worker yet
    assert broker_publish_drain()  # the publisher thread sent it
    with celery_app.connection_for_write() as conn:
        conn.default_channel.queue_purge(workers.queue)  # the message is lost
    workers.start()
    time.sleep(1)
    assert not StandingSnapshot.objects.filter(tournament=tournament).exists()
    standings_service.StandingsState.objects.filter(tournament=tournament).update(
        queued_at=None
    )  # as the sweep does for a flag older than QUEUED_STALE_AFTER
    assert tournament.pk in standings_service.standings_sweep()
    wait_for_snapshot(tournament.pk, workers=workers)
    assert totals(tournament) == recomputed(tournament)


def test_a_live_worker_writes_the_heartbeat_that_healthz_reads(
    workers: Workers, client: Any
) -> None:
    """/healthz answered "ok" while no worker ran: now it fails until a worker has run the
    heartbeat task (as beat sends it), and passes once one has."""
    health_cache_clear()
    before = client.get("/healthz")
    assert before.status_code == 503
    assert before.json()["failing"] == ["worker"]

    workers.start()
    worker_heartbeat.apply_async(queue=workers.queue)  # what beat sends every 30 s
    deadline = time.monotonic() + 30
    while not WorkerHeartbeat.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    health_cache_clear()
    after = client.get("/healthz")
    assert after.status_code == 200, (after.json(), workers.logs())
    assert after.json()["worker"]["ok"] is True
    health_cache_clear()
