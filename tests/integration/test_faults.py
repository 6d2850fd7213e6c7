"""Faults injected into real servers (issue 11, point 7); each test prints its numbers.

* The broker down while referees write: every write succeeds at once (it never waits on
  the broker); the standings catch up when the broker is back (the beat's sweep sends the
  recompute the outage lost).
* The database restarted while a client writes: the client gets a 503 during the outage,
  and its retries with the same idempotency key record each action exactly once.
* A worker killed in the middle of a recompute: tests/integration/test_standings_worker.py
  (``test_finished_hands_update_the_snapshot_and_a_killed_worker_converges``).

Each test starts its OWN server (a redis-server, or a PostgreSQL cluster made with initdb)
on a port of its own in a temporary directory, so stopping it touches nobody else's.
``FAULTS_PORT_BASE`` (default 8900) moves the ports.
"""

import contextlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config import celery_app
from tests.integration.test_standings_worker import Workers, recomputed, totals
from tournaments.models import HandSeatResult, StandingSnapshot, Tournament
from tournaments.standings.snapshots import standings_sweep

from ..tournaments.builders import finish, table_of, tournament_with_entries

REPO = Path(__file__).resolve().parents[2]
PORT_BASE = int(os.environ.get("FAULTS_PORT_BASE", "8900"))
REDIS_PORT, POSTGRES_PORT, WEB_PORT = PORT_BASE + 1, PORT_BASE + 2, PORT_BASE + 3


def report(capsys: pytest.CaptureFixture[str], text: str) -> None:
    with capsys.disabled():
        print(f"\n[fault] {text}")


def wait_for_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on port {port} after {timeout}s")


# --------------------------------------------------------------------------- broker down


class OwnRedis:
    """A redis-server of this test only (no persistence: a restart loses its queues, as a
    broker that crashed would)."""

    def __init__(self, port: int, directory: Path) -> None:
        self.port, self.directory = port, directory
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port),
             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def own_broker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[OwnRedis, Workers]]:
    """The test process and a worker both use this test's redis-server."""
    redis = OwnRedis(REDIS_PORT, tmp_path)
    redis.start()
    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
    conf = celery_app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_default_queue)
    queue = f"pytest-faults-{uuid.uuid4().hex[:10]}"
    monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its settings
    conf.update(broker_url=url, result_backend=url, task_default_queue=queue)
    celery_app._pool = None  # connections are pooled per app: forget the shared broker's
    celery_app.amqp._producer_pool = None
    workers = Workers(queue, tmp_path)
    workers.env.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=url)
    try:
        yield redis, workers
    finally:
        workers.stop_all()
        redis.stop()
        conf.update(broker_url=saved[0], result_backend=saved[1], task_default_queue=saved[2])
        celery_app._pool = None
        celery_app.amqp._producer_pool = None


def snapshot_version(tournament: Tournament) -> int | None:
    latest = StandingSnapshot.objects.filter(tournament=tournament).order_by("-log_version")
    return latest.values_list("log_version", flat=True).first()


def wait_until(condition: Any, timeout: float, what: str, workers: Workers) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    pytest.fail(f"{what} not within {timeout}s\n{workers.logs()}")


@pytest.mark.broker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_broker_down_while_referees_write(
    own_broker: tuple[OwnRedis, Workers], capsys: pytest.CaptureFixture[str]
) -> None:
    redis, workers = own_broker
    tournament, entries = tournament_with_entries(6)
    tables = [table_of(tournament, 1, 1, entries[:3]), table_of(tournament, 1, 2, entries[3:])]
    workers.start()
    finish(tables[0], landlord=0, bid=3, winner="landlord")

    def current() -> bool:
        return snapshot_version(tournament) == Tournament.objects.get(pk=tournament.pk).log_version

    wait_until(current, 60, "the first snapshot", workers)

    redis.stop()
    down_at = time.monotonic()
    write_seconds = []
    for number in range(10):
        started = time.monotonic()
        finish(tables[number % 2], landlord=number % 3, bid=1 + number % 3, winner="defenders")
        write_seconds.append(time.monotonic() - started)
    hands_written = HandSeatResult.objects.filter(tournament=tournament).count() // 3
    assert hands_written == 11  # every write during the outage was recorded
    # A write never waits on the broker (it took 9-19 s each): the publish is the
    # publisher thread's, with short timeouts and no retries.
    p95 = sorted(write_seconds)[int(0.95 * len(write_seconds)) - 1]
    assert p95 < 0.5, write_seconds
    assert not current()  # no recompute could be queued
    time.sleep(max(0.0, 5 - (time.monotonic() - down_at)))  # an outage of 5 s at least
    redis.start()
    outage = time.monotonic() - down_at

    # The beat's sweep (its task's body, run here at once: the worker's own default queue
    # is not this test's) finds the tournament behind and queues its recompute.
    assert standings_sweep() == [tournament.pk]
    caught_up = wait_until(current, 120, "the standings catching up", workers)
    assert totals(tournament) == recomputed(tournament)
    assert sum(total for _, total in totals(tournament).values()) == 0
    report(
        capsys,
        f"broker down {outage:.1f} s; 10 hands written during it, each in "
        f"{min(write_seconds) * 1000:.0f}-{max(write_seconds) * 1000:.0f} ms, all recorded; "
        f"standings current {caught_up:.1f} s after the broker returned (sweep); lost: nothing",
    )


