"""Combinations (SPEC §5.2, R5.6–R5.20), comparison (R5.21), readings (R5.22), limits (R5.23).

Expected values come from the SPEC text; where COMP2016 and CLASSIC differ both are checked.
"""

from __future__ import annotations

import dataclasses

import pytest

from referee.rules import CLASSIC, COMP2016, Kind, RuleProfile, beats, classify, readings
from referee.rules.cards import key_of, parse_ranks

BOTH = pytest.mark.parametrize("profile", [COMP2016, CLASSIC], ids=["comp2016", "classic"])


def read(text: str, profile: RuleProfile = COMP2016) -> tuple[str, str | None, int] | None:
    play = classify(text, profile)
    if play is None:
        return None
    return play.kind.value, play.rank_text(), play.length


def all_readings(text: str, profile: RuleProfile = COMP2016) -> set[tuple[str, str | None, int]]:
    return {
        (p.kind.value, p.rank_text(), p.length)
        for p in readings(key_of(parse_ranks(text)), profile)
    }


def does_beat(play: str, previous: str, profile: RuleProfile = COMP2016) -> bool:
    top = classify(previous, profile)
    assert top is not None, previous
    mine = classify(play, profile, previous=top)
    return mine is not None and beats(mine, top)


# --- R5.6 – R5.10 -------------------------------------------------------------------------------


@BOTH
def test_r5_6_any_one_card_is_a_single(profile: RuleProfile) -> None:
    for ch in "3456789TJQKA2XD":
        assert read(ch, profile) == ("single", ch, 1)


@BOTH
def test_r5_7_pair_of_one_rank_3_to_2_and_jokers_are_no_pair(profile: RuleProfile) -> None:
    assert read("22", profile) == ("pair", "2", 1)
    assert read("TT", profile) == ("pair", "T", 1)
    assert read("XD", profile) == ("rocket", None, 1)
    assert read("34", profile) is None


@BOTH
def test_r5_8_trio_222_is_the_highest(profile: RuleProfile) -> None:
    assert read("222", profile) == ("trio", "2", 1)
    assert does_beat("222", "AAA", profile)
    assert not does_beat("AAA", "222", profile)


@BOTH
def test_r5_9_trio_with_single_kicker_of_another_rank(profile: RuleProfile) -> None:
    assert read("3332", profile) == ("trio_single", "3", 1)
    assert read("333X", profile) == ("trio_single", "3", 1)
    assert read("222D", profile) == ("trio_single", "2", 1)
    assert read("3333", profile) == ("bomb", "3", 1)  # four equal cards are a bomb


@BOTH
def test_r5_10_trio_with_pair_and_jokers_are_no_pair(profile: RuleProfile) -> None:
    assert read("33322", profile) == ("trio_pair", "3", 1)
    assert read("22233", profile) == ("trio_pair", "2", 1)
    assert read("333XD", profile) is None
    assert read("33345", profile) is None


# --- R5.11 – R5.13 chains, R1.3 -----------------------------------------------------------------


@BOTH
def test_r5_11_straight_5_to_12_cards_within_3_to_a(profile: RuleProfile) -> None:
    assert read("34567", profile) == ("straight", "7", 5)
    assert read("3456789TJQKA", profile) == ("straight", "A", 12)
    assert read("3456", profile) is None
    for bad in ("JQKA2", "A2345", "QKA23", "KA234", "TJQKAX", "23456"):
        assert read(bad, profile) is None, bad
    assert read("34568", profile) is None  # not consecutive


@BOTH
def test_r5_12_pair_chain_3_or_more_pairs_at_most_10(profile: RuleProfile) -> None:
    assert read("334455", profile) == ("pair_straight", "5", 3)
    assert read("3344", profile) is None
    assert read("QQKKAA", profile) == ("pair_straight", "A", 3)
    assert read("KKAA22", profile) is None
    ten = "".join(ch * 2 for ch in "3456789TJQ")
    assert read(ten, profile) == ("pair_straight", "Q", 10)
    eleven = "".join(ch * 2 for ch in "3456789TJQK")
    assert read(eleven, profile) is None  # R5.23: 22 cards do not fit a 20-card hand


