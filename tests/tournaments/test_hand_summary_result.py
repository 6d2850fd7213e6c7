"""A hand summary's result in ``DealResult``'s JSON form, and the live stakes read from it."""

from typing import Any

from referee.rules.scoring import DealResult
from tournaments.hands.selectors import hand_stakes, summary_result

LIVE: dict[str, Any] = {
    "landlord_seat": 0,
    "bid": 2,
    "doubled": [False, True, False],
    "redoubled": False,
    "bombs": 1,
    "rockets": 0,
    "spring": False,
    "anti_spring": False,
    "winner": "",
}


def test_the_summary_columns_read_as_the_result_json_form() -> None:
    assert summary_result(LIVE) == {
        "landlord": 0,
        "bid": 2,
        "doubled": [False, True, False],
        "redoubled": False,
        "bombs": 1,
        "rockets": 0,
        "spring": False,
        "anti_spring": False,
        "winner": None,
    }
    finished = summary_result({**LIVE, "winner": "defenders"})
    assert DealResult.from_json(finished) == DealResult(
        0, 2, (False, True, False), False, 1, 0, False, False, "defenders"
    )


def test_r8_1_a_live_hands_stakes_are_the_bid_times_the_factors_so_far() -> None:
    stakes = hand_stakes(LIVE, "comp2016")
    assert [(s.seat, s.value) for s in stakes] == [(1, 8), (2, 4)]  # 2 × bomb 2 (× double 2)


def test_no_stakes_before_a_landlord_or_under_an_unknown_profile() -> None:
    assert hand_stakes({**LIVE, "landlord_seat": None, "bid": None}, "comp2016") == ()
    assert hand_stakes(LIVE, "no-such-profile") == ()
