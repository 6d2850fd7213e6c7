"""The table of every legal rank multiset of a profile: key -> readings (SPEC R5.22).

Built once per profile, lazily, by running the pattern enumerator over a full pack; afterwards
classifying a play is one dictionary lookup.
"""

from __future__ import annotations

from functools import cache

from referee.rules.cards import PACK_COUNTS
from referee.rules.combos import Kind, Play
from referee.rules.patterns import ALL_KINDS, CHAINS, bodies, wings
from referee.rules.profiles import RuleProfile

Readings = tuple[Play, ...]


def body_cards(play: Play) -> int:
    """Cards in the body: what 'the longest body' compares (R5.22)."""
    if play.kind in CHAINS:
        return CHAINS[play.kind][0] * play.length
    if play.kind is Kind.ROCKET:
        return 2
    if play.kind in (Kind.BOMB, Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS):
        return 4
    if play.kind is Kind.SINGLE:
        return 1
    return 2 if play.kind is Kind.PAIR else 3


def preference(play: Play) -> tuple[int, int]:
    """Sort key, best first: longest body, then highest rank (R5.22)."""
    return (-body_cards(play), -(play.rank if play.rank is not None else 99))


@cache
def play_table(profile: RuleProfile) -> dict[int, Readings]:
    """Every legal multiset of ``profile`` with all its readings, preferred first."""
    found: dict[int, list[Play]] = {}
    for kind in ALL_KINDS:
        for top, n, body_key in bodies(PACK_COUNTS, kind, profile):
            rank = None if kind is Kind.ROCKET else top
            for wing_key in wings(PACK_COUNTS, kind, profile, top, n):
                key = body_key + wing_key
                found.setdefault(key, []).append(Play(kind, rank, n, key))
    return {key: tuple(sorted(plays, key=preference)) for key, plays in found.items()}
