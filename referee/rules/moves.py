"""Legal plays of a hand, as a lead or as an answer to the top play (SPEC R5.2, R5.21).

Each distinct rank multiset appears once, as its table reading (for an answer: the reading that
beats the top play). Passing is never listed; the hand state adds it.

The plays of a kind whose cards depend only on *which* ranks a hand holds (singles, pairs,
trios, chains, a trio's kicker) are kept per rank mask in small bounded caches, so that the
referee console can list a hand's plays at every turn without redoing that work.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from referee.rules.cards import UNIT
from referee.rules.combos import Kind, Play, beats
from referee.rules.patterns import (
    ALL_KINDS,
    PLAIN,
    ROCKET_KEY,
    Pool,
    bodies,
    body_need,
    kicker_keys,
    mask_bodies,
    wings,
)
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.table import Readings, play_table, preferred_plays, unique_readings

_MASK_KINDS = tuple(k for k in ALL_KINDS if k in PLAIN and k is not Kind.ROCKET)
_COUNT_KINDS = (
    Kind.FOUR_TWO_SINGLES,
    Kind.FOUR_TWO_PAIRS,
    Kind.AIRPLANE_SINGLES,
    Kind.AIRPLANE_PAIRS,
)
_CACHE_SIZE = 1 << 15


def legal_plays(
    counts: Sequence[int], previous: Play | None = None, profile: RuleProfile = COMP2016
) -> list[Play]:
    """Every legal play from a hand given as rank counts (15 ints)."""
    pool = Pool(counts)
    if previous is not None:
        return _answers(pool, previous, profile, play_table(profile))
    best = preferred_plays(profile)
    masks = pool.masks
    out: list[Play] = []
    for kind in _MASK_KINDS:
        out += _plain_plays(profile, kind, masks[body_need(kind)])
    for top in _trio_ranks(masks[3]):
        out += _kicker_plays(profile, Kind.TRIO_SINGLE, top, masks[1])
        out += _kicker_plays(profile, Kind.TRIO_PAIR, top, masks[2])
    if bodies(pool, Kind.ROCKET, profile):
        out.append(best[ROCKET_KEY])
    for winged in _COUNT_KINDS:
        for top, n, body_key in bodies(pool, winged, profile):
            out += [best[body_key + w] for w in wings(pool, winged, profile, top, n)]
    if not unique_readings(profile):  # a multiset read two ways must still come once
        out = list({play.key: play for play in reversed(out)}.values())
    return out


@lru_cache(maxsize=_CACHE_SIZE)
def _plain_plays(profile: RuleProfile, kind: Kind, mask: int) -> tuple[Play, ...]:
    best = preferred_plays(profile)
    return tuple(best[key] for _, _, key in mask_bodies(kind, mask, profile))


@lru_cache(maxsize=_CACHE_SIZE)
def _kicker_plays(profile: RuleProfile, kind: Kind, top: int, mask: int) -> tuple[Play, ...]:
    best = preferred_plays(profile)
    body = 3 * UNIT[top]
    return tuple(best[body + k] for k in kicker_keys(kind, top, mask & ~(1 << top)))


@lru_cache(maxsize=1 << 13)
def _trio_ranks(mask: int) -> tuple[int, ...]:
    return tuple(r for r in range(13) if mask >> r & 1)


def _answers(
    pool: Pool, previous: Play, profile: RuleProfile, table: dict[int, Readings]
) -> list[Play]:
    if previous.kind is Kind.ROCKET:
        return []
    out: dict[int, Play] = {}
    above = previous.rank if previous.rank is not None else -1
    if previous.kind is not Kind.BOMB:
        kind = previous.kind
        for top, n, body_key in bodies(pool, kind, profile, length=previous.length, above=above):
            for wing_key in wings(pool, kind, profile, top, n):
                key = body_key + wing_key
                if key not in out:
                    out[key] = _beating_reading(table[key], previous)
        above = -1
    for _, _, key in bodies(pool, Kind.BOMB, profile, above=above):
        out.setdefault(key, table[key][0])
    if bodies(pool, Kind.ROCKET, profile):
        out.setdefault(ROCKET_KEY, table[ROCKET_KEY][0])
    return list(out.values())


def _beating_reading(found: Readings, previous: Play) -> Play:
    for play in found:
        if beats(play, previous):
            return play
    raise AssertionError("a generated answer must beat the previous play")
