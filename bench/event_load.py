"""A real event under load: a 1,000-player round of three hands at 334 tables, watched.

As in production: nginx in front (the OS nginx running config/nginx.conf.template rendered as
compose renders it, bench/_nginx.py: buffering, the audience's page cache; --no-proxy sends the
clients straight to gunicorn, as before), gunicorn (config/gunicorn.py) on PostgreSQL in a
fresh database of its own, a real Celery worker on Redis computing the standings every
finished hand queues, and the public pages polled by 2,000 spectators exactly as their script
polls them (the live board every 3 s and the standings every 10 s, each a conditional GET of
the page's fragment with If-None-Match, after one full page load). --nodes N runs N
application nodes, each its own gunicorn and its own Celery worker (no process shared), behind
one nginx upstream of N servers, on the one PostgreSQL and the one Redis.

The round: every table starts its first hand within the first 10 s (server-dealt), then its
referee enters one action every 5 s ± 2 s (a hand of about 40 actions takes 3-5 minutes,
as at a real table) and starts the next hand when one ends, until the round's three hands
are done. About 2 % of the writes are refused on purpose (they must answer 4xx with a
code), about 2 % are sent twice with the same Idempotency-Key (the retry must answer the
original), and about 2 % race: sent at once on two connections with two keys (through nginx
they may reach two nodes), one must win and the other be refused with a code.

Prints accepted actions/s; p50/p95/p99 per kind of write (start, bid, double, redouble,
play, pass, refused, retry) and per page; failures; how far the standings fell behind the
log (sampled every 0.5 s: the time since the oldest finished hand the published standings
do not include yet); what nginx's cache did for the pages (X-Cache); and the event's checks,
each [ok] or [FAIL]: writes and pages p99 under --p99, no failure, the standings never more
than 2 s behind the log, every write stored once (hands and actions stored = starts and
actions answered), the standings converged on the whole log; then every stored hand against
its log. It exits 1 when a check of the event (not of a step) fails. Then, with --step,
steps the number of tables up (a fixed time per level, same pace, spectators in the same
proportion) and prints the largest event that keeps p99 under --p99 ms with no failure;
--step-up does only that, from 50 tables up (STEP_UP_LEVELS), without the event itself.

The public pages keep their rendered parts in Django's shared cache: by default the
database cache table (made here as `manage.py createcachetable` makes it; what `make run`
and the tests use), or --cache redis://127.0.0.1:6379/n (CACHE_URL), which is what
production uses (docker-compose.yml: redis://redis:6379/2): pass it to measure as deployed.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/event_load.py

(``make bench-event`` runs it with --costs and the shared cache in Redis.)

Options: --tables 334 --spectators 2000 --nodes 1 --no-proxy --nginx-workers auto --hands 3
--think 5 --jitter 2 --start-window 10 --step 334,500,700,1000 --step-up --step-budget 90
--p99 250 --workers 5 --threads 4 (a node's gunicorn, as compose's default)
--port 8712 (nginx's; the nodes take the next ports) --db doudizhu_event --broker
redis://127.0.0.1:6379/12 --cache URL --costs (each kind of request's CPU time in the web
workers; the Celery workers', nginx's, PostgreSQL's and the client's CPU seconds). The load
average is printed with the numbers: on a shared machine they are noisy.
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _nginx, _postgres  # noqa: E402
from bench._celery import worker_start  # noqa: E402
from bench._cpu import children, cpu_seconds, postgres_cpu  # noqa: E402
from bench.api_load import (  # noqa: E402
    Connection,
    check_replays,
    fresh_database,
    percentile,
    referee_with_token,
    request,
    seated_round,
    server_environment,
    start_gunicorn,
)

REFUSED_SHARE = 0.02
RETRY_SHARE = 0.02
#: Writes sent twice at once on two connections with two keys (two phones tapping the same
#: action): exactly one may win, the other is refused with a code.
RACE_SHARE = 0.02
LIVE_POLL_S = 3.0  # templates/public/live.html data-interval
STANDINGS_POLL_S = 10.0  # templates/public/standings.html data-interval
#: --step-up's table counts: from a small event up to three times the 1,000-player one
STEP_UP_LEVELS = (50, 100, 167, 250, 334, 500, 700, 1000)


@dataclass
class Stats:
    """Latencies (seconds) by kind of write or page, and what went wrong."""

    writes: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    pages: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    accepted: int = 0
    started: int = 0
    races: int = 0
    hands_finished: int = 0
    cache: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    tables_done: int = 0
    failed: int = 0
    #: (seconds since the start, latency) of every write, for the p99 minute by minute
    write_times: list[tuple[float, float]] = field(default_factory=list)
    started_at: float = 0.0
    #: how late the client's own event loop woke from a 50 ms sleep (seconds): what of a
    #: latency above is the client's (one Python process on the same cores as the server)
    loop_lag: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def fail(self, what: str) -> None:
        self.failed += 1
        if len(self.failures) < 8:
            self.failures.append(what[:300])

    def all_writes(self) -> list[float]:
        return [x for values in self.writes.values() for x in values]

    def all_pages(self) -> list[float]:
        return [x for values in self.pages.values() for x in values]


def action_kind(action: dict[str, Any]) -> str:
    if "bid" in action:
        return "bid"
    if "double" in action:
        return "double"
    if "redouble" in action:
        return "redouble"
    return "pass" if action.get("play") == "pass" else "play"


class Referee:
    """One table's referee: a phone on one keep-alive connection."""

    def __init__(self, table_id: int, token: str, port: int, rng: random.Random, args: Any):
        self.table_id = table_id
        self.auth = {"Authorization": f"Token {token}", "X-Device-Id": f"event-{table_id}"}
        self.connection = Connection(port)
        self.rival = Connection(port)  # a second phone, for the races
        self.rng = rng
        self.args = args

    async def pause(self) -> None:
        """A referee reading the cards and tapping: think ± jitter seconds."""
        a = self.args
        await asyncio.sleep(max(0.0, a.think + self.rng.uniform(-a.jitter, a.jitter)))

    async def post(
        self,
        stats: Stats,
        kind: str,
        path: str,
        body: Any,
        key: str | None = None,
        connection: Connection | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        headers = {**self.auth, "Idempotency-Key": key or uuid.uuid4().hex}
        t0 = time.perf_counter()
        answer = await (connection or self.connection).request("POST", path, body, headers)
        latency = time.perf_counter() - t0
        stats.writes[kind].append(latency)
        stats.write_times.append((t0, latency))
        return answer

    async def run(self, stats: Stats, deadline: float) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.args.start_window))
        try:
            for _ in range(self.args.hands):
                if not await self.hand(stats, deadline):
                    return
            stats.tables_done += 1
        except (OSError, ValueError, KeyError, asyncio.IncompleteReadError) as exc:
            stats.fail(f"table {self.table_id}: {type(exc).__name__}: {exc}")
        finally:
            await self.connection.close()
            await self.rival.close()

    async def hand(self, stats: Stats, deadline: float) -> bool:
        status, _, body = await self.post(
            stats, "start", f"/api/v1/tables/{self.table_id}/hands/", {"deal": "random"}
        )
        if status != 201:
            stats.fail(f"start at table {self.table_id}: {status} {body[:200]!r}")
            return False
        stats.started += 1
        hand = json.loads(body)
        path = f"/api/v1/hands/{hand['id']}/actions/"
        while hand["status"] in ("bidding", "doubling", "playing"):
            await self.pause()
            if time.monotonic() > deadline:
                return False
            if self.rng.random() < REFUSED_SHARE and not await self.refused(stats, path, hand):
                return False
            action = self.rng.choice(hand["legal_actions"])
            key = uuid.uuid4().hex
            if self.rng.random() < RACE_SHARE:
                status, body = await self.race(stats, path, action)
                if status == 0:
                    return False
                key = ""
            else:
                status, _, body = await self.post(stats, action_kind(action), path, action, key)
            if status != 200:
                stats.fail(f"{action}: {status} {body[:200]!r}")
                return False
            stats.accepted += 1
            if key and self.rng.random() < RETRY_SHARE:
                again, headers, replayed = await self.post(stats, "retry", path, action, key)
                if again != 200 or replayed != body or "idempotent-replayed" not in headers:
                    stats.fail(f"retry answered {again}, not the original")
            hand = json.loads(body)
        stats.hands_finished += 1
        return True

    async def race(self, stats: Stats, path: str, action: dict[str, Any]) -> tuple[int, bytes]:
        """The same action from two phones at once, each with its own key (through the proxy
        they may reach two nodes): one 200, one refusal with a code. The winner's answer, or
        (0, b"") after a failure."""
        answers = await asyncio.gather(
            self.post(stats, "race", path, action),
            self.post(stats, "race", path, action, connection=self.rival),
        )
        stats.races += 1
        won = [body for status, _, body in answers if status == 200]
        lost = [(status, body) for status, _, body in answers if status != 200]
        if len(won) != 1 or not all(
            400 <= status < 500 and "code" in json.loads(body) for status, body in lost
        ):
            statuses = [status for status, _, _ in answers]
            stats.fail(f"race at table {self.table_id}: {statuses}, not one winner")
            return 0, b""
        return 200, won[0]

    async def refused(self, stats: Stats, path: str, hand: dict[str, Any]) -> bool:
        """A write the rules refuse: the seat after the one on turn acts."""
        wrong = ((hand["turn"] or 0) + 1) % 3
        if hand["status"] == "doubling":
            action: dict[str, Any] = {"seat": hand["landlord"], "double": True}
        elif hand["status"] == "bidding":
            action = {"seat": wrong, "bid": 3}
        else:
            action = {"seat": wrong, "play": "3"}
        status, _, body = await self.post(stats, "refused", path, action)
        if 400 <= status < 500 and "code" in json.loads(body):
            return True
        stats.fail(f"refused {action} answered {status}")
        return False


