"""Benchmark of the standings (issue 8, point 6) on PostgreSQL with a real Celery worker.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres \
    python bench/standings_bench.py [--sizes 300,3000,30000] [--format duplicate]
        [--database doudizhu_bench_standings] [--broker redis://127.0.0.1:6379/12]
        [--latency-size 3000] [--latency-seconds 30] [--rate 4]

Seeds one tournament per size (N players × 10 rounds × 6 hands) with bulk SQL inserts
(once; later runs reuse it), starts a Celery worker (solo pool, its own broker database),
and measures:
  * recompute: a score change bumps the log version, the task computes and stores the
    snapshot; wall time from sending to the task's result, 3 runs per size, and the
    worker's peak resident memory (VmHWM) after each size;
  * latency: a steady stream of hands finished through the hand service
    (``hand_record_result``, which queues the recompute on commit) into a fresh round of the
    latency tournament; for each hand, the time from its commit to the first snapshot whose
    log version includes it; p50 / p95 / max.
Targets (2-core machine): 3,000 players < 1 s, 30,000 players < 10 s with the worker's peak
memory < 500 MB, p95 finished-hand-to-snapshot < 2 s.

Needs the PostgreSQL server named by DATABASE_URL (the benchmark's own database is created
there: --database, or BENCH_STANDINGS_DATABASE) and Redis (--broker, or BENCH_BROKER_URL).
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._celery import worker_start  # noqa: E402
from bench._cpu import cpu_seconds  # noqa: E402
from bench._postgres import database_url, postgres_required  # noqa: E402

ROUNDS, HANDS = 10, 6
TARGET_SECONDS = {3000: 1.0, 30000: 10.0}
TARGET_MEMORY_MB = 500
TARGET_P95 = 2.0


def _environment(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env["DATABASE_URL"] = database_url(args.server, args.database)
    env["CELERY_BROKER_URL"] = args.broker
    env["CELERY_RESULT_BACKEND"] = args.broker
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    return env


def _database_create(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(database_url(server, "postgres"), autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            c.execute(f'CREATE DATABASE "{name}"')


# One tournament of n players, seeded by SQL.  Seats: in round r, table k, position p sits
# the entry numbered ((3(k−1)+p)·7919 + r·104729) mod n + 1 (7919 is prime and divides no
# size, so each round is a permutation).  Results are pseudo-random from the table and
# hand ids: landlord, bid, bombs, winner; one hand in 25 is passed out.  Hands are inserted
# finished, as they are (a closed hand's result is never updated: the database refuses it).
_SEED_SQL = [
    """INSERT INTO tournaments_player (name, chinese_name, club, external_id)
       SELECT 'Bench ' || g, '选手' || g, %(club)s, '' FROM generate_series(1, %(n)s) g""",
    """INSERT INTO tournaments_entry
           (tournament_id, player_id, registration_order, withdrawn, pin)
       SELECT %(t)s, id, row_number() OVER (ORDER BY id), false,
              lpad((id %% 10000)::text, 4, '0')  -- the PIN (PIN_DIGITS = 4): not read here
       FROM tournaments_player WHERE club = %(club)s""",
    """INSERT INTO tournaments_round (tournament_id, number, status, seating_explanation)
       SELECT %(t)s, g, 'closed', '' FROM generate_series(1, %(rounds)s) g""",
    """INSERT INTO tournaments_table (round_id, number, section)
       SELECT r.id, g, 1 FROM tournaments_round r, generate_series(1, %(n)s / 3) g
       WHERE r.tournament_id = %(t)s""",
    """INSERT INTO tournaments_seat (table_id, round_id, position, entry_id)
       SELECT tb.id, tb.round_id, p, e.id
       FROM tournaments_table tb
       JOIN tournaments_round r ON r.id = tb.round_id AND r.tournament_id = %(t)s
       CROSS JOIN generate_series(0, 2) p
       JOIN tournaments_entry e ON e.tournament_id = %(t)s
        AND e.registration_order = ((3 * (tb.number - 1) + p)::bigint * 7919
                                    + r.number * 104729) %% %(n)s + 1""",
    """INSERT INTO tournaments_board
           (tournament_id, number, seed, seat_cards, kitty, first_bidder)
       SELECT %(t)s, g, g, jsonb_build_array(%(h0)s::text, %(h1)s::text, %(h2)s::text),
              %(kitty)s, g %% 3
       FROM generate_series(1, %(rounds)s * %(hands)s) g WHERE %(duplicate)s""",
    """INSERT INTO tournaments_hand
           (table_id, board_id, number, status, rule_profile, rule_profile_hash, landlord_seat,
            bid, winner, seats, doubled, redoubled, bombs, rockets, spring,
            anti_spring, scores, confirmation, version, physical_cards, pin_failures)
       SELECT table_id, board_id, number, status, 'comp2016', '',
              CASE WHEN status = 'passed_out' THEN NULL ELSE landlord END,
              CASE WHEN status = 'passed_out' THEN NULL ELSE bid END,
              CASE WHEN status = 'passed_out' THEN '' ELSE winner END,
              3, '[false, false, false]'::jsonb, false, bombs, 0, false, false,
              jsonb_build_array(
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 0 THEN -2 * v ELSE v END,
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 1 THEN -2 * v ELSE v END,
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 2 THEN -2 * v ELSE v END),
              'not_required', 1, false, 0
       FROM (
           SELECT x.*, CASE WHEN winner = 'defenders' THEN 1 ELSE -1 END * bid * (1 << bombs) AS v
           FROM (
               SELECT tb.id AS table_id, b.id AS board_id, h AS number,
                      CASE WHEN hash %% 25 = 0 THEN 'passed_out' ELSE 'finished' END AS status,
                      (hash / 25) %% 3 AS landlord, 1 + (hash / 75) %% 3 AS bid,
                      CASE WHEN (hash / 225) %% 7 = 0 THEN 1 ELSE 0 END AS bombs,
                      CASE WHEN (hash / 1575) %% 2 = 0 THEN 'landlord' ELSE 'defenders' END
                        AS winner
               FROM (
                   SELECT tb.id, tb.round_id, r.number AS round_number, h,
                          ((tb.id::bigint * 2654435761 + h * 40503) %% 1000003) AS hash
                   FROM tournaments_table tb
                   JOIN tournaments_round r ON r.id = tb.round_id AND r.tournament_id = %(t)s
                   CROSS JOIN generate_series(1, %(hands)s) h
               ) tb
               LEFT JOIN tournaments_board b ON b.tournament_id = %(t)s
                    AND b.number = (tb.round_number - 1) * %(hands)s + tb.h
           ) x
       ) y""",
    """INSERT INTO tournaments_handseatresult
           (hand_id, tournament_id, round_id, table_id, board_id, hand_number, position,
            entry_id, is_landlord, won, score, passed_out)
       SELECT h.id, %(t)s, s.round_id, h.table_id, h.board_id, h.number, s.position, s.entry_id,
              coalesce(h.landlord_seat = s.position, false),
              h.status = 'finished'
                AND (h.landlord_seat = s.position) = (h.winner = 'landlord'),
              (h.scores ->> s.position)::integer,
              h.status = 'passed_out'
       FROM tournaments_hand h
       JOIN tournaments_seat s ON s.table_id = h.table_id
       JOIN tournaments_round r ON r.id = s.round_id AND r.tournament_id = %(t)s""",
    "UPDATE tournaments_tournament SET log_version = 1, status = 'running' WHERE id = %(t)s",
]


def seed(n: int, fmt: str) -> int:
    """The tournament of ``n`` players (seeded now unless it exists); its id."""
    from django.db import connection, transaction

    from referee.rules.cards import deal_from_seed, format_cards
    from tournaments.models import Tournament

    slug = f"bench-{fmt}-{n}"
    existing = Tournament.objects.filter(slug=slug).first()
    if existing is not None:
        return existing.pk
    started = time.perf_counter()
    deal = deal_from_seed(1)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Benchmark {n}", slug=slug, format=fmt, hands_per_round=HANDS
        )
        params: dict[str, Any] = {
            "t": tournament.pk,
            "n": n,
            "rounds": ROUNDS,
            "hands": HANDS,
            "club": slug,
            "duplicate": fmt == "duplicate",
            "kitty": format_cards(deal.kitty),
            "h0": format_cards(deal.hands[0]),
            "h1": format_cards(deal.hands[1]),
            "h2": format_cards(deal.hands[2]),
        }
        with connection.cursor() as cursor:
            for sql in _SEED_SQL:
                cursor.execute(sql, params)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"  seeded {slug}: {n} players, {n // 3 * ROUNDS * HANDS} hands "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return tournament.pk


def peak_memory_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_recompute(
    tournament_id: int, worker_pid: int, runs: int = 3
) -> tuple[float, float, float]:
    """(median wall s, max wall s, median worker CPU s) of ``runs`` recomputes."""
    from django.db.models import F

    from tournaments.models import Tournament
    from tournaments.tasks import standings_recompute

    times, cpu = [], []
    for _ in range(runs):
        Tournament.objects.filter(pk=tournament_id).update(log_version=F("log_version") + 1)
        started, cpu_before = time.perf_counter(), cpu_seconds(worker_pid)
        standings_recompute.delay(tournament_id).get(timeout=300)
        times.append(time.perf_counter() - started)
        cpu.append(cpu_seconds(worker_pid) - cpu_before)
    return statistics.median(times), max(times), statistics.median(cpu)


def bench_latency(tournament_id: int, seconds: float, rate: float) -> list[float]:
    """Finish hands at ``rate`` per second for ``seconds``; latency of each to its snapshot."""
    from django.db import close_old_connections, connection

    from tournaments.hands.write import hand_create, hand_record_result
    from tournaments.models import Entry, Round, StandingSnapshot, Tournament
    from tournaments.rounds.services import round_create, seat_create, table_create

    tournament = Tournament.objects.get(pk=tournament_id)
    number = (
        Round.objects.filter(tournament=tournament).order_by("-number").first().number  # type: ignore[union-attr]
        + 1
    )
    round_ = round_create(tournament=tournament, number=number, status="playing")
    entries = list(Entry.objects.filter(tournament=tournament).order_by("registration_order"))
    needed = int(seconds * rate) + 1
    tables = []
    for t in range(min(len(entries) // 3, needed)):
        table = table_create(round=round_, number=t + 1)
        for p in range(3):
            seat_create(table=table, position=p, entry=entries[3 * t + p])
        tables.append(table)
    hands = [hand_create(table=tables[i % len(tables)]).hand for i in range(needed)]

    seen: dict[int, float] = {}  # log version -> when a snapshot of it was first seen
    stop = threading.Event()

    def poll() -> None:
        last = -1
        while not stop.is_set():
            v = (
                StandingSnapshot.objects.filter(tournament_id=tournament_id)
                .order_by("-log_version")
                .values_list("log_version", flat=True)
                .first()
            )
            if v is not None and v > last:
                seen[v] = time.perf_counter()
                last = v
            time.sleep(0.01)
        close_old_connections()
        connection.close()

    poller = threading.Thread(target=poll)
    poller.start()
    committed: list[tuple[int, float]] = []
    start = time.perf_counter()
    for i, hand in enumerate(hands):
        time.sleep(max(0.0, start + i / rate - time.perf_counter()))
        hand_record_result(
            hand=hand, landlord=i % 3, bid=1 + i % 3, winner="landlord" if i % 2 else "defenders"
        )
        done = time.perf_counter()
        version = Tournament.objects.values_list("log_version", flat=True).get(pk=tournament_id)
        committed.append((version, done))
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and (not seen or max(seen) < committed[-1][0]):
        time.sleep(0.05)
    stop.set()
    poller.join()
    latencies = []
    for version, done in committed:
        after = [t for v, t in seen.items() if v >= version]
        latencies.append((min(after) - done) if after else float("inf"))
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300,3000,30000")
    parser.add_argument("--format", default="duplicate", choices=["table", "swiss", "duplicate"])
    parser.add_argument(
        "--database",
        default=os.environ.get("BENCH_STANDINGS_DATABASE", "doudizhu_bench_standings"),
        help="created on DATABASE_URL's server when missing, reused by later runs",
    )
    parser.add_argument(
        "--broker", default=os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/12")
    )
    parser.add_argument("--latency-size", type=int, default=3000)
    parser.add_argument("--latency-seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=4, help="finished hands per second")
    parser.add_argument("--seed-only", action="store_true", help="seed the tournaments, stop")
    args = parser.parse_args()
    args.server = postgres_required("standings_bench.py")
    sizes = [int(s) for s in args.sizes.split(",") if s]

    env = _environment(args)
    os.environ.update(env)
    _database_create(args.server, args.database)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    print(
        f"standings benchmark — PostgreSQL {args.database}, {args.format}, "
        f"{ROUNDS} rounds × {HANDS} hands; {os.cpu_count()} CPUs shared, numbers are noisy"
    )
    ids = {n: seed(n, args.format) for n in sorted(set(sizes) | {args.latency_size})}
    if args.seed_only:
        return
    worker, _ = worker_start(env)
    try:
        print(
            f"{'players':>8} {'hands':>8} {'median s':>9} {'max s':>7} {'worker CPU s':>13} "
            f"{'worker peak MB':>15} {'load':>5}"
        )
        for n in sorted(sizes):
            median, worst, cpu = bench_recompute(ids[n], worker.pid)
            mem = peak_memory_mb(worker.pid)
            target = TARGET_SECONDS.get(n)
            verdict = (
                ""
                if target is None
                else (f"  target < {target:g} s: {'ok' if median < target else 'MISSED'}")
            )
            if n == 30000:
                verdict += f"; memory < {TARGET_MEMORY_MB} MB: " + (
                    "ok" if mem < TARGET_MEMORY_MB else "MISSED"
                )
            print(
                f"{n:>8} {n // 3 * ROUNDS * HANDS:>8} {median:>9.2f} {worst:>7.2f} {cpu:>13.2f} "
                f"{mem:>15.0f} {os.getloadavg()[0]:>5.1f}{verdict}",
                flush=True,
            )
        lat = sorted(bench_latency(ids[args.latency_size], args.latency_seconds, args.rate))
        p50 = lat[len(lat) // 2]
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
        print(
            f"latency finished hand -> snapshot ({args.latency_size} players, "
            f"{args.rate:g} hands/s for {args.latency_seconds:g} s, {len(lat)} hands): "
            f"p50 {p50:.2f} s, p95 {p95:.2f} s, max {lat[-1]:.2f} s; "
            f"load {os.getloadavg()[0]:.1f}; "
            f"target p95 < {TARGET_P95:g} s: {'ok' if p95 < TARGET_P95 else 'MISSED'}"
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
