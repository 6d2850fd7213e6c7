"""Benchmark of the seating engine (issue 8, point 2). Prints numbers.

    python bench/seating_bench.py [--sizes 300,3000,30000] [--rounds 5] [--seed S]

Pure engine, no Django and no database.  For each field size, seats ``--rounds`` earlier
rounds (each one fed to the next as history, 6 hands per round, 10 clubs kept apart) and
times the seating of the next round, random draw and Swiss.  Target: 3,000 entries in
under 1 s.  One process on a shared machine: the numbers are noisy.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating.engine import (
    History,
    Method,
    PastTable,
    Seating,
    SeatingEntry,
    SeatingOptions,
    first_bidder_turns,
    seat,
)

HANDS = 6


def _history_after(seatings: list[Seating]) -> History:
    tables = tuple(
        PastTable(table.entries, first_bidder_turns(table.first_bidder or 0, HANDS))
        for seating in seatings
        for table in seating.tables
    )
    return History(tables=tables, byes=tuple(e for s in seatings for e in s.byes))


def run(size: int, rounds: int, seed: int) -> None:
    entries = [
        SeatingEntry(id=i, registration_order=i, club=f"club{i % 10}") for i in range(1, size + 1)
    ]
    standing = list(range(size, 0, -1))
    methods: tuple[Method, ...] = ("random", "swiss")
    for method in methods:
        options = SeatingOptions(method=method, separate_clubs=True, hands_per_round=HANDS)
        seatings: list[Seating] = []
        for r in range(rounds):
            seatings.append(
                seat(
                    entries=entries,
                    seed=seed + r,
                    history=_history_after(seatings),
                    standing=standing,
                    options=options if r else SeatingOptions(hands_per_round=HANDS),
                )
            )
        history = _history_after(seatings)
        started = time.perf_counter()
        result = seat(
            entries=entries, seed=seed + rounds, history=history, standing=standing, options=options
        )
        elapsed = time.perf_counter() - started
        print(
            f"{size:>6} entries  {method:<6}  round {rounds + 1}: {elapsed * 1000:8.1f} ms  "
            f"tables {len(result.tables):>5}  byes {len(result.byes)}  "
            f"repeat meetings {result.repeat_meetings}  same-club pairs {result.club_meetings}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300,3000,30000")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}; "
        f"{args.rounds} rounds of history"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        run(size, args.rounds, args.seed)


if __name__ == "__main__":
    main()