async def sleep_unless(stop: asyncio.Event, seconds: float) -> None:
    """Sleep ``seconds``, or less when ``stop`` is set meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


class Spectator:
    """A browser on a public page: one full load, then its script's conditional polls."""

    def __init__(self, page: str, url: str, interval: float, port: int, rng: random.Random):
        self.page, self.url, self.interval, self.rng = page, url, interval, rng
        self.connection = Connection(port)

    async def get(self, stats: Stats, name: str, url: str, etag: str | None) -> tuple[int, str]:
        # as every browser does: a kept page's gzip bytes (the client never reads them)
        headers = {"Accept-Language": "en", "Accept-Encoding": "gzip"}
        if etag:
            headers.update({"If-None-Match": etag, "X-Requested-With": "poll"})
        t0 = time.perf_counter()
        status, answer_headers, _ = await self.connection.request("GET", url, None, headers)
        stats.pages[name].append(time.perf_counter() - t0)
        stats.cache[answer_headers.get("x-cache") or "-"] += 1
        if status not in (200, 304):
            stats.fail(f"{url}: {status}")
        return status, answer_headers.get("etag", etag or "")

    async def run(self, stats: Stats, stop: asyncio.Event) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.interval))
        etag: str | None = None
        try:
            await self.get(stats, self.page, self.url, None)
            while not stop.is_set():
                await sleep_unless(stop, self.interval)
                if stop.is_set():
                    break
                _, etag = await self.get(stats, self.page + " poll", self.url + "?fragment=1", etag)
        except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
            stats.fail(f"{self.page}: {type(exc).__name__}: {exc}")
        finally:
            await self.connection.close()


