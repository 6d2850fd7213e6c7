"""Legal plays of a hand, as a lead or as an answer to the top play (SPEC R5.2, R5.21).

Each distinct rank multiset appears once, as its table reading (for an answer: the reading that
beats the top play). Passing is never listed; the hand state adds it.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.rules.cards import BIG_JOKER, SMALL_JOKER
from referee.rules.combos import Kind, Play, beats
from referee.rules.patterns import ALL_KINDS, ROCKET_KEY, bodies, wings
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.table import play_table


def legal_plays(
    counts: Sequence[int], previous: Play | None = None, profile: RuleProfile = COMP2016
) -> list[Play]:
    """Every legal play from a hand given as rank counts (15 ints)."""
    table = play_table(profile)
    if previous is None:
        keys: set[int] = set()
        for kind in ALL_KINDS:
            for top, n, body_key in bodies(counts, kind, profile):
                for wing_key in wings(counts, kind, profile, top, n):
                    keys.add(body_key + wing_key)
        return [table[k][0] for k in keys]
    return _answers(counts, previous, profile, table)


def _answers(
    counts: Sequence[int], previous: Play, profile: RuleProfile, table: dict[int, tuple[Play, ...]]
) -> list[Play]:
    out: dict[int, Play] = {}
    if previous.kind is Kind.ROCKET:
        return []
    if previous.kind is not Kind.BOMB:
        kind = previous.kind
        for top, n, body_key in bodies(
            counts, kind, profile, length=previous.length, above=_rank(previous)
        ):
            for wing_key in wings(counts, kind, profile, top, n):
                key = body_key + wing_key
                if key not in out:
                    out[key] = _beating_reading(table[key], previous)
    above = _rank(previous) if previous.kind is Kind.BOMB else -1
    for _, _, key in bodies(counts, Kind.BOMB, profile, above=above):
        out.setdefault(key, table[key][0])
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        out.setdefault(ROCKET_KEY, table[ROCKET_KEY][0])
    return list(out.values())


def _rank(play: Play) -> int:
    return play.rank if play.rank is not None else -1


def _beating_reading(found: tuple[Play, ...], previous: Play) -> Play:
    for play in found:
        if beats(play, previous):
            return play
    raise AssertionError("a generated answer must beat the previous play")
