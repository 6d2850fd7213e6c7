"""Physical cards, ``laizi`` (issue 29): a play holding a wild card and sent without a
declaration is refused, ``wild_reading_required`` with its legal readings, unless reading it
as its own cards is its only legal reading: nothing is recorded under a reading the referee
never said (5557 with 7 wild is 555+7 for a stake of 3, or the soft bomb 5555 for 6)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.rules.actions import Bid, DeclaredPlay, Double, PlayCards
from referee.rules.cards import parse_ranks
from referee.rules.errors import RulesError
from referee.rules.physical import PhysicalHandState
from referee.rules.profiles import LAIZI
from tests.api.helpers import assign, client_for, playing_table, post, referee_user
from tournaments.common.errors import ApplicationError
from tournaments.hands.wild import hand_wild_record
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandEvent

pytestmark = pytest.mark.django_db
AUCTION = ({"seat": 0, "bid": 3}, {"seat": 1, "double": False}, {"seat": 2, "double": False})


def _playing(wild: str = "7", slug: str = "wild-club") -> Hand:
    """A physical-cards laizi hand: seat 0 landlord for 3, nobody doubles, ``wild`` drawn."""
    table = playing_table(name="Wild-card club", slug=slug, rule_profile="laizi")
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    for action in AUCTION:
        hand_action_record(hand=hand, action=action)
    return hand_wild_record(hand=hand, wild=wild).hand


def _refusal(hand: Hand, action: dict[str, Any]) -> ApplicationError:
    before = (Hand.objects.get(pk=hand.pk).version, HandEvent.objects.filter(hand=hand).count())
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action=action)
    after = (Hand.objects.get(pk=hand.pk).version, HandEvent.objects.filter(hand=hand).count())
    assert after == before  # nothing recorded
    return caught.value


def test_5557_undeclared_is_refused_with_its_two_readings() -> None:
    hand = _playing()
    error = _refusal(hand, {"seat": 0, "play": "5557"})
    assert error.code == "wild_reading_required"
    assert error.extra["readings"] == [
        {"seat": 0, "play": "5557"},
        {"seat": 0, "play": "5557", "as": "5555"},
    ]
    assert error.extra["index"] == 3  # the actions before it: the bid and two doubles


def _played_out(declared: str) -> Hand:
    """5557 declared as ``declared``, then seat 0's other sixteen cards (a straight 3…A and
    3334), the farmers passing: the landlord out, a spring (春天)."""
    hand = _playing(slug=f"wild-{declared}")
    for cards, as_ in (("5557", declared), ("3456789TJQKA", None), ("3334", None)):
        action: dict[str, Any] = {"seat": 0, "play": cards}
        if as_ is not None:
            action["as"] = as_
        hand = hand_action_record(hand=hand, action=action).hand
        for seat in (1, 2):
            if hand.status == "playing":
                hand = hand_action_record(hand=hand, action={"seat": seat, "play": "pass"}).hand
    hand.refresh_from_db()
    assert hand.status == "finished"
    return hand


def test_each_reading_declared_is_recorded_and_scored_as_said() -> None:
    """The soft bomb doubles the stake (R11.2.4); the trio with a single does not."""
    bomb, trio = _played_out("5555"), _played_out("5557")
    assert (bomb.bombs, trio.bombs) == (1, 0)
    assert bomb.scores is not None and trio.scores is not None
    assert [b for b in bomb.scores] == [2 * t for t in trio.scores] and trio.scores[0] > 0
    plays = HandEvent.objects.filter(hand=bomb, kind="play").order_by("seq")
    assert plays[0].payload["action"] == {"seat": 0, "play": "5557", "as": "5555"}


def test_a_play_whose_only_reading_is_declared_is_refused_with_it() -> None:
    """KK7: only KKK (the placeholder's example: K alone says nothing of the other two)."""
    hand = _playing()
    error = _refusal(hand, {"seat": 0, "play": "KK7"})
    assert error.code == "wild_reading_required"
    assert error.extra["readings"] == [{"seat": 0, "play": "KK7", "as": "KKK"}]


@pytest.mark.parametrize("play", ["3334", "7", "♠3 ♥3 ♣3 ♦4"])
def test_a_play_read_only_as_itself_goes_through(play: str) -> None:
    hand = _playing()
    hand = hand_action_record(hand=hand, action={"seat": 0, "play": play}).hand
    assert HandEvent.objects.filter(hand=hand, kind="play").get().payload["action"]["play"] == play


def test_following_lists_only_the_readings_that_beat() -> None:
    """After 3334: 5777 reads as a trio with a single above 333 (4445, 5557, 5888 …) or
    as the soft bomb 5555; what is listed is what would be accepted."""
    hand = _playing()
    hand = hand_action_record(hand=hand, action={"seat": 0, "play": "3334"}).hand
    error = _refusal(hand, {"seat": 1, "play": "5777"})
    listed = error.extra["readings"]
    assert listed[0] == {"seat": 1, "play": "5777"}
    assert {"seat": 1, "play": "5777", "as": "5555"} in listed
    assert error.extra["top"] == {"seat": 0, "cards": "3334"}
    assert {"seat": 1, "play": "5777", "as": "4445"} in listed  # 444 beats 333
    assert all(r.get("as") != "3335" for r in listed)  # 333 does not
    error = _refusal(hand, {"seat": 1, "play": "77"})  # two cards never follow four
    assert error.code == "does_not_beat"


def test_the_turn_is_refused_before_the_reading() -> None:
    hand = _playing()
    assert _refusal(hand, {"seat": 1, "play": "5557"}).code == "out_of_turn"


def test_the_api_answers_422_with_the_readings() -> None:
    hand = _playing()
    referee = referee_user("wild-ref")
    assign(referee, hand.table)
    url = f"/api/v1/hands/{hand.pk}/actions/"
    answer = post(client_for(referee), url, {"seat": 0, "play": "5557"})
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "wild_reading_required"
    assert body["details"]["readings"][1] == {"seat": 0, "play": "5557", "as": "5555"}
    assert "5555" in body["message"]
    zh = post(
        client_for(referee),
        f"/api/v1/hands/{hand.pk}/actions/",
        {"seat": 0, "play": "5557"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert zh.status_code == 422 and "癞子" in zh.json()["message"]
    ok = post(
        client_for(referee),
        f"/api/v1/hands/{hand.pk}/actions/",
        {"seat": 0, "play": "5557", "as": "5555"},
    )
    assert ok.status_code == 200, ok.json()


def _state() -> PhysicalHandState:
    state = PhysicalHandState(0, LAIZI, wild=parse_ranks("7")[0])
    state.push(Bid(0, 3))
    state.push(Double(1, False))
    state.push(Double(2, False))
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.lists(st.sampled_from("3456789TJQKA2"), min_size=1, max_size=8).map(
        lambda ranks: "".join(sorted([*ranks, "7"]))
    ),
    lead=st.sampled_from([None, "3", "44", "555", "6663", "89TJQ"]),
)
def test_every_reading_listed_is_accepted_and_the_natural_one_iff_undeclared(
    cards: str, lead: str | None
) -> None:
    """The invariant the refusal stands on: each reading listed is a play the rules accept
    now, and the cards undeclared are accepted exactly when their natural reading is listed."""
    seen = Counter((lead or "") + cards)
    assume(all(n <= 4 for n in seen.values()))  # one pack
    state = _state()
    seat = 0
    if lead is not None:
        state.push(PlayCards(0, lead))
        seat = 1
    readings = state.wild_readings(PlayCards(seat, cards))
    for reading in readings:
        state.push(reading)
        state.pop()
    try:
        state.push(PlayCards(seat, cards))
    except RulesError:
        accepted = False
    else:
        state.pop()
        accepted = True
    assert accepted == (PlayCards(seat, cards) in readings)
    assert all(isinstance(r, DeclaredPlay) for r in readings[1 if accepted else 0 :])