async def standings_lag(tournament_id: int, stop: asyncio.Event, lags: list[float]) -> None:
    """Every 0.5 s: the log's version and the published standings' version; the lag is the
    time since the oldest log version the standings do not include was first seen."""
    from asgiref.sync import sync_to_async
    from django.db.models import Max

    from tournaments.models import StandingSnapshot, Tournament

    def versions() -> tuple[int, int | None]:
        log = Tournament.objects.values_list("log_version", flat=True).get(pk=tournament_id)
        shown = StandingSnapshot.objects.filter(tournament_id=tournament_id).aggregate(
            v=Max("log_version")
        )["v"]
        return log, shown

    first_seen: dict[int, float] = {}
    previous = time.monotonic()
    while not stop.is_set():
        log, shown = await sync_to_async(versions, thread_sensitive=False)()
        now = time.monotonic()
        lag, oldest = lag_sample(first_seen, log, shown, now)
        lags.append(lag)
        if lag > 2.0:  # what a lag was made of: printed as it happens
            print(
                f"  standings {lag:.1f} s behind: log v{log}, standings v{shown}, "
                f"v{oldest} not in them; {now - previous:.1f} s since the last sample",
                flush=True,
            )
        previous = now
        await sleep_unless(stop, 0.5)


def lag_sample(
    first_seen: dict[int, float], log: int, shown: int | None, now: float
) -> tuple[float, int | None]:
    """One sample of the standings' lag: the time since the oldest log version the
    standings (``shown``, None: no snapshot yet) do not include was first seen
    (``first_seen``, updated here), and that version.

    No snapshot yet is version 0's standings: nothing finished, nothing to show. Counting
    version 0 as behind made the first finished hand of a run look as late as the run was
    old (the 18-231 s "lags" of earlier runs, one sample each)."""
    first_seen.setdefault(log, now)
    shown = 0 if shown is None else shown
    behind = [(t, version) for version, t in first_seen.items() if version > shown]
    if not behind:
        return 0.0, None
    since, oldest = min(behind)
    return now - since, oldest


