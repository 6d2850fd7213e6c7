"""Enumeration of combinations from the cards available, kind by kind (SPEC §5.2).

This one enumerator builds the table of every legal rank multiset (from a full pack) and
generates the legal plays of a hand (from its cards), so the two can never disagree. A
combination is a *body* (the primal cards: a rank or a run of ranks) plus *wings* (kickers).
Everything works on count vectors (15 ints) and multiset keys (see ``cards.key_of``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.rules.cards import ACE, BIG_JOKER, SMALL_JOKER, TWO, UNIT
from referee.rules.combos import Kind
from referee.rules.profiles import RuleProfile

ROCKET_KEY = UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]
_JOKERS_MASK = 0xF * UNIT[SMALL_JOKER] + 0xF * UNIT[BIG_JOKER]

#: Chain kinds: (cards per body rank, shortest, longest) — R5.11–R5.16, R5.23.
CHAINS: dict[Kind, tuple[int, int, int]] = {
    Kind.STRAIGHT: (1, 5, 12),
    Kind.PAIR_STRAIGHT: (2, 3, 10),
    Kind.AIRPLANE: (3, 2, 6),
    Kind.AIRPLANE_SINGLES: (3, 2, 5),
    Kind.AIRPLANE_PAIRS: (3, 2, 4),
}
#: Kinds with a one-rank body: (cards of the body, highest allowed body rank).
SOLO: dict[Kind, tuple[int, int]] = {
    Kind.SINGLE: (1, BIG_JOKER),
    Kind.PAIR: (2, TWO),
    Kind.TRIO: (3, TWO),
    Kind.TRIO_SINGLE: (3, TWO),
    Kind.TRIO_PAIR: (3, TWO),
    Kind.FOUR_TWO_SINGLES: (4, TWO),
    Kind.FOUR_TWO_PAIRS: (4, TWO),
    Kind.BOMB: (4, TWO),
}
Body = tuple[int, int, int]  # (top rank, length, body key)


def chain_max(kind: Kind, profile: RuleProfile) -> int:
    longest = CHAINS[kind][2]
    if kind is Kind.AIRPLANE_PAIRS:
        return min(longest, profile.max_airplane_pairs_len)
    return longest


def bodies(
    counts: Sequence[int],
    kind: Kind,
    profile: RuleProfile,
    *,
    length: int | None = None,
    above: int = -1,
) -> Iterator[Body]:
    """Bodies of ``kind`` that the counts allow, with top rank above ``above``."""
    if kind is Kind.ROCKET:
        if counts[SMALL_JOKER] and counts[BIG_JOKER] and above < 0:
            yield (-1, 1, ROCKET_KEY)
        return
    solo = SOLO.get(kind)
    if solo is not None:
        need, highest = solo
        if length not in (None, 1):
            return
        for r in range(above + 1, highest + 1):
            c = counts[r]
            if c >= need and (need != 4 or c == 4):
                yield (r, 1, need * UNIT[r])
        return
    need, shortest, longest = CHAINS[kind]
    longest = chain_max(kind, profile)
    lengths = range(shortest, longest + 1) if length is None else (length,)
    for n in lengths:
        # top runs over n-1 .. ACE; the run [top-n+1 .. top] must all have >= need cards.
        run = 0
        for top in range(0, ACE + 1):
            run = run + 1 if counts[top] >= need else 0
            if run >= n and top > above:
                yield (top, n, need * sum(UNIT[top - n + 1 : top + 1]))


def wings(counts: Sequence[int], kind: Kind, profile: RuleProfile, top: int, n: int) -> list[int]:
    """Keys of every allowed set of wings for a body of ``kind`` (top rank, length)."""
    if kind in _PLAIN:
        return [0]
    if kind is Kind.TRIO_SINGLE:
        return [UNIT[s] for s in range(BIG_JOKER + 1) if s != top and counts[s]]
    if kind is Kind.TRIO_PAIR:
        return [2 * UNIT[p] for p in range(TWO + 1) if p != top and counts[p] >= 2]
    if kind is Kind.FOUR_TWO_PAIRS:
        return _distinct_pairs(counts, {top}, 2)
    if kind is Kind.FOUR_TWO_SINGLES:
        repeat_cap = 2 if profile.four_two_singles_may_pair else 1
        options = [
            (UNIT[s], min(counts[s], repeat_cap)) for s in range(BIG_JOKER + 1) if s != top
        ]
        return _without_rocket(_multisets(options, 2), profile)
    body = set(range(top - n + 1, top + 1))
    if kind is Kind.AIRPLANE_PAIRS:
        return _distinct_pairs(counts, body, n)
    # AIRPLANE_SINGLES: R5.15.1-R5.15.7
    adjacent = {r for r in (top - n, top + 1) if 0 <= r <= ACE}
    options = []
    for r in range(BIG_JOKER + 1):
        if r in body or not counts[r]:
            continue
        options.append((UNIT[r], min(counts[r], _single_wing_cap(profile, r in adjacent))))
    return _without_rocket(_multisets(options, n), profile)


_PLAIN = frozenset(
    {
        Kind.SINGLE,
        Kind.PAIR,
        Kind.TRIO,
        Kind.BOMB,
        Kind.ROCKET,
        Kind.STRAIGHT,
        Kind.PAIR_STRAIGHT,
        Kind.AIRPLANE,
    }
)


def _single_wing_cap(profile: RuleProfile, adjacent: bool) -> int:
    """How many single wings may share one rank (R5.15.3-R5.15.6)."""
    if not profile.wing_singles_may_repeat_rank:
        return 1
    cap = 4 if profile.bomb_in_kickers else 3
    if adjacent or not profile.wing_trio_allowed_if_not_adjacent:
        cap = min(cap, 2)
    return cap


def _without_rocket(keys: list[int], profile: RuleProfile) -> list[int]:
    """Wings may not hold both jokers (R5.15.2, R5.17) unless the profile allows it."""
    if profile.rocket_in_kickers:
        return keys
    return [k for k in keys if k & _JOKERS_MASK != ROCKET_KEY]


def _distinct_pairs(counts: Sequence[int], excluded: set[int], n: int) -> list[int]:
    """n pairs of n different ranks, none excluded, no jokers (R5.16, R5.18)."""
    options = [(2 * UNIT[r], 1) for r in range(TWO + 1) if r not in excluded and counts[r] >= 2]
    return _multisets(options, n)


def _multisets(options: list[tuple[int, int]], k: int) -> list[int]:
    """Keys of every way to take k items, at most ``cap`` of each ``(unit, cap)`` option."""
    out: list[int] = []
    room = [0] * (len(options) + 1)
    for i in range(len(options) - 1, -1, -1):
        room[i] = room[i + 1] + options[i][1]

    def take(i: int, left: int, acc: int) -> None:
        if left == 0:
            out.append(acc)
            return
        if room[i] < left:
            return
        unit, cap = options[i]
        for m in range(min(cap, left), -1, -1):
            take(i + 1, left - m, acc + m * unit)

    take(0, k, 0)
    return out


ALL_KINDS: tuple[Kind, ...] = tuple(Kind)
