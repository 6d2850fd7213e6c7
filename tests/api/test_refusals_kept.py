"""A refused write keeps its refusal under its Idempotency-Key (issue 29): a retry with the
same key and body answers the original status and body (``Idempotent-Replayed: true``) and
records nothing, even once the state has changed so that the same request would now be
accepted. What is kept is the state's (409) and the rules' (422) refusal of a request that
was read and allowed; a refusal before the write runs (400, 401/403, 404) leaves the key
free, so that the request, corrected or sent again after signing in, is recorded."""

import json
from typing import Any

import pytest

from referee.rules.cards import Deal
from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import hand_create, hand_record_passed_out
from tournaments.models import Hand, HandEvent, IdempotencyRecord, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Table:
    return playing_table()


@pytest.fixture
def ref(table: Table) -> Any:
    user = referee_user("table-ref")
    assign(user, table)
    return client_for(user)


def _replayed(first: Any, again: Any) -> None:
    """``again`` is ``first`` answered once more from its record."""
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first


def _recorded(key: str) -> tuple[int, dict[str, Any]]:
    record = IdempotencyRecord.objects.get(key=key)
    return record.status_code, json.loads(record.body)


def test_an_out_of_turn_bid_stays_refused_under_its_key_once_it_is_that_seats_turn(
    ref: Any, table: Table
) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    early = {"seat": (first + 1) % 3, "bid": 1}

    refused = post(ref, url, early, key="early-bid")
    assert refused.status_code == 422 and refused.json()["code"] == "out_of_turn"
    assert _recorded("early-bid") == (422, refused.json())
    assert post(ref, url, {"seat": first, "bid": 0}).status_code == 200  # now it is its turn

    again = post(ref, url, early, key="early-bid")
    _replayed(refused, again)
    events = HandEvent.objects.filter(hand_id=hand["id"])
    assert [e.payload["action"] for e in events] == [{"seat": first, "bid": 0}]
    assert not events.filter(idempotency_key="early-bid").exists()
    assert Hand.objects.get(pk=hand["id"]).version == 1
    # a new attempt is a new key
    accepted = post(ref, url, early, key="early-bid-2")
    assert accepted.status_code == 200 and accepted.json()["event"]["payload"]["action"] == early


def test_a_refusal_replayed_while_the_state_still_refuses_it(ref: Any, table: Table) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    refused = post(ref, url, {"seat": (first + 2) % 3, "bid": 3}, key="k")
    again = post(ref, url, {"seat": (first + 2) % 3, "bid": 3}, key="k")
    _replayed(refused, again)
    assert IdempotencyRecord.objects.filter(key="k").count() == 1
    assert not HandEvent.objects.filter(hand_id=hand["id"]).exists()


def test_a_refused_key_sent_with_another_body_is_an_idempotency_conflict(
    ref: Any, table: Table
) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(ref, url, {"seat": (first + 1) % 3, "bid": 1}, key="k").status_code == 422

    other = post(ref, url, {"seat": first, "bid": 1}, key="k")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_conflict"
    assert not HandEvent.objects.filter(hand_id=hand["id"]).exists()
    assert _recorded("k")[0] == 422


def test_a_stale_version_is_kept_under_its_key_and_a_newer_if_match_does_not_reopen_it(
    ref: Any, table: Table
) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(ref, url, {"seat": first, "bid": 1}, HTTP_IF_MATCH='"0"').status_code == 200
    follow = {"seat": (first + 1) % 3, "bid": 2}

    stale = post(ref, url, follow, key="stale", HTTP_IF_MATCH='"0"')
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    # the client's bug: the same key for the attempt at the version it read since
    again = post(ref, url, follow, key="stale", HTTP_IF_MATCH='"1"')
    _replayed(stale, again)
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1
    fresh = post(ref, url, follow, key="fresh", HTTP_IF_MATCH='"1"')
    assert fresh.status_code == 200 and fresh.json()["version"] == 2


def test_a_hand_start_refused_while_a_hand_is_live_stays_refused_after_it_is_voided(
    ref: Any, table: Table
) -> None:
    live = start_hand(ref, table).json()
    refused = post(ref, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}, key="start")
    assert refused.status_code == 409 and refused.json()["code"] == "hand_in_progress"
    assert refused.json()["details"] == {"hand": live["id"]}
    hand_void(hand=Hand.objects.get(pk=live["id"]), reason="misdeal")

    again = post(ref, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}, key="start")
    _replayed(refused, again)
    assert list(Hand.objects.filter(table=table).values_list("pk", flat=True)) == [live["id"]]
    started = post(ref, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}, key="start-2")
    assert started.status_code == 201