async def loop_lag(stats: Stats, stop: asyncio.Event, every: float = 0.05) -> None:
    """Samples how late the client's event loop wakes from a sleep of ``every`` seconds."""
    while not stop.is_set():
        t0 = time.perf_counter()
        await asyncio.sleep(every)
        stats.loop_lag.append(max(0.0, time.perf_counter() - t0 - every))


def minute_p99(write_times: list[tuple[float, float]], start: float) -> list[float | None]:
    """The writes' p99 (ms) minute by minute from ``start`` (perf_counter seconds); None for
    a minute without a write."""
    minutes: dict[int, list[float]] = defaultdict(list)
    for t, latency in write_times:
        minutes[int((t - start) // 60)].append(latency)
    last = max(minutes, default=-1)
    return [p(minutes[m], 99) if m in minutes else None for m in range(last + 1)]


async def run_event(
    *, tables: list[int], token: str, slug: str, tournament_id: int, spectators: int, args: Any
) -> tuple[Stats, float, list[float]]:
    stats, lags = Stats(), list[float]()
    rng = random.Random(args.seed + len(tables))
    deadline = time.monotonic() + args.budget
    stop = asyncio.Event()
    ports = args.client_ports  # nginx's, or (--no-proxy) each node's in turn
    referees = [
        Referee(t, token, ports[i % len(ports)], random.Random(rng.random()), args)
        for i, t in enumerate(tables)
    ]
    watchers = [
        Spectator(
            "live" if i % 2 == 0 else "standings",
            f"/t/{slug}/{'live' if i % 2 == 0 else 'standings'}/",
            LIVE_POLL_S if i % 2 == 0 else STANDINGS_POLL_S,
            ports[i % len(ports)],
            random.Random(rng.random()),
        )
        for i in range(spectators)
    ]
    t0 = time.perf_counter()
    stats.started_at = t0
    watching = [asyncio.create_task(w.run(stats, stop)) for w in watchers]
    sampler = asyncio.create_task(standings_lag(tournament_id, stop, lags))
    lagging = asyncio.create_task(loop_lag(stats, stop))
    playing = [asyncio.create_task(r.run(stats, deadline)) for r in referees]
    # At the deadline, writes still queued at a saturated server are given up (and
    # counted as failures), so the run reports what it measured.
    _, late = await asyncio.wait(playing, timeout=args.budget + args.start_window)
    for task in late:
        task.cancel()
    if late:
        stats.fail(f"{len(late)} tables still waiting for an answer at the deadline")
    await asyncio.gather(*playing, return_exceptions=True)
    wall = time.perf_counter() - t0
    # The standings catch up with the last hands while the spectators still watch.
    # Two samples taken after the last write first: the one before may predate it.
    settle, ended = time.monotonic() + 30, len(lags)
    while (len(lags) < ended + 2 or lags[-1] > 0) and time.monotonic() < settle:
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*watching, sampler, lagging)
    return stats, wall, lags


# --------------------------------------------------------------------------- setup
def setup_event(n_tables: int, hands: int, label: str) -> tuple[str, int, str, list[int]]:
    """A public tournament of 3 × ``n_tables`` entries, round 1 seated and playing, one
    referee (token) assigned to the round."""
    from django.core.management import call_command

    # A referee of its own per level: referee_with_token replaces the user's token, so a
    # shared one would leave every level set up before the last with a dead token (401).
    user, token = referee_with_token(f"event-referee-{label}")
    call_command("createcachetable", verbosity=0)  # as the production image does after migrate
    slug = f"event-{label}"
    tournament_id, tables = seated_round(
        user=user, name=f"Event {label}", slug=slug, tables=n_tables, hands_per_round=hands,
        public=True,
    )  # fmt: skip
    return token, tournament_id, slug, tables


def p(values: list[float], q: float) -> float:
    """The ``q``-th percentile in milliseconds (a single value is every percentile)."""
    if len(values) == 1:
        return values[0] * 1000
    return percentile([x * 1000 for x in values], q)


def report(stats: Stats, wall: float, lags: list[float], n_tables: int) -> None:
    print(
        f"\n{n_tables} tables, {3 * n_tables} players: {stats.hands_finished} hands finished, "
        f"{stats.tables_done}/{n_tables} tables done their round in {wall:.0f} s; "
        f"{stats.accepted} actions accepted = {stats.accepted / wall:.1f}/s; "
        f"failures {stats.failed}; load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':>16} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    rows = [("write: " + k, v) for k, v in sorted(stats.writes.items())]
    rows += [("writes, all", stats.all_writes())]
    rows += [("page: " + k, v) for k, v in sorted(stats.pages.items())]
    rows += [("pages, all", stats.all_pages())]
    for name, values in rows:
        if values:
            print(
                f"{name:>16} {len(values):>7} {p(values, 50):>8.1f} {p(values, 95):>8.1f} "
                f"{p(values, 99):>8.1f} {max(values) * 1000:>8.1f}"
            )
    if stats.cache:
        seen = sum(stats.cache.values())
        print(
            "pages, what nginx's cache did (X-Cache): "
            + ", ".join(f"{k} {v} ({100 * v / seen:.0f} %)" for k, v in sorted(stats.cache.items()))
        )
    behind = [x for x in lags if x > 0]
    print(
        f"standings behind the log: max {max(lags, default=0):.1f} s, "
        f"p99 {percentile(lags, 99) if len(lags) > 1 else 0:.1f} s "
        f"({len(behind)} of {len(lags)} samples behind)"
    )
    if stats.write_times:
        print(
            "writes p99 minute by minute, ms: "
            + " ".join(
                "-" if x is None else f"{x:.0f}"
                for x in minute_p99(stats.write_times, stats.started_at)
            )
        )
    if stats.loop_lag:
        lag = stats.loop_lag
        print(
            f"the bench client's own delay (its event loop late from a 50 ms sleep): "
            f"p50 {p(lag, 50):.1f} ms, p99 {p(lag, 99):.1f} ms, max {max(lag) * 1000:.1f} ms"
        )
    for failure in stats.failures:
        print("  failure:", failure)


Costs = dict[str, list[float]]


def costs_read(folder: str | None, worker_pids: list[int], nginx_pid: int | None = None) -> Costs:
    """What the served requests cost so far, by kind (``bench._wsgi_costs``: count, CPU
    seconds, wall seconds), summed over the web workers of every node, with the Celery
    workers' CPU seconds, nginx's (master, workers, cache processes), PostgreSQL's
    (``_cpu.postgres_cpu``) and this process's (the phones and browsers) as kinds of their own."""
    total: Costs = {}
    for path in Path(folder).glob("*.json") if folder else []:
        for kind, row in json.loads(path.read_text()).items():
            into = total.setdefault(kind, [0, 0.0, 0.0])
            for i, value in enumerate(row):
                into[i] += value
    total["celery workers"] = [0, sum(cpu_seconds(pid) for pid in worker_pids), 0.0]
    if nginx_pid is not None:
        nginx = [nginx_pid, *children(nginx_pid)]
        total["nginx"] = [0, sum(cpu_seconds(pid) for pid in nginx), 0.0]
    total["postgres"] = [0, postgres_cpu(), 0.0]
    total["bench client"] = [0, time.process_time(), 0.0]
    return total


def costs_report(before: Costs, after: Costs, wall: float) -> None:
    """Per kind of request: how many, CPU and wall ms each, and CPU seconds per second of
    the run (what the 2 cores were asked for)."""
    print(f"{'costs':>24} {'count':>7} {'CPU ms':>8} {'wall ms':>8} {'CPU s/s':>8}")
    demand = 0.0
    for kind in sorted(after):
        earlier = before.get(kind, [0, 0.0, 0.0])
        count, cpu, wall_s = (a - b for a, b in zip(after[kind], earlier, strict=True))
        if cpu <= 0 and count <= 0:
            continue
        demand += cpu / wall
        each = f"{1000 * cpu / count:>8.1f} {1000 * wall_s / count:>8.1f}" if count else " " * 17
        print(f"{kind:>24} {int(count):>7} {each} {cpu / wall:>8.2f}")
    print(f"{'all of the above':>24} {'':>7} {'':>8} {'':>8} {demand:>8.2f}")


def stored_once(tournament_id: int, stats: Stats) -> tuple[bool, str]:
    """Every accepted write stored once: the tournament's hands are the starts answered 201
    and its action events the actions answered 200 (a retry's replay, a refusal and a race's
    loser stored nothing)."""
    from tournaments.models import Hand, HandEvent
    from tournaments.models.hands import ACTION_KINDS

    hands = Hand.objects.filter(table__round__tournament_id=tournament_id).count()
    actions = HandEvent.objects.filter(
        hand__table__round__tournament_id=tournament_id, kind__in=ACTION_KINDS
    ).count()
    ok = hands == stats.started and actions == stats.accepted
    return ok, (
        f"{hands} hands stored for {stats.started} starts answered 201, {actions} actions "
        f"stored for {stats.accepted} answered 200 ({stats.races} races)"
    )


def standings_converged(tournament_id: int, wait: float = 30.0) -> tuple[bool, str]:
    """The published standings include the whole log (within ``wait`` seconds of the end)."""
    from django.db.models import Max

    from tournaments.models import StandingSnapshot, Tournament

    deadline = time.monotonic() + wait
    while True:
        log = Tournament.objects.values_list("log_version", flat=True).get(pk=tournament_id)
        shown = StandingSnapshot.objects.filter(tournament_id=tournament_id).aggregate(
            v=Max("log_version")
        )["v"]
        if shown == log or time.monotonic() > deadline:
            return shown == log, f"log version {log}, standings at {shown}"
        time.sleep(0.5)


def verdict(stats: Stats, lags: list[float], tournament_id: int, p99_ms: float) -> bool:
    """The event's checks, one line each: what the issue asks of the event run."""
    once, once_text = stored_once(tournament_id, stats)
    converged, converged_text = standings_converged(tournament_id)
    writes, pages = stats.all_writes(), stats.all_pages()
    lines = [
        (bool(writes) and p(writes, 99) < p99_ms, f"writes p99 < {p99_ms:g} ms"),
        (bool(pages) and p(pages, 99) < p99_ms, f"pages p99 < {p99_ms:g} ms"),
        (stats.failed == 0, f"no failure ({stats.failed})"),
        (max(lags, default=0) <= 2.0, f"standings never > 2 s behind ({max(lags, default=0):.1f})"),
        (once, "every write stored once: " + once_text),
        (converged, "standings converged: " + converged_text),
    ]
    for ok, text in lines:
        print(f"  [{'ok' if ok else 'FAIL'}] {text}")
    return all(ok for ok, _ in lines)


def level_holds(stats: Stats, p99_ms: float) -> bool:
    """Whether a level kept its writes and its pages under ``p99_ms`` at the 99th percentile
    with no failure (a level with no write or no page measured does not count)."""
    writes, pages = stats.all_writes(), stats.all_pages()
    if stats.failed or not writes or not pages:
        return False
    return max(p(writes, 99), p(pages, 99)) < p99_ms


def start_nodes(args: Any, env: dict[str, str], app: str) -> tuple[list[Any], list[Any]]:
    """``--nodes`` application nodes, each its own gunicorn (``--workers`` x ``--threads``)
    and its own Celery worker: no process shared, only PostgreSQL and Redis."""
    servers, workers = [], []
    for port in args.node_ports:
        servers.append(start_gunicorn(port, args.workers, args.threads, env, app=app))
        workers.append(worker_start(env)[0])
    return servers, workers


def start_proxy(args: Any) -> tuple[Any, Path]:
    """The OS nginx with the project's configuration, rendered as compose renders it
    (bench/_nginx.py), on ``--port`` in front of every node (one upstream, N servers)."""
    root = Path(tempfile.mkdtemp(prefix="event_load-nginx-"))
    _nginx.prepare(
        root,
        listen=f"127.0.0.1:{args.port}",
        upstreams=[f"127.0.0.1:{port}" for port in args.node_ports],
        workers=args.nginx_workers,
        connections=8192,
        access_log=False,
    )
    proxy = _nginx.start(root)
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError):
            status, _, _ = asyncio.run(request(args.port, "GET", "/healthz", None, {}))
            if status in (200, 503):
                return proxy, root
        if time.monotonic() > deadline or proxy.poll() is not None:
            raise SystemExit(f"nginx did not start: {(root / 'error.log').read_text()[-2000:]}")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=334)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--think", type=float, default=5.0)
    parser.add_argument("--jitter", type=float, default=2.0)
    parser.add_argument("--start-window", type=float, default=10.0)
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds at most")
    parser.add_argument("--step", default="", help="tables per level, e.g. 334,500,700,1000")
    parser.add_argument(
        "--step-up",
        action="store_true",
        help="only the steps, at " + ",".join(map(str, STEP_UP_LEVELS)) + " tables",
    )
    parser.add_argument("--step-budget", type=float, default=90.0)
    parser.add_argument("--p99", type=float, default=250.0, help="the p99 aim, ms")
    parser.add_argument(
        "--workers", type=int, default=5, help="gunicorn workers a node (compose's default)"
    )
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument(
        "--nodes", type=int, default=1, help="application nodes (gunicorn + Celery worker each)"
    )
    parser.add_argument(
        "--no-proxy",
        action="store_true",
        help="clients straight to gunicorn (each node's port in turn), no nginx",
    )
    parser.add_argument("--nginx-workers", default="auto", help="nginx worker_processes")
    parser.add_argument(
        "--port", type=int, default=8712, help="nginx's; the nodes' are the next ones"
    )
    parser.add_argument("--db", default="doudizhu_event")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--broker", default=os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
    )
    parser.add_argument(
        "--costs",
        action="store_true",
        help="print each kind of request's CPU time (served by bench._wsgi_costs)",
    )
    parser.add_argument(
        "--cache", default="", help="CACHE_URL of the shared cache (default: the database's)"
    )
    args = parser.parse_args()
    _postgres.postgres_required("event_load.py")
    first = args.port if args.no_proxy else args.port + 1
    args.node_ports = [first + i for i in range(args.nodes)]
    args.client_ports = args.node_ports if args.no_proxy else [args.port]
    env = server_environment(args.db, "config.settings", args.broker)
    # As compose's web service: gunicorn believes the forwarded headers of the proxy only,
    # which overwrites X-Forwarded-For with the client's address.
    env.update(FORWARDED_ALLOW_IPS="127.0.0.1", TRUSTED_PROXIES="0" if args.no_proxy else "1")
    if args.cache:
        env["CACHE_URL"] = os.environ["CACHE_URL"] = args.cache
    else:
        env.pop("CACHE_URL", None)
        os.environ.pop("CACHE_URL", None)
    # As the production image does: the pages' static files collected, with their manifest.
    env["STATIC_ROOT"] = tempfile.mkdtemp(prefix="event_load-static-")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    fresh_database(args.db)
    steps = list(STEP_UP_LEVELS) if args.step_up else [int(n) for n in args.step.split(",") if n]
    event = None if args.step_up else setup_event(args.tables, args.hands, "main")
    levels = [setup_event(n, args.hands, f"step-{i}") for i, n in enumerate(steps, 1)]
    front = (
        "no proxy (clients straight to gunicorn)"
        if args.no_proxy
        else f"through nginx ({_nginx.NGINX}, config/nginx.conf.template as compose renders "
        f"it, {args.nginx_workers} workers) on port {args.port}"
    )
    print(
        f"{args.nodes} node(s), each gunicorn {args.workers} gthread workers x {args.threads} "
        f"threads and a Celery worker on {args.broker}; {front}; PostgreSQL database "
        f"{args.db}, {os.cpu_count()} CPUs (shared); "
        f"{args.hands} hands a table, an action every {args.think:g} ± {args.jitter:g} s, "
        f"tables start within {args.start_window:g} s; {args.spectators} spectators "
        f"(half on the live board every {LIVE_POLL_S:g} s, half on the standings every "
        f"{STANDINGS_POLL_S:g} s); shared cache {args.cache or 'the database table'}"
    )
    costs_dir = tempfile.mkdtemp(prefix="event_load-costs-") if args.costs else None
    if costs_dir:
        env["BENCH_COSTS_DIR"] = costs_dir
    app = "bench._wsgi_costs" if costs_dir else "config.wsgi"
    servers, workers = start_nodes(args, env, app)
    proxy, proxy_root = (None, None) if args.no_proxy else start_proxy(args)
    worker_pids = [worker.pid for worker in workers]
    nginx_pid = proxy.pid if proxy is not None else None
    held = True

    def measured(
        level: tuple[str, int, str, list[int]], spectators: int, step: bool = False
    ) -> Stats:
        """One level's run and report; the event's checks decide the exit status, a step's
        (which --step-up pushes past what holds, on purpose) only what it prints."""
        nonlocal held
        token, tournament_id, slug, tables = level
        before = costs_read(costs_dir, worker_pids, nginx_pid)
        stats, wall, lags = asyncio.run(
            run_event(
                tables=tables, token=token, slug=slug, tournament_id=tournament_id,
                spectators=spectators, args=args,
            )
        )  # fmt: skip
        report(stats, wall, lags, len(tables))
        if costs_dir:
            time.sleep(1)  # the workers write their sums every 50 requests
            costs_report(before, costs_read(costs_dir, worker_pids, nginx_pid), wall)
        holds = verdict(stats, lags, tournament_id, args.p99)
        held = held and (holds or step)
        return stats

    try:
        if event is not None:
            measured(event, args.spectators)
        largest = None
        budget, args.budget = args.budget, args.step_budget
        for n, level in zip(steps, levels, strict=True):
            stats = measured(level, round(args.spectators * n / args.tables), step=True)
            if not level_holds(stats, args.p99):
                break
            largest = n
        args.budget = budget
        if steps:
            print(
                f"\nlargest event at p99 < {args.p99:g} ms with no failure "
                f"({args.step_budget:g} s a level): "
                + (f"{largest} tables ({3 * largest} players)" if largest else "none of those")
            )
    finally:
        if proxy is not None:
            proxy.terminate()
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for worker in workers:
            worker.terminate()
        for server in servers:
            server.wait(timeout=30)
        if proxy is not None:
            proxy.wait(timeout=30)
        if proxy_root is not None:
            for line in (proxy_root / "error.log").read_text(errors="replace").splitlines():
                if "[error]" in line or "[crit]" in line or "[alert]" in line:
                    print("  nginx:", line[:300])
    hands, bad = check_replays()
    print(f"replay check: {hands} stored hands, {bad} whose summary is not the replay of its log")
    print("event checks: " + ("all held" if held and bad == 0 else "NOT ALL HELD"))
    if not held or bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