@BOTH
def test_r5_13_airplane_2_to_6_trios_never_with_2(profile: RuleProfile) -> None:
    assert read("333444", profile) == ("airplane", "4", 2)
    assert read("999TTTJJJQQQKKKAAA", profile) == ("airplane", "A", 6)
    assert read("AAA222", profile) is None
    assert read("333555", profile) is None
    assert read("333444555666777888999", profile) is None  # 7 trios (R5.23)


# --- R5.14 – R5.16 airplanes with wings ---------------------------------------------------------


@BOTH
def test_r5_14_singles_and_pairs_cannot_be_mixed(profile: RuleProfile) -> None:
    assert read("333444677", profile) is None
    assert read("333444+6+7", profile) == ("airplane_singles", "4", 2)
    assert read("333444+66+77", profile) == ("airplane_pairs", "4", 2)


@BOTH
def test_r5_14_kickers_never_decide_the_rank(profile: RuleProfile) -> None:
    assert does_beat("444555+36", "333444+2X", profile)
    assert not does_beat("333444+56", "333444+89", profile)
    assert not does_beat("333444+2X", "444555+36", profile)


@BOTH
def test_r5_15_1_no_wing_shares_a_rank_with_the_body(profile: RuleProfile) -> None:
    assert read("3333444K", profile) is None
    assert read("3334444K", profile) is None


@BOTH
def test_r5_15_2_wings_never_hold_both_jokers(profile: RuleProfile) -> None:
    assert read("333444XD", profile) is None
    assert read("333444555+XD7", profile) is None
    assert read("333444+5X", profile) == ("airplane_singles", "4", 2)


@BOTH
def test_r5_15_3_wings_never_hold_a_bomb(profile: RuleProfile) -> None:
    assert read("333444555666+9999", profile) is None
    assert read("TTTJJJQQQKKK+2222", profile) is None


def test_r5_15_4_a_trio_next_to_the_body_is_no_wing_in_comp2016() -> None:
    # 333444555666 + 777 + 9: the only airplanes of 4 take 777 (next to 666) or 333 (next to
    # 444) as wings, so this multiset is no combination.
    assert read("333444555666+777+9") is None
    assert all_readings("444555666777") == {("airplane", "7", 4)}
    assert all_readings("333444555666") == {("airplane", "6", 4)}


def test_r5_15_5_wings_may_repeat_rank_in_comp2016() -> None:
    assert read("666777+AA", COMP2016) == ("airplane_singles", "7", 2)
    assert read("333444555+99+2", COMP2016) == ("airplane_singles", "5", 3)
    assert read("333444555666+8899", COMP2016) == ("airplane_singles", "6", 4)


def test_r5_15_5_wings_must_differ_in_classic() -> None:
    assert read("666777+AA", CLASSIC) is None
    assert read("333444555+99+2", CLASSIC) is None
    assert read("333444555666+8899", CLASSIC) is None
    assert read("333444555+9+T+2", CLASSIC) == ("airplane_singles", "5", 3)


def test_r5_15_6_trio_wings_not_next_to_the_body_in_comp2016_only() -> None:
    assert read("333444555+999", COMP2016) == ("airplane_singles", "5", 3)
    assert read("QQQKKKAAA+222", COMP2016) == ("airplane_singles", "A", 3)
    assert read("333444555666+888+9", COMP2016) == ("airplane_singles", "6", 4)
    assert read("333444555+999", CLASSIC) is None
    assert read("QQQKKKAAA+222", CLASSIC) is None
    assert read("333444555666+888+9", CLASSIC) is None


def test_r5_15_6_trio_wings_follow_their_own_switch() -> None:
    no_trio = dataclasses.replace(COMP2016, key="no-trio", wing_trio_allowed_if_not_adjacent=False)
    assert read("333444555+999", no_trio) is None
    assert read("666777+AA", no_trio) == ("airplane_singles", "7", 2)


