"""Referee API under load: N tables play complete random hands through HTTP.

Runs the service as in production: gunicorn (gthread workers, the production settings of
docker-compose.yml) on PostgreSQL, in a fresh database of its own, with a real Celery worker
on Redis (--broker) computing the standings that every finished hand queues. Each simulated table is
one referee's phone on one keep-alive connection: it starts a hand (dealt by the server),
sends the legal actions the phone shows one at a time, and starts the next hand when one
ends, until the budget runs out. About 5 % of its writes are deliberately illegal (they must
be refused with a code) and about 5 % are sent twice with the same Idempotency-Key (the
retry must answer the original). A write cut off by the server closing an idle connection
is sent again with its key (safe: every write is exactly-once).

A table waits for each answer, so it is a closed loop: with no pause between actions, N
tables are N requests always queued at the server, the server is saturated and latency is
queueing time. A real referee enters an action every few seconds at most (he reads the
cards, taps, checks the screen): ``--think`` sets that pause (seconds, uniform from half to
one and a half times the value). Each level runs once per think time: the default 2 s is a
realistic pace (200 tables then offer about 100 actions/s), 0.5 s an unrealistically
fast table (about 400 actions/s offered by 200 tables), 0 the saturated server, whose
accepted actions/s is the service's capacity. Prints accepted actions/s, latency
percentiles and rejected/failed counts for each, then checks that every stored hand
replays to its stored result.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/api_load.py

Options: --tables 50,200,1000  --think 2,0.5,0  --workers 3  --threads 4  --port 8702
--budget 60 (seconds per row)  --db doudizhu_bench (dropped and created on DATABASE_URL's
server, which is required)  --broker redis://127.0.0.1:6379/13. Numbers are noisy on a
shared machine: the load average is printed with them.
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402
from bench._celery import worker_start  # noqa: E402
from bench._cpu import cpu_line, cpu_reading  # noqa: E402

ILLEGAL_SHARE = 0.05
RETRY_SHARE = 0.05


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    rejected: int = 0
    retried: int = 0
    failed: int = 0
    hands_finished: int = 0
    failures: list[str] = field(default_factory=list)

    def fail(self, what: str) -> None:
        self.failed += 1
        if len(self.failures) < 5:
            self.failures.append(what[:300])


# --------------------------------------------------------------------------- HTTP client
class Connection:
    """One keep-alive HTTP/1.1 connection (a phone's), reopened when the server closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: Any, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None:
            head += ["Content-Type: application/json"]
        head += [f"Content-Length: {len(data)}"]
        raw = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in range(2):
            reused = self.writer is not None
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(raw)
                await self.writer.drain()
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if not reused or attempt:  # a fresh connection failed: a real failure
                    raise
                # The server closed the idle connection (keep-alive timeout) before or while
                # this request reached it: send it again (every write carries its key).
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, dict[str, str], bytes]:
        assert self.reader is not None
        head_bytes = await self.reader.readuntil(b"\r\n\r\n")
        lines = head_bytes.decode("latin-1").rstrip("\r\n").split("\r\n")
        status = int(lines[0].split()[1])
        response_headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            response_headers[name.strip().lower()] = value.strip()
        length = int(response_headers.get("content-length", "0"))
        payload = await self.reader.readexactly(length)
        if response_headers.get("connection", "").lower() == "close":
            await self.close()
        return status, response_headers, payload


