"""Combinations of ``six_p`` / ``six_p_no_kitty``, six players with three packs (SPEC R13.6,
R13.7, PROTOCOL-six-five §1.1).

Kinds: single, pair (``XX`` and ``DD`` are pairs, ``XD`` is nothing), trio (no joker trio),
trio + single (a joker single allowed), trio + pair (``XX`` / ``DD`` allowed), straight, pair
chain, airplane, airplane + singles (``X`` and ``D`` may both be wings), airplane + pairs (``XX``
and ``DD`` may both be wing pairs), bombs of 4 to 12 cards of a rank, and the joker bombs ``XXX``,
``DDD`` and ``XXXDDD``. No four with kickers, no rocket. A body rank holds exactly three cards;
four or more cards of a rank are only a bomb. A multiset has at most one reading, so
``classify_six`` works straight from the rank counts, and ``legal_plays_six`` lists each rank
multiset once. A bomb's ``length`` is its number of cards; a joker bomb's is 3 or 6.

The ladder (R13.7), low to high: 4 < 5 < ``XXX`` < 6 < ``DDD`` < 7 < … < 12 < ``XXXDDD``; equal
sizes by rank. ``_tier`` numbers it: a bomb of *n* cards is 2n, ``XXX`` 11, ``DDD`` 13.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache
from itertools import combinations
from math import comb

from referee.rules.cards import ACE, BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, UNIT, key_of_counts
from referee.rules.combos import Kind, Play
from referee.rules.four_combos import (
    _OWN,
    _bits_of,
    _masks,
    _ranks_of,
    _runs,
    _solo_plays,
    trio_pairs,
)

#: Three packs (R13.1): 12 cards of each rank 3…2, three of each joker.
THREE_PACK_COUNTS: tuple[int, ...] = (12,) * 13 + (3, 3)
#: The most cards one play can have: the landlord's 26 + 6 (R13.2); 27 without a kitty.
MAX_PLAY_CARDS = 32
MAX_PLAY_CARDS_NO_KITTY = 27
_NO_JOKERS = (1 << SMALL_JOKER) - 1
_ALL_RANKS = (1 << NUM_RANKS) - 1

XXX = Play(Kind.JOKER_BOMB, SMALL_JOKER, 3, 3 * UNIT[SMALL_JOKER])
DDD = Play(Kind.JOKER_BOMB, BIG_JOKER, 3, 3 * UNIT[BIG_JOKER])
XXXDDD = Play(Kind.JOKER_BOMB, None, 6, 3 * UNIT[SMALL_JOKER] + 3 * UNIT[BIG_JOKER])


def fits_three_packs(counts: Sequence[int]) -> bool:
    """True if three packs can hold these cards (R13.1)."""
    return (
        len(counts) == NUM_RANKS
        and min(counts) >= 0
        and all(map(operator.le, counts, THREE_PACK_COUNTS))
    )


def classify_six(counts: Sequence[int], max_cards: int = MAX_PLAY_CARDS) -> Play | None:
    """The one reading of the rank counts under ``six_p``, or None if they are no combination
    (or more than three packs hold, or more than ``max_cards`` cards: 32, 27 without kitty)."""
    if not fits_three_packs(counts):
        return None
    total = sum(counts)
    if not 0 < total <= max_cards:
        return None
    key = key_of_counts(counts)
    held = [r for r in range(NUM_RANKS) if counts[r]]
    if len(held) == 1:
        return _one_rank(held[0], counts[held[0]], key)
    if key == XXXDDD.key:
        return XXXDDD
    sizes = {counts[r] for r in held}
    if len(sizes) == 1:  # every rank as often: a chain or nothing
        (size,) = sizes
        kind = {1: Kind.STRAIGHT, 2: Kind.PAIR_STRAIGHT, 3: Kind.AIRPLANE}.get(size)
        shortest = {1: 5, 2: 3, 3: 2}.get(size, 0)
        if kind is not None and len(held) >= shortest and _is_run(held):
            return Play(kind, held[-1], len(held), key)
        return None
    if sizes not in ({3, 1}, {3, 2}):
        return None
    body = [r for r in held if counts[r] == 3]
    wings = [r for r in held if counts[r] != 3]
    single = 1 in sizes
    if len(body) != len(wings):
        return None
    if len(body) == 1:
        if body[0] > TWO:  # no joker trio: XXX is a bomb
            return None
        return Play(Kind.TRIO_SINGLE if single else Kind.TRIO_PAIR, body[0], 1, key)
    if not _is_run(body):
        return None
    kind = Kind.AIRPLANE_SINGLES if single else Kind.AIRPLANE_PAIRS
    return Play(kind, body[-1], len(body), key)


def _one_rank(rank: int, count: int, key: int) -> Play | None:
    if count == 1:
        return Play(Kind.SINGLE, rank, 1, key)
    if count == 2:
        return Play(Kind.PAIR, rank, 1, key)
    if rank > TWO:  # XXX, DDD
        return (XXX if rank == SMALL_JOKER else DDD) if count == 3 else None
    if count == 3:
        return Play(Kind.TRIO, rank, 1, key)
    return Play(Kind.BOMB, rank, count, key)


def _is_run(ranks: Sequence[int]) -> bool:
    """Consecutive ranks within 3…A (R1.3: no 2, no joker)."""
    return ranks[-1] <= ACE and ranks[-1] - ranks[0] == len(ranks) - 1


def is_bomb(play: Play) -> bool:
    return play.kind is Kind.BOMB or play.kind is Kind.JOKER_BOMB


def _tier(play: Play) -> int:
    """The play's step on the bomb ladder (R13.7); a bomb of n cards is 2n."""
    if play.kind is Kind.BOMB:
        return 2 * play.length
    if play.rank is None:
        return 100  # XXXDDD
    return 11 if play.rank == SMALL_JOKER else 13


