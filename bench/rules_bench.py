"""Benchmarks of the rules library (issue: rules library, point 10). Prints numbers.

    python bench/rules_bench.py [--hands N] [--seed S] [--rounds R]

Single process, no Django. Measures:
  * classifications per second of pre-parsed plays (multiset keys), legal and illegal;
  * legal-play generation for 20-card hands, as a lead and as an answer (median and p90), on
    uniformly dealt hands and on trio-rich hands, with the mask caches cold and warm;
  * complete-hand replay (rebuild a HandState from its event log, checked and as accepted),
    and a deal read from its text, median and p90;
  * the variants (SPEC §11), Big Three (SPEC §12), six and five players (SPEC §13, §14):
    legal plays of a 33-card ``four_p`` landlord hand, of a 20-card ``big3`` digger hand, of a
    32-card ``six_p`` landlord hand (26 + 6), of a 24-card ``five_p`` landlord hand and of a
    ``laizi`` hand holding three or four wild cards, as a lead and as an answer, per hand and
    per play listed; target: per play at most twice the three-player number (the lead beside
    the lead, the answer beside the answer; the answers of Big Three, six_p and five_p also
    beside the three-player lead), the median ratio of R paired rounds on new hands
    (``bench_variants``; ``--games six_p,five_p`` runs only those lines); the cold cost of
    ``laizi``'s per-wild-rank tables (each rank's first use) and the memory they take.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules import Deal, HandState, Play, deal_from_seed, get_profile
from referee.rules.big3_combos import BIG3_PACK_COUNTS, legal_plays_big3
from referee.rules.cards import PACK_COUNTS, counts_of, key_of
from referee.rules.combos import readings
from referee.rules.four_combos import TWO_PACK_COUNTS, legal_plays_four
from referee.rules.laizi import legal_plays_wild, wild_tables
from referee.rules.moves import legal_plays
from referee.rules.profiles import PROFILES, RuleProfile
from referee.rules.six_combos import THREE_PACK_COUNTS, legal_plays_six
from referee.rules.table import play_table, warm_up

PACK = [r for r, n in enumerate(PACK_COUNTS) for _ in range(n)]
TWO_PACKS = [r for r, n in enumerate(TWO_PACK_COUNTS) for _ in range(n)]
BIG3_PACK = [r for r, n in enumerate(BIG3_PACK_COUNTS) for _ in range(n)]
THREE_PACKS = [r for r, n in enumerate(THREE_PACK_COUNTS) for _ in range(n)]
TARGETS = {
    "classify": 1_000_000,
    "lead_uniform_median": 30.0,
    "lead_trio_rich_median": 200.0,
    "follow_median": 10.0,
    "replay_median": 300.0,
    "variant_per_play_ratio": 2.0,
}


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def uniform_hand(rng: random.Random) -> int:
    """A 20-card hand dealt at random from one pack, pre-parsed to its multiset key (the way a
    hand state holds a seat's cards)."""
    return key_of(rng.sample(PACK, 20))


def trio_rich_hand(rng: random.Random) -> int:
    """Four or five ranks with three or more cards, the rest dealt at random (20 cards)."""
    trios = rng.sample(range(13), rng.choice((4, 5)))
    cards = [r for r in trios for _ in range(3)]
    rest = list(PACK)
    for card in cards:
        rest.remove(card)
    return key_of(cards + rng.sample(rest, 20 - len(cards)))


def bench_classify(profile: RuleProfile, rng: random.Random, n: int) -> dict[str, float]:
    legal_keys = rng.choices(list(play_table(profile)), k=n)
    illegal_keys: list[int] = []
    while len(illegal_keys) < n:
        key = key_of(rng.sample(PACK, rng.randint(2, 20)))
        if not readings(key, profile):
            illegal_keys.append(key)
    rates = {}
    for name, keys in (("legal", legal_keys), ("illegal", illegal_keys)):
        best = 0.0
        for _ in range(5):
            start = time.perf_counter()
            for key in keys:
                readings(key, profile)
            best = max(best, len(keys) / (time.perf_counter() - start))
        rates[name] = best
    return rates


def bench_generation(
    profile: RuleProfile, hands: list[int], previous: list[Play | None]
) -> list[float]:
    times = []
    for hand, top in zip(hands, previous, strict=True):
        start = time.perf_counter()
        legal_plays(hand, top, profile)
        times.append((time.perf_counter() - start) * 1e6)
    return times


def random_previous(profile: RuleProfile, rng: random.Random, n: int) -> list[Play | None]:
    """Realistic top plays: a random lead of another uniformly dealt hand."""
    out: list[Play | None] = []
    while len(out) < n:
        plays = legal_plays(uniform_hand(rng), None, profile)
        out.append(rng.choice(plays))
    return out


def random_hand_log(profile: RuleProfile, seed: int) -> HandState:
    """A complete legal hand: random bids, doubles and plays until someone goes out."""
    rng = random.Random(seed)
    while True:
        state = HandState(deal_from_seed(seed), profile)
        while not state.is_over:
            actions = state.legal_actions()
            plays = [a for a in actions if getattr(a, "cards", None)]
            # play more often than pass, so hands finish in a realistic number of tricks
            choice = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions)
            state.push(choice)
        if state.phase.value == "finished":
            return state
        seed += 1_000_003  # passed out: deal again


