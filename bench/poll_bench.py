"""What one public poll costs, in process (issue 30, point 1): the live board's fragment and
the standings page of a tournament of ``--tables`` tables (a hand started at each, played
part-way), read with Django's test client on a throwaway SQLite database (or ``--database-url``),
the shared cache in this process's memory (``locmemcache://``, as Redis without the network) or
``--cache-url`` (e.g. ``redis://127.0.0.1:6379/4``).

    python bench/poll_bench.py [--tables 50] [--requests 100] [--cache-url …]

For each page it prints the median / p99 wall and the CPU time per request of:

- ``304``: a conditional GET naming the current version (no query, no render);
- ``hit``: the page's bytes, kept for this version (no query);
- ``miss``: a new version (the page rendered again from its kept parts: the live board's
  table cards, the standings' rows) — what the first spectator after a change pays;
- ``before``: the path every poll took before the page cache (a signed-in reader's still):
  the version query, the board assembled from its cards, no bytes kept;
- for the live board, ``moved N``: a new version at which N tables moved (their cards not
  kept yet: rendered, the others read from the shared cache), for N = 0, 1, a fifth of the
  tables (what moves in a second at ``event_load.py``'s pace, one action per table every
  5 s) and all of them (the whole board rendered: the first poll of a round) — the CPU time
  of one board render;

and first what each family's version costs to read (``page_cache.FAMILIES``: once per
``PUBLIC_BOARD_SECONDS`` per tournament in service).

The machine is shared: the numbers are indicative, their ratios are the point.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def _measure(requests: int, call: Callable[[], int], expect: int) -> tuple[float, float, float]:
    """(p50 ms, p99 ms, CPU ms per request) of ``call``, which answers ``expect``."""
    walls = []
    cpu = time.process_time()
    for _ in range(requests):
        start = time.perf_counter()
        status = call()
        walls.append((time.perf_counter() - start) * 1000)
        assert status == expect, (status, expect)
    cpu_ms = (time.process_time() - cpu) * 1000 / requests
    walls.sort()
    return statistics.median(walls), walls[int(len(walls) * 0.99) - 1], cpu_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--database-url", default="")
    # room for every table's card: LocMemCache keeps 300 entries unless told, and culls a
    # third of them beyond (at 334 tables every "miss" then rendered the whole board again,
    # which Redis and the database cache, 10,000 entries, do not)
    parser.add_argument("--cache-url", default="locmemcache://poll-bench?max_entries=100000")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="poll-bench-")
    os.environ["DATABASE_URL"] = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    os.environ["CACHE_URL"] = args.cache_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(REPO))

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse
    from django.utils import translation

    setup_test_environment()  # the test client's host
    call_command("migrate", verbosity=0)
    settings.PUBLIC_BOARD_SECONDS = 60  # the version document stays for the run
    # the tests' own builders (factory_boy, a development requirement), untyped for mypy
    public_data: Any = importlib.import_module("tests.public_data")
    hand_played, tournament_with_tables = (
        public_data.hand_played,
        public_data.tournament_with_tables,
    )

    tournament, tables = tournament_with_tables(tables=args.tables)
    for n, table in enumerate(tables):
        hand_played(table, seed=n, upto=3 + n % 5)
    from tournaments.standings.snapshots import standings_snapshot_update

    standings_snapshot_update(tournament_id=tournament.pk)
    from django.contrib.auth.models import User

    director = User.objects.create_user(username="bench-reader")
    pages = {
        "live poll": (reverse("public:live", args=[tournament.slug]) + "?fragment=1", "live"),
        "standings": (reverse("public:standings", args=[tournament.slug]), "standings"),
    }
    spectator, reader = Client(), Client()
    reader.force_login(director)
    translation.activate("en")
    print(f"{args.tables} tables, {args.requests} requests each, cache {args.cache_url}")
    from tournaments.public import page_cache

    for family, read in page_cache.FAMILIES.items():  # what a version document costs to make

        def version(read: Callable[[str, dict[str, Any]], str | None] = read) -> int:
            return int(read(tournament.slug, {}) is not None)

        p50, p99, cpu = _measure(args.requests, version, 1)
        print(f"version {family:10} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  CPU {cpu:6.2f} ms")
    for label, (url, name) in pages.items():
        for case, (p50, p99, cpu) in _page_costs(spectator, reader, url, name, args.requests):
            print(
                f"{label:10} {case:7} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms"
                f"  CPU {cpu:6.2f} ms/request"
            )


def _page_costs(
    spectator: Any, reader: Any, url: str, name: str, requests: int
) -> list[tuple[str, tuple[float, float, float]]]:
    from django.conf import settings
    from django.core.cache import caches

    from tournaments.public import page_cache
    from tournaments.public.views import LIVE_FRAGMENT

    first = spectator.get(url)
    etag = first["ETag"]
    version = page_cache.etag_version(etag)
    query = LIVE_FRAGMENT if name == "live" else page_cache.page_query_of({}, {})
    key = page_cache.page_key(name, version, query)
    shared = caches[settings.SHARED_CACHE]
    kept = page_cache.kept_page(name, version, query)
    assert kept is not None
    print(f"{name}: {len(kept.body)} bytes, {len(kept.gzipped or b'')} gzipped")

    def not_modified() -> int:
        return int(spectator.get(url, headers={"if-none-match": etag}).status_code)

    def hit() -> int:
        return int(spectator.get(url).status_code)

    def miss() -> int:
        shared.delete(key)  # as a new version: this page's bytes not kept yet
        return int(spectator.get(url).status_code)

    def before() -> int:
        return int(reader.get(url).status_code)

    costs = [
        ("304", _measure(requests, not_modified, 304)),
        ("hit", _measure(requests, hit, 200)),
        ("miss", _measure(requests, miss, 200)),
        ("before", _measure(requests, before, 200)),
    ]
    if name == "live":
        costs += _board_renders(spectator, url, key, requests)
    return costs


def _board_renders(
    spectator: Any, url: str, key: str, requests: int
) -> list[tuple[str, tuple[float, float, float]]]:
    """The live board rendered at a new version with N of its tables moved: their cards'
    entries dropped (as a new key would miss), the page's too, and the version document
    (expired: at event pace the version is read again and has moved each second)."""
    from django.conf import settings
    from django.core.cache import caches

    from tournaments.public import page_cache
    from tournaments.public import selectors as ps

    shared = caches[settings.SHARED_CACHE]
    tournament = ps.tournament_public(slug=url.split("/")[2])
    assert tournament is not None
    version_key = f"public-version:live:{page_cache._digest(tournament.slug)}"
    card_keys = [card_key for _, card_key in ps.live_board(tournament=tournament).cards]
    tables = len(card_keys)
    out = []
    for moved in sorted({0, 1, max(1, tables // 5), tables}):
        rounds = max(3, requests // max(1, moved // 10 + 1))

        def render(moved: int = moved) -> int:
            shared.delete_many([key, version_key, *card_keys[:moved]])
            return int(spectator.get(url).status_code)

        out.append((f"moved {moved}", _measure(rounds, render, 200)))
    return out


if __name__ == "__main__":
    main()