def beats_six(play: Play, previous: Play) -> bool:
    """R13.7: a bomb or joker bomb beats every other play and everything below it on the
    ladder (equal sizes by rank); otherwise the same kind and length with a higher rank."""
    if is_bomb(play):
        if not is_bomb(previous):
            return True
        return (_tier(play), play.rank or 0) > (_tier(previous), previous.rank or 0)
    return (
        play.kind is previous.kind
        and not is_bomb(previous)
        and play.length == previous.length
        and (play.rank or 0) > (previous.rank or 0)
    )


# --------------------------------------------------------------------------- legal plays
#: (shortest, longest) chain of each kind within 3…A; the card bound cuts airplanes further.
_CHAINS = {
    Kind.STRAIGHT: (1, 5, 12),
    Kind.PAIR_STRAIGHT: (2, 3, 12),
    Kind.AIRPLANE: (3, 2, 10),
}


def legal_plays_six(
    counts: Sequence[int], previous: Play | None = None, max_cards: int = MAX_PLAY_CARDS
) -> list[Play]:
    """Every ``six_p`` play from a hand of rank counts that leads (``previous`` None) or beats
    ``previous``, each rank multiset once, none longer than ``max_cards``. Raises ValueError
    for a hand three packs cannot hold."""
    if not fits_three_packs(counts):
        raise ValueError(f"three packs cannot hold these cards: {list(counts)}")
    _, m1, m2, m3, _m4 = masks = _masks(counts)
    trios = m3 & _NO_JOKERS
    if previous is None:
        out = [*_solo_plays(m1, 1), *_solo_plays(m2, 2), *_solo_plays(trios, 3)]
        for kind in _CHAINS:
            out += _chains(kind, masks, None, -1, max_cards)
        out += trio_singles(trios, m1)
        out += trio_pairs(trios, m2)
        if trios & trios >> 1:  # two adjacent trios: airplanes with wings
            for body in _runs(trios, 3, 2, 7):
                out += _with_wings(body, m1, 1, max_cards)
                out += _with_wings(body, m2, 2, max_cards)
        return out + _bombs(counts, None)
    if is_bomb(previous):
        return _bombs(counts, previous)
    above = previous.rank if previous.rank is not None else -1
    kind = previous.kind
    if kind is Kind.SINGLE or kind is Kind.PAIR or kind is Kind.TRIO:
        need = 1 if kind is Kind.SINGLE else 2 if kind is Kind.PAIR else 3
        mask = (m1, m2, trios)[need - 1] & ~((1 << (above + 1)) - 1)
        out = list(_solo_plays(mask, need))
    elif kind is Kind.TRIO_SINGLE or kind is Kind.TRIO_PAIR:
        higher = trios & ~((1 << (above + 1)) - 1)
        out = trio_singles(higher, m1) if kind is Kind.TRIO_SINGLE else trio_pairs(higher, m2)
    elif kind in _CHAINS:
        out = _chains(kind, masks, previous.length, above, max_cards)
    else:  # airplane with singles or pairs
        out = []
        n, wing = previous.length, 1 if kind is Kind.AIRPLANE_SINGLES else 2
        for body in _runs(trios, 3, n, n):
            if (body.rank or 0) > above:
                out += _with_wings(body, m1 if wing == 1 else m2, wing, max_cards)
    return out + _bombs(counts, None)


