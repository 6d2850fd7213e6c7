"""Two reads the referee console needs (issues 17 and 18): a table's hands this round with
their states (``GET tables/{id}/``), and the preview of a result-only entry
(``POST hands/{id}/result/preview/``): the scores the entry would record, or its refusal
with the rule, by the entry's own checks, writing nothing."""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.api.helpers import (
    assert_as_served,
    assign,
    client_for,
    playing_table,
    post,
    referee_user,
)
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP
from tournaments.common.seats import MAX_SEATS
from tournaments.hands.confirmation import hand_confirm_by_pins, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
    hand_result_preview,
)
from tournaments.models import (
    Hand,
    HandEvent,
    HandSeatResult,
    IdempotencyRecord,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db
RESULT: dict[str, Any] = {"landlord": 0, "bid": 2, "winner": "landlord"}


def _pins(table: Table) -> dict[int, str]:
    return {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}


def _names(table: Table) -> list[str]:
    seats = Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    return [s.entry.player.name for s in seats]


def _written(hand_id: int) -> tuple[Any, ...]:
    """Everything a preview must leave as it was."""
    hand = Hand.objects.get(pk=hand_id)
    tournament = Tournament.objects.get(pk=hand.table.round.tournament_id)
    return (
        hand.version,
        hand.status,
        hand.scores,
        HandEvent.objects.filter(hand_id=hand_id).count(),
        HandSeatResult.objects.count(),
        IdempotencyRecord.objects.count(),
        tournament.log_version,
    )


# ------------------------------------------------------------------ GET tables/{id}/
@pytest.fixture
def table_of_every_state() -> tuple[Table, dict[str, Hand]]:
    """A table whose players confirm, with one hand in each state the console lists."""
    table = playing_table(requires_confirmation=True, confirmed_by="players", hands_per_round=8)
    pins = _pins(table)
    hands: dict[str, Hand] = {}
    confirmed = hand_record_result(hand=hand_create(table=table).hand, **RESULT).hand
    hands["confirmed"] = hand_confirm_by_pins(
        hand=confirmed, pins={0: pins[0], 2: pins[2]}, recorded_by=None
    ).hand
    hands["awaiting"] = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    disputed = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=3, winner="defenders"
    ).hand
    hands["disputed"] = hand_dispute(hand=disputed, reason="the bid was 2", recorded_by=None).hand
    voided = hand_record_result(hand=hand_create(table=table).hand, **RESULT).hand
    hands["voided"] = hand_void(hand=voided, reason="misdeal", recorded_by=None).hand
    deal = deal_from_seed(7)
    physical = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        physical = hand_action_record(hand=physical, action=action).hand
    other = deal_from_seed(8, first_bidder=deal.first_bidder)
    hands["irregular"] = hand_deal_record(hand=physical, deal=other.to_json()).hand
    logged = hand_create(table=table, seed=7).hand
    for action in random_hand_actions(deal_from_seed(7), seed=1):
        logged = hand_action_record(hand=logged, action=action).hand
    flipped = "defenders" if logged.winner == "landlord" else "landlord"
    hands["overridden"] = hand_result_correct(
        hand=logged,
        reason="the winner was logged wrongly",
        landlord=logged.landlord_seat,
        bid=logged.bid,
        winner=flipped,
        override=True,
    ).hand
    hands["playing"] = hand_create(table=table, seed=3).hand
    return table, hands


