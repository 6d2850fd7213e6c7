"""Benchmark of a season's ladder (issue 34) on PostgreSQL: the recompute that the Celery task
runs when a tournament's results become final.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres \
    python bench/season_bench.py [--players 1000] [--tournaments 50] [--field 90]
        [--rounds 5] [--hands 6] [--database doudizhu_bench_season]

Seeds (once; later runs reuse it) a club of ``--players`` players and ``--tournaments`` final
tournaments of ``--field`` of them each (each tournament draws its field from the club by a
permutation), ``--rounds`` rounds of ``--hands`` hands at tables of three, with bulk SQL
inserts (pseudo-random results, one hand in 25 passed out), and one season counting them
all.  Then times ``season_recompute`` (read every counted hand's per-seat rows, rate each
hand with OpenSkill, place and score each tournament, store the ladder and every chart step)
three times and prints each run, split into read / compute / store.

Target (2-core machine): 50 tournaments and 1,000 players recomputed in under 10 s.
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench._postgres import database_url, postgres_required  # noqa: E402

TARGET_SECONDS = 10.0

# One tournament's field, tables, hands and per-seat rows, by SQL.  Entry j (1..field) of
# tournament number i is the club's player number ((i·field + j)·7919 mod players): a field
# is consecutive numbers times 7919 (prime to the club's size), so distinct players, and the
# fields together go round the whole club.
_SEED_SQL = [
    """INSERT INTO tournaments_entry
           (tournament_id, player_id, registration_order, withdrawn, pin)
       SELECT %(t)s, p.id, j, false, '0000'
       FROM generate_series(1, %(field)s) j
       JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k
             FROM tournaments_player WHERE club = %(club)s) p
         ON p.k = ((%(i)s::bigint * %(field)s + j) * 7919) %% %(players)s""",
    """INSERT INTO tournaments_round (tournament_id, number, status, seating_explanation)
       SELECT %(t)s, g, 'closed', '' FROM generate_series(1, %(rounds)s) g""",
    """INSERT INTO tournaments_table (round_id, number, section)
       SELECT r.id, g, 1 FROM tournaments_round r, generate_series(1, %(field)s / 3) g
       WHERE r.tournament_id = %(t)s""",
    """INSERT INTO tournaments_seat (table_id, round_id, position, entry_id)
       SELECT tb.id, tb.round_id, p, e.id
       FROM tournaments_table tb
       JOIN tournaments_round r ON r.id = tb.round_id AND r.tournament_id = %(t)s
       CROSS JOIN generate_series(0, 2) p
       JOIN tournaments_entry e ON e.tournament_id = %(t)s
        AND e.registration_order = ((3 * (tb.number - 1) + p)::bigint * 7919
                                    + r.number * 104729) %% (%(field)s / 3 * 3) + 1""",
    """INSERT INTO tournaments_hand
           (table_id, board_id, number, status, rule_profile, rule_profile_hash, landlord_seat,
            bid, winner, seats, doubled, redoubled, bombs, rockets, spring,
            anti_spring, scores, confirmation, version, physical_cards, pin_failures)
       SELECT table_id, NULL, number, status, 'comp2016', '',
              CASE WHEN status = 'passed_out' THEN NULL ELSE landlord END,
              CASE WHEN status = 'passed_out' THEN NULL ELSE bid END,
              CASE WHEN status = 'passed_out' THEN '' ELSE winner END,
              3, '[false, false, false]'::jsonb, false, 0, 0, false, false,
              jsonb_build_array(
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 0 THEN -2 * v ELSE v END,
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 1 THEN -2 * v ELSE v END,
                CASE WHEN status = 'passed_out' THEN 0 WHEN landlord = 2 THEN -2 * v ELSE v END),
              'not_required', 1, false, 0
       FROM (
           SELECT x.*, CASE WHEN winner = 'defenders' THEN 1 ELSE -1 END * bid AS v
           FROM (
               SELECT tb.id AS table_id, h AS number,
                      CASE WHEN hash %% 25 = 0 THEN 'passed_out' ELSE 'finished' END AS status,
                      (hash / 25) %% 3 AS landlord, 1 + (hash / 75) %% 3 AS bid,
                      CASE WHEN (hash / 225) %% 2 = 0 THEN 'landlord' ELSE 'defenders' END
                        AS winner
               FROM (
                   SELECT tb.id, h,
                          ((tb.id::bigint * 2654435761 + h * 40503) %% 1000003) AS hash
                   FROM tournaments_table tb
                   JOIN tournaments_round r ON r.id = tb.round_id AND r.tournament_id = %(t)s
                   CROSS JOIN generate_series(1, %(hands)s) h
               ) tb
           ) x
       ) y""",
    """INSERT INTO tournaments_handseatresult
           (hand_id, tournament_id, round_id, table_id, board_id, hand_number, position,
            entry_id, is_landlord, won, score, passed_out)
       SELECT h.id, %(t)s, s.round_id, h.table_id, NULL, h.number, s.position, s.entry_id,
              coalesce(h.landlord_seat = s.position, false),
              h.status = 'finished'
                AND (h.landlord_seat = s.position) = (h.winner = 'landlord'),
              (h.scores ->> s.position)::integer,
              h.status = 'passed_out'
       FROM tournaments_hand h
       JOIN tournaments_seat s ON s.table_id = h.table_id
       JOIN tournaments_round r ON r.id = s.round_id AND r.tournament_id = %(t)s""",
]


def _database_create(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(database_url(server, "postgres"), autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            c.execute(f'CREATE DATABASE "{name}"')


def seed(args: argparse.Namespace) -> int:
    """The season (seeded now unless it exists); its id."""
    from django.db import connection, transaction

    from tournaments.models import Player, Season, Tournament, TournamentStatus

    slug = f"bench-{args.players}-{args.tournaments}-{args.field}-{args.rounds}-{args.hands}"
    existing = Season.objects.filter(slug=slug).first()
    if existing is not None:
        return existing.pk
    started = time.perf_counter()
    with transaction.atomic():
        Player.objects.bulk_create(
            [Player(name=f"Bench {i}", club=slug) for i in range(1, args.players + 1)]
        )
        season = Season.objects.create(name=f"Benchmark {slug}", slug=slug, club=slug)
        tournaments = []
        for i in range(1, args.tournaments + 1):
            tournament = Tournament.objects.create(
                name=f"Event {i}",
                slug=f"{slug}-{i}",
                hands_per_round=args.hands,
                status=TournamentStatus.FINISHED,
                is_public=True,
            )
            params: dict[str, Any] = {
                "t": tournament.pk,
                "i": i,
                "club": slug,
                "players": args.players,
                "field": args.field,
                "rounds": args.rounds,
                "hands": args.hands,
            }
            with connection.cursor() as cursor:
                for sql in _SEED_SQL:
                    cursor.execute(sql, params)
            tournaments.append(tournament)
        season.tournaments.set(tournaments)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    hands = args.tournaments * args.rounds * (args.field // 3) * args.hands
    print(f"  seeded {slug}: {hands} hands in {time.perf_counter() - started:.1f} s", flush=True)
    return season.pk


def run_once(season_id: int) -> dict[str, float]:
    """One recompute, as ``season_recompute`` does it, timed by part."""
    from django.db import transaction

    from tournaments.models import Season
    from tournaments.season.inputs import season_counted, season_inputs_stored
    from tournaments.season.rating import season_compute
    from tournaments.season.services import season_recompute, season_store

    times: dict[str, float] = {}
    started = time.perf_counter()
    assert season_recompute(season_id=season_id)
    times["total"] = time.perf_counter() - started
    # The parts, measured again one by one (same work, same order).
    with transaction.atomic():
        season = Season.objects.select_for_update().get(pk=season_id)
        t0 = time.perf_counter()
        counted = season_counted(season)
        inputs = season_inputs_stored(counted)
        t1 = time.perf_counter()
        result = season_compute(inputs)
        t2 = time.perf_counter()
        season_store(season=season, result=result, counted=counted)
        t3 = time.perf_counter()
    times.update(read=t1 - t0, compute=t2 - t1, store=t3 - t2)
    times["hands"] = sum(len(e.hands) for e in inputs)
    times["players"] = len(result.players)
    times["steps"] = len(result.steps)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--field", type=int, default=90)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument(
        "--database", default=os.environ.get("BENCH_SEASON_DATABASE", "doudizhu_bench_season")
    )
    args = parser.parse_args()
    server = postgres_required("season_bench.py")
    _database_create(server, args.database)
    os.environ["DATABASE_URL"] = database_url(server, args.database)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    season_id = seed(args)
    worst = 0.0
    for run in range(1, 4):
        t = run_once(season_id)
        worst = max(worst, t["total"])
        print(
            f"  run {run}: {t['total']:.2f} s for {args.tournaments} tournaments, "
            f"{int(t['players'])} players, {int(t['hands'])} rated hands, "
            f"{int(t['steps'])} chart steps (read {t['read']:.2f} s, compute "
            f"{t['compute']:.2f} s, store {t['store']:.2f} s)",
            flush=True,
        )
    verdict = "under" if worst < TARGET_SECONDS else "OVER"
    print(f"season recompute: worst {worst:.2f} s, {verdict} the {TARGET_SECONDS:.0f} s target")


if __name__ == "__main__":
    main()
