"""The rules tool's answers for ``four_p`` and ``laizi`` beyond the conformance vectors
(PROTOCOL-variants.md): request errors, deals written with suits, and the three-player
profiles untouched by the variants."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules import (
    FourDeal,
    FourHandState,
    LaiziHandState,
    deal_from_seed,
    handle_request,
)


def ask(**request: Any) -> dict[str, Any]:
    return handle_request(request)


def test_an_empty_previous_declaration_is_a_bad_request() -> None:
    answer = ask(op="classify", profile="laizi", wild="7", cards="8", previous="7", previous_as="")
    assert answer["error"] == "bad_request"


def test_a_declaration_that_is_not_text_is_a_malformed_event() -> None:
    deal = deal_from_seed(9).to_json()
    events = [{"seat": deal["first_bidder"], "bid": 3}, {"seat": 0, "play": "3", "as": 3}]
    answer = ask(op="replay", profile="laizi", deal={**deal, "wild": "7"}, events=events)
    assert answer["error"] == "bad_request" and answer["index"] == 1


def test_a_laizi_deal_written_with_suits_replays() -> None:
    deal = deal_from_seed(11)
    first = deal.first_bidder
    events = [
        {"seat": first, "bid": 3},
        {"seat": (first + 1) % 3, "double": False},
        {"seat": (first + 2) % 3, "double": True},
        {"seat": first, "redouble": False},
    ]
    answer = ask(op="replay", profile="laizi", deal={**deal.to_json(), "wild": "Q"}, events=events)
    assert answer["ok"] is True and answer["phase"] == "playing" and answer["landlord"] == first
    assert (answer["soft_bombs"], answer["hard_bombs"], answer["pure_wild_bombs"]) == (0, 0, 0)


def test_four_p_bid_after_the_auction_and_bombs_out_of_range() -> None:
    state = FourHandState(FourDeal.from_json(_four_deal()))
    assert (
        ask(
            op="replay",
            profile="four_p",
            deal=_four_deal(),
            events=[{"seat": 0, "bid": 3}, {"seat": 1, "bid": 0}],
        )["error"]
        == "invalid_bid"
    )
    assert state.turn == 0
    answer = ask(
        op="score", profile="four_p", landlord=0, bid=1, bombs=-1, winner="landlord",
        spring=False, anti_spring=False,
    )  # fmt: skip
    assert answer["error"] == "invalid_result"


def test_four_p_deal_round_trips_through_its_text() -> None:
    deal = FourDeal.from_json(_four_deal())
    assert FourDeal.from_json(deal.to_json()) == deal
    assert deal.to_json()["kitty"] == "3559TJJQ"


@pytest.mark.parametrize("profile", ["comp2016", "classic"])
def test_three_player_profiles_answer_as_before(profile: str) -> None:
    answer = ask(op="classify", profile=profile, cards="XD", previous="2222")
    assert answer == {"legal": True, "kind": "rocket", "rank": None, "length": 1, "beats": True}
    assert ask(op="classify", profile=profile, cards="7", wild="7", **{"as": "A"}) == {
        "legal": True,
        "kind": "single",
        "rank": "7",
        "length": 1,
    }


def test_laizi_state_needs_its_wild_rank() -> None:
    with pytest.raises(ValueError, match="wild rank"):
        LaiziHandState(deal_from_seed(1))


def _four_deal() -> dict[str, Any]:
    """The deal of vectors FP-75..FP-99 (docs/rules/variants/vectors/four_p.jsonl)."""
    return {
        "hands": [
            "3333345567778TTTJQQKKAAXD",
            "3344444455666667889TTQAA2",
            "778888999JQQKKKKKAA2222XD",
            "45566778999TTJJJJQQKAA222",
        ],
        "kitty": "3559TJJQ",
        "first_bidder": 0,
    }
