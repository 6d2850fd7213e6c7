"""The stack's floor under the referee API's load: what gunicorn, Django, DRF and PostgreSQL
cost a referee write on this machine before any of the service's own work.

``bench/api_load.py`` measures the referee API; this script runs the same client (one
keep-alive connection per table, ``--think`` seconds between writes) against three endpoints
that do less than any real write (``bench/_floor_urls.py``), served exactly as the API is
(gunicorn with ``config/gunicorn.py``, the production settings and middleware, PostgreSQL
in a fresh database of its own):

- ``plain``: a Django view, no database;
- ``drf``: DRF with the API's token authentication and JSON body;
- ``write``: ``drf`` plus the bare exactly-once transaction (lock the hand row, append an
  event, bump the version, keep the idempotency record, commit): no rules check, no
  permission read, no hand state in the answer.

What ``write`` reaches here bounds what any referee write can reach on this machine with
this stack. Prints writes/s and latency percentiles per endpoint, table count and think time.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/api_floor.py

Options: --tables 200  --think 0.5,0  --budget 20 (seconds per row)  --workers 3
--threads 4  --port 8703  --db doudizhu_floor (dropped and created)  --endpoints plain,drf,write
(the rows to run; ``bench/api_ratio.py`` runs ``write`` alone)
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402
from bench._cpu import cpu_line, cpu_reading  # noqa: E402
from bench.api_load import (  # noqa: E402
    Connection,
    fresh_database,
    percentile,
    server_environment,
    start_gunicorn,
)

ENDPOINTS = ("plain", "drf", "write")


def setup(db: str, tables: int) -> str:
    """The API's tables, a user with a token, and the floor's own three tables."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from rest_framework.authtoken.models import Token

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("floor-referee", password="x")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE floor_hand (id integer PRIMARY KEY, version integer)")
        cursor.execute(
            "CREATE TABLE floor_event (id bigserial PRIMARY KEY, hand_id integer NOT NULL "
            "REFERENCES floor_hand, seq integer NOT NULL, body jsonb, UNIQUE (hand_id, seq))"
        )
        cursor.execute(
            "CREATE TABLE floor_record (key varchar(128) PRIMARY KEY, status smallint, body jsonb)"
        )
        cursor.execute("INSERT INTO floor_hand SELECT n, 0 FROM generate_series(1, %s) n", [tables])
    return str(Token.objects.create(user=user).key)


async def table(
    endpoint: str,
    hand: int,
    token: str,
    port: int,
    think: float,
    deadline: float,
    rng: random.Random,
    latencies: list[float],
    failures: list[str],
) -> None:
    """One table: a write, a pause, a write… until the deadline."""
    connection = Connection(port)
    path = f"/floor/{endpoint}/{hand}/"
    await asyncio.sleep(rng.random() * max(think, 0.05))
    try:
        while time.monotonic() < deadline:
            headers = {
                "Authorization": f"Token {token}",
                "Idempotency-Key": uuid.uuid4().hex,
                "X-Device-Id": f"floor-{hand}",
            }
            t0 = time.perf_counter()
            status, _, body = await connection.request(
                "POST", path, {"seat": 0, "play": "33"}, headers
            )
            latencies.append(time.perf_counter() - t0)
            if status != 200:
                failures.append(f"{path}: {status} {body[:200]!r}")
                return
            if think > 0:
                await asyncio.sleep(think * (0.5 + rng.random()))
    finally:
        await connection.close()


async def run(
    endpoint: str, tables: int, token: str, port: int, think: float, budget: float
) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    failures: list[str] = []
    rng = random.Random(tables)
    deadline = time.monotonic() + budget
    t0 = time.perf_counter()
    await asyncio.gather(
        *(
            table(
                endpoint,
                n + 1,
                token,
                port,
                think,
                deadline,
                random.Random(rng.random()),
                latencies,
                failures,
            )
            for n in range(tables)
        )
    )
    return latencies, failures, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--think", default="0.5,0")
    parser.add_argument("--budget", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=8703)
    parser.add_argument("--db", default="doudizhu_floor")
    parser.add_argument("--endpoints", default=",".join(ENDPOINTS))
    args = parser.parse_args()
    endpoints = args.endpoints.split(",")
    if not set(endpoints) <= set(ENDPOINTS):
        parser.error(f"--endpoints: a list of {', '.join(ENDPOINTS)}")
    _postgres.postgres_required("api_floor.py")
    # /healthz, which start_gunicorn waits for, checks the broker
    broker = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
    env = server_environment(args.db, "bench._floor_settings", broker)
    fresh_database(args.db)
    token = setup(args.db, args.tables)
    server = start_gunicorn(args.port, args.workers, args.threads, env)
    print(
        f"gunicorn {args.workers} gthread workers x {args.threads} threads "
        f"(config/gunicorn.py), PostgreSQL database {args.db}, {os.cpu_count()} CPUs; "
        f"{args.tables} tables, budget {args.budget:.0f}s per row"
    )
    print(
        f"{'endpoint':>8} {'think':>5} {'writes/s':>9} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'p99 ms':>7} {'failed':>6}  load"
    )
    failures: list[str] = []
    try:
        for endpoint in endpoints:
            for think in (float(t) for t in args.think.split(",")):
                cpu_before = cpu_reading({"gunicorn": server.pid})
                ms, failed, wall = asyncio.run(
                    run(endpoint, args.tables, token, args.port, think, args.budget)
                )
                cpu_after = cpu_reading({"gunicorn": server.pid})
                ms = [x * 1000 for x in ms]
                print(
                    f"{endpoint:>8} {think:>5.1f} {len(ms) / wall:>9.1f} "
                    f"{percentile(ms, 50):>7.1f} {percentile(ms, 95):>7.1f} "
                    f"{percentile(ms, 99):>7.1f} {len(failed):>6}  {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                print(cpu_line(cpu_before, cpu_after, len(ms) + len(failed), wall), flush=True)
                failures += failed
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    for failure in failures[:5]:
        print("  failure:", failure)


if __name__ == "__main__":
    main()