def per_play(name: str, times: Sequence[float], sizes: Sequence[int]) -> float:
    """Print the median time per hand, the median number of plays and the median time per
    play listed; returns the last."""
    each = [t / max(1, n) for t, n in zip(times, sizes, strict=True)]
    print(
        f"  {name:<42} median {statistics.median(times):8.1f} us   p90 "
        f"{percentile(times, 0.9):8.1f} us   plays median {statistics.median(sizes):6.0f}   "
        f"per play {statistics.median(each):6.3f} us"
    )
    return statistics.median(each)


def timed(call: Callable[..., Sequence[Any]], *args: Any) -> tuple[float, int]:
    start = time.perf_counter()
    plays = call(*args)
    return (time.perf_counter() - start) * 1e6, len(plays)


class Line(NamedTuple):
    """A line of legal plays: its name, the call, and how to deal it new cases (each the
    arguments of one call)."""

    name: str
    call: Callable[..., Sequence[Any]]
    deal: Callable[[random.Random], list[tuple[Any, ...]]]

    def run(self, rng: random.Random) -> list[tuple[float, int]]:
        """One pass over new cases: (microseconds, plays listed) of each."""
        return [timed(self.call, *case) for case in self.deal(rng)]


def per_play_of(timings: Sequence[tuple[float, int]]) -> float:
    """The median time per play listed of a pass."""
    return statistics.median(t / max(1, n) for t, n in timings)