async def request(
    port: int, method: str, path: str, body: Any, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own."""
    connection = Connection(port)
    try:
        return await connection.request(method, path, body, headers)
    finally:
        await connection.close()


class Table:
    """One simulated table: its referee's phone playing hands until the deadline."""

    def __init__(
        self, table_id: int, token: str, port: int, rng: random.Random, think: float
    ) -> None:
        self.table_id = table_id
        self.auth = {"Authorization": f"Token {token}", "X-Device-Id": f"bench-{table_id}"}
        self.connection = Connection(port)
        self.rng = rng
        self.think = think

    async def pause(self) -> None:
        """The referee reading the cards and tapping the next action."""
        if self.think > 0:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))

    async def post(
        self, stats: Stats, path: str, body: Any, key: str | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {**self.auth, "Idempotency-Key": key or uuid.uuid4().hex}
        t0 = time.perf_counter()
        answer = await self.connection.request("POST", path, body, headers)
        stats.latencies.append(time.perf_counter() - t0)
        return answer

    async def play(self, stats: Stats, deadline: float) -> None:
        """Hands one after another until the deadline."""
        # Tables do not all start in the same instant (nor do referees).
        await asyncio.sleep(self.rng.random() * max(self.think, 0.05))
        try:
            while time.monotonic() < deadline:
                if not await self.play_hand(stats, deadline):
                    return
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
            stats.fail(f"{type(exc).__name__}: {exc}")
        finally:
            await self.connection.close()

    async def play_hand(self, stats: Stats, deadline: float) -> bool:
        """One hand; False after a failure."""
        status, _, body = await self.post(
            stats, f"/api/v1/tables/{self.table_id}/hands/", {"deal": "random"}
        )
        if status != 201:
            stats.fail(f"start: {status} {body[:200]!r}")
            return False
        hand = json.loads(body)
        path = f"/api/v1/hands/{hand['id']}/actions/"
        while hand["status"] in ("bidding", "doubling", "playing"):
            await self.pause()
            if time.monotonic() > deadline:
                return True
            if self.rng.random() < ILLEGAL_SHARE:
                if not await self.illegal(stats, path, hand):
                    return False
                continue
            action = self.rng.choice(hand["legal_actions"])
            key = uuid.uuid4().hex
            status, _, body = await self.post(stats, path, action, key)
            if status != 200:
                stats.fail(f"legal action {action}: {status} {body[:200]!r}")
                return False
            stats.accepted += 1
            if self.rng.random() < RETRY_SHARE:
                again, headers, replayed = await self.post(stats, path, action, key)
                if again != 200 or replayed != body or "idempotent-replayed" not in headers:
                    stats.fail(f"retry answered {again}, not the original")
                stats.retried += 1
            hand = json.loads(body)
        stats.hands_finished += 1
        return True

    async def illegal(self, stats: Stats, path: str, hand: dict[str, Any]) -> bool:
        """A write the rules must refuse: the seat after the one on turn acts."""
        turn = hand["turn"] if hand["turn"] is not None else 0
        wrong = (turn + 1) % 3
        if hand["status"] == "doubling":
            action: dict[str, Any] = {"seat": hand["landlord"], "double": True}
        elif hand["status"] == "bidding":
            action = {"seat": wrong, "bid": 3}
        else:
            action = {"seat": wrong, "play": "3"}
        status, _, body = await self.post(stats, path, action)
        if 400 <= status < 500 and "code" in json.loads(body):
            stats.rejected += 1
            return True
        stats.fail(f"illegal {action} answered {status}")
        return False


async def run_level(
    tables: list[int], token: str, port: int, budget: float, seed: int, think: float
) -> Any:
    stats = Stats()
    deadline = time.monotonic() + budget
    rng = random.Random(seed)
    sims = [Table(t, token, port, random.Random(rng.random()), think) for t in tables]
    t0 = time.perf_counter()
    await asyncio.gather(*(sim.play(stats, deadline) for sim in sims))
    return stats, time.perf_counter() - t0


# --------------------------------------------------------------------------- setup
def database_url(db: str) -> str:
    return _postgres.database_url(os.environ["DATABASE_URL"], db)


def fresh_database(db: str) -> None:
    import psycopg

    admin = database_url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{db}"')
        conn.execute(f'CREATE DATABASE "{db}"')


def referee_with_token(username: str) -> tuple[Any, str]:
    """A referee account (in the referee group) and its API token."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from tournaments.common.roles import REFEREE_GROUP

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username=username)
    user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
    # A fresh token: one left from an earlier run may have expired (REFEREE_SESSION_HOURS).
    Token.objects.filter(user=user).delete()
    return user, Token.objects.create(user=user).key


def seated_round(
    *, user: Any, name: str, slug: str, tables: int, hands_per_round: int, public: bool = False
) -> tuple[int, list[int]]:
    """A tournament of 3 × ``tables`` entries with round 1 seated and playing, ``user``
    assigned to it; its id and its tables' ids."""
    from tournaments.models import (
        Entry,
        Player,
        RefereeAssignment,
        Round,
        RoundStatus,
        Seat,
        Tournament,
        TournamentStatus,
    )
    from tournaments.models import Table as TableModel

    tournament = Tournament.objects.create(
        name=name,
        slug=slug,
        hands_per_round=hands_per_round,
        is_public=public,
        status=TournamentStatus.RUNNING if public else TournamentStatus.DRAFT,
    )
    round_ = Round.objects.create(tournament=tournament, number=1, status=RoundStatus.PLAYING)
    RefereeAssignment.objects.create(round=round_, user=user)
    players = Player.objects.bulk_create(
        Player(name=f"{name} player {i}", club=f"Club {i % 40}") for i in range(3 * tables)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, registration_order=i + 1)
        for i, p in enumerate(players)
    )
    rows = TableModel.objects.bulk_create(
        TableModel(round=round_, number=i + 1) for i in range(tables)
    )
    Seat.objects.bulk_create(
        Seat(table=t, round=round_, position=pos, entry=entries[3 * i + pos])
        for i, t in enumerate(rows)
        for pos in range(3)
    )
    return tournament.pk, [t.pk for t in rows]


def setup_tables(levels: list[int]) -> tuple[str, dict[int, list[int]]]:
    """A referee with a token and, per level, a tournament with a playing round of tables
    (each table plays hands until the deadline: as many as a round may have)."""
    user, token = referee_with_token("bench-referee")
    from tournaments.common.limits import HANDS_PER_ROUND_MAX

    return token, {
        n: seated_round(
            user=user, name=f"Bench {n}", slug=f"bench-{n}", tables=n,
            hands_per_round=HANDS_PER_ROUND_MAX,
        )[1]
        for n in levels
    }  # fmt: skip


