"""Benchmark of the public standings page (issue 9, point 3) as it runs in production:
gunicorn (sync workers, DEBUG off) on PostgreSQL.

    python bench/pages_bench.py [--players 3000] [--requests 300] [--workers 2]
        [--database doudizhu_i9_bench] [--port 8941]

Seeds once (later runs reuse it) a public tournament of N players with two standings
snapshots (after rounds 9 and 10, so the page also computes each player's movement) by
bulk SQL: the page reads only the snapshot, never the hand log, so the snapshot is what
matters. Then it requests the standings page, one request at a time on fresh connections,
and prints p50 / p99 of the full page (200) and of a conditional GET that finds it unchanged
(304), plus the CSV download. Target: full page p50 < 30 ms (2 shared cores: noisy).
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SLUG = "pages-bench"
TARGET_P50_MS = 30.0

_SEED_SQL = [
    """INSERT INTO tournaments_tournament (name, slug, rule_profile, format, status,
           hands_per_round, is_public, requires_confirmation, separate_clubs, log_version,
           created_at, tiebreaks)
       VALUES ('Pages bench 页面测试', %(slug)s, 'comp2016', 'table', 'running', 6, true,
           false, false, 2, now(), '[]'::jsonb)""",
    """INSERT INTO tournaments_player (name, chinese_name, club, external_id)
       SELECT 'Bench Player ' || g, '选手' || g, '俱乐部' || (g %% 40), 'pb-' || g
       FROM generate_series(1, %(n)s) g""",
    """INSERT INTO tournaments_entry (tournament_id, player_id, registration_order, withdrawn)
       SELECT t.id, p.id, row_number() OVER (ORDER BY p.id), false
       FROM tournaments_player p, tournaments_tournament t
       WHERE t.slug = %(slug)s AND p.external_id LIKE 'pb-%%'""",
    # Version 1 after round 9, version 2 after round 10; totals pseudo-random per entry.
    """INSERT INTO tournaments_standingsnapshot (tournament_id, entry_id, rank, total, tiebreaks,
           log_version, round_number, withdrawn, deal_points, penalty_points, hands_played,
           landlord_hands, landlord_wins, matchpoints, matchpoint_top, boards_scored, tops,
           mp_percentage, computed_at)
       SELECT e.tournament_id, e.id,
              rank() OVER (PARTITION BY v ORDER BY ((e.id * 7919 + v * 104729) %% 997) DESC,
                           e.registration_order),
              ((e.id * 7919 + v * 104729) %% 997) - 400,
              jsonb_build_object('last_deal', (e.id + v) %% 2,
                                 'registration', e.registration_order),
              v, 8 + v, false, ((e.id * 7919 + v * 104729) %% 997) - 400, 0, 54 + 6 * v,
              18 + v, 9, 0, 0, 0, 0, 0.0, now()
       FROM tournaments_entry e
       JOIN tournaments_tournament t ON t.id = e.tournament_id AND t.slug = %(slug)s
       CROSS JOIN generate_series(1, 2) v""",
]


def _environment(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"postgres://doudizhu@127.0.0.1:5432/{args.database}",
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(48),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(REPO),
    )
    env.pop("CELERY_BROKER_URL", None)
    return env


def _database_create(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://doudizhu@127.0.0.1:5432/postgres", autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            c.execute(f'CREATE DATABASE "{name}" OWNER doudizhu')


def _seed(args: argparse.Namespace, env: dict[str, str]) -> None:
    import psycopg

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO, env=env,
        check=True,
    )  # fmt: skip
    # As the production image does: DEBUG off serves the hashed, compressed static files.
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=REPO,
        env=env, check=True,
    )  # fmt: skip
    url = f"postgresql://doudizhu@127.0.0.1:5432/{args.database}"
    with psycopg.connect(url) as c:
        row = c.execute(
            "SELECT count(*) FROM tournaments_entry e JOIN tournaments_tournament t"
            " ON t.id = e.tournament_id WHERE t.slug = %s",
            [SLUG],
        ).fetchone()
        if row and row[0] == args.players:
            print(f"reusing the seeded tournament of {args.players} players")
            return
        c.execute(
            "DELETE FROM tournaments_standingsnapshot WHERE tournament_id IN"
            " (SELECT id FROM tournaments_tournament WHERE slug = %s)",
            [SLUG],
        )
        c.execute(
            "DELETE FROM tournaments_entry WHERE tournament_id IN"
            " (SELECT id FROM tournaments_tournament WHERE slug = %s)",
            [SLUG],
        )
        c.execute("DELETE FROM tournaments_tournament WHERE slug = %s", [SLUG])
        c.execute("DELETE FROM tournaments_player WHERE external_id LIKE 'pb-%%'")
        for sql in _SEED_SQL:
            c.execute(sql, {"slug": SLUG, "n": args.players})
        c.execute("ANALYZE")
    print(f"seeded a tournament of {args.players} players with two standings snapshots")


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], int]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers={"Accept-Language": "zh-hans", **headers})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, len(body)


def _measure(port: int, path: str, n: int, headers: dict[str, str], status: int) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        got, _, _ = _get(port, path, headers)
        times.append((time.perf_counter() - t0) * 1000)
        if got != status:
            raise SystemExit(f"{path}: expected {status}, got {got}")
    return times


def _report(label: str, times: list[float]) -> float:
    q = statistics.quantiles(times, n=100, method="inclusive")
    p50, p99 = statistics.median(times), q[98]
    print(f"{label:<34} n={len(times):<4} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")
    return p50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database", default="doudizhu_i9_bench")
    parser.add_argument("--port", type=int, default=8941)
    args = parser.parse_args()
    env = _environment(args)
    _database_create(args.database)
    _seed(args, env)
    gunicorn = Path(sys.executable).parent / "gunicorn"
    server = subprocess.Popen(
        [str(gunicorn), "config.wsgi:application", "--bind", f"127.0.0.1:{args.port}",
         "--workers", str(args.workers), "--timeout", "120"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        for _ in range(150):
            try:
                _get(args.port, "/healthz", {})
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("gunicorn did not start")
        path = f"/t/{SLUG}/standings/"
        status, headers, size = _get(args.port, path, {})
        assert status == 200, status
        print(f"standings page: {size / 1024:.0f} KiB, {args.players} rows, ETag {headers['etag']}")
        _measure(args.port, path, 20, {}, 200)  # warm every worker
        full = _report("standings page (200)", _measure(args.port, path, args.requests, {}, 200))
        etag = {"If-None-Match": headers["etag"]}
        _report("conditional GET (304)", _measure(args.port, path, args.requests, etag, 304))
        club = path + "?club=" + "俱乐部7".encode().hex()  # a club nobody is in: tiny page
        _report("filtered by club", _measure(args.port, club, args.requests // 3, {}, 200))
        csv_path = f"/t/{SLUG}/standings.csv"
        _report("CSV download", _measure(args.port, csv_path, args.requests // 3, {}, 200))
        verdict = "met" if full < TARGET_P50_MS else "NOT met"
        print(f"target p50 < {TARGET_P50_MS:.0f} ms for the full page: {verdict}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