def _chains(
    kind: Kind, masks: tuple[int, ...], length: int | None, above: int, max_cards: int
) -> list[Play]:
    need, shortest, longest = _CHAINS[kind]
    longest = min(longest, max_cards // need)
    if length is not None:
        if length > longest:
            return []
        shortest = longest = length
    mask = masks[need] & (_NO_JOKERS if need == 3 else _ALL_RANKS)
    return [p for p in _runs(mask, need, shortest, longest) if (p.rank or 0) > above]


def trio_singles(trios: int, singles: int) -> list[Play]:
    """Trio + single for every trio rank of ``trios`` and every rank of ``singles`` (another
    rank, a joker allowed): one table lookup a play."""
    wings = _ranks_of(singles)
    out: list[Play] = []
    for t in _ranks_of(trios):
        row = _TRIO_SINGLES[t]
        out += [row[s] for s in wings if s != t]
    return out


#: For each trio rank 3…2 and each rank, the trio + single of that rank (``_OWN``: never listed).
_TRIO_SINGLES = tuple(
    tuple(
        Play(Kind.TRIO_SINGLE, t, 1, 3 * UNIT[t] + UNIT[s]) if s != t else _OWN[t]
        for s in range(NUM_RANKS)
    )
    for t in range(TWO + 1)
)


def _with_wings(body: Play, wings: int, size: int, max_cards: int) -> list[Play]:
    """The airplanes on ``body`` (a plain airplane) with ``size``-card wings of the ranks of
    ``wings`` (none a body rank), within ``max_cards``: the table of every such airplane
    filtered by a mask test, or the hand's own combinations of wing ranks looked up when they
    are far fewer (same plays, same order)."""
    top, n = body.rank or 0, body.length
    if n * (3 + size) > max_cards:
        return []
    wings &= ~(((1 << n) - 1) << (top - n + 1))
    table = _all_winged(top, n, size)
    bits = _bits_of(wings)
    if 4 * comb(len(bits), n) < len(table):
        plays = _winged_of_mask(top, n, size)
        return [plays[sum(chosen)] for chosen in combinations(bits, n)]
    holes = _ALL_RANKS & ~wings
    return [play for mask, play in table if not mask & holes]


@cache
def _winged_of_mask(top: int, n: int, size: int) -> dict[int, Play]:
    return dict(_all_winged(top, n, size))


@cache
def _all_winged(top: int, n: int, size: int) -> tuple[tuple[int, Play], ...]:
    """(mask of the wing ranks, play) of every airplane with ``size``-card wings on the ``n``
    trios up to ``top``, by wing ranks (built when first met)."""
    lo = top - n + 1
    base = 3 * sum(UNIT[r] for r in range(lo, top + 1))
    kind = Kind.AIRPLANE_SINGLES if size == 1 else Kind.AIRPLANE_PAIRS
    out = []
    for chosen in combinations([r for r in range(NUM_RANKS) if not lo <= r <= top], n):
        key = base + size * sum(UNIT[r] for r in chosen)
        out.append((sum(1 << r for r in chosen), Play(kind, top, n, key)))
    return tuple(out)


def _bombs(counts: Sequence[int], previous: Play | None) -> list[Play]:
    """Every bomb and joker bomb the hand holds, above ``previous`` on the ladder if given."""
    out = [
        _bomb(r, size) for r in range(TWO + 1) if counts[r] >= 4 for size in range(4, counts[r] + 1)
    ]
    x, d = counts[SMALL_JOKER], counts[BIG_JOKER]
    if x == 3:
        out.append(XXX)
    if d == 3:
        out.append(DDD)
    if x == 3 and d == 3:
        out.append(XXXDDD)
    if previous is None:
        return out
    bar = (_tier(previous), previous.rank or 0)
    return [p for p in out if (_tier(p), p.rank or 0) > bar]


@cache
def _bomb(rank: int, size: int) -> Play:
    return Play(Kind.BOMB, rank, size, size * UNIT[rank])
