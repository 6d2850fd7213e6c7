"""One referee write measured in-process: SQL queries and milliseconds per action.

Plays complete random hands through Django's test client (the whole request path:
middleware, token authentication, DRF, permissions, idempotency record, the hand service,
the response) on PostgreSQL, in a fresh database of its own. Prints the queries and the
time of each kind of write (with the CPU time of the PostgreSQL backend, read from /proc:
the server runs on this host), the SQL of one write of a kind (``--sql``, a mid-hand play by
default) and cProfile's top
functions over the writes (``--profile``; queries are then not counted: capturing them
puts Django's debug cursor in the path). No network, no gunicorn: what one write costs
the server, to compare before and after a change; ``bench/api_load.py`` measures the
service under load.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/api_write_profile.py

Options: --hands 20  --db doudizhu_profile (dropped and created)  --sql [KIND]  --profile [KIND]
--pg-statements  --deal-seed N (the same deals in two checkouts compared back to back);
--functions [KIND] (each function of ``FUNCTIONS``'s thread CPU a write of KIND, default play;
the query capture off, as in production; ``--function module:Qualname`` adds one);
PROFILE_SAMPLER=1 with --profile: pyinstrument's call tree (when installed; it is not a
dependency) instead of cProfile's table
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from api_load import database_url, fresh_database, setup_tables  # noqa: E402

#: The kinds of write the profile plays, in the order it reports them.
WRITE_KINDS = ("start", "bid", "double", "redouble", "play")

#: The functions ``--functions`` times (module:qualname), outermost first: a referee
#: write's request (Django's handler with every middleware, then the view without them),
#: authentication, the write in its transaction (``idempotent_write``), the input's check,
#: the lock with the permission read, the service (``hand_action_record``: the replay with
#: the deal's read, the rules' check of the action, the event's insert, the row's summary
#: and update), the answer (the legal actions and the look-ahead within it), the
#: idempotency record, the key's fingerprint, the commit and what runs after it (here,
#: Celery eager, a hand's last play computes the standings there: about 330 us a play on
#: average, which production's worker spends instead; the request only queues the task).
FUNCTIONS: tuple[str, ...] = (
    "django.core.handlers.base:BaseHandler.get_response",
    "django.core.handlers.base:BaseHandler._get_response",
    "referee.api.authentication:TokenAuthentication.authenticate",
    "referee.api.idempotency:idempotent_write",
    "referee.api.views:_validated",
    "tournaments.hands.selectors:hand_lock_for_write",
    "tournaments.hands.write:hand_action_record",
    "tournaments.hands.replay:hand_replay_stored",
    "tournaments.hands.replay:hand_deal",
    "tournaments.hands.write:_action_push",
    "tournaments.hands.writing:hand_event_append",
    "tournaments.hands.writing:hand_commit",
    "tournaments.hands.replay:hand_row_write",
    "referee.api.views:_hand_write_response",
    "referee.rules.hand:HandState.legal_actions",
    "referee.rules.ahead:legal_ahead",
    "referee.api.idempotency:_record_save",
    "referee.api.idempotency:_fingerprint",
    "django.db.backends.base.base:BaseDatabaseWrapper.commit",
    "django.db.backends.base.base:BaseDatabaseWrapper.run_and_clear_commit_hooks",
)


class FunctionTimers:
    """Each named function replaced, wherever a module or class holds it, by a wrapper that
    adds the thread CPU (``time.thread_time_ns``) of its outermost calls while ``on``.

    A function imported by name (``from x import f``) is replaced in the importing module
    too: every loaded module's attribute that is the same object."""

    def __init__(self, names: Sequence[str]) -> None:
        import importlib

        self.on = False
        self.writes = 0
        self.names = list(names)
        self.spent: dict[str, int] = defaultdict(int)
        self.calls: dict[str, int] = defaultdict(int)
        for name in self.names:
            module_name, qualname = name.split(":")
            owner: Any = importlib.import_module(module_name)
            *path, attr = qualname.split(".")
            for part in path:
                owner = getattr(owner, part)
            original = getattr(owner, attr)  # on a class: its own, or the one it inherits
            wrapper = self._wrap(name, original)
            setattr(owner, attr, wrapper)
            if not isinstance(owner, type):
                for module in list(sys.modules.values()):
                    for key, value in list(getattr(module, "__dict__", {}).items()):
                        if value is original:
                            setattr(module, key, wrapper)

    def _wrap(self, name: str, original: Any) -> Any:
        import functools

        active = [0]  # nested calls (recursion) count once

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.on or active[0]:
                return original(*args, **kwargs)
            active[0] += 1
            start = time.thread_time_ns()
            try:
                return original(*args, **kwargs)
            finally:
                self.spent[name] += time.thread_time_ns() - start
                self.calls[name] += 1
                active[0] -= 1

        return timed

    def report(self, kind: str, cpu_ms: float) -> None:
        print(
            f"thread CPU a {kind} ({self.writes} writes; {cpu_ms * 1000:.0f} us of this "
            "process's CPU a write), each function with what it calls:"
        )
        print(f"{'us a write':>10} {'calls':>6}  function")
        for name in self.names:
            if self.writes:
                print(
                    f"{self.spent[name] / self.writes / 1000:>10.0f} "
                    f"{self.calls[name] / self.writes:>6.2f}  {name}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--db", default="doudizhu_profile")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--deal-seed",
        type=int,
        default=None,
        help="draw the server's random deals from this seed (the same hands for two checkouts "
        "compared back to back)",
    )
    parser.add_argument(
        "--sql",
        nargs="?",
        const="play",
        choices=WRITE_KINDS,
        help="print the SQL of one write of this kind (default: a mid-hand play)",
    )
    parser.add_argument(
        "--profile",
        nargs="?",
        const="all",
        choices=("all", *WRITE_KINDS),
        help="cProfile the writes (of one kind: --profile start)",
    )
    parser.add_argument(
        "--functions",
        nargs="?",
        const="play",
        choices=WRITE_KINDS,
        help="thread CPU a write of this kind in each function of FUNCTIONS (default: play)",
    )
    parser.add_argument(
        "--function",
        action="append",
        default=[],
        metavar="MODULE:QUALNAME",
        help="with --functions, time this function too (repeatable)",
    )
    parser.add_argument(
        "--pg-statements",
        action="store_true",
        help="PostgreSQL backend CPU by statement (the first 60 characters of its SQL)",
    )
    args = parser.parse_args()

    os.environ.update(
        DATABASE_URL=database_url(args.db),
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY="profile-" + uuid.uuid4().hex + uuid.uuid4().hex,
        ALLOWED_HOSTS="testserver",
        LOG_LEVEL="ERROR",
    )
    fresh_database(args.db)
    token, tables = setup_tables([1])

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from config.warm import warm_rules_tables

    warm_rules_tables("profile")
    if args.deal_seed is not None:  # in this process only: the service draws from ``secrets``
        import types

        from tournaments.hands import write as hand_write

        seeds = random.Random(args.deal_seed)
        hand_write.secrets = types.SimpleNamespace(randbelow=seeds.randrange)  # type: ignore[assignment]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}", HTTP_X_DEVICE_ID="profile")
    client.get("/api/v1/me/")  # the first request imports the URL conf: not a write's cost
    rng = random.Random(args.seed)
    table_id = tables[1][0]
    queries: dict[str, list[int]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    server_cpu: dict[str, list[float]] = defaultdict(list)
    backend: list[int] = []
    sizes: dict[str, list[int]] = defaultdict(list)
    shown_sql: list[str] = []
    profiler: Any = cProfile.Profile(time.process_time) if args.profile else None
    sampler: Any = None
    if args.profile and os.environ.get("PROFILE_SAMPLER"):  # pyinstrument, if installed
        from pyinstrument import Profiler

        sampler = profiler = Profiler(interval=0.0002)

    def backend_cpu_ns() -> int:
        """CPU time of this connection's PostgreSQL backend (the server is on this host)."""
        if not backend:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backend.append(cursor.fetchone()[0])
        return int(Path(f"/proc/{backend[0]}/schedstat").read_text().split()[0])

    timers = FunctionTimers(FUNCTIONS + tuple(args.function)) if args.functions else None
    if timers is not None:  # the middleware chain holds the view's handler it was built with
        client.handler.load_middleware()

    def write(kind: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        s0 = backend_cpu_ns()
        # Capturing queries puts Django's debug cursor (which renders every statement's SQL)
        # in the path: not while profiling or timing functions, whose numbers would then be
        # mostly that.
        capture: Any = (
            nullcontext([])
            if profiler is not None or timers is not None
            else CaptureQueriesContext(connection)
        )
        if timers is not None:
            timers.on = kind == args.functions
        with capture as captured:
            if profiler is not None and args.profile in ("all", kind):
                profiler.start() if sampler is not None else profiler.enable()
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.post(
                path, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
            )
            elapsed = time.perf_counter() - t0
            cpu[kind].append((time.process_time() - c0) * 1000)
            if timers is not None and timers.on:
                timers.writes += 1
                timers.on = False
            if sampler is not None and sampler.is_running:
                sampler.stop()
            elif profiler is not None and sampler is None:
                profiler.disable()
        server_cpu[kind].append((backend_cpu_ns() - s0) / 1e6)
        if response.status_code not in (200, 201):
            raise SystemExit(f"{kind} {body}: {response.status_code} {response.content[:300]!r}")
        queries[kind].append(len(captured))
        times[kind].append(elapsed * 1000)
        sizes[kind].append(len(response.content))
        if kind == args.sql and not shown_sql and len(times[kind]) > (5 if kind == "play" else 1):
            shown_sql.extend(q["sql"] for q in getattr(captured, "captured_queries", []))
        result: dict[str, Any] = response.json()
        return result

    by_statement: dict[str, list[float]] = defaultdict(list)

    def statement_cpu(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        s0 = backend_cpu_ns()
        try:
            return execute(sql, params, many, context)
        finally:
            by_statement[sql[:60]].append((backend_cpu_ns() - s0) / 1e6)

    if args.pg_statements:
        backend_cpu_ns()
        connection.execute_wrappers.append(statement_cpu)

    for _ in range(args.hands):
        hand = write("start", f"/api/v1/tables/{table_id}/hands/", {"deal": "random"})
        path = f"/api/v1/hands/{hand['id']}/actions/"
        while hand["status"] in ("bidding", "doubling", "playing"):
            action = rng.choice(hand["legal_actions"])
            kind = next(k for k in ("bid", "double", "redouble", "play") if k in action)
            hand = write(kind, path, action)

    print(f"{args.hands} hands through the test client, PostgreSQL database {args.db}")
    print(
        f"{'write':>9} {'count':>6} {'queries':>8} {'ms mean':>8} {'ms p50':>7} "
        f"{'cpu ms':>7} {'pg cpu':>7} {'bytes':>7}"
    )
    for kind in WRITE_KINDS:
        if not times[kind]:
            continue
        print(
            f"{kind:>9} {len(times[kind]):>6} {statistics.mean(queries[kind]):>8.1f} "
            f"{statistics.mean(times[kind]):>8.2f} {statistics.median(times[kind]):>7.2f} "
            f"{statistics.mean(cpu[kind]):>7.2f} {statistics.mean(server_cpu[kind]):>7.2f} "
            f"{statistics.mean(sizes[kind]):>7.0f}"
        )
    every = [t for kind in times for t in times[kind]]
    every_cpu = [t for kind in cpu for t in cpu[kind]]
    print(
        f"all writes: {len(every)}, {statistics.mean(every):.2f} ms mean, "
        f"{statistics.mean(every_cpu):.2f} ms CPU of this process mean; load average "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    if by_statement:
        print(f"{'pg cpu ms':>10} {'mean':>6} {'count':>6}  statement")
        for sql, spent in sorted(by_statement.items(), key=lambda item: -sum(item[1]))[:25]:
            print(f"{sum(spent):>10.1f} {statistics.mean(spent):>6.3f} {len(spent):>6}  {sql}")
    if timers is not None:
        timers.report(args.functions, statistics.mean(cpu[args.functions]))
    for sql in shown_sql:
        print("  SQL:", sql[:220])
    if sampler is not None:
        print(sampler.output_text(unicode=False, color=False, show_all=False))
    elif profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        if os.environ.get("PROFILE_DUMP"):
            stats.dump_stats(os.environ["PROFILE_DUMP"])
        stats.sort_stats(os.environ.get("PROFILE_SORT", "cumulative"))
        stats.print_stats(int(os.environ.get("PROFILE_LINES", "40")))
        print(out.getvalue())
    connection.close()
    with __import__("psycopg").connect(database_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{args.db}"')


if __name__ == "__main__":
    main()
