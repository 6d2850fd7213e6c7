"""Legal plays of a hand (SPEC R5.2, R5.5a, R5.21) through ``referee.rules.legal_plays``."""

from __future__ import annotations

import pytest

from referee.rules import CLASSIC, COMP2016, RuleProfile, beats, classify, counts_of, legal_plays
from referee.rules.cards import parse_ranks

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
