"""What the seats ahead (``legal_ahead``, issue 29) add to a hand read or a write's answer:
the legal actions of the seat on turn alone, then with the seats ahead, per state, on
random hands of each dealt profile. Prints numbers.

    python bench/ahead_bench.py [--hands N] [--seed S]

Single process, no Django: the rules library only (the read's other costs are the same
with or without it)."""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules.ahead import legal_ahead
from referee.rules.games import deal_json_from_seed, state_new
from referee.rules.profiles import get_profile


def _states(profile: str, hands: int, seed: int) -> Iterator[Any]:
    rules = get_profile(profile)
    rng = random.Random(seed)
    for n in range(hands):
        state = state_new(rules, deal_json_from_seed(rules, seed + n))
        while not state.is_over:
            yield state
            state.push(rng.choice(state.legal_actions()))


def _us(samples: list[float]) -> str:
    samples.sort()
    p90 = samples[int(len(samples) * 0.9)]
    return f"median {statistics.median(samples):7.1f} µs, p90 {p90:7.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for profile in ("comp2016", "four_p", "laizi"):
        rules = get_profile(profile)
        alone: list[float] = []
        both: list[float] = []
        for state in _states(profile, args.hands, args.seed):
            start = time.perf_counter()
            [a.to_json() for a in state.legal_actions()]
            middle = time.perf_counter()
            legal = state.legal_actions()  # as the hand read does (selectors._state_fields)
            [a.to_json() for a in legal]
            [e.to_json() for e in legal_ahead(state, rules.seats, legal)]
            end = time.perf_counter()
            alone.append((middle - start) * 1e6)
            both.append((end - middle) * 1e6)
        print(f"{profile:9s} {len(alone):5d} states  legal_actions: {_us(alone)}")
        print(f"{'':9s} {'':5s}         with ahead:    {_us(both)}")


if __name__ == "__main__":
    main()
