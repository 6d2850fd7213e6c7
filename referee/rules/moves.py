"""Legal plays of a hand, as a lead or as an answer to the top play (SPEC R5.2, R5.21).

Each distinct rank multiset appears once, as its table reading (for an answer: the reading that
beats the top play). Passing is never listed; the hand state adds it.

The plays of the kinds whose cards depend only on *which* ranks a hand holds (singles, pairs,
trios, bombs and their chains) are kept per rank mask in a small bounded memo, and every
possible trio + kicker is listed once per profile, so that the referee console can list a
hand's plays at every turn without redoing that work.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from referee.rules.cards import ACE, UNIT
from referee.rules.combos import Kind, Play, first_beating
from referee.rules.patterns import (
    ALL_KINDS,
    PLAIN,
    ROCKET_KEY,
    Pool,
    bodies,
    body_need,
    kicker_units,
    mask_bodies,
    wings,
)
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.table import play_table, preferred_plays, unique_readings

_MASK_KINDS = tuple(k for k in ALL_KINDS if k in PLAIN and k is not Kind.ROCKET)
_FOUR_KINDS = (Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS)
_AIRPLANE_KINDS = (Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS)
#: Ranks 3…K: where a run of two ranks within 3…A can start.
_RUN_STARTS = (1 << ACE) - 1
#: The plain kinds by cards per body rank: their plays depend on one rank mask only.
_MASK_KINDS_BY_NEED = {
    need: tuple(k for k in _MASK_KINDS if body_need(k) == need) for need in (1, 2, 3, 4)
}
_MEMO_LIMIT = 1 << 16


def legal_plays(
    hand: int | Sequence[int], previous: Play | None = None, profile: RuleProfile = COMP2016
) -> list[Play]:
    """Every legal play from a hand: a multiset key (``cards.key_of``) or 15 rank counts."""
    pool = Pool(hand)
    if previous is not None:
        return _answers(pool, previous, _memo(profile))
    memo = _memo(profile)
    masks = pool.masks
    m1, m2, m3 = masks[1], masks[2], masks[3]
    out = [*memo[m1 << 3 | 1], *memo[m2 << 3 | 2], *memo[m3 << 3 | 3]]
    if masks[4]:
        out += memo[masks[4] << 3 | 4]
    best = memo.best
    for top in _ranks_of(m3):
        singles, pairs = memo.trio_kickers[top]
        out += [play for bit, play in singles if m1 & bit]
        out += [play for bit, play in pairs if m2 & bit]
    if pool.key & ROCKET_KEY == ROCKET_KEY:
        out.append(best[ROCKET_KEY])
    # wings depend on the exact counts; most hands have no four and no two adjacent trios
    winged_kinds = (_FOUR_KINDS if masks[4] else ()) + (
        _AIRPLANE_KINDS if m3 & m3 >> 1 & _RUN_STARTS else ()
    )
    for winged in winged_kinds:
        for top, n, body_key in bodies(pool, winged, profile):
            out += [best[body_key + w] for w in wings(pool, winged, profile, top, n)]
    if not memo.unique:  # a multiset read two ways must still come once
        out = list({play.key: play for play in reversed(out)}.values())
    return out


class _PlayMemo(dict[int, tuple[Play, ...]]):
    """Per profile, the plays of the plain kinds (no wings) whose bodies have ``need`` cards
    of each rank (singles and straights; pairs and pair chains; trios and airplanes; bombs),
    for one rank mask. A key packs both into one int: ``mask << 3 | need``."""

    def __init__(self, profile: RuleProfile) -> None:
        super().__init__()
        self.profile = profile
        self.best = preferred_plays(profile)
        self.unique = unique_readings(profile)
        #: trio_kickers[t]: for trio + single and trio + pair with trio rank t, every
        #: (bit of the kicker's rank, play): a hand holds the play when it holds that rank
        self.trio_kickers = tuple(
            tuple(
                tuple((1 << r, self.best[3 * UNIT[top] + u]) for r, u in kicker_units(kind, top))
                for kind in (Kind.TRIO_SINGLE, Kind.TRIO_PAIR)
            )
            for top in range(13)
        )

    def __missing__(self, key: int) -> tuple[Play, ...]:
        mask, need = key >> 3, key & 7
        plays = tuple(
            self.best[body_key]
            for kind in _MASK_KINDS_BY_NEED[need]
            for _, _, body_key in mask_bodies(kind, mask, self.profile)
        )
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        self[key] = plays
        return plays


@cache
def _memo(profile: RuleProfile) -> _PlayMemo:
    return _PlayMemo(profile)


@lru_cache(maxsize=1 << 13)
def _ranks_of(mask: int) -> tuple[int, ...]:
    return tuple(r for r in range(13) if mask >> r & 1)


def _answers(pool: Pool, previous: Play, memo: _PlayMemo) -> list[Play]:
    """Plays that beat ``previous`` (R5.21): same kind and size with a higher body, any bomb
    over a non-bomb, a higher bomb over a bomb, the rocket over everything."""
    if previous.kind is Kind.ROCKET:
        return []
    best, profile = memo.best, memo.profile
    out: list[Play] = []
    above = previous.rank if previous.rank is not None else -1
    if previous.kind is not Kind.BOMB:
        kind = previous.kind
        found = bodies(pool, kind, profile, length=previous.length, above=above)
        if kind in PLAIN:
            out = [best[key] for _, _, key in found]
        else:
            for top, n, body_key in found:
                out += [best[body_key + w] for w in wings(pool, kind, profile, top, n)]
        if not memo.unique:  # record the reading that beats (R5.22)
            table = play_table(profile)
            out = [
                first_beating(table[p.key], previous) or p for p in {p.key: p for p in out}.values()
            ]
        above = -1
    if pool.masks[4]:
        out += [best[key] for _, _, key in bodies(pool, Kind.BOMB, profile, above=above)]
    if pool.key & ROCKET_KEY == ROCKET_KEY:
        out.append(best[ROCKET_KEY])
    return out
