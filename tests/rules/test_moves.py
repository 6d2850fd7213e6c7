"""Legal plays of a hand (SPEC R5.2, R5.5a, R5.21) through ``referee.rules.legal_plays``."""

from __future__ import annotations

import random

import pytest

from referee.rules import (
    CLASSIC,
    COMP2016,
    Kind,
    Play,
    RuleProfile,
    beats,
    classify,
    counts_of,
    legal_plays,
)
from referee.rules.cards import counts_of_key, parse_ranks
from referee.rules.table import play_table

BOTH = pytest.mark.parametrize("profile", [COMP2016, CLASSIC], ids=["comp2016", "classic"])


def plays(hand: str, previous: str | None = None, profile: RuleProfile = COMP2016) -> list[str]:
    top = classify(previous, profile) if previous else None
    assert previous is None or top is not None
    got = legal_plays(counts_of(parse_ranks(hand)), top, profile)
    texts = [p.text() for p in got]
    assert len(texts) == len(set(texts)), f"a multiset is listed twice: {texts}"
    return texts


@BOTH
def test_r5_2_a_lead_may_be_any_combination_and_no_pass_is_listed(profile: RuleProfile) -> None:
    assert sorted(plays("3345", profile=profile)) == sorted(["3", "4", "5", "33"])
    assert "pass" not in plays("3345", "3", profile)


@BOTH
def test_r5_5a_bomb_cards_may_be_split(profile: RuleProfile) -> None:
    assert sorted(plays("3333", profile=profile)) == ["3", "33", "333", "3333"]
    assert set(plays("77775", profile=profile)) >= {"7", "77", "777", "5777", "7777"}


@BOTH
def test_r5_21_answers_same_kind_same_length_higher_and_bombs(profile: RuleProfile) -> None:
    hand = "3456789TT2222"
    got = set(plays(hand, "45678", profile))
    assert got == {"56789", "6789T", "2222"}
    assert set(plays(hand, "345678", profile)) == {"456789", "56789T", "2222"}


@BOTH
def test_r5_21_answers_to_a_bomb_are_higher_bombs_and_the_rocket(profile: RuleProfile) -> None:
    hand = "33334444AAAA22XD"
    assert set(plays(hand, "4444", profile)) == {"AAAA", "XD"}
    assert set(plays(hand, "AAAA", profile)) == {"XD"}
    assert plays(hand, "XD", profile) == []


@BOTH
def test_r5_21_answers_to_four_with_kickers_include_every_bomb(profile: RuleProfile) -> None:
    got = set(plays("33334567", "AAAA+56", profile))
    assert got == {"3333"}


@BOTH
def test_answers_carry_the_reading_that_beats(profile: RuleProfile) -> None:
    top = classify("333444+56", profile)
    assert top is not None
    for play in legal_plays(counts_of(parse_ranks("444555666789JQ2XD")), top, profile):
        assert beats(play, top), play


def test_r5_15_5_lead_lists_repeated_wings_in_comp2016_only() -> None:
    assert "666777AA" in plays("AA666777", profile=COMP2016)
    assert "666777AA" not in plays("666777AA", profile=CLASSIC)


def test_r5_17_four_with_a_pair_is_an_answer_in_comp2016_only() -> None:
    assert "339999" in plays("999933", "888845", COMP2016)
    assert "339999" not in plays("999933", "888845", CLASSIC)


@BOTH
def test_empty_hand_has_no_play(profile: RuleProfile) -> None:
    assert plays("", profile=profile) == []
    assert plays("", "3", profile) == []


def _lowest_of_each_kind(table: dict[int, tuple[Play, ...]]) -> dict[tuple[Kind, int], Play]:
    lowest: dict[tuple[Kind, int], Play] = {}
    for found in table.values():
        for play in found:
            here = lowest.get((play.kind, play.length))
            if play.rank is not None and (here is None or play.rank < (here.rank or 0)):
                lowest[(play.kind, play.length)] = play
    return lowest


@BOTH
def test_every_combination_is_a_lead_and_an_answer_from_exactly_its_own_cards(
    profile: RuleProfile,
) -> None:
    """R5.2 / R5.21 over the whole play table: a hand holding exactly one combination can lead
    it, and can answer the lowest combination of the same kind and size with it. (Airplanes with
    4 or 5 single wings, the bulk of the table, are sampled with a fixed seed.)"""
    table = play_table(profile)
    lowest = _lowest_of_each_kind(table)
    rng = random.Random(2016)
    checked = 0
    for key, found in table.items():
        play = found[0]
        if play.kind is Kind.AIRPLANE_SINGLES and play.length >= 4 and rng.random() > 0.1:
            continue
        checked += 1
        counts = counts_of_key(key)
        assert key in {p.key for p in legal_plays(counts, None, profile)}, play
        low = lowest.get((play.kind, play.length))
        if low is not None and play.rank is not None and play.rank > (low.rank or 0):
            answers = legal_plays(counts, low, profile)
            assert key in {p.key for p in answers}, (play, low)
    assert checked > 8000
