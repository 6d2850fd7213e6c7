"""Six players from physical cards through the API (issue 32, point 4; R13.10): the referee
gives the landlord (the face-up card's holder), enters the call and each card with its suit
and no copy; the partner is public from the play of the partner card's third copy, or — the
hand ending first — from the seat the referee enters as showing it (R13.8). The deal written
in afterwards checks the whole log, the partner shown included. What the rules refuse is a
4xx with its code and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.six_hand import SixHandState
from tests.api.helpers import assign, client_for, playing_table, post, referee_user
from tests.rules.helpers import as_at_the_table, random_six_hand
from tournaments.hands.replay import hand_check_replays
from tournaments.models import Hand, HandEvent, HandSeatResult

pytestmark = pytest.mark.django_db


def _hand_where(revealed: bool, profile: str = "six_p") -> tuple[dict[str, Any], SixHandState]:
    """A deal and a random legal hand on it, whose partner plays the partner card
    (``revealed``) or never does."""
    for seed in range(400):
        data, state, _ = random_six_hand(profile, seed)
        if state.partner is not None and (state.revealed_at is not None) == revealed:
            return data, state
    raise AssertionError("no such hand")


@pytest.fixture
def referee() -> tuple[Any, Any]:
    table = playing_table(slug="six-physical", rule_profile="six_p", is_public=True)
    user = referee_user("six-physical-referee")
    assign(user, table)
    return client_for(user), table


def _start(client: Any, table: Any, landlord: int) -> dict[str, Any]:
    started = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical", "first_bidder": landlord}
    )
    assert started.status_code == 201, started.json()
    return dict(started.json())


def _enter(client: Any, hand_id: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    read: dict[str, Any] = {}
    for event in events:
        answer = post(client, f"/api/v1/hands/{hand_id}/actions/", event)
        assert answer.status_code == 200, (event, answer.json())
        read = answer.json()
    return read


def _written(hand_id: int) -> tuple[int, int]:
    return Hand.objects.get(pk=hand_id).version, HandEvent.objects.filter(hand_id=hand_id).count()


def test_the_partner_is_public_from_his_play_of_the_third_copy(referee: Any) -> None:
    client, table = referee
    data, dealt = _hand_where(revealed=True)
    events = [as_at_the_table(a.to_json()) for a in dealt.actions]
    hand = _start(client, table, dealt.landlord or 0)
    started = (hand["status"], hand["landlord"], hand["six"]["phase"])
    assert started == ("playing", dealt.landlord, "calling")
    assert hand["six"]["face_up"] is None and hand["mode"] == "physical"
    at = dealt.revealed_at
    assert at is not None
    before = _enter(client, hand["id"], events[:at])
    anonymous = client_for(None).get(f"/api/v1/hands/{hand['id']}/").json()
    for read in (before, anonymous):
        assert read["six"]["partner"] is None and read["six"]["partner_card"] == dealt.partner_card
        assert read["six"]["alone"] is False  # a partner card called: he is somebody
    revealing = _enter(client, hand["id"], [events[at]])
    assert (revealing["six"]["partner"], revealing["six"]["revealed_at"]) == (dealt.partner, at)
    assert (
        HandEvent.objects.filter(hand_id=hand["id"]).order_by("-seq")[0].payload["reveals_partner"]
    )
    done = _enter(client, hand["id"], events[at + 1 :])
    assert done["status"] == "finished"
    assert done["scores"] == list(dealt.scores() or ())
    stored = Hand.objects.get(pk=hand["id"])
    assert stored.partner_seat == dealt.partner
    won = [r.won for r in HandSeatResult.objects.filter(hand_id=hand["id"]).order_by("position")]
    side = {dealt.landlord, dealt.partner}
    assert won == [(s in side) == (dealt.winner == "landlord") for s in range(6)]
    written = post(client, f"/api/v1/hands/{hand['id']}/deal/", data)
    assert written.status_code == 200, written.json()
    assert written.json()["deal_check"]["ok"] is True
    assert hand_check_replays(hand=Hand.objects.get(pk=hand["id"])) == []


def test_a_hand_over_before_the_partner_card_waits_for_the_seat_that_shows_it(
    referee: Any,
) -> None:
    client, table = referee
    data, dealt = _hand_where(revealed=False)
    events = [as_at_the_table(a.to_json()) for a in dealt.actions]
    hand = _start(client, table, dealt.landlord or 0)
    waiting = _enter(client, hand["id"], events)
    assert (waiting["status"], waiting["six"]["phase"], waiting["turn"]) == (
        "playing",
        "naming",
        None,
    )
    assert waiting["scores"] is None and waiting["six"]["partner"] is None
    before = _written(hand["id"])
    url = f"/api/v1/hands/{hand['id']}/actions/"
    out = events[-1]["seat"]
    for seat in {dealt.landlord, out} - {None}:
        answer = post(client, url, {"seat": seat, "partner": True})
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid_partner")
    answer = post(client, url, {"seat": dealt.partner, "partner": False})
    assert answer.status_code == 400
    assert _written(hand["id"]) == before
    shown = post(client, url, {"seat": dealt.partner, "partner": True})
    assert shown.status_code == 200, shown.json()
    read = shown.json()
    assert (read["status"], read["six"]["partner"], read["scores"]) == (
        "finished",
        dealt.partner,
        list(dealt.scores() or ()),
    )
    written = post(client, f"/api/v1/hands/{hand['id']}/deal/", data)
    assert written.json()["deal_check"]["ok"] is True
    assert hand_check_replays(hand=Hand.objects.get(pk=hand["id"])) == []


def test_a_partner_shown_whom_the_deal_contradicts_makes_the_hand_irregular(referee: Any) -> None:
    client, table = referee
    data, dealt = _hand_where(revealed=False)
    events = [as_at_the_table(a.to_json()) for a in dealt.actions]
    hand = _start(client, table, dealt.landlord or 0)
    _enter(client, hand["id"], events)
    out = events[-1]["seat"]
    wrong = next(s for s in range(6) if s not in (dealt.landlord, dealt.partner, out))
    _enter(client, hand["id"], [{"seat": wrong, "partner": True}])
    written = post(client, f"/api/v1/hands/{hand['id']}/deal/", data)
    check = written.json()["deal_check"]
    assert (check["ok"], check["code"], check["index"]) == (False, "invalid_partner", len(events))
    assert Hand.objects.get(pk=hand["id"]).confirmation == "disputed"


def test_what_six_players_from_physical_cards_refuse(referee: Any) -> None:
    client, table = referee
    answer = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical"})
    assert (answer.status_code, answer.json()["code"]) == (422, "first_bidder_required")
    assert not Hand.objects.filter(table=table).exists()
    hand = _start(client, table, 3)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    _enter(client, hand["id"], [{"seat": 3, "call": "♥Q"}])
    before = _written(hand["id"])
    refusals = [
        ({"seat": 3, "play": "♠4#2"}, 422, "bad_notation"),  # no copy: identical backs
        ({"seat": 3, "play": "4"}, 422, "bad_notation"),  # a suit on every card
        ({"seat": 3, "play": "♥Q ♥Q ♥Q"}, 422, "not_held"),  # he holds the partner card twice
        ({"seat": 4, "play": "♠4"}, 422, "out_of_turn"),
        ({"seat": 4, "partner": True}, 422, "phase"),  # only once the hand is over
    ]
    for body, status, code in refusals:
        answer = post(client, url, body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (body, answer.json())
    assert _written(hand["id"]) == before
    dealt = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random"})
    assert dealt.status_code == 409  # one live hand a table


def test_the_partner_shown_is_no_action_of_another_games_physical_hand() -> None:
    """schemathesis's ST202: ``{"seat": 1, "partner": true}`` on a three-player physical-cards
    hand is the rules' refusal (422 ``no_partner_shown``), not a bad request."""
    table = playing_table(slug="three-physical")
    user = referee_user("three-physical-referee")
    assign(user, table)
    client = client_for(user)
    started = post(
        client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "physical", "first_bidder": 0}
    )
    hand = started.json()
    answer = post(client, f"/api/v1/hands/{hand['id']}/actions/", {"seat": 1, "partner": True})
    assert (answer.status_code, answer.json()["code"]) == (422, "no_partner_shown")
    assert _written(hand["id"]) == (0, 0)
