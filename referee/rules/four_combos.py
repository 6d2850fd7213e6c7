"""Combinations of ``four_p``, four players with two packs (SPEC §11.1, PROTOCOL-variants §1).

Kinds: single, pair (``XX`` and ``DD`` are pairs, ``XD`` is not), trio, trio + pair, straight,
pair chain, airplane, airplane + pairs, bombs of 4 to 8 cards, and the four jokers
(``joker_bomb``). No trio + single, no four with kickers, no rocket (R11.1.4). A multiset has at
most one reading, so ``classify_four`` works straight from the rank counts (no table), and
``legal_plays_four`` lists each rank multiset once. A bomb's ``length`` is its number of cards.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations
from math import comb

from referee.rules.cards import ACE, BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, UNIT, key_of_counts
from referee.rules.combos import Kind, Play

#: Two packs (R11.1.1): 8 cards of each rank 3…2, two of each joker.
TWO_PACK_COUNTS: tuple[int, ...] = (8,) * 13 + (2, 2)
#: The most cards one play can have: the landlord's 25 + 8 (PROTOCOL-variants §1.1).
MAX_PLAY_CARDS = 33
#: Chains (cards per rank, shortest, longest) within 3…A; the longest airplane has 11 trios
#: (33 cards), the longest airplane with pairs 6 trios and 6 pairs (30 cards).
CHAINS: dict[Kind, tuple[int, int, int]] = {
    Kind.STRAIGHT: (1, 5, 12),
    Kind.PAIR_STRAIGHT: (2, 3, 12),
    Kind.AIRPLANE: (3, 2, 11),
    Kind.AIRPLANE_PAIRS: (3, 2, 6),
}
JOKER_BOMB_KEY = 2 * UNIT[SMALL_JOKER] + 2 * UNIT[BIG_JOKER]
_JOKER_BOMB = Play(Kind.JOKER_BOMB, None, 4, JOKER_BOMB_KEY)


def fits_two_packs(counts: Sequence[int]) -> bool:
    """True if two packs can hold these cards (R11.1.1)."""
    return (
        len(counts) == NUM_RANKS
        and min(counts) >= 0
        and all(map(operator.le, counts, TWO_PACK_COUNTS))
    )


def classify_four(counts: Sequence[int]) -> Play | None:
    """The one reading of the rank counts under ``four_p``, or None if they are no combination
    (or more than two packs hold, or more than 33 cards)."""
    if not fits_two_packs(counts):
        return None
    total = sum(counts)
    if not 0 < total <= MAX_PLAY_CARDS:
        return None
    key = key_of_counts(counts)
    held = [r for r in range(NUM_RANKS) if counts[r]]
    if len(held) == 1:
        return _one_rank(held[0], counts[held[0]], key)
    if key == JOKER_BOMB_KEY:
        return _JOKER_BOMB
    sizes = {counts[r] for r in held}
    if len(sizes) == 1:  # every rank as often: a chain or nothing
        (size,) = sizes
        for kind, (need, shortest, longest) in CHAINS.items():
            chain = need == size and kind is not Kind.AIRPLANE_PAIRS
            if chain and shortest <= len(held) <= longest and _is_run(held):
                return Play(kind, held[-1], len(held), key)
        return None
    if sizes != {2, 3}:
        return None
    body = [r for r in held if counts[r] == 3]
    wings = [r for r in held if counts[r] == 2]
    if len(body) == 1 and len(wings) == 1:
        return Play(Kind.TRIO_PAIR, body[0], 1, key) if body[0] <= TWO else None
    if len(body) != len(wings) or not 2 <= len(body) <= 6 or not _is_run(body):
        return None
    if SMALL_JOKER in wings and BIG_JOKER in wings:  # would split the four-joker bomb
        return None
    return Play(Kind.AIRPLANE_PAIRS, body[-1], len(body), key)


def _one_rank(rank: int, count: int, key: int) -> Play | None:
    if count == 1:
        return Play(Kind.SINGLE, rank, 1, key)
    if count == 2:
        return Play(Kind.PAIR, rank, 1, key)
    if rank > TWO:  # no joker trio
        return None
    if count == 3:
        return Play(Kind.TRIO, rank, 1, key)
    return Play(Kind.BOMB, rank, count, key)


def _is_run(ranks: Sequence[int]) -> bool:
    """Consecutive ranks within 3…A (R1.3: no 2, no joker)."""
    return ranks[-1] <= ACE and ranks[-1] - ranks[0] == len(ranks) - 1


def is_bomb(play: Play) -> bool:
    return play.kind is Kind.BOMB or play.kind is Kind.JOKER_BOMB


def beats_four(play: Play, previous: Play) -> bool:
    """R11.1.5: the four jokers beat everything; a bomb beats every other play and, of two
    bombs, the one with more cards wins, then the higher rank; otherwise the same kind and
    length with a higher rank."""
    if previous.kind is Kind.JOKER_BOMB:
        return False
    if play.kind is Kind.JOKER_BOMB:
        return True
    if play.kind is Kind.BOMB:
        if previous.kind is not Kind.BOMB:
            return True
        return (play.length, play.rank or 0) > (previous.length, previous.rank or 0)
    return (
        play.kind is previous.kind
        and play.length == previous.length
        and (play.rank or 0) > (previous.rank or 0)
    )


# --------------------------------------------------------------------------- legal plays
def legal_plays_four(counts: Sequence[int], previous: Play | None = None) -> list[Play]:
    """Every ``four_p`` play from a hand of rank counts that leads (``previous`` None) or
    beats ``previous``, each rank multiset once. Raises ValueError for a hand two packs
    cannot hold."""
    if not fits_two_packs(counts):
        raise ValueError(f"two packs cannot hold these cards: {list(counts)}")
    masks = _masks(counts)
    if previous is None:
        _, m1, m2, m3, m4 = masks
        trios = m3 & _NO_JOKERS
        leads = [*_leads(m1, 1), *_leads(m2, 2), *_leads(trios, 3)]
        leads += trio_pairs(trios, m2)
        if trios & trios >> 1:  # two adjacent trios: airplanes with pairs
            for body in _runs(trios, 3, _PLANE_SHORTEST, _PLANE_LONGEST):
                leads += _with_pairs(body, m2)
        if m4:
            leads += _bombs(counts, m4)
        if counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2:
            leads.append(_JOKER_BOMB)
        return leads
    if previous.kind is Kind.JOKER_BOMB:
        return []
    if previous.kind is Kind.BOMB:
        size, rank = previous.length, previous.rank if previous.rank is not None else -1
        out = [p for p in _bombs(counts, masks[4]) if (p.length, p.rank or 0) > (size, rank)]
    else:
        above = previous.rank if previous.rank is not None else -1
        out = _of_kind(previous.kind, counts, masks, previous.length, above)
        out += _bombs(counts, masks[4])
    if counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2:
        out.append(_JOKER_BOMB)
    return out


def _masks(counts: Sequence[int]) -> tuple[int, int, int, int, int]:
    """Rank masks of the ranks held at least 0 (unused), 1, 2, 3 and 4 times."""
    m1 = m2 = m3 = m4 = 0
    for r, c in enumerate(counts):
        if c:
            bit = 1 << r
            m1 |= bit
            if c >= 2:
                m2 |= bit
                if c >= 3:
                    m3 |= bit
                    if c >= 4:
                        m4 |= bit
    return 0, m1, m2, m3, m4


def _of_kind(
    kind: Kind,
    counts: Sequence[int],
    masks: tuple[int, int, int, int, int],
    length: int | None,
    above: int,
) -> list[Play]:
    """The plays of one kind the hand holds, of ``length`` (any if None), rank above ``above``."""
    if kind is Kind.SINGLE:
        return [p for p in _solo_plays(masks[1], 1) if p.rank is not None and p.rank > above]
    if kind is Kind.PAIR:
        return [p for p in _solo_plays(masks[2], 2) if p.rank is not None and p.rank > above]
    if kind is Kind.TRIO:
        trios = masks[3] & _NO_JOKERS
        return [p for p in _solo_plays(trios, 3) if p.rank is not None and p.rank > above]
    if kind is Kind.TRIO_PAIR:
        return trio_pairs(masks[3] & _NO_JOKERS & ~((1 << (above + 1)) - 1), masks[2])
    if kind is Kind.BOMB:
        return _bombs(counts, masks[4])
    if kind is Kind.JOKER_BOMB:
        jokers = counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2
        return [_JOKER_BOMB] if jokers and above < 0 else []
    need, shortest, longest = CHAINS[kind]
    if length is not None:
        shortest = longest = length
    bodies = _runs(masks[need], need, shortest, longest)
    if kind is not Kind.AIRPLANE_PAIRS:
        return [p for p in bodies if (p.rank or 0) > above]
    out: list[Play] = []
    for body in bodies:
        if (body.rank or 0) > above:
            out += _with_pairs(body, masks[2])
    return out


@lru_cache(maxsize=1 << 12)
def _leads(mask: int, need: int) -> tuple[Play, ...]:
    """The plain leads of ``need`` cards per rank over ``mask``: singles and straights, pairs
    and pair chains, or trios and airplanes."""
    kind = {1: Kind.STRAIGHT, 2: Kind.PAIR_STRAIGHT, 3: Kind.AIRPLANE}[need]
    _, shortest, longest = CHAINS[kind]
    return _solo_plays(mask, need) + _runs(mask, need, shortest, longest)


_, _PLANE_SHORTEST, _PLANE_LONGEST = CHAINS[Kind.AIRPLANE_PAIRS]


def _with_pairs(body: Play, pairs: int) -> list[Play]:
    """The airplanes with pairs on ``body`` (a plain airplane) whose wings ``pairs`` allows."""
    top, n = body.rank or 0, body.length
    return _airplanes_on(top, n, pairs & ~(((1 << n) - 1) << (top - n + 1)))


def _airplanes_on(top: int, n: int, wings: int) -> list[Play]:
    """The airplanes with pairs on the ``n`` trios up to ``top`` with ``n`` pairs of the ranks
    of ``wings``: every such airplane of two packs less those that need a rank ``wings`` lacks
    (a mask test each), or, when the hand's combinations of pairs are far fewer than the table
    (a 24-card five_p hand holds fewer pairs than a 33-card four_p one), those combinations
    looked up (same plays, same order)."""
    table = _airplanes_with(top, n, wings & _JOKERS)
    bits = _bits_of(wings)
    if 4 * comb(len(bits), n) < len(table):
        plays = _airplane_of_mask(top, n)
        found = (plays.get(sum(chosen)) for chosen in combinations(bits, n))
        return [play for play in found if play is not None]
    holes = _ALL_RANKS & ~wings
    return [play for mask, play in table if not mask & holes]


@cache
def _bits_of(mask: int) -> tuple[int, ...]:
    """The one-bit masks of the ranks of ``mask``, low to high."""
    return tuple(1 << r for r in range(NUM_RANKS) if mask >> r & 1)


@cache
def _airplane_of_mask(top: int, n: int) -> dict[int, Play]:
    """``_all_airplanes_on`` by the mask of its pair ranks."""
    return dict(_all_airplanes_on(top, n))


_ALL_RANKS = (1 << NUM_RANKS) - 1
_JOKERS = 1 << SMALL_JOKER | 1 << BIG_JOKER


@cache
def _airplanes_with(top: int, n: int, jokers: int) -> tuple[tuple[int, Play], ...]:
    """``_all_airplanes_on`` less those with a pair of jokers not in ``jokers``: most hands
    hold neither ``XX`` nor ``DD``, and so skip about half of the airplanes without a look."""
    absent = _JOKERS & ~jokers
    return tuple(entry for entry in _all_airplanes_on(top, n) if not entry[0] & absent)


@cache
def _all_airplanes_on(top: int, n: int) -> tuple[tuple[int, Play], ...]:
    """(mask of the pair ranks, play) of every airplane with pairs on the ``n`` trios up to
    ``top``, in the order of their pair ranks (some 8,000 over all bodies, each body's built
    when first met)."""
    lo = top - n + 1
    base = _chain(3, top, n).key
    out = []
    for chosen in combinations([r for r in range(NUM_RANKS) if not lo <= r <= top], n):
        if SMALL_JOKER in chosen and BIG_JOKER in chosen:
            continue  # XX with DD would be the four jokers
        mask = sum(1 << r for r in chosen)
        out.append(
            (mask, Play(Kind.AIRPLANE_PAIRS, top, n, base + 2 * sum(UNIT[r] for r in chosen)))
        )
    return tuple(out)


_NO_JOKERS = (1 << SMALL_JOKER) - 1


@lru_cache(maxsize=1 << 12)
def _solo_plays(mask: int, need: int) -> tuple[Play, ...]:
    table = _SOLO_OF_RANK[need]
    return tuple([table[r] for r in _ranks_of(mask)])


#: For 1, 2 and 3 cards of one rank: (bit of the rank, the single, pair or trio) of each rank.
_SOLOS = {
    need: tuple((1 << r, Play(kind, r, 1, need * UNIT[r])) for r in range(NUM_RANKS))
    for need, kind in ((1, Kind.SINGLE), (2, Kind.PAIR), (3, Kind.TRIO))
}
_SOLO_OF_RANK = {need: tuple(play for _, play in solos) for need, solos in _SOLOS.items()}


def trio_pairs(trios: int, pairs: int) -> list[Play]:
    """Trio + pair for every trio rank of ``trios`` (3…2) and every pair rank of ``pairs``
    (another rank): one table lookup a play."""
    wings = _ranks_of(pairs)
    out: list[Play] = []
    for t in _ranks_of(trios):
        row = _TRIO_PAIRS[t]
        out += [row[p] for p in wings if p != t]
    return out


@cache
def _ranks_of(mask: int) -> tuple[int, ...]:
    """The ranks of a rank mask, low to high (at most 2^15 masks)."""
    return tuple(r for r in range(NUM_RANKS) if mask >> r & 1)


#: The trio alone, in the slot of its own rank in the tables below (never listed: a wing is of
#: another rank).
_OWN = tuple(Play(Kind.TRIO, t, 1, 3 * UNIT[t]) for t in range(TWO + 1))
#: For each trio rank 3…2 and each rank, the trio + pair with a pair of that rank.
_TRIO_PAIRS = tuple(
    tuple(
        Play(Kind.TRIO_PAIR, t, 1, 3 * UNIT[t] + 2 * UNIT[p]) if p != t else _OWN[t]
        for p in range(NUM_RANKS)
    )
    for t in range(TWO + 1)
)


@lru_cache(maxsize=1 << 12)
def _runs(mask: int, need: int, shortest: int, longest: int) -> tuple[Play, ...]:
    """Chains of ``need`` cards per rank, ``shortest``..``longest`` ranks long, within 3…A, by
    top rank then length."""
    out: list[Play] = []
    streak = 0
    chains = _CHAIN_TABLE[need]
    for top in range(ACE + 1):  # each maximal run of the mask gives its chains, as they end
        if mask >> top & 1:
            streak += 1
            if streak >= shortest:
                out += chains[top][shortest : min(streak, longest) + 1]
        else:
            streak = 0
    return tuple(out)


@cache
def _all_runs(need: int, shortest: int, longest: int) -> tuple[tuple[int, Play], ...]:
    """(mask of the ranks, chain) of every chain ``_runs`` may list, in its order."""
    return tuple(
        (((1 << n) - 1) << (top - n + 1), _chain(need, top, n))
        for top in range(ACE + 1)
        for n in range(shortest, min(top + 1, longest) + 1)
    )


@cache
def _chain(need: int, top: int, n: int) -> Play:
    """The chain of ``n`` ranks up to ``top``, ``need`` cards of each."""
    kind = {1: Kind.STRAIGHT, 2: Kind.PAIR_STRAIGHT, 3: Kind.AIRPLANE}[need]
    return Play(kind, top, n, sum(need * UNIT[r] for r in range(top - n + 1, top + 1)))


#: ``_chain(need, top, n)`` as ``_CHAIN_TABLE[need][top][n]`` (n = 1 … top + 1; index 0 unused).
_CHAIN_TABLE = {
    need: tuple(tuple(_chain(need, top, n) for n in range(top + 2)) for top in range(ACE + 1))
    for need in (1, 2, 3)
}


def _bombs(counts: Sequence[int], fours: int) -> list[Play]:
    """Every bomb the hand holds: 4 up to all its cards of each rank 3…2."""
    out = []
    for r in range(TWO + 1):
        if fours >> r & 1:
            for size in range(4, counts[r] + 1):
                out.append(_bomb(r, size))
    return out


@cache
def _bomb(rank: int, size: int) -> Play:
    return Play(Kind.BOMB, rank, size, size * UNIT[rank])