@BOTH
def test_r5_15_7_wings_may_hold_2s_and_one_joker(profile: RuleProfile) -> None:
    assert read("333444+2X", profile) == ("airplane_singles", "4", 2)
    assert read("333444+2D", profile) == ("airplane_singles", "4", 2)
    assert read("TTTJJJQQQ+2XK", profile) == ("airplane_singles", "Q", 3)


@BOTH
def test_r5_15_airplane_with_singles_has_2_to_5_trios(profile: RuleProfile) -> None:
    assert read("333444555666777+9TJQK", profile) == ("airplane_singles", "7", 5)
    six = "333444555666777888+9TJQKA"  # 24 cards: longer than a hand
    assert read(six, profile) is None


@BOTH
def test_r5_16_airplane_with_pairs_of_different_ranks(profile: RuleProfile) -> None:
    assert read("333444+5566", profile) == ("airplane_pairs", "4", 2)
    assert read("333444+2255", profile) == ("airplane_pairs", "4", 2)  # pairs of 2s allowed
    assert read("3334445555", profile) is None  # a bomb is not two pairs
    assert read("333444+22XD", profile) is None  # jokers are no pair
    assert read("JJJQQQKKKAAA+33445566", profile) == ("airplane_pairs", "A", 4)  # Q11


def test_r5_16_longest_airplane_with_pairs_follows_the_profile() -> None:
    short = dataclasses.replace(COMP2016, key="short", max_airplane_pairs_len=3)
    assert read("JJJQQQKKKAAA+33445566", short) is None
    assert read("QQQKKKAAA+334455", short) == ("airplane_pairs", "A", 3)


@BOTH
def test_r5_17_four_with_two_singles_is_not_a_bomb(profile: RuleProfile) -> None:
    assert read("9999+34", profile) == ("four_two_singles", "9", 1)
    assert read("9999+2X", profile) == ("four_two_singles", "9", 1)
    assert read("9999+XD", profile) is None
    assert read("9999+3", profile) is None  # no four + one
    assert not does_beat("AAAA+34", "3333", profile)
    assert does_beat("3333", "AAAA+56", profile)


def test_r5_17_four_with_a_pair_counts_as_two_singles_in_comp2016_only() -> None:
    assert read("9999+33", COMP2016) == ("four_two_singles", "9", 1)
    assert does_beat("TTTT+33", "9999+45", COMP2016)  # the same kind, 6 cards
    assert read("9999+33", CLASSIC) is None


@BOTH
def test_r5_18_four_with_two_pairs_of_different_ranks(profile: RuleProfile) -> None:
    assert read("9999+3344", profile) == ("four_two_pairs", "9", 1)
    assert read("9999+3322", profile) == ("four_two_pairs", "9", 1)
    assert read("5555+8888", profile) is None
    assert read("9999+33+4+5", profile) is None
    assert not does_beat("AAAA+3344", "9999+34", profile)  # different kinds (R5.21 4)


@BOTH
def test_r5_19_bombs_from_3333_to_2222(profile: RuleProfile) -> None:
    assert read("3333", profile) == ("bomb", "3", 1)
    assert read("2222", profile) == ("bomb", "2", 1)
    assert does_beat("2222", "AAAA", profile)
    assert not does_beat("3333", "4444", profile)


@BOTH
def test_r5_20_rocket_beats_everything_and_nothing_beats_it(profile: RuleProfile) -> None:
    for previous in ("2", "22", "2222", "3456789TJQKA", "JJJQQQKKKAAA+33445566", "9999+34"):
        assert does_beat("XD", previous, profile), previous
    for play in ("2222", "D", "3333"):
        assert not does_beat(play, "XD", profile)


# --- R5.21 comparison ---------------------------------------------------------------------------