def bench_variants(
    rng: random.Random, n: int, rounds: int, only: frozenset[str] | None = None
) -> None:
    """Legal plays of the variants beside the three-player ones (uniform 20-card hands), as a
    lead and as an answer to a random lead of another hand, per play listed (target: within
    2x of the three-player number).

    The machine's speed drifts from one second to the next (by up to 80% on a shared VM), so
    a three-player number measured once before all the variants would move every ratio. Each
    ratio is therefore taken ``rounds`` times, from two passes run back to back (the
    three-player line, then the variant's), and its verdict is the median of those ratios; the
    lowest and highest are printed beside it. Every pass is over new hands, with the caches as
    warm as a stream of new hands leaves them (a first pass of each line warms them unmeasured):
    the same hands again would find their plays' masks cached."""
    comp2016 = get_profile("comp2016")
    lead = Line(
        "three players, lead, 20-card hands",
        legal_plays,
        lambda rng: [(uniform_hand(rng), None, comp2016) for _ in range(5 * n)],
    )
    follow = Line(
        "three players, follow, 20-card hands",
        legal_plays,
        lambda rng: [
            (uniform_hand(rng), top, comp2016) for top in random_previous(comp2016, rng, 5 * n)
        ],
    )
    for line in (lead, follow):
        line.run(rng)
        per_play(line.name, *zip(*line.run(rng), strict=True))

    def wanted(game: str) -> bool:
        return only is None or game in only

    def four_p(rng: random.Random, answer: bool) -> list[tuple[Any, ...]]:
        cases = []
        for _ in range(n):
            top = rng.choice(legal_plays_four(counts_of(rng.sample(TWO_PACKS, 25))))
            cases.append((counts_of(rng.sample(TWO_PACKS, 33)), *((top,) if answer else ())))
        return cases

    for base, what, answer in ((lead, "lead", False), (follow, "follow", True)):
        if not wanted("four_p"):
            break
        deal = partial(four_p, answer=answer)
        beside(
            Line(f"four_p, {what}, 33-card landlord hands", legal_plays_four, deal),
            base,
            rounds,
            rng,
        )

    def big3(rng: random.Random, answer: bool) -> list[tuple[Any, ...]]:
        cases = []
        for _ in range(n):
            top = rng.choice(legal_plays_big3(key_of(rng.sample(BIG3_PACK, 16))))
            cases.append((key_of(rng.sample(BIG3_PACK, 20)), *((top,) if answer else ())))
        return cases

    for base, what, answer in ((lead, "lead", False), (follow, "follow", True)):
        if not wanted("big3"):
            break
        deal = partial(big3, answer=answer)
        name = f"big3, {what}, 20-card digger hands"
        beside(Line(name, legal_plays_big3, deal), base, rounds, rng)
        if answer:  # the yardstick: every Big Three line beside the three-player lead
            beside(Line(name, legal_plays_big3, deal), lead, rounds, rng)

    def six_p(rng: random.Random, answer: bool) -> list[tuple[Any, ...]]:
        """A 32-card landlord hand (26 + the kitty of 6, R13.2), answering a random lead of a
        26-card hand."""
        cases = []
        for _ in range(n):
            top = rng.choice(legal_plays_six(counts_of(rng.sample(THREE_PACKS, 26))))
            cases.append((counts_of(rng.sample(THREE_PACKS, 32)), *((top,) if answer else ())))
        return cases

    def five_p(rng: random.Random, answer: bool) -> list[tuple[Any, ...]]:
        """A 24-card landlord hand (21 + 3, R14.2): four_p's kinds (R14.4)."""
        cases = []
        for _ in range(n):
            top = rng.choice(legal_plays_four(counts_of(rng.sample(TWO_PACKS, 21))))
            cases.append((counts_of(rng.sample(TWO_PACKS, 24)), *((top,) if answer else ())))
        return cases

    for base, what, answer in ((lead, "lead", False), (follow, "follow", True)):
        for name, call, make in (
            ("six_p", legal_plays_six, six_p),
            ("five_p", legal_plays_four, five_p),
        ):
            if not wanted(name):
                continue
            deal = partial(make, answer=answer)
            size = 32 if name == "six_p" else 24
            line = Line(f"{name}, {what}, {size}-card landlord hands", call, deal)
            beside(line, base, rounds, rng)
            if answer:  # the yardstick: beside the three-player lead too
                beside(line, lead, rounds, rng)
    if not wanted("laizi"):
        return
    wild_tables_cold()  # every rank's tables built anew and timed; the laizi lines pick from them

    def laizi(rng: random.Random, wilds: int, answer: bool) -> list[tuple[Any, ...]]:
        cases = []
        for _ in range(max(50, n // 4)):
            wild = rng.randrange(13)
            rest = [r for r in PACK if r != wild]
            hand = counts_of(rng.sample(rest, 20 - wilds))
            hand[wild] = wilds
            top = rng.choice(legal_plays_wild(counts_of(rng.sample(rest, 17)), wild))
            cases.append((hand, wild, *((top,) if answer else ())))
        return cases

    for wilds in (3, 4):
        for base, what, answer in ((lead, "lead", False), (follow, "follow", True)):
            deal = partial(laizi, wilds=wilds, answer=answer)
            name = f"laizi, {what}, 20 cards with {wilds} wild"
            beside(Line(name, legal_plays_wild, deal), base, rounds, rng)


def beside(line: Line, base: Line, rounds: int, rng: random.Random) -> None:
    """A variant line set beside its three-player line over ``rounds`` paired rounds
    (``bench_variants``): its numbers over all rounds' hands, then the median ratio against
    the target."""
    line.run(rng)  # its caches warmed, unmeasured
    timings, ratios, bases = [], [], []
    for _ in range(rounds):
        three = per_play_of(base.run(rng))
        got = line.run(rng)
        timings += got
        bases.append(three)
        ratios.append(per_play_of(got) / three)
    per_play(line.name, *zip(*timings, strict=True))
    ratio, target = statistics.median(ratios), TARGETS["variant_per_play_ratio"]
    verdict = "OK" if ratio <= target else "MISSED"
    print(
        f"  {'':<42} per play {ratio:5.2f}x the three-player number: median of {rounds} "
        f"paired rounds ({min(ratios):.2f}-{max(ratios):.2f}x; three players "
        f"{min(bases):.3f}-{max(bases):.3f} us)  (target <= {target:g}x)  {verdict}"
    )


def wild_tables_cold() -> None:
    """The cold cost of ``laizi``: the first use of a wild rank builds its tables (every play a
    hand with wild cards may list, shared by all hands); each of the 13 built anew and timed
    (target: under a second a rank), then one full collection (the build pauses the collector
    and then freezes the tables out of its reach: it should not go over them), and the
    memory all 13 take (resident size before and after).
    The plays of the laizi lines below are then picked from built tables, as the three-player
    ones are from the table of legal multisets built above."""
    wild_tables.cache_clear()
    gc.collect()
    before = _resident()
    times, plays = [], 0
    for wild in range(13):
        start = time.perf_counter()
        plays += wild_tables(wild).plays
        times.append((time.perf_counter() - start) * 1e3)
    start = time.perf_counter()
    gc.collect()
    collect = (time.perf_counter() - start) * 1e3
    size = (_resident() - before) / 2**20
    verdict = "OK" if max(times) < 1000 else "MISSED"
    print(
        f"  {'laizi tables, cold, per wild rank':<42} median {statistics.median(times):8.0f} ms   "
        f"max {max(times):8.0f} ms  (target < 1000 ms)  {verdict}"
    )
    print(
        f"  {'':<42} 3…2: {' '.join(f'{t:.0f}' for t in times)} ms; then a full collection "
        f"{collect:.0f} ms"
    )
    print(
        f"  {'laizi tables, all 13 wild ranks':<42} {plays:,} plays, {size:.0f} MiB resident "
        f"({size / 13:.1f} MiB a rank)"
    )


def _resident() -> int:
    """This process's resident memory in bytes (Linux /proc; 0 where there is none)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def report(name: str, values: Sequence[float], target: float | None = None) -> None:
    median, p90 = statistics.median(values), percentile(values, 0.9)
    verdict = "" if target is None else ("  OK" if median <= target else "  MISSED")
    goal = "" if target is None else f"  (target median <= {target:g} us)"
    print(f"  {name:<42} median {median:8.1f} us   p90 {p90:8.1f} us{goal}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--profile", default="comp2016", choices=sorted(PROFILES))
    parser.add_argument(
        "--rounds", type=int, default=7, help="paired rounds behind each variant's ratio"
    )
    parser.add_argument(
        "--games",
        default="",
        help="only these variant lines, e.g. six_p,five_p (skips the three-player part)",
    )
    args = parser.parse_args()
    only = frozenset(g for g in args.games.split(",") if g) or None
    if only is not None:
        print(f"rules library benchmark, variant lines {', '.join(sorted(only))} only")
        bench_variants(random.Random(args.seed), max(200, args.hands // 10), args.rounds, only)
        return
    profile = get_profile(args.profile)
    rng = random.Random(args.seed)
    print(
        f"rules library benchmark: profile {profile.key}, python {platform.python_version()}, "
        f"{args.hands} hands, seed {args.seed}"
    )

    start = time.perf_counter()
    warm_up([profile])
    print(
        f"table of legal multisets: {len(play_table(profile))} entries, built in "
        f"{(time.perf_counter() - start) * 1e3:.0f} ms"
    )

    rates = bench_classify(profile, rng, 200_000)
    for name, rate in rates.items():
        verdict = "OK" if rate >= TARGETS["classify"] else "MISSED"
        print(
            f"  classify pre-parsed {name:<22} {rate:12,.0f} /s  (target >= 1,000,000)  {verdict}"
        )

    n = args.hands
    uniform = [uniform_hand(rng) for _ in range(n)]
    rich = [trio_rich_hand(rng) for _ in range(n)]
    leads: list[Play | None] = [None] * n
    report("lead, uniform hands, cold caches", bench_generation(profile, uniform, leads))
    report("lead, trio-rich hands, cold caches", bench_generation(profile, rich, leads))
    fresh_uniform = [uniform_hand(rng) for _ in range(n)]
    fresh_rich = [trio_rich_hand(rng) for _ in range(n)]
    report(
        "lead, uniform hands (new hands, warm caches)",
        bench_generation(profile, fresh_uniform, leads),
        TARGETS["lead_uniform_median"],
    )
    report(
        "lead, trio-rich hands (new hands, warm caches)",
        bench_generation(profile, fresh_rich, leads),
        TARGETS["lead_trio_rich_median"],
    )
    previous = random_previous(profile, rng, n)
    report(
        "follow, uniform hands",
        bench_generation(profile, fresh_uniform, previous),
        TARGETS["follow_median"],
    )

    logs = [random_hand_log(profile, args.seed + i) for i in range(max(200, n // 10))]
    events = [(s.deal, s.to_events()) for s in logs]
    lengths = [len(e) for _, e in events]
    times = []
    for deal, log in events:
        start = time.perf_counter()
        HandState.from_events(deal, log, profile)
        times.append((time.perf_counter() - start) * 1e6)
    print(f"  complete hands: {len(logs)}, events per hand median {statistics.median(lengths)}")
    report("replay of a complete hand", times, TARGETS["replay_median"])
    times = []
    for deal, log in events:
        start = time.perf_counter()
        HandState.replay(deal, log, profile)
        times.append((time.perf_counter() - start) * 1e6)
    report("re-apply as accepted (HandState.replay)", times, None)
    texts = [deal.to_json() for deal, _ in events]
    times = []
    for text in texts:
        start = time.perf_counter()
        Deal.from_json(text)
        times.append((time.perf_counter() - start) * 1e6)
    report("deal from its text (each write reads it)", times, None)

    print("variants (SPEC §11), Big Three (§12), six and five players (§13, §14), legal plays:")
    bench_variants(rng, max(200, n // 10), args.rounds)


if __name__ == "__main__":
    main()
