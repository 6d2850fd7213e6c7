"""Reference generators of the variants' legal plays (SPEC §11), kept to test the fast ones.

``laizi_plays``: the ``laizi`` generator the library had before it was built by structure
(every declared multiset a hand can make, from the ``comp2016`` table, each spent in every way
that puts spare wild cards in place of natural ones, kept per play with its canonical
declaration). ``four_plays``: the ``four_p`` plays kind by kind, straight from the rank counts,
no cache, in the order the library lists them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from referee.rules.cards import (
    ACE,
    BIG_JOKER,
    KEY_BITS,
    NUM_RANKS,
    SMALL_JOKER,
    TWO,
    UNIT,
    key_of_counts,
)
from referee.rules.combos import Kind, Play
from referee.rules.laizi import (
    _ANSWER_KINDS,
    WILD_CARDS,
    WildPlay,
    _beats,
    _bomb_class,
    _lower,
    _swaps,
    _topped,
    _wild_play,
)
from referee.rules.moves import legal_plays
from referee.rules.patterns import ALL_KINDS, PLAIN, Pool, bodies, wings
from referee.rules.profiles import COMP2016
from referee.rules.table import play_table

_BOMB = Kind.BOMB


def laizi_plays(hand: Sequence[int], wild: int, previous: Play | None = None) -> list[WildPlay]:
    """Every distinct ``laizi`` play of a hand (15 rank counts) that leads or beats
    ``previous``: plays differ by the cards spent or by the kind, rank or length they stand
    for; each with its canonical declaration (PROTOCOL-variants §2.3: the fewest wild cards
    standing for another rank, then the lowest declared cards).

    The declared multisets are the ``comp2016`` plays of the hand's natural cards topped up
    with its wild cards (every rank 3…2 up to four); each is made with as many natural cards
    as the hand has (the shortfall from wild cards), then in every way that puts spare wild
    cards in place of natural ones."""
    wilds = hand[wild]
    natural = list(hand)
    natural[wild] = 0
    plain = None if previous is None or previous.kind is Kind.BOMB else previous
    table = play_table(COMP2016)
    candidates: Iterable[tuple[int, tuple[Play, ...]]]
    if previous is not None and previous.kind is Kind.ROCKET:
        return []
    if wilds:
        kinds = ALL_KINDS if previous is None else _ANSWER_KINDS.get(previous.kind, ALL_KINDS)
        candidates = _candidates(natural, wilds, table, kinds)
    else:
        found = legal_plays(hand, plain, COMP2016)
        candidates = [(p.key, table[p.key]) for p in found]
    natural_key = key_of_counts(natural)
    wild_unit, wild_shift = UNIT[wild], KEY_BITS * wild
    # ident (cards spent, kind, rank, length) -> (wild cards changed, declared key, reading, used)
    best: dict[tuple[int, Kind, int | None, int], tuple[int, int, Play, int]] = {}
    for declared, found_readings in candidates:
        short = (declared | _EIGHTS) - natural_key  # each field 8 + declared - natural
        short &= ((short & _EIGHTS) >> 3) * 7  # the fields where declared >= natural
        if short & _JOKER_FIELDS:  # a joker the hand does not hold: no wild card stands for it
            continue
        needed = ((short & _LOW_FIELDS) + (short >> KEY_BITS & _LOW_FIELDS)) % 255
        if needed > wilds:
            continue
        taken = declared - short  # the natural cards used, as many as the hand has
        spendings: tuple[tuple[int, int], ...] = ((0, 0),)
        if needed < wilds and taken:
            spendings = _swaps(taken, wilds - needed)
        own = declared >> wild_shift & 0xF
        for swapped, moved in spendings:
            used = needed + moved
            cards = taken - swapped + used * wild_unit
            if used == 1 and cards == wild_unit and declared != cards:
                continue  # a wild card alone stands for itself
            changed = used - own
            for reading in found_readings:
                kind, rank = reading.kind, reading.rank
                if kind is _BOMB and used == WILD_CARDS:
                    rank = wild  # the pure-wild bomb (Q20)
                if previous is not None and not _beats(
                    kind, rank, reading.length, _bomb_class(kind, used), previous
                ):
                    continue
                ident = (cards, kind, rank, reading.length)
                kept = best.get(ident)
                if kept is not None and (
                    kept[0] < changed or (kept[0] == changed and not _lower(declared, kept[1]))
                ):
                    continue
                best[ident] = (changed, declared, reading, used)
    return [
        _wild_play(reading, cards, used, wild)
        for (cards, _, _, _), (_, _, reading, used) in best.items()
    ]


#: Bit 3 of every rank's field in a multiset key, and the low field of every byte.
_EIGHTS = sum(8 << (KEY_BITS * r) for r in range(NUM_RANKS))
_LOW_FIELDS = sum(0xF << (2 * KEY_BITS * r) for r in range(8))
_JOKER_FIELDS = 0xF << (KEY_BITS * SMALL_JOKER) | 0xF << (KEY_BITS * BIG_JOKER)


def _shortfall(declared: int, natural_key: int) -> int:
    """How many of the declared cards the natural cards cannot give (-1 for a joker not
    held: no wild card stands for a joker). Counts are at most 4, so each 4-bit field of
    ``(declared | 8s) - natural`` is 8 + declared - natural, with bit 3 set where declared >=
    natural; the deficits are then summed byte-wise."""
    short = (declared | _EIGHTS) - natural_key
    short &= ((short & _EIGHTS) >> 3) * 7
    if short & _JOKER_FIELDS:
        return -1
    return ((short & _LOW_FIELDS) + (short >> KEY_BITS & _LOW_FIELDS)) % 255


def _candidates(
    natural: list[int],
    wilds: int,
    table: dict[int, tuple[Play, ...]],
    kinds: Iterable[Kind] = ALL_KINDS,
) -> list[tuple[int, tuple[Play, ...]]]:
    """The declared multisets of ``kinds`` a hand with ``wilds`` wild cards can make, with
    their readings: bodies from the natural cards topped up with the wild cards, each body's
    wings only from what the wild cards it left can top up (bodies and wings never share a
    rank), then the exact shortfall."""
    natural_key = key_of_counts(natural)
    topped = [Pool(_topped(natural, budget)) for budget in range(wilds + 1)]
    seen: set[int] = set()
    out: list[tuple[int, tuple[Play, ...]]] = []
    for kind in kinds:
        for top, n, body_key in bodies(topped[wilds], kind, COMP2016):
            body_short = _shortfall(body_key, natural_key)
            if not 0 <= body_short <= wilds:
                continue
            if kind in PLAIN:
                keys: Iterable[int] = (body_key,)
            else:
                spare_pool = topped[wilds - body_short]
                keys = [body_key + w for w in wings(spare_pool, kind, COMP2016, top, n)]
            for declared in keys:
                if declared in seen:
                    continue
                short = _shortfall(declared, natural_key)
                if 0 <= short <= wilds:
                    seen.add(declared)
                    out.append((declared, table[declared]))
    return out


# --------------------------------------------------------------------------- four_p
#: (cards per rank, kind of one rank, kind of a run, shortest run, longest run) (R11.1.4).
_FOUR_PLAIN = (
    (1, Kind.SINGLE, Kind.STRAIGHT, 5, 12),
    (2, Kind.PAIR, Kind.PAIR_STRAIGHT, 3, 12),
    (3, Kind.TRIO, Kind.AIRPLANE, 2, 11),
)


def four_plays(counts: Sequence[int], previous: Play | None = None) -> list[Play]:
    """Every ``four_p`` play of the rank counts that leads or beats ``previous`` (R11.1.4,
    R11.1.5), each rank multiset once: singles and straights, pairs and pair chains, trios and
    airplanes, trio + pair, airplanes with pairs, bombs, the four jokers."""
    jokers = counts[SMALL_JOKER] == 2 and counts[BIG_JOKER] == 2
    joker_bomb = Play(Kind.JOKER_BOMB, None, 4, 2 * UNIT[SMALL_JOKER] + 2 * UNIT[BIG_JOKER])
    plays = [*_four_plain(counts), *_trio_pairs(counts), *_airplanes_pairs(counts)]
    bombs = [
        Play(Kind.BOMB, r, size, size * UNIT[r])
        for r in range(TWO + 1)
        for size in range(4, counts[r] + 1)
    ]
    if previous is None:
        return plays + bombs + ([joker_bomb] if jokers else [])
    if previous.kind is Kind.JOKER_BOMB:
        return []
    if previous.kind is Kind.BOMB:
        beaten = (previous.length, previous.rank or 0)
        out = [b for b in bombs if (b.length, b.rank or 0) > beaten]
    else:
        out = [
            p
            for p in plays
            if p.kind is previous.kind
            and p.length == previous.length
            and (p.rank or 0) > (previous.rank or 0)
        ]
        out += bombs
    return out + ([joker_bomb] if jokers else [])


def _four_plain(counts: Sequence[int]) -> Iterable[Play]:
    for need, solo, chain, shortest, longest in _FOUR_PLAIN:
        held = [r for r in range(NUM_RANKS) if counts[r] >= need and (need < 3 or r <= TWO)]
        yield from (Play(solo, r, 1, need * UNIT[r]) for r in held)
        yield from _runs(held, need, chain, shortest, longest)


def _runs(held: list[int], need: int, kind: Kind, shortest: int, longest: int) -> Iterable[Play]:
    """Runs within 3…A, by top rank then length."""
    for top in range(ACE + 1):
        n = 0
        while top - n >= 0 and top - n in held and n < longest:
            n += 1
            if n >= shortest:
                key = sum(need * UNIT[r] for r in range(top - n + 1, top + 1))
                yield Play(kind, top, n, key)


def _trio_pairs(counts: Sequence[int]) -> Iterable[Play]:
    for t in range(TWO + 1):
        if counts[t] >= 3:
            for p in range(NUM_RANKS):
                if p != t and counts[p] >= 2:
                    yield Play(Kind.TRIO_PAIR, t, 1, 3 * UNIT[t] + 2 * UNIT[p])


def _airplanes_pairs(counts: Sequence[int]) -> Iterable[Play]:
    """Airplanes of 2 to 6 trios with as many pairs of other ranks, never ``XX`` with ``DD``."""
    trios = [r for r in range(TWO + 1) if counts[r] >= 3]
    for body in _runs(trios, 3, Kind.AIRPLANE, 2, 6):
        top, n = body.rank or 0, body.length
        pairs = [r for r in range(NUM_RANKS) if counts[r] >= 2 and not top - n < r <= top]
        for chosen in combinations(pairs, n):
            if SMALL_JOKER in chosen and BIG_JOKER in chosen:
                continue
            key = body.key + sum(2 * UNIT[r] for r in chosen)
            yield Play(Kind.AIRPLANE_PAIRS, top, n, key)
