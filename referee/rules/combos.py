"""Combinations (SPEC §5.2) and what beats what (R5.21).

A ``Play`` is one *reading* of a rank multiset: its kind, the highest rank of its body, the body
length and the cards. A multiset may have several readings (R5.22); ``classify`` returns all of
them, preferred first (longest body, then highest rank).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from referee.rules.cards import (
    RANK_CHARS,
    counts_fit_pack,
    counts_of,
    format_ranks,
    key_of,
    parse_ranks,
    ranks_of_key,
)
from referee.rules.profiles import COMP2016, RuleProfile


class Kind(StrEnum):
    """The fourteen kinds of three-player Dou Dizhu (R1.4 names them in Chinese), the four
    jokers of ``four_p`` (R11.1.5), a kind of its own there, and Big Three's quads (R12.8)."""

    SINGLE = "single"  # 单张
    PAIR = "pair"  # 对子
    TRIO = "trio"  # 三张
    TRIO_SINGLE = "trio_single"  # 三带一
    TRIO_PAIR = "trio_pair"  # 三带二
    STRAIGHT = "straight"  # 顺子
    PAIR_STRAIGHT = "pair_straight"  # 连对
    AIRPLANE = "airplane"  # 飞机
    AIRPLANE_SINGLES = "airplane_singles"  # 飞机带单
    AIRPLANE_PAIRS = "airplane_pairs"  # 飞机带对
    FOUR_TWO_SINGLES = "four_two_singles"  # 四带二
    FOUR_TWO_PAIRS = "four_two_pairs"  # 四带两对
    BOMB = "bomb"  # 炸弹
    ROCKET = "rocket"  # 火箭 / 王炸
    JOKER_BOMB = "joker_bomb"  # 天王炸: XXDD, four players only (R11.1.5)
    QUAD = "quad"  # 四张: four of a rank, not a bomb, Big Three only (R12.8)
    QUAD_STRAIGHT = "quad_straight"  # three or more quads in a run, Big Three only (R12.8.5)


@dataclass(frozen=True, slots=True)
class Play:
    """One reading of a set of cards: kind, body top rank, body length and the multiset key.

    ``rank`` is None for the rocket. ``length`` is the number of distinct body ranks (5 for
    ``34567``, 2 for ``666777AA``, 1 for non-chains).
    """

    kind: Kind
    rank: int | None
    length: int
    key: int

    @property
    def ranks(self) -> tuple[int, ...]:
        return ranks_of_key(self.key)

    def text(self) -> str:
        """Canonical card text, e.g. ``666777AA``."""
        return format_ranks(self.ranks)

    def rank_text(self) -> str | None:
        return None if self.rank is None else RANK_CHARS[self.rank]

    def to_json(self) -> dict[str, object]:
        return {
            "cards": self.text(),
            "kind": self.kind.value,
            "rank": self.rank_text(),
            "length": self.length,
        }


def beats(play: Play, previous: Play) -> bool:
    """R5.21: rocket over all; a bomb over any non-bomb and lower bombs; else same kind and
    size with a higher body rank. Kickers never count; four with kickers is never a bomb."""
    if play.kind is Kind.ROCKET:
        return previous.kind is not Kind.ROCKET
    if previous.kind is Kind.ROCKET:
        return False
    if play.kind is Kind.BOMB:
        return previous.kind is not Kind.BOMB or _higher(play, previous)
    return play.kind is previous.kind and play.length == previous.length and _higher(play, previous)


def _higher(play: Play, previous: Play) -> bool:
    return play.rank is not None and previous.rank is not None and play.rank > previous.rank


def readings(key: int, profile: RuleProfile) -> tuple[Play, ...]:
    """Every legal reading of the multiset ``key`` under ``profile``, preferred first."""
    table = _TABLES.get(profile)
    if table is None:
        from referee.rules.table import play_table  # the table imports this module

        table = _TABLES[profile] = play_table(profile)
    return table.get(key, ())


_TABLES: dict[RuleProfile, dict[int, tuple[Play, ...]]] = {}


def first_beating(found: Iterable[Play], previous: Play) -> Play | None:
    """The first of ``found`` (readings, preferred first) that beats ``previous`` (R5.22)."""
    for play in found:
        if beats(play, previous):
            return play
    return None


def choose_reading(found: tuple[Play, ...], previous: Play | None) -> Play | None:
    """The reading to record: one that beats ``previous`` if any does, else the preferred."""
    if not found:
        return None
    beating = None if previous is None else first_beating(found, previous)
    return beating or found[0]


def readings_of(cards: str | Iterable[int], profile: RuleProfile | None = None) -> tuple[Play, ...]:
    """Every reading of ``cards`` (rank text or ranks), preferred first; none for cards that are
    no combination or that one pack cannot hold. Raises NotationError for unreadable text."""
    ranks = parse_ranks(cards) if isinstance(cards, str) else tuple(cards)
    if not counts_fit_pack(counts_of(ranks)):  # no pack holds five 3s or two small jokers
        return ()
    return readings(key_of(ranks), profile or COMP2016)


def classify(
    cards: str | Iterable[int],
    profile: RuleProfile | None = None,
    *,
    previous: Play | None = None,
) -> Play | None:
    """The reading of ``cards`` (text or ranks) to record, or None if it is no combination.

    Raises NotationError for unreadable text. With ``previous``, a reading that beats it is
    preferred (R5.22); check ``beats`` on the result to know whether it does.
    """
    return choose_reading(readings_of(cards, profile), previous)