# --------------------------------------------------------------------------- database restart


def _postgres_bin(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if not found:
        pytest.fail(f"no {name} under /usr/lib/postgresql/*/bin")
    return str(found[-1])


class OwnPostgres:
    """A PostgreSQL cluster of this test only (initdb in a temporary directory)."""

    def __init__(self, port: int, directory: Path) -> None:
        self.port = port
        self.directory = directory
        self.data = directory / "data"
        self.user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    def run(self, *args: str) -> None:
        subprocess.run([*self.user, *args], check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        if self.user:
            shutil.chown(self.directory, "postgres")
        self.run(_postgres_bin("initdb"), "-D", str(self.data), "-U", "doudizhu", "-A", "trust")

    def pg_ctl(self, action: str, *extra: str) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1"
        self.run(_postgres_bin("pg_ctl"), "-D", str(self.data), "-o", options,
                 "-l", str(self.directory / "postgres.log"), "-w", *extra, action)  # fmt: skip

    @property
    def url(self) -> str:
        return f"postgres://doudizhu@127.0.0.1:{self.port}/postgres"


def _call(method: str, path: str, token: str, body: Any = None, key: str = "") -> tuple[int, Any]:
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{WEB_PORT}{path}", data=data, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
    except OSError as error:  # connection refused or reset
        return 0, str(error)


_SETUP = """
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from rest_framework.authtoken.models import Token
from tournaments.models import (Entry, Player, RefereeAssignment, Round, RoundStatus, Seat,
                                Table, Tournament)
from tournaments.common.roles import REFEREE_GROUP

user = get_user_model().objects.create_user("fault-referee", password="x")
user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
tournament = Tournament.objects.create(name="Faults", slug="faults")
round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.PLAYING)
RefereeAssignment.objects.create(round=round_, user=user)
table = Table.objects.create(round=round_, number=1)
for position in range(3):
    player = Player.objects.create(name=f"P{position}")
    entry = Entry.objects.create(tournament=tournament, player=player,
                                 registration_order=position + 1)
    Seat.objects.create(table=table, round=round_, position=position, entry=entry)
print(Token.objects.create(user=user).key, table.pk)
"""


@pytest.fixture
def own_database_server() -> Iterator[tuple[OwnPostgres, str, int]]:
    """Its own PostgreSQL, migrated, with a referee and a playing table; gunicorn on it.
    Yields the cluster, the referee's token and the table id."""
    # Not under pytest's tmp_path: the postgres user (initdb refuses root) must reach it.
    directory = Path(tempfile.mkdtemp(prefix="doudizhu-faults-pg-"))
    postgres = OwnPostgres(POSTGRES_PORT, directory)
    postgres.init()
    postgres.pg_ctl("start")
    env = {
        **os.environ,
        "DATABASE_URL": postgres.url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "CONN_MAX_AGE": "60",
        "CELERY_BROKER_URL": "",
        "CELERY_RESULT_BACKEND": "",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    server = None
    try:
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v", "0"], cwd=REPO, env=env, check=True)
        made = subprocess.run(
            [*manage, "shell", "-c", _SETUP], cwd=REPO, env=env, check=True,
            capture_output=True, text=True,
        )  # fmt: skip
        token, table_id = made.stdout.split()[-2:]
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "gunicorn"), "config.wsgi:application",
             "--bind", f"127.0.0.1:{WEB_PORT}", "--workers", "2", "--timeout", "60"],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for_port(WEB_PORT)
        yield postgres, token, int(table_id)
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=20)
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            postgres.pg_ctl("stop", "-m", "fast")
        shutil.rmtree(directory, ignore_errors=True)


TRACE: list[tuple[float, float, int]] = []


def _write(path: str, token: str, body: Any, key: str, errors: dict[str, int]) -> Any:
    """Send until answered, as a device does: the same idempotency key on every retry."""
    while True:
        sent = time.monotonic()
        status, answer = _call("POST", path, token, body, key=key)
        TRACE.append((round(sent, 1), round(time.monotonic() - sent, 2), status))
        if status in (200, 201):
            return answer
        assert status in (0, 503), (status, answer)  # never a 500, never a refusal
        if status == 503:
            assert answer["code"] == "database_unavailable"
        errors[str(status)] = errors.get(str(status), 0) + 1
        time.sleep(0.2)


