"""Re-applying accepted actions without their checks (``HandState.replay``,
``PhysicalHandState.replay``, as ``chess.Board.push`` to ``push_san``) gives, after every
action, the state the checked replay (``from_events``) gives: every public reading."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import (
    CLASSIC,
    COMP2016,
    Card,
    Deal,
    HandState,
    Phase,
    RuleProfile,
    deal_from_seed,
)
from referee.rules.physical import PhysicalHandState
from tests.play import random_hand_actions
from tests.rules.helpers import snapshot


def _rank_only(deal: Deal) -> Deal:
    """The same deal written without suits."""
    h0, h1, h2 = (tuple(Card(c.rank) for c in hand) for hand in deal.hands)
    kitty = tuple(Card(c.rank) for c in deal.kitty)
    return Deal(hands=(h0, h1, h2), kitty=kitty, first_bidder=deal.first_bidder)


def _readings(state: HandState | PhysicalHandState) -> dict[str, Any]:
    """Every public reading the two kinds of state share."""
    return {
        "phase": state.phase,
        "is_over": state.is_over,
        "turn": state.turn,
        "landlord": state.landlord,
        "bid": state.bid,
        "doubled": state.doubled,
        "redoubled": state.redoubled,
        "top_play": state.top_play,
        "top_seat": state.top_seat,
        "card_counts": state.card_counts,
        "bombs": state.bombs,
        "rockets": state.rockets,
        "winner": state.winner,
        "spring": state.spring,
        "anti_spring": state.anti_spring,
        "announcements": state.announcements,
        "plays": state.plays,
        "result": state.result(),
        "scores": state.scores(),
        "legal_actions": state.legal_actions(),
        "events": state.to_events(),
    }


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
    profile=st.sampled_from([COMP2016, CLASSIC]),
    suited=st.booleans(),
    bid_first=st.booleans(),
)
def test_the_unchecked_replay_equals_the_checked_one_after_every_action(
    seed: int, play_seed: int, profile: RuleProfile, suited: bool, bid_first: bool
) -> None:
    deal = deal_from_seed(seed)
    if not suited:
        deal = _rank_only(deal)
    actions = random_hand_actions(deal, seed=play_seed, profile=profile, bid_first=bid_first)
    for end in range(len(actions) + 1):
        checked = HandState.from_events(deal, actions[:end], profile)
        unchecked = HandState.replay(deal, actions[:end], profile)
        assert snapshot(unchecked) == snapshot(checked)
        assert _readings(unchecked) == _readings(checked)
        assert unchecked.scores() == checked.scores()
    # the actions as values replay the same as their JSON form, and pop still works
    replayed = HandState.replay(
        deal, HandState.from_events(deal, actions, profile).actions, profile
    )
    assert replayed.to_events() == actions
    if actions:
        replayed.pop()
        assert snapshot(replayed) == snapshot(HandState.from_events(deal, actions[:-1], profile))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    play_seed=st.integers(0, 2**32),
    profile=st.sampled_from([COMP2016, CLASSIC]),
    bid_first=st.booleans(),
)
def test_the_unchecked_physical_replay_equals_the_checked_one_after_every_action(
    seed: int, play_seed: int, profile: RuleProfile, bid_first: bool
) -> None:
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed, profile=profile, bid_first=bid_first)
    for end in range(len(actions) + 1):
        checked = PhysicalHandState.from_events(deal.first_bidder, actions[:end], profile)
        unchecked = PhysicalHandState.replay(deal.first_bidder, actions[:end], profile)
        assert _readings(unchecked) == _readings(checked)


def test_a_passed_out_hand_replays_to_zero_scores_and_passes_are_read_in_any_case() -> None:
    deal = deal_from_seed(7, first_bidder=1)
    passed_out = [{"seat": 1, "bid": 0}, {"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}]
    state = HandState.replay(deal, passed_out, COMP2016)
    assert (state.phase, state.turn, state.scores()) == (Phase.PASSED_OUT, None, (0, 0, 0))

    first = HandState.from_events(deal, [{"seat": 1, "bid": 3}], CLASSIC).legal_actions()[0]
    lead = first.to_json()
    written = [{"seat": 1, "bid": 3}, lead, {"seat": 2, "play": "Pass"}]
    state = HandState.replay(deal, written, CLASSIC)
    assert (state.phase, state.landlord, state.bid) == (Phase.PLAYING, 1, 3)
    assert (state.turn, state.top_seat, state.card_counts[1]) == (
        0,
        1,
        20 - len(state.plays[0].ranks),
    )
    assert state.to_events()[2] == {"seat": 2, "play": "pass"}


def test_a_deal_written_twice_gives_the_same_text_in_fresh_objects() -> None:
    hands = ["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"]
    deal = Deal.from_json({"hands": hands, "kitty": "2XD", "first_bidder": 0})
    first, second = deal.to_json(), deal.to_json()
    assert (
        first
        == second
        == {
            "hands": ["33334444555566667", "77788889999TTTTJJ", "JJQQQQKKKKAAAA222"],
            "kitty": "2XD",
            "first_bidder": 0,
        }
    )
    second["hands"].append("changed")
    assert deal.to_json()["hands"] == [
        "33334444555566667",
        "77788889999TTTTJJ",
        "JJQQQQKKKKAAAA222",
    ]