def check_replays() -> tuple[int, int]:
    from tournaments.hands.replay import hand_check_replays
    from tournaments.models import Hand

    hands = Hand.objects.select_related("table__round__tournament", "board")
    bad = sum(1 for hand in hands if hand_check_replays(hand=hand))
    return hands.count(), bad


def server_environment(db: str, settings: str, broker: str) -> dict[str, str]:
    """The environment of the served processes (production settings on database ``db`` of
    DATABASE_URL's server, Celery on ``broker``), also set in this process (which sets up
    the database and sends to the worker's broker)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(db),
        "DEBUG": "false",
        "SECRET_KEY": "bench-" + uuid.uuid4().hex + uuid.uuid4().hex,
        "ALLOWED_HOSTS": "127.0.0.1",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": settings,
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": broker,
    }
    names = ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")
    os.environ.update({name: env[name] for name in names})
    return env


def start_gunicorn(
    port: int, workers: int, threads: int, env: dict[str, str], app: str = "config.wsgi"
) -> subprocess.Popen[bytes]:
    """gunicorn with the production settings (config/gunicorn.py) serving ``app``'s
    ``application``. Its log goes to a file (a pipe nobody reads fills up, and then every
    worker blocks writing a log line)."""
    gunicorn = Path(sys.executable).parent / "gunicorn"
    log_fd, log_name = tempfile.mkstemp(prefix="api_load-gunicorn-", suffix=".log")
    server = subprocess.Popen(
        [
            str(gunicorn),
            f"{app}:application",
            "--config",
            "config/gunicorn.py",
            "--bind",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        env={
            **env,
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_THREADS": str(threads),
            "GUNICORN_WORKER_CONNECTIONS": "2000",
        },
        stdout=log_fd,
        stderr=subprocess.STDOUT,
    )
    os.close(log_fd)
    for _ in range(150):
        try:
            status, _, _ = asyncio.run(request(port, "GET", "/healthz", None, {}))
            # 503 is an answer too: the server is up, and the worker (started next, with
            # no beat sending it heartbeats) is what /healthz finds missing.
            if status in (200, 503):
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit(f"gunicorn did not start; its log: {log_name}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="50,200,1000")
    parser.add_argument("--think", default="2,0.5,0", help="seconds between a table's actions")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=8702)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--db", default="doudizhu_bench")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--broker", default=os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
    )
    args = parser.parse_args()
    _postgres.postgres_required("api_load.py")
    levels = [int(n) for n in args.tables.split(",")]
    thinks = [float(t) for t in args.think.split(",")]

    # as in production: finished hands queue the standings for a real Celery worker
    env = server_environment(args.db, "config.settings", args.broker)
    sys.path.insert(0, str(ROOT))
    fresh_database(args.db)
    token, tables = setup_tables(levels)
    print(
        f"gunicorn {args.workers} gthread workers x {args.threads} threads (config/gunicorn.py), "
        f"a Celery worker on {args.broker}, "
        f"PostgreSQL database {args.db}, {os.cpu_count()} CPUs (shared); budget "
        f"{args.budget:.0f}s per row; think = seconds between a table's actions (a referee: "
        "about 2; 0 = saturated, latency is then queueing)"
    )
    server = start_gunicorn(args.port, args.workers, args.threads, env)
    worker, _ = worker_start(env)
    try:
        header = (
            f"{'tables':>6} {'think':>5} {'hands done':>10} {'accepted/s':>10} {'p50 ms':>7} "
            f"{'p95 ms':>7} {'p99 ms':>7} {'accepted':>8} {'rejected':>8} {'retried':>7} "
            f"{'failed':>6}  load"
        )
        print(header)
        all_failures: list[str] = []
        for n in levels:
            for think in thinks:
                cpu_before = cpu_reading({"gunicorn": server.pid, "celery": worker.pid})
                stats, wall = asyncio.run(
                    run_level(tables[n], token, args.port, args.budget, args.seed + n, think)
                )
                cpu_after = cpu_reading({"gunicorn": server.pid, "celery": worker.pid})
                ms = [x * 1000 for x in stats.latencies]
                load = os.getloadavg()[0]
                print(
                    f"{n:>6} {think:>5.1f} {stats.hands_finished:>10} "
                    f"{stats.accepted / wall:>10.1f} {percentile(ms, 50):>7.1f} "
                    f"{percentile(ms, 95):>7.1f} {percentile(ms, 99):>7.1f} "
                    f"{stats.accepted:>8} {stats.rejected:>8} {stats.retried:>7} "
                    f"{stats.failed:>6}  {load:.1f}",
                    flush=True,
                )
                # every request answered: starts, actions, refusals and retries
                print(cpu_line(cpu_before, cpu_after, len(stats.latencies), wall), flush=True)
                all_failures += stats.failures
    finally:
        server.send_signal(signal.SIGTERM)
        worker.terminate()
        server.wait(timeout=30)
    for failure in all_failures:
        print("  failure:", failure)
    hands, bad = check_replays()
    print(f"replay check: {hands} stored hands, {bad} whose summary is not the replay of its log")


if __name__ == "__main__":
    main()