def test_a_penalty_revoked_twice_keeps_the_second_refusal_under_its_key(
    director: Any, table: Table
) -> None:
    staff = client_for(director)
    entry = table.seats.get(position=1).entry_id
    slug = table.round.tournament.slug
    penalty = post(
        staff,
        f"/api/v1/tournaments/{slug}/penalties/",
        {"entry": entry, "points": -1, "reason": "signal"},
    ).json()
    url = f"/api/v1/penalties/{penalty['id']}/revoke/"
    assert post(staff, url, {"reason": "oops"}).status_code == 200

    refused = post(staff, url, {"reason": "again"}, key="twice")
    assert refused.status_code == 409 and refused.json()["code"] == "penalty_revoked"
    _replayed(refused, post(staff, url, {"reason": "again"}, key="twice"))
    assert _recorded("twice") == (409, refused.json())


def test_a_players_confirmation_refused_before_the_hand_ends_stays_refused_under_its_key() -> None:
    table = playing_table(requires_confirmation=True, confirmed_by="players")
    user = referee_user("pins-ref")
    assign(user, table)
    ref = client_for(user)
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    hand = hand_create(table=table).hand
    url = f"/api/v1/hands/{hand.pk}/confirm/"
    body = {"pins": {"0": pins[0], "1": pins[1]}}

    refused = post(ref, url, body, key="too-soon")
    assert refused.status_code == 409 and refused.json()["code"] == "not_awaiting_confirmation"
    hand_record_passed_out(hand=hand)  # now it awaits the players' confirmation

    _replayed(refused, post(ref, url, body, key="too-soon"))
    assert Hand.objects.get(pk=hand.pk).confirmation == "pending"
    assert post(ref, url, body, key="in-time").status_code == 200
    assert Hand.objects.get(pk=hand.pk).confirmation == "confirmed"


def test_a_wrong_pin_is_not_kept_so_the_right_pins_are_recorded_under_the_key() -> None:
    """A wrong PIN is 403 (counted, and kept counted): the key stays free."""
    table = playing_table(requires_confirmation=True, confirmed_by="players")
    user = referee_user("pins-ref")
    assign(user, table)
    ref = client_for(user)
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    hand = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    url = f"/api/v1/hands/{hand.pk}/confirm/"
    wrong = post(ref, url, {"pins": {"0": pins[0], "1": "0000" if pins[1] != "0000" else "1111"}})
    assert wrong.status_code == 403 and wrong.json()["code"] == "pin_wrong"
    assert not IdempotencyRecord.objects.exists()


def test_a_refusal_of_who_may_write_leaves_the_key_free(table: Table) -> None:
    """403 ``not_assigned``: the console keeps the write and sends it with the same key
    once the referee may write (after signing in again, or once assigned)."""
    user = referee_user("late-ref")
    client = client_for(user)
    refused = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}, key="later")
    assert refused.status_code == 403 and refused.json()["code"] == "not_assigned"
    assert not IdempotencyRecord.objects.exists()

    assign(user, table)
    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}, key="later")
    assert started.status_code == 201 and "Idempotent-Replayed" not in started
    assert _recorded("later") == (201, started.json())


def test_a_malformed_request_leaves_the_key_free_for_the_corrected_one(
    ref: Any, table: Table
) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    malformed = post(ref, url, {"seat": first, "bid": "one"}, key="typo")
    assert malformed.status_code == 400 and malformed.json()["code"] == "validation"
    assert not IdempotencyRecord.objects.filter(key="typo").exists()

    fixed = post(ref, url, {"seat": first, "bid": 1}, key="typo")
    assert fixed.status_code == 200 and "Idempotent-Replayed" not in fixed
    assert HandEvent.objects.get(hand_id=hand["id"]).idempotency_key == "typo"


def test_a_key_already_answered_in_the_hands_log_is_not_recorded_as_a_refusal(
    ref: Any, table: Table
) -> None:
    """``idempotency_conflict`` is the key's own refusal: never kept as its answer."""
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    done = post(ref, url, {"seat": first, "bid": 1}, key="k")
    assert done.status_code == 200
    conflict = post(ref, url, {"seat": first, "bid": 2}, key="k")
    assert conflict.status_code == 409 and conflict.json()["code"] == "idempotency_conflict"
    assert _recorded("k") == (200, done.json())