@BOTH
@pytest.mark.parametrize(
    ("play", "previous", "expected"),
    [
        ("4444", "3456789TJQKA", True),  # (2) a bomb beats any non-bomb
        ("4444", "333444555+778899", True),
        ("3333", "2", True),
        ("5555", "4444", True),  # (2) a higher bomb
        ("4444", "5555", False),
        ("45678", "34567", True),  # (3) same kind, same length, higher
        ("45678", "345678", False),  # different length
        ("456789", "34567", False),
        ("34567", "34567", False),  # equal is not higher
        ("445566", "334455", True),
        ("44556677", "334455", False),
        ("444+3", "333+2", True),  # kickers never count
        ("333+2", "333+A", False),
        ("444+33", "333+4", False),  # (4) trio+pair vs trio+single: different kinds
        ("444", "333+4", False),
        ("444+5", "333", False),
        ("444555", "333444+56", False),  # airplane vs airplane with wings
        ("444555+66+77", "333444+5+6", False),
        ("444555+6+7", "333444+55+66", False),
        ("2", "A", True),
        ("X", "2", True),
        ("D", "X", True),
        ("X", "D", False),
        ("3", "D", False),
    ],
)
def test_r5_21_what_beats_what(
    profile: RuleProfile, play: str, previous: str, expected: bool
) -> None:
    assert does_beat(play, previous, profile) is expected


def test_r5_21_5_four_with_kickers_never_counts_as_a_bomb() -> None:
    four = classify("2222+34")
    lowest_bomb = classify("3333")
    assert four is not None and lowest_bomb is not None
    assert four.kind is Kind.FOUR_TWO_SINGLES
    assert not beats(four, lowest_bomb)
    assert beats(lowest_bomb, four)


# --- R5.22 readings, R5.23 lengths --------------------------------------------------------------


def test_r5_22_333444555666_is_only_a_four_trio_airplane_in_comp2016() -> None:
    assert all_readings("333444555666", COMP2016) == {("airplane", "6", 4)}


@BOTH
def test_r5_22_classify_reports_a_reading_among_all_readings(profile: RuleProfile) -> None:
    for text in ("666777AA", "9999+33", "QQQKKKAAA+222", "34567", "XD"):
        play = classify(text, profile)
        found = readings(key_of(parse_ranks(text)), profile)
        assert (play is None) == (not found)
        if play is not None:
            assert play == found[0]


@BOTH
@pytest.mark.parametrize(
    ("kind", "per", "shortest", "longest"),
    [
        ("straight", 1, 5, 12),
        ("pair_straight", 2, 3, 10),
        ("airplane", 3, 2, 6),
    ],
)
def test_r5_23_length_limits_of_plain_chains(
    profile: RuleProfile, kind: str, per: int, shortest: int, longest: int
) -> None:
    order = "3456789TJQKA"
    for n in range(1, 13):
        for low in range(0, 13 - n):
            text = "".join(ch * per for ch in order[low : low + n])
            got = read(text, profile)
            if shortest <= n <= longest:
                assert got == (kind, order[low + n - 1], n), text
            elif got is not None:
                assert got[0] != kind, text


@BOTH
def test_r5_23_airplane_with_wings_lengths(profile: RuleProfile) -> None:
    singles = {k: "".join(ch * 3 for ch in "3456789"[:k]) + "JQKA2"[:k] for k in range(1, 7)}
    assert read(singles[1], profile) == ("trio_single", "3", 1)
    for k in (2, 3, 4, 5):
        assert read(singles[k], profile) == ("airplane_singles", "3456789"[k - 1], k)
    assert read(singles[6], profile) is None
    pairs = {
        k: "".join(ch * 3 for ch in "34567"[:k]) + "".join(c * 2 for c in "9TJQK"[:k])
        for k in range(2, 6)
    }
    for k in (2, 3, 4):
        assert read(pairs[k], profile) == ("airplane_pairs", "34567"[k - 1], k)
    assert read(pairs[5], profile) is None  # 25 cards