@pytest.mark.postgresql
def test_database_restart_while_a_client_writes(
    own_database_server: tuple[OwnPostgres, str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    """A referee's device starts hands and bids (each write with its own idempotency key,
    retried with the same key until answered) while the database is stopped (fast: open
    transactions are cut off) and started again 3 s later."""
    postgres, token, table_id = own_database_server
    outage: dict[str, float] = {}

    def restart() -> None:
        time.sleep(0.5)
        down_at = time.monotonic()
        outage["down_at"] = down_at
        postgres.pg_ctl("stop", "-m", "fast")
        time.sleep(3.0)
        postgres.pg_ctl("start")
        outage["seconds"] = time.monotonic() - down_at

    restarter = threading.Thread(target=restart)
    errors: dict[str, int] = {}
    hands: list[int] = []
    writes = 0
    last_first = 0
    started = 0.0
    while not started or restarter.is_alive() or time.monotonic() - started < 8:
        number = len(hands) + 1
        hand = _write(f"/api/v1/tables/{table_id}/hands/", token, {"deal": "random"},
                      f"start-{number}", errors)  # fmt: skip
        hands.append(hand["id"])
        first = hand["deal"]["first_bidder"]
        last_first = first
        for bid in (1, 2, 3):  # the seats in turn bid 1, 2, 3: the bidding ends
            action = {"seat": (first + bid - 1) % 3, "bid": bid}
            _write(f"/api/v1/hands/{hand['id']}/actions/", token, action,
                   f"bid-{number}-{bid}", errors)  # fmt: skip
        # One live hand per table: the hand is voided before the next one starts.
        _write(f"/api/v1/hands/{hand['id']}/void/", token, {"reason": "fault test"},
               f"void-{number}", errors)  # fmt: skip
        writes += 5
        if not started:  # the first hand warmed the server up: now the restart
            started = time.monotonic()
            restarter.start()
    restarter.join()

    assert outage and errors, f"the restart did not land while the client wrote: {TRACE}"
    assert len(set(hands)) == len(hands)  # a retried start never started a second hand
    for hand_id in hands:
        status, detail = _call("GET", f"/api/v1/hands/{hand_id}/", token)
        assert status == 200 and detail["version"] == 4, detail  # each write recorded once
    # Retrying an answered key later records nothing more either.
    last = hands[-1]
    _write(f"/api/v1/tables/{table_id}/hands/", token, {"deal": "random"},
           f"start-{len(hands)}", errors)  # fmt: skip
    _write(f"/api/v1/hands/{last}/actions/", token, {"seat": last_first, "bid": 1},
           f"bid-{len(hands)}-1", errors)  # fmt: skip
    status, detail = _call("GET", f"/api/v1/hands/{last}/", token)
    assert detail["version"] == 4
    report(
        capsys,
        f"database down {outage['seconds']:.1f} s (pg_ctl stop -m fast, then start); "
        f"{writes} writes ({len(hands)} hands started, 3 bids and a void each), answers while "
        f"it was down: {errors} (0 = connection reset); every hand at version 4, no hand twice; "
        f"lost: nothing, doubled: nothing",
    )


# --------------------------------------------------------------------------- database frozen


def _cluster_pids(postgres: OwnPostgres) -> list[int]:
    """The postmaster of this test's cluster and every process it started."""
    postmaster = int((postgres.data / "postmaster.pid").read_text().split()[0])
    children = subprocess.run(
        ["pgrep", "-P", str(postmaster)], capture_output=True, text=True, check=False
    ).stdout.split()
    return [postmaster, *map(int, children)]


def _healthz() -> tuple[int, Any, float]:
    started = time.monotonic()
    request = urllib.request.Request(f"http://127.0.0.1:{WEB_PORT}/healthz")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, body = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        status, body = error.code, json.loads(error.read())
    return status, body, time.monotonic() - started


@pytest.mark.postgresql
def test_a_frozen_database_is_named_by_healthz_at_once(
    own_database_server: tuple[OwnPostgres, str, int], capsys: pytest.CaptureFixture[str]
) -> None:
    """Reproduction: with PostgreSQL frozen (SIGSTOP), /healthz hung for the whole time and
    then blamed the broker. Its database probe has its own time limit and name."""
    import signal

    postgres, _, _ = own_database_server
    status, body, _ = _healthz()
    assert status == 200, body
    pids = _cluster_pids(postgres)
    time.sleep(5.5)  # past HEALTHZ_CACHE_SECONDS: the next answer probes again
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        answers = []
        for _ in range(4):
            answers.append(_healthz())
            time.sleep(2)
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)
    for status, body, seconds in answers:
        assert status == 503, body
        assert body["failing"] == ["database"], body  # not the broker (eager here)
        assert body["database"]["error"] == "Timeout"
        assert seconds < 1.0 + 1.0  # HEALTHZ_DATABASE_TIMEOUT, plus the request itself
    deadline = time.monotonic() + 30
    while (current := _healthz())[0] != 200 and time.monotonic() < deadline:
        time.sleep(1)
    assert current[0] == 200, current
    report(
        capsys,
        f"database frozen (SIGSTOP) {len(answers) * 2} s: /healthz answered 503 naming the "
        f"database in {max(s for _, _, s in answers) * 1000:.0f} ms at most; 200 again "
        f"{current[2]:.1f} s after the thaw",
    )
