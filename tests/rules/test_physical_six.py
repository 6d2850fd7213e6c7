"""Six players from physical cards (R13.10): the deal unknown, the landlord given, each card
written with its suit and no copy. The partner is who plays the third copy of the partner
card; a hand that ends before he does waits in ``naming`` for the referee to record the seat
that shows it (R13.8). Every random legal hand, entered without its deal, ends with the
dealt hand's result and scores, and the deal written in afterwards accepts its log."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.actions import BadEvent
from referee.rules.errors import IllegalAction, NotationError, RulesError
from referee.rules.games import six_deal_json, state_new
from referee.rules.hand import Phase
from referee.rules.physical import PhysicalHandState, check_deal, deal_written_in
from referee.rules.profiles import get_profile
from referee.rules.six_hand import Call, PartnerShown, SixHandState, six_action_from_json
from tests.rules.helpers import random_six_hand

PROFILES = ["six_p", "six_p_no_kitty"]


def _random_hand(profile_key: str, seed: int) -> tuple[dict[str, Any], SixHandState, list[Any]]:
    data, state, events = random_six_hand(profile_key, seed)
    assert isinstance(state, SixHandState)
    return data, state, events


def _entered(profile_key: str, landlord: int, events: list[Any]) -> PhysicalHandState:
    return PhysicalHandState.from_events(landlord, events, get_profile(profile_key))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PROFILES), st.integers(0, 10_000))
def test_a_hand_entered_without_its_deal_ends_as_the_dealt_hand(profile: str, seed: int) -> None:
    data, dealt, events = _random_hand(profile, seed)
    physical = _entered(profile, dealt.landlord or 0, events)
    partner = dealt.partner
    if partner is not None and dealt.revealed_at is None:
        # he never played his card: the hand waits for the referee to name him (R13.8)
        assert (physical.phase, physical.is_over, physical.turn) == (Phase.NAMING, False, None)
        assert physical.result() is None and physical.scores() is None
        six = physical.six
        assert six is not None and six.public_view()["partner"] is None
        assert six.public_view()["alone"] is False
        options = physical.legal_actions()
        assert PartnerShown(partner) in options and all(o.seat != dealt.landlord for o in options)
        physical.push(PartnerShown(partner))
        events = [*events, {"seat": partner, "partner": True}]
    assert physical.is_over
    assert physical.result() == dealt.result()
    assert physical.scores() == dealt.scores()
    six = physical.six
    assert six is not None
    view, truth = six.public_view(), dealt.public_view()
    assert view["partner"] == truth["partner"] and view["revealed_at"] == truth["revealed_at"]
    assert view["face_up"] is None  # not entered at the table
    written = deal_written_in(get_profile(profile), data)
    assert check_deal(written, events, get_profile(profile)) is None
    again = _entered(profile, dealt.landlord or 0, events)
    assert again.to_events() == physical.to_events()
    while again.actions:  # pop takes it back to the start, one action at a time
        again.pop()
    assert again.phase is Phase.CALLING


def _until_partner_card(profile: str) -> tuple[SixHandState, list[Any], int]:
    """A hand with a partner, entered up to the play before the partner's revealing play."""
    for seed in range(200):
        _, dealt, events = _random_hand(profile, seed)
        if dealt.revealed_at is not None and dealt.revealed_at > 3:
            return dealt, events, dealt.revealed_at
    raise AssertionError("no hand reveals its partner")


@pytest.mark.parametrize("profile", PROFILES)
def test_the_partner_is_who_plays_the_third_copy_and_no_other_seat(profile: str) -> None:
    dealt, events, at = _until_partner_card(profile)
    physical = _entered(profile, dealt.landlord or 0, events[:at])
    six = physical.six
    assert six is not None and six.public_view()["partner"] is None
    physical.push(six_action_from_json(events[at]))
    assert six.public_view()["partner"] == dealt.partner
    assert six.public_view()["revealed_at"] == at


