"""Enumeration of combinations from the cards available, kind by kind (SPEC §5.2).

This one enumerator builds the table of every legal rank multiset (from a full pack) and
generates the legal plays of a hand (from its cards), so the two can never disagree. A
combination is a *body* (the primal cards: a rank or a run of ranks) plus *wings* (kickers).
Everything works on count vectors (15 ints) and multiset keys (see ``cards.key_of``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from referee.rules.cards import (
    ACE,
    BIG_JOKER,
    SMALL_JOKER,
    TWO,
    UNIT,
    counts_fit_pack,
    counts_of_key,
    key_of_counts,
)
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


_PREFIX = [0]
for _u in UNIT:
    _PREFIX.append(_PREFIX[-1] + _u)


def _span_key(need: int, lo: int, hi: int) -> int:
    """Key of ``need`` cards of every rank lo..hi."""
    return need * (_PREFIX[hi + 1] - _PREFIX[lo])


class Pool:
    """The cards available to build combinations from (a hand, or a whole pack), indexed once
    as rank masks: which ranks have at least 1, 2, 3 cards, and which have all 4.

    ``hand`` is a multiset key (``cards.key_of``, how a hand state holds a seat's cards) or
    15 rank counts. Raises ValueError for cards that one pack cannot hold.
    """

    __slots__ = ("_counts", "key", "masks")

    def __init__(self, hand: int | Sequence[int]) -> None:
        key = hand if isinstance(hand, int) else _key_of_counts(hand)
        table = _CHUNKS or _build_chunks()
        # A key is 15 four-bit counts. _CHUNKS turns each 16-bit stretch (four ranks) into four
        # 16-bit *lanes*: lane n has bit i set when rank i of the stretch has at least n + 1
        # cards (lane 3: all four). Shifting the k-th stretch's answer left by 4k puts its ranks
        # at bits 4k..4k+3 of every lane at once, so four lookups give the masks of all 15
        # ranks: lanes & 0x7FFF is "held", >> 16 "pair", >> 32 "trio", >> 48 "four".
        # Overflow checks, in the same pass: a negative key or one wider than 15 ranks; bit 64
        # (a count above 4, set by _CHUNKS); a joker in the pair lane (two of one joker).
        lanes = (
            table[key & 0xFFFF]
            | table[key >> 16 & 0xFFFF] << 4
            | table[key >> 32 & 0xFFFF] << 8
            | table[key >> 48 & 0xFFFF] << 12
        )
        if key < 0 or key >> 60 or lanes >> 64 or lanes >> 16 & _TWO_JOKERS:
            raise ValueError("one pack cannot hold these cards")
        self.key = key
        self.masks = (0, lanes & 0x7FFF, lanes >> 16 & 0x7FFF, lanes >> 32 & 0x7FFF, lanes >> 48)
        self._counts: list[int] | None = None

    @property
    def counts(self) -> list[int]:
        """Cards of each rank (15 ints), worked out when first needed."""
        if self._counts is None:
            self._counts = counts_of_key(self.key)
        return self._counts

    @property
    def single_units(self) -> tuple[tuple[int, int], ...]:
        """(rank, key of one card) for every rank held."""
        return _units(self.masks[1], 1)

    @property
    def pair_units(self) -> tuple[tuple[int, int], ...]:
        """(rank, key of a pair) for every rank held at least twice (never jokers)."""
        return _units(self.masks[2], 2)


#: A joker in the ">= 2 cards" mask: more jokers than one pack has.
_TWO_JOKERS = (1 << SMALL_JOKER) | (1 << BIG_JOKER)
#: For every 16-bit stretch of a key (four ranks' counts): the ranks with >= 1, >= 2, >= 3
#: and 4 cards, in four 16-bit lanes, and bit 64 when a count is above 4. Built on first use.
_CHUNKS: list[int] = []


def _build_chunks() -> list[int]:
    """Fill ``_CHUNKS`` (65,536 entries; equal answers share one int object to save memory)."""
    shared: dict[int, int] = {}
    for value in range(1 << 16):
        lanes = 0
        for field in range(4):
            count = value >> (4 * field) & 15
            for lane, need in enumerate((1, 2, 3, 4)):
                if count >= need:
                    lanes |= 1 << (16 * lane + field)
            if count > 4:
                lanes |= 1 << 64
        _CHUNKS.append(shared.setdefault(lanes, lanes))
    return _CHUNKS


def _key_of_counts(counts: Sequence[int]) -> int:
    if len(counts) != len(UNIT) or not counts_fit_pack(counts):
        raise ValueError(f"not the rank counts of cards one pack can hold: {list(counts)}")
    return key_of_counts(counts)


@cache
def _units(mask: int, need: int) -> tuple[tuple[int, int], ...]:
    """(rank, key of ``need`` cards of it) for each rank in ``mask``."""
    return tuple((r, need * UNIT[r]) for r in range(BIG_JOKER + 1) if mask >> r & 1)


@cache
def _solo_bodies(mask: int, need: int) -> tuple[Body, ...]:
    return tuple((r, 1, u) for r, u in _units(mask, need))


@cache
def _chain_bodies(mask: int, need: int, shortest: int, longest: int) -> tuple[Body, ...]:
    """Every run of ``shortest``..``longest`` consecutive ranks of 3…A inside ``mask``."""
    out: list[Body] = []
    run = 0
    for top in range(ACE + 1):
        run = run + 1 if mask >> top & 1 else 0
        for n in range(shortest, min(run, longest) + 1):
            out.append((top, n, _span_key(need, top - n + 1, top)))
    return tuple(out)


def bodies(
    pool: Pool,
    kind: Kind,
    profile: RuleProfile,
    *,
    length: int | None = None,
    above: int = -1,
) -> Sequence[Body]:
    """Bodies of ``kind`` that the pool allows, with top rank above ``above``."""
    if kind is Kind.ROCKET:
        if pool.key & ROCKET_KEY == ROCKET_KEY and above < 0:
            return ((-1, 1, ROCKET_KEY),)
        return ()
    found = mask_bodies(kind, pool.masks[body_need(kind)], profile, length)
    if above >= 0:
        return [b for b in found if b[0] > above]
    return found


def body_need(kind: Kind) -> int:
    """Cards of each body rank: which of a pool's masks the bodies of ``kind`` come from."""
    solo = SOLO.get(kind)
    return solo[0] if solo is not None else CHAINS[kind][0]


def mask_bodies(
    kind: Kind, mask: int, profile: RuleProfile, length: int | None = None
) -> tuple[Body, ...]:
    """Bodies of a solo or chain ``kind`` over the ranks of ``mask`` (rocket excluded)."""
    need = body_need(kind)
    if kind in SOLO:
        return _solo_bodies(mask, need) if length in (None, 1) else ()
    _, shortest, _ = CHAINS[kind]
    longest = chain_max(kind, profile)
    if length is not None:
        shortest = longest = length
    return _chain_bodies(mask, need, shortest, longest)


def wings(pool: Pool, kind: Kind, profile: RuleProfile, top: int, n: int) -> list[int]:
    """Keys of every allowed set of wings for a body of ``kind`` (top rank, length)."""
    if kind in PLAIN:
        return [0]
    if kind is Kind.TRIO_SINGLE or kind is Kind.TRIO_PAIR:
        return kicker_keys(kind, top, pool.masks[KICKER_NEED[kind]])
    if kind is Kind.FOUR_TWO_PAIRS:  # R5.18
        return _distinct_pairs(pool, top, top, 2)
    counts = pool.counts
    if kind is Kind.FOUR_TWO_SINGLES:  # R5.17
        cap = 2 if profile.four_two_singles_may_pair else 1
        options = [(u, min(counts[r], cap)) for r, u in pool.single_units if r != top]
        return _without_rocket(_multisets(options, 2), profile)
    lo = top - n + 1
    if kind is Kind.AIRPLANE_PAIRS:  # R5.16
        return _distinct_pairs(pool, lo, top, n)
    # AIRPLANE_SINGLES: R5.15.1-R5.15.7
    options = []
    for r, u in pool.single_units:
        if not lo <= r <= top:
            adjacent = (r == lo - 1 or r == top + 1) and r <= ACE
            options.append((u, min(counts[r], _single_wing_cap(profile, adjacent))))
    return _without_rocket(_multisets(options, n), profile)


#: Which ranks a full pack holds at least once / twice (jokers are never a pair).
_PACK_MASKS = {1: (1 << (BIG_JOKER + 1)) - 1, 2: (1 << SMALL_JOKER) - 1}
#: Cards per kicker of the trio kinds (R5.9, R5.10).
KICKER_NEED = {Kind.TRIO_SINGLE: 1, Kind.TRIO_PAIR: 2}


def kicker_keys(kind: Kind, top: int, mask: int) -> list[int]:
    """The kickers of a trio of rank ``top`` that the ranks in ``mask`` allow."""
    return [u for r, u in kicker_units(kind, top) if mask >> r & 1]


@cache
def kicker_units(kind: Kind, top: int) -> tuple[tuple[int, int], ...]:
    """The one kicker of a trio of rank ``top``, as (rank, key) for every rank a pack has: a
    single (R5.9) or a pair (R5.10) of another rank; jokers are never a pair."""
    need = KICKER_NEED[kind]
    return tuple((r, u) for r, u in _units(_PACK_MASKS[need], need) if r != top)


PLAIN = frozenset(
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


def _distinct_pairs(pool: Pool, lo: int, hi: int, n: int) -> list[int]:
    """n pairs of n different ranks outside the body lo..hi, no jokers (R5.16, R5.18)."""
    units = [u for r, u in pool.pair_units if not lo <= r <= hi]
    return [sum(c) for c in combinations(units, n)]


def _multisets(options: list[tuple[int, int]], k: int) -> list[int]:
    """Keys of every way to take k items, at most ``cap`` of each ``(unit, cap)`` option.

    Options are distinct ranks, so each multiset is built exactly once: ``by_size[c]`` holds
    the keys of every choice of ``c`` items among the options seen so far.
    """
    if k == 2:  # the common case (four + two, two-trio airplanes): pairs of options, and doubles
        keys = [a + b for (a, _), (b, _) in combinations(options, 2)]
        return keys + [2 * unit for unit, cap in options if cap >= 2]
    by_size: list[list[int]] = [[0]] + [[] for _ in range(k)]
    for unit, cap in options:
        for size in range(k, 0, -1):  # largest first, so this option is used once per choice
            for m in range(1, min(cap, size) + 1):
                base = by_size[size - m]
                if base:
                    add = m * unit
                    by_size[size] += [key + add for key in base]
    return by_size[k]


#: The fourteen three-player kinds: not four_p's four jokers (``four_combos``), nor Big
#: Three's quads (``big3_combos``).
ALL_KINDS: tuple[Kind, ...] = tuple(
    k for k in Kind if k not in (Kind.JOKER_BOMB, Kind.QUAD, Kind.QUAD_STRAIGHT)
)
