"""Physical-cards mode (referee.rules.physical): every check that needs no deal."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import IllegalAction, PhysicalHandState, check_deal, deal_from_seed
from referee.rules.actions import action_from_json
from referee.rules.hand import HandState
from tests.play import random_hand_actions


def playing(landlord: int = 0) -> PhysicalHandState:
    """Seat ``landlord`` bid 3 and nobody doubled: the landlord leads."""
    state = PhysicalHandState(first_bidder=landlord)
    state.push(state.legal_actions()[-1])
    while state.phase.value == "doubling":
        state.push(state.legal_actions()[-1])
    assert state.phase.value == "playing" and state.turn == landlord
    return state


def rejected(state: PhysicalHandState, action: dict[str, object]) -> str:
    before = (state.to_events(), state.card_counts, state.turn)
    with pytest.raises(IllegalAction) as excinfo:
        state.from_events(state.first_bidder, [*state.to_events(), action])
    assert (state.to_events(), state.card_counts, state.turn) == before
    return excinfo.value.code


def test_the_landlord_holds_twenty_cards() -> None:
    state = playing()
    assert state.card_counts == (20, 17, 17)


def test_no_seat_plays_more_cards_than_it_holds() -> None:
    state = playing()
    for action in ({"seat": 0, "play": "3456789TJQKA"}, {"seat": 1, "play": "pass"}):
        state.push(action_from_json(action))
    state.push(action_from_json({"seat": 2, "play": "pass"}))
    assert state.card_counts == (8, 17, 17) and state.turn == 0
    assert rejected(state, {"seat": 0, "play": "3456789TJQKA"}) == "not_held"


def test_r1_7_no_rank_beyond_four_copies_and_each_joker_once() -> None:
    state = playing()
    state.push(action_from_json({"seat": 0, "play": "3333"}))
    state.push(action_from_json({"seat": 1, "play": "XD"}))
    state.push(action_from_json({"seat": 2, "play": "pass"}))
    state.push(action_from_json({"seat": 0, "play": "pass"}))
    assert state.turn == 1 and state.rockets == 1 and state.bombs == 1
    assert rejected(state, {"seat": 1, "play": "3"}) == "not_held"
    assert rejected(state, {"seat": 1, "play": "X"}) == "not_held"


def test_the_same_physical_card_is_played_once() -> None:
    state = playing()
    state.push(action_from_json({"seat": 0, "play": "♠3"}))
    state.push(action_from_json({"seat": 1, "play": "♠4"}))
    state.push(action_from_json({"seat": 2, "play": "♠5"}))
    assert rejected(state, {"seat": 0, "play": "♠5"}) == "not_held"
    assert rejected(state, {"seat": 0, "play": "♥4"}) == "does_not_beat"


def test_combination_turn_and_lead_are_checked() -> None:
    state = playing()
    assert rejected(state, {"seat": 1, "play": "3"}) == "out_of_turn"
    assert rejected(state, {"seat": 0, "play": "pass"}) == "lead_pass"
    assert rejected(state, {"seat": 0, "play": "34"}) == "invalid_combination"
    assert rejected(state, {"seat": 0, "bid": 1}) == "invalid_bid"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), play_seed=st.integers(0, 100_000))
def test_a_legal_hand_is_legal_without_its_deal_and_scores_the_same(
    seed: int, play_seed: int
) -> None:
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed, bid_first=False)
    physical = PhysicalHandState.from_events(deal.first_bidder, actions)
    dealt = HandState.from_events(deal, actions)
    assert physical.phase == dealt.phase
    assert physical.scores() == dealt.scores()
    assert physical.result() == dealt.result()
    assert check_deal(deal, actions) is None


def test_check_deal_names_the_first_action_the_deal_forbids() -> None:
    deal = deal_from_seed(1)
    actions = random_hand_actions(deal, seed=1)
    other = deal_from_seed(2, first_bidder=deal.first_bidder)
    error = check_deal(other, actions)
    assert error is not None and error.code == "not_held"
    assert error.index is not None and actions[error.index].get("play")