@pytest.mark.parametrize("profile", PROFILES)
def test_the_landlord_holds_the_partner_card_twice_and_one_other_seat_the_third(
    profile: str,
) -> None:
    landlord = 2
    entered = _entered(profile, landlord, [{"seat": landlord, "call": "♠2"}])
    with pytest.raises(IllegalAction) as info:
        entered.push(six_action_from_json({"seat": landlord, "play": "♠2 ♠2 ♠2"}))
    assert info.value.code == "not_held" and "twice" in info.value.message
    assert len(entered.actions) == 1
    entered.push(six_action_from_json({"seat": landlord, "play": "♠2"}))
    entered.push(six_action_from_json({"seat": 3, "play": "pass"}))
    before = entered.to_events()
    with pytest.raises(IllegalAction) as info:  # two of them out of one other seat's hand
        entered.push(six_action_from_json({"seat": 4, "play": "♠2 ♠2"}))
    assert info.value.code == "not_held" and "one seat holds the third" in info.value.message
    assert entered.to_events() == before


def test_a_fourth_copy_of_a_card_is_not_held() -> None:
    entered = _entered("six_p", 0, [{"seat": 0, "call": "none"}])
    entered.push(six_action_from_json({"seat": 0, "play": "♠9 ♠9 ♠9"}))
    for seat in range(1, 6):
        entered.push(six_action_from_json({"seat": seat, "play": "pass"}))
    with pytest.raises(IllegalAction) as info:
        entered.push(six_action_from_json({"seat": 0, "play": "♠9"}))
    assert info.value.code == "not_held" and "three packs" in info.value.message


def test_copies_are_not_written_and_the_call_is_one_suited_card_not_a_joker() -> None:
    entered = _entered("six_p", 1, [])
    for call, error in (("♠2#1", NotationError), ("X", IllegalAction), ("2", NotationError)):
        with pytest.raises(error):
            entered.push(Call(1, call))
    with pytest.raises(IllegalAction) as info:
        entered.push(Call(0, "♠2"))
    assert info.value.code == "out_of_turn"
    entered.push(Call(1, "♥K"))
    with pytest.raises(NotationError):
        entered.push(six_action_from_json({"seat": 1, "play": "♠3#2"}))
    assert entered.actions == [Call(1, "♥K")]


def test_the_partner_is_named_only_at_the_end_and_never_the_landlord_or_a_seat_gone_out() -> None:
    for seed in range(300):
        _, dealt, events = _random_hand("six_p", seed)
        if dealt.partner is not None and dealt.revealed_at is None:
            break
    else:
        raise AssertionError("no hand ends before its partner's card")
    landlord = dealt.landlord or 0
    physical = _entered("six_p", landlord, events[:-1])
    with pytest.raises(IllegalAction) as info:
        physical.push(PartnerShown(dealt.partner or 0))
    assert info.value.code == "phase"
    physical.push(six_action_from_json(events[-1]))
    out = events[-1]["seat"]
    for seat, code in ((landlord, "invalid_partner"), (out, "invalid_partner")):
        if seat == landlord and out == landlord:
            continue
        with pytest.raises(IllegalAction) as info:
            physical.push(PartnerShown(seat))
        assert info.value.code == code
    assert physical.phase is Phase.NAMING
    wrong = next(s for s in range(6) if s not in (landlord, out, dealt.partner))
    physical.push(PartnerShown(wrong))  # the table's word: the deal written in says otherwise
    written = deal_written_in(get_profile("six_p"), six_deal_json(get_profile("six_p"), seed))
    error = check_deal(written, [*events, {"seat": wrong, "partner": True}], get_profile("six_p"))
    assert isinstance(error, RulesError) and error.code == "invalid_partner"
    assert error.index == len(events)


def test_the_partner_shown_is_no_action_of_a_dealt_hand() -> None:
    profile = get_profile("six_p")
    state = state_new(profile, six_deal_json(profile, 3))
    with pytest.raises(BadEvent):
        state.push(PartnerShown(1))  # type: ignore[arg-type]
    with pytest.raises(BadEvent):
        six_action_from_json({"seat": 1, "partner": 1})
