"""What the service's par analysis (issue 33, ``docs/solver.md`` "In the service") costs and
finds per board, at the budget of the settings: on random boards played out at random (as
``tests/play.py`` does), the par table (each seat as landlord), the par result, and each
hand's "where it was lost" (its start, whether a turning point was found). Prints numbers.
No Django, one process: ``tournaments.par.analysis`` is what the task runs.

    python bench/par_bench.py --boards 5 --hands 2 --ms 2000 --nodes 1000000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules.cards import deal_from_seed
from referee.rules.hand import HandState
from referee.rules.profiles import get_profile
from referee.rules.table import warm_up
from tournaments.par.analysis import Budget, Effort, hand_lost, par_auction, par_table


def _random_actions(deal: object, profile: object, seed: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    state = HandState(deal, profile)  # type: ignore[arg-type]
    while not state.is_over:
        options = state.legal_actions()
        if not state.actions:  # the first bidder bids 1: the hand is played
            options = [a for a in options if a.to_json().get("bid") == 1] or options
        state.push(rng.choice(options))
    return state.to_events()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--hands", type=int, default=2, help="played hands a board")
    parser.add_argument("--ms", type=int, default=2000, help="per query (PAR_QUERY_MS)")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="PAR_QUERY_NODES")
    parser.add_argument("--entries", type=int, default=1_000_000, help="PAR_QUERY_ENTRIES")
    parser.add_argument("--queries", type=int, default=60, help="PAR_HAND_QUERIES")
    parser.add_argument("--profile", default="comp2016")
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()
    profile = get_profile(args.profile)
    warm_up([profile])
    budget = Budget(args.ms, args.nodes, args.entries)
    rng = random.Random(args.seed)
    seats: Counter[str] = Counter()
    results: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    starts: list[int] = []
    cards_at_start: list[int] = []
    board_seconds: list[float] = []
    for _ in range(args.boards):
        deal = deal_from_seed(rng.randrange(2**40))
        started = time.perf_counter()
        effort = Effort()
        table = par_table(deal, profile, budget, effort)
        seats.update("unsolved" if v is None else ("wins" if v else "loses") for v in table)
        results[par_auction(deal, profile, table).outcome] += 1
        for _h in range(args.hands):
            actions = _random_actions(deal, profile, rng.randrange(2**31))
            lost = hand_lost(deal, profile, actions, budget, effort, max_queries=args.queries)
            outcomes[lost.outcome] += 1
            if lost.start_action is not None:
                starts.append(lost.start_action)
                state = HandState.replay(deal, actions[: lost.start_action], profile)
                cards_at_start.append(max(state.card_counts))
        board_seconds.append(time.perf_counter() - started)
    print(
        f"{args.boards} boards, {args.hands} hands each, {args.profile}; budget per query "
        f"{args.ms} ms / {args.nodes} nodes / {args.entries} entries"
    )
    print(f"par table, seat by seat: {dict(seats)}; par results: {dict(results)}")
    print(f"where it was lost: {dict(outcomes)}")
    if starts:
        print(
            f"analysis starts at action {statistics.median(starts)} (median), the longest hand "
            f"then holding {statistics.median(cards_at_start)} cards (median)"
        )
    print(
        f"time per board (par + its hands): median {statistics.median(board_seconds):.1f} s, "
        f"max {max(board_seconds):.1f} s"
    )


if __name__ == "__main__":
    main()
