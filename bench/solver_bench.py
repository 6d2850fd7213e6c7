"""The open-hand solver (issue 33, ``docs/solver.md``): on random full deals, for each seat
as landlord (it takes the kitty and leads), the share solved within 1 s, 10 s and 60 s per
query, the median time and the nodes per second; then random endgames of 7-10 and of 10-13
cards a hand (a random landlord, leading). Prints numbers.

The default run is short (a few deals, budgets capped at ``--seconds``). The full run::

    python bench/solver_bench.py --deals 100 --endgames 200 --seconds 60

``--bands 7-10`` runs one band of endgames only. ``--engine`` picks the search: ``auto`` (the
default, as the service: the compiled one of ``solver_jit`` where numba is installed and it takes
the position, else the reference), ``reference`` (pure Python) or ``compiled``. ``--threads``:
the compiled search's threads past its first ``SPLIT_NODES`` nodes (default: two where the
machine has two cores; 1: one thread throughout).

A query is solved within t seconds when its time is at most t; a query is stopped at the
largest budget (or at the memory budget, ``--max-entries``: the solver's default, about 310 MB
in the reference search) and counted unsolved at every budget. Single process, no Django.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules.cards import key_of
from referee.rules.profiles import get_profile
from referee.rules.solver import Position, solve
from referee.rules.solver_jit import available, default_threads
from referee.rules.table import warm_up

PACK = [r for r in range(13) for _ in range(4)] + [13, 14]
BUDGETS = (1.0, 10.0, 60.0)


def _report(label: str, runs: list[tuple[bool | None, float, int]], cap: float) -> None:
    solved_ms = [ms for value, ms, _ in runs if value is not None]
    nodes = sum(n for _, _, n in runs)
    seconds = sum(ms for _, ms, _ in runs) / 1000
    shares = []
    for budget in BUDGETS:
        if budget > cap:
            shares.append(f"{budget:g}s: n/a (cap {cap:g}s)")
        else:
            done = sum(1 for ms in solved_ms if ms <= budget * 1000)
            shares.append(f"{budget:g}s: {done}/{len(runs)}")
    median = statistics.median(ms for _, ms, _ in runs) if runs else 0.0
    slowest = max(solved_ms, default=0.0)
    rate = nodes / seconds if seconds else 0.0
    print(
        f"{label}: solved within {', '.join(shares)}; median {median:.0f} ms (an unsolved "
        f"query at the time it stopped: the cap or the memory budget), slowest solved "
        f"{slowest:.0f} ms; {rate:,.0f} nodes/s; "
        f"landlord wins {sum(1 for v, _, _ in runs if v)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2, help="full deals (x3 landlords)")
    parser.add_argument("--endgames", type=int, default=10, help="endgames per size band")
    parser.add_argument("--seconds", type=float, default=1.0, help="largest budget per query")
    parser.add_argument("--profile", default="comp2016", choices=("comp2016", "classic"))
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument(
        "--bands", default="7-10,10-13", help="endgame sizes, cards a hand (e.g. 7-10)"
    )
    parser.add_argument("--engine", default="auto", choices=("auto", "reference", "compiled"))
    parser.add_argument("--threads", type=int, default=None, help="the compiled search's")
    parser.add_argument(
        "--max-entries", type=int, default=2_000_000, help="memory budget (the solver's default)"
    )
    args = parser.parse_args()
    compiled = {"auto": None, "reference": False, "compiled": True}[args.engine]
    profile = get_profile(args.profile)
    warm_up([profile])
    rng = random.Random(args.seed)
    cap_ms = args.seconds * 1000

    def run(position: Position) -> tuple[bool | None, float, int]:
        found = solve(
            position,
            profile,
            max_ms=cap_ms,
            max_entries=args.max_entries,
            compiled=compiled,
            threads=args.threads,
        )
        return found.landlord_wins, found.ms, found.nodes

    print(
        f"profile {args.profile}, seed {args.seed}, budget cap {args.seconds:g} s per query, "
        f"engine {args.engine} (numba {'installed' if available() else 'not installed'}), "
        f"threads {args.threads or default_threads()}, memory budget {args.max_entries:,} "
        "entries"
    )
    for landlord in range(3 if args.deals else 0):
        runs = []
        for _ in range(args.deals):
            cards = rng.sample(PACK, 54)
            hands = [cards[0:17], cards[17:34], cards[34:51]]
            hands[landlord] = hands[landlord] + cards[51:]
            keys = (key_of(hands[0]), key_of(hands[1]), key_of(hands[2]))
            runs.append(run(Position(keys, landlord, landlord)))
        _report(f"full deals, landlord seat {landlord} ({args.deals})", runs, args.seconds)
    bands = [tuple(int(n) for n in band.split("-")) for band in args.bands.split(",")]
    for low, high in bands if args.endgames else ():
        runs = []
        for _ in range(args.endgames):
            sizes = [rng.randint(low, high) for _ in range(3)]
            cards = rng.sample(PACK, sum(sizes))
            keys = (
                key_of(cards[: sizes[0]]),
                key_of(cards[sizes[0] : sizes[0] + sizes[1]]),
                key_of(cards[sizes[0] + sizes[1] :]),
            )
            landlord = rng.randrange(3)
            runs.append(run(Position(keys, landlord, landlord)))
        _report(f"endgames {low}-{high} cards a hand ({args.endgames})", runs, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
