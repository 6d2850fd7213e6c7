"""The table of every legal rank multiset of a profile: key -> readings (SPEC R5.22).

Built once per profile, lazily, by running the pattern enumerator over a full pack; afterwards
classifying a play is one dictionary lookup.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from functools import cache

from referee.rules.cards import PACK_COUNTS
from referee.rules.combos import Kind, Play
from referee.rules.patterns import ALL_KINDS, CHAINS, Pool, bodies, wings
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
    pack = Pool(PACK_COUNTS)
    for kind in ALL_KINDS:
        for top, n, body_key in bodies(pack, kind, profile):
            rank = None if kind is Kind.ROCKET else top
            for wing_key in wings(pack, kind, profile, top, n):
                key = body_key + wing_key
                found.setdefault(key, []).append(Play(kind, rank, n, key))
    return {key: tuple(sorted(plays, key=preference)) for key, plays in found.items()}


@cache
def preferred_plays(profile: RuleProfile) -> dict[int, Play]:
    """Every legal multiset of ``profile`` with its preferred reading only."""
    return {key: found[0] for key, found in play_table(profile).items()}


@cache
def unique_readings(profile: RuleProfile) -> bool:
    """True when no multiset has two readings under ``profile`` (so no play repeats a set)."""
    return all(len(found) == 1 for found in play_table(profile).values())


def warm_up(profiles: Iterable[RuleProfile]) -> None:
    """Build the tables of ``profiles`` now and move them out of the garbage collector's way.

    A long-running process (the web service, a worker, a benchmark) calls this once at start:
    the tables hold some 40,000 long-lived objects, and ``gc.freeze`` keeps every later full
    collection from walking them again.
    """
    for profile in profiles:
        preferred_plays(profile)
        unique_readings(profile)
    gc.freeze()