def test_a_table_lists_its_hands_with_their_states_and_who_confirmed(
    table_of_every_state: tuple[Table, dict[str, Hand]],
) -> None:
    table, hands = table_of_every_state
    referee = referee_user("table-ref")
    assign(referee, table)
    answer = client_for(referee).get(f"/api/v1/tables/{table.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    names = _names(table)
    assert {k: body[k] for k in ("table_id", "round", "table", "confirmed_by")} == {
        "table_id": table.pk,
        "round": table.round.number,
        "table": table.number,
        "confirmed_by": "players",
    }
    assert [s["name"] for s in body["seats"]] == names
    rows = body["hands"]
    assert [r["number"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert [r["state"] for r in rows] == [
        "confirmed", "awaiting", "disputed", "voided", "irregular", "awaiting", "playing",
    ]  # fmt: skip
    assert [r["status"] for r in rows] == [
        "finished", "passed_out", "finished", "voided", "finished", "finished", "bidding",
    ]  # fmt: skip
    assert rows[0] == {
        "id": hands["confirmed"].pk,
        "number": 1,
        "board": None,
        "mode": "result_only",
        "status": "finished",
        "confirmation": "confirmed",
        "state": "confirmed",
        "counts": True,
        "landlord": 0,
        "winner": "landlord",
        "scores": [4, -2, -2],
        "confirmed_by": "players",
        "confirmer": f"{names[0]}, {names[2]}",
        "irregular": None,
        "overridden": False,
    }
    assert rows[1]["scores"] == [0, 0, 0] and rows[1]["landlord"] is None
    assert rows[2]["scores"] == [3, -6, 3] and rows[2]["confirmed_by"] is None
    assert rows[4]["irregular"] == "deal_check_failed" and rows[4]["mode"] == "physical"
    assert rows[5]["overridden"] is True and rows[5]["mode"] == "dealt"
    assert rows[6]["scores"] is None and rows[6]["counts"] is False
    assert [r["overridden"] for r in rows].count(True) == 1
    assert body["awaiting_confirmation"] == [
        {"id": hands["awaiting"].pk, "number": 2},
        {"id": hands["overridden"].pk, "number": 6},
    ]
    # no card in the list: a hand's cards are read through the hand, as card secrecy allows
    assert not {"hands", "deal", "kitty", "events"} & {k for r in rows for k in r}


def test_a_hand_confirmed_by_an_official_names_the_official() -> None:
    table = playing_table(requires_confirmation=True)
    hand = hand_record_result(hand=hand_create(table=table).hand, **RESULT).hand
    second = referee_user("second-ref")
    assign(second, table, whole_round=True)
    assert post(client_for(second), f"/api/v1/hands/{hand.pk}/confirm/", {}).status_code == 200
    row = client_for(second).get(f"/api/v1/tables/{table.pk}/").json()["hands"][0]
    assert (row["state"], row["confirmed_by"], row["confirmer"]) == (
        "confirmed",
        "official",
        "second-ref",
    )


def test_a_table_is_read_by_its_referees_and_directors_only(director: Any) -> None:
    table = playing_table()
    hand_record_result(hand=hand_create(table=table).hand, **RESULT)
    other_table = factories.TableFactory(round=table.round)
    own, round_ref, other, removed = (
        referee_user(name) for name in ("own-ref", "round-ref", "other-ref", "removed-ref")
    )
    assign(own, table)
    assign(round_ref, table, whole_round=True)
    assign(other, other_table)
    assign(removed, table)
    removed.groups.remove(removed.groups.get(name=REFEREE_GROUP))
    plain = factories.UserFactory(username="plain-user")
    url = f"/api/v1/tables/{table.pk}/"

    def code(user: Any) -> tuple[int, str]:
        answer = client_for(user).get(url)
        return answer.status_code, answer.json().get("code", "")

    assert code(None) == (401, "not_authenticated")
    assert code(other) == (403, "not_assigned")
    assert code(plain) == (403, "permission_denied")
    assert code(removed) == (403, "permission_denied")
    assert code(own) == (200, "")
    assert code(round_ref) == (200, "")
    assert code(director) == (200, "")
    missing = client_for(own).get("/api/v1/tables/999999/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    # an anonymous caller learns nothing, not even whether the table exists
    assert client_for(None).get("/api/v1/tables/999999/").status_code == 401
    # a closed round's table is still read by its referee
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    assert code(own) == (200, "")


# ------------------------------------------------------- POST hands/{id}/result/preview/
@pytest.fixture
def table() -> Table:
    return playing_table()


@pytest.fixture
def ref(table: Table) -> Any:
    user = referee_user("table-ref")
    assign(user, table)
    return client_for(user)


def _preview(client: Any, hand_id: int, body: dict[str, Any]) -> Any:
    return post(client, f"/api/v1/hands/{hand_id}/result/preview/", body, key=None)


def test_a_preview_answers_the_scores_the_entry_records_and_writes_nothing(
    ref: Any, table: Table
) -> None:
    hand = hand_create(table=table).hand
    body = {
        "landlord": 1, "bid": 3, "winner": "defenders", "doubled": [True, False, False],
        "redoubled": True, "bombs": 1, "rockets": 1, "anti_spring": True,
    }  # fmt: skip
    before = _written(hand.pk)
    preview = _preview(ref, hand.pk, body)  # no Idempotency-Key: nothing is written
    assert preview.status_code == 200, preview.json()
    # R8.2, the rulebook's example: 96 for the defender who doubled, 24 for the other
    assert preview.json() == {
        "result": {
            "landlord": 1, "bid": 3, "doubled": [True, False, False], "redoubled": True,
            "bombs": 1, "rockets": 1, "spring": False, "anti_spring": True,
            "winner": "defenders",
        },
        "scores": [96, -120, 24],
        "rule_profile": "comp2016",
        "needs_confirmation": False,
    }  # fmt: skip
    assert_as_served("ResultPreviewOutput", preview.json())  # no partner but in six players
    assert _written(hand.pk) == before
    saved = post(ref, f"/api/v1/hands/{hand.pk}/result/", body)
    assert saved.status_code == 200 and saved.json()["scores"] == [96, -120, 24]


def test_a_preview_says_when_the_hand_will_await_confirmation() -> None:
    table = playing_table(requires_confirmation=True)
    user = referee_user("ref")
    assign(user, table)
    hand = hand_create(table=table).hand
    answer = _preview(client_for(user), hand.pk, RESULT).json()
    assert (answer["scores"], answer["needs_confirmation"]) == ([4, -2, -2], True)


@pytest.mark.parametrize(
    ("body", "code", "rule_number"),
    [
        ({**RESULT, "winner": "defenders", "spring": True}, "invalid_result", "R7.2"),
        ({**RESULT, "spring": True, "anti_spring": True}, "invalid_result", "R7.4"),
        ({**RESULT, "doubled": [True, False, False]}, "invalid_result", "R4.1"),
        ({**RESULT, "redoubled": True}, "invalid_result", "R4.3"),
        ({**RESULT, "spring": True, "bombs": 6}, "impossible_result", "R7.2"),
        (
            {**RESULT, "winner": "defenders", "anti_spring": True, "bombs": 10},
            "impossible_result",
            "R7.3",
        ),
    ],
)
def test_a_preview_is_refused_as_the_entry_is_with_the_rule(
    ref: Any, table: Table, body: dict[str, Any], code: str, rule_number: str
) -> None:
    hand = hand_create(table=table).hand
    before = _written(hand.pk)
    preview = _preview(ref, hand.pk, body)
    assert preview.status_code == 422
    refusal = preview.json()
    assert refusal["code"] == code
    assert refusal["details"]["rule_number"] == rule_number
    assert refusal["details"]["rule"].startswith(rule_number + ": ")
    assert _written(hand.pk) == before
    entry = post(ref, f"/api/v1/hands/{hand.pk}/result/", body)
    assert (entry.status_code, entry.json()) == (422, refusal)  # the same refusal, word for word


def test_a_preview_is_refused_on_a_closed_or_logged_hand_and_a_malformed_body(
    ref: Any, table: Table
) -> None:
    closed = hand_record_result(hand=hand_create(table=table).hand, **RESULT).hand
    answer = _preview(ref, closed.pk, RESULT)
    assert (answer.status_code, answer.json()["code"]) == (409, "hand_closed")
    logged = hand_create(table=table, seed=5).hand
    first = deal_from_seed(5).first_bidder
    logged = hand_action_record(hand=logged, action={"seat": first, "bid": 1}).hand
    answer = _preview(ref, logged.pk, RESULT)
    assert (answer.status_code, answer.json()["code"]) == (409, "hand_logged_live")
    hand_void(hand=logged, reason="restart", recorded_by=None)
    fresh = hand_create(table=table).hand
    before = _written(fresh.pk)
    for body in (
        {**RESULT, "bid": 4},
        {**RESULT, "landlord": MAX_SEATS},
        {"bid": 1},
        {**RESULT, "x": 1},
    ):
        answer = _preview(ref, fresh.pk, body)
        assert (answer.status_code, answer.json()["code"]) == (400, "validation"), body
    # a four-seat table's seat: well-formed, but not this three-seat table's
    answer = _preview(ref, fresh.pk, {**RESULT, "landlord": 3})
    assert (answer.status_code, answer.json()["code"]) == (422, "seat_not_at_table")
    missing = _preview(ref, 999999, RESULT)
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert _written(fresh.pk) == before


def test_a_preview_is_allowed_to_whoever_may_enter_the_result(table: Table, director: Any) -> None:
    hand = hand_create(table=table).hand
    other_table = factories.TableFactory(round=table.round)
    other, removed = referee_user("other-ref"), referee_user("removed-ref")
    assign(other, other_table)
    assign(removed, table)
    removed.groups.remove(removed.groups.get(name=REFEREE_GROUP))
    plain = factories.UserFactory(username="plain-user")
    before = _written(hand.pk)

    def code(user: Any) -> tuple[int, str]:
        answer = _preview(client_for(user), hand.pk, RESULT)
        return answer.status_code, answer.json().get("code", "")

    assert code(None) == (401, "not_authenticated")
    assert code(other) == (403, "not_assigned")
    assert code(plain) == (403, "permission_denied")
    assert code(removed) == (403, "permission_denied")
    assert code(director) == (200, "")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    assert code(director) == (409, "round_not_playing")
    assert _written(hand.pk) == before


_RESULTS = st.fixed_dictionaries(
    {
        "landlord": st.integers(0, 2),
        "bid": st.integers(1, 3),
        "winner": st.sampled_from(["landlord", "defenders"]),
        "doubled": st.lists(st.booleans(), min_size=3, max_size=3),
        "redoubled": st.booleans(),
        "bombs": st.integers(0, 13),
        "rockets": st.integers(0, 1),
        "spring": st.booleans(),
        "anti_spring": st.booleans(),
    }
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(fields=_RESULTS, profile=st.sampled_from(["comp2016", "classic"]))
def test_a_preview_is_what_the_entry_records_or_its_refusal(
    db: Any, fields: dict[str, Any], profile: str
) -> None:
    """The invariant: whatever the result, the preview answers the event the entry then
    records (result and scores), or the entry's own refusal (code and details)."""
    hand = hand_create(table=factories.seated_table(rule_profile=profile)).hand
    fields = {**fields, "doubled": tuple(fields["doubled"])}
    try:
        preview = hand_result_preview(hand=hand, **fields)
    except ApplicationError as refused:
        with pytest.raises(ApplicationError) as entry:
            hand_record_result(hand=hand, **fields)
        assert (entry.value.code, entry.value.extra) == (refused.code, refused.extra)
        assert refused.code in ("invalid_result", "impossible_result")
        return
    recorded = hand_record_result(hand=hand, **fields).hand
    event = HandEvent.objects.filter(hand=recorded, kind="result").get()
    assert preview == event.payload
    assert preview["scores"] == list(recorded.scores)
