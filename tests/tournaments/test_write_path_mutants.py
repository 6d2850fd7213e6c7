"""The hand-write path's survivors of mutation testing, pinned (issue 19, step 0).

mutmut (2.x, per module, with the tests that exercise it) left these mutants of
``tournaments/hands/confirmation.py``, ``corrections.py``, ``results.py`` and ``write.py``
alive. Each test here goes through the public services only, and compares with values
written out by hand: the refusal's code and message, the event's payload, the stored row,
the per-seat rows. Nothing is recomputed by the code under test."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.play import random_hand_actions
from tests.tournaments import builders
from tests.tournaments.builders import table_of, tournament_with_entries
from tournaments.common.errors import ApplicationError
from tournaments.common.seat_names import seat_name
from tournaments.hands import writing as hand_writing
from tournaments.hands.confirmation import (
    hand_confirm,
    hand_confirm_by_pins,
    hand_dispute,
    table_hands_confirm,
)
from tournaments.hands.corrections import hand_irregular_keep, hand_result_correct, hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
    hand_result_preview,
)
from tournaments.models import Hand, HandEvent, HandSeatResult, Seat, Table, Tournament
from tournaments.rounds.services import table_hand_add
from tournaments.standings.queries import standings_latest

pytestmark = pytest.mark.django_db


def _user(name: str, **fields: Any) -> Any:
    return get_user_model().objects.create_user(username=name, password="x", **fields)


def _row(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


def _events(hand: Hand) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, e.payload) for e in HandEvent.objects.filter(hand=hand).order_by("seq")]


def _last_event(hand: Hand) -> HandEvent:
    event = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert event is not None
    return event


def _written(hand: Hand) -> tuple[Any, ...]:
    """What a refusal leaves as it was."""
    row = _row(hand)
    return (
        row.status,
        row.confirmation,
        row.version,
        row.pin_failures,
        _events(hand),
        sorted(HandSeatResult.objects.filter(hand=hand).values_list("position", "score")),
    )


def _refused(call: Any, hand: Hand) -> tuple[str, str]:
    before = _written(hand)
    with pytest.raises(ApplicationError) as caught:
        call()
    assert _written(hand) == before
    return caught.value.code, caught.value.message


def _pending(table: Table, recorded_by: Any = None, landlord: int = 0) -> Hand:
    return hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=landlord,
        bid=2,
        winner="landlord",
        recorded_by=recorded_by,
    ).hand


def _pins(table: Table) -> dict[int, str]:
    return {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}


def _wrong(pin: str) -> str:
    return "0000" if pin != "0000" else "1111"


def _irregular(table: Table) -> Hand:
    """A physical-cards hand whose written-in deal does not fit its log."""
    deal = deal_from_seed(7)
    hand = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        hand = hand_action_record(hand=hand, action=action).hand
    other = deal_from_seed(8, first_bidder=deal.first_bidder)
    return _row(hand_deal_record(hand=hand, deal=other.to_json()).hand)


# =========================================================================== confirmation.py
def test_an_official_confirmation_is_one_event_by_official_with_no_device() -> None:
    table = factories.seated_table(requires_confirmation=True)
    first, second = _user("first"), _user("second")
    hand = _pending(table, recorded_by=first)
    done = hand_confirm(hand=hand, recorded_by=second).hand
    assert (done.version, done.confirmation, done.counts) == (2, "confirmed", True)
    event = _last_event(hand)
    assert (event.seq, event.kind, event.payload) == (2, "confirm", {"by": "official"})
    assert (event.recorded_by_id, event.device_id, event.idempotency_key) == (
        second.pk,
        "",
        None,
    )
    row = _row(hand)
    assert (row.version, row.confirmation, *row.scores) == (
        2,
        "confirmed",
        4,
        -2,
        -2,
    )
    assert sorted(HandSeatResult.objects.filter(hand=hand).values_list("position", "score")) == [
        (0, 4),
        (1, -2),
        (2, -2),
    ]


def test_a_confirmation_and_a_dispute_store_the_device_given() -> None:
    table = factories.seated_table(requires_confirmation=True)
    first = _user("first")
    hand = _pending(table, recorded_by=first)
    hand_dispute(hand=hand, reason="bid", recorded_by=_user("d"), device_id="phone-7")
    assert (_last_event(hand).kind, _last_event(hand).device_id) == ("dispute", "phone-7")
    hand_confirm(hand=hand, recorded_by=_user("s", is_staff=True), device_id="desk-2")
    assert (_last_event(hand).kind, _last_event(hand).device_id) == ("confirm", "desk-2")


def test_a_dispute_is_stored_with_no_device_unless_given() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _pending(table, recorded_by=_user("first"))
    other = _user("other")
    done = hand_dispute(hand=hand, reason="  the bid was 3  ", recorded_by=other).hand
    assert (done.version, done.confirmation, done.counts) == (2, "disputed", False)
    event = _last_event(hand)
    assert (event.kind, event.payload, event.device_id, event.recorded_by_id) == (
        "dispute",
        {"reason": "  the bid was 3  "},
        "",
        other.pk,
    )
    assert HandSeatResult.objects.filter(hand=hand).count() == 0


def test_a_disputed_hand_is_confirmed_by_an_official_and_counts_again() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _pending(table, recorded_by=_user("first"))
    hand_dispute(hand=hand, reason="why", recorded_by=_user("other"))
    done = hand_confirm(hand=hand, recorded_by=_user("third")).hand
    assert (done.version, done.confirmation, done.counts) == (3, "confirmed", True)
    assert HandSeatResult.objects.filter(hand=hand).count() == 3


def test_each_refusal_of_an_official_confirmation_says_why() -> None:
    table = factories.seated_table(requires_confirmation=False)
    hand = _pending(table, recorded_by=_user("first"))
    assert _refused(lambda: hand_confirm(hand=hand, recorded_by=_user("x")).hand, hand) == (
        "not_awaiting_confirmation",
        "This hand is not awaiting confirmation.",
    )
    assert _refused(
        lambda: hand_dispute(hand=hand, reason="r", recorded_by=_user("y")).hand, hand
    ) == (
        "not_awaiting_confirmation",
        "Only a hand awaiting confirmation can be disputed.",
    )

    players = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    by_players = _pending(players)
    assert _refused(
        lambda: hand_confirm(hand=by_players, recorded_by=_user("z")).hand, by_players
    ) == (
        "confirmed_by_players",
        "In this tournament the players confirm a hand with their PINs (or a director).",
    )

    officials = factories.seated_table(requires_confirmation=True)
    recorder = _user("recorder")
    own = _pending(officials, recorded_by=recorder)
    assert _refused(lambda: hand_confirm(hand=own, recorded_by=recorder).hand, own) == (
        "second_person_required",
        "A second person confirms a result, not the one who recorded it.",
    )


def test_an_irregular_hand_is_refused_confirmation_with_its_message() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _irregular(table)
    assert _refused(
        lambda: hand_confirm(hand=hand, recorded_by=_user("dir", is_staff=True)).hand, hand
    ) == (
        "hand_irregular",
        "This hand's written-in deal does not fit its log: a director keeps it as played "
        "(with a reason), corrects or voids it.",
    )


def test_whoever_recorded_a_pass_out_cannot_confirm_it() -> None:
    table = factories.seated_table(requires_confirmation=True)
    recorder = _user("recorder")
    hand = hand_record_passed_out(hand=hand_create(table=table).hand, recorded_by=recorder).hand
    assert _refused(lambda: hand_confirm(hand=hand, recorded_by=recorder).hand, hand)[0] == (
        "second_person_required"
    )
    assert hand_confirm(hand=hand, recorded_by=_user("other")).hand.confirmation == "confirmed"


def test_a_hand_recorded_by_nobody_is_confirmed_by_anybody() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _pending(table, recorded_by=None)
    assert hand_confirm(hand=hand, recorded_by=_user("anyone")).hand.confirmation == "confirmed"


def test_a_director_confirms_in_a_players_tournament() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table)
    done = hand_confirm(hand=hand, recorded_by=_user("dir", is_staff=True)).hand
    assert (done.confirmation, _last_event(hand).payload) == ("confirmed", {"by": "official"})


def _players_table() -> tuple[Table, dict[int, str]]:
    tournament, entries = tournament_with_entries(
        3, requires_confirmation=True, confirmed_by="players"
    )
    # registration numbers 1, 2, 3 sit at positions 2, 0, 1
    table = table_of(tournament, 1, 1, [entries[1], entries[2], entries[0]])
    return table, _pins(table)


def test_the_players_confirmation_stores_seats_and_registrations_in_seat_order() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=2)
    done = hand_confirm_by_pins(hand=hand, pins={2: pins[2], 0: pins[0]}, recorded_by=None).hand
    assert (done.version, done.confirmation, done.counts) == (2, "confirmed", True)
    event = _last_event(hand)
    assert (event.kind, event.payload, event.device_id, event.recorded_by_id) == (
        "confirm",
        {"by": "players", "seats": [0, 2], "registrations": [2, 1]},
        "",
        None,
    )
    assert sorted(HandSeatResult.objects.filter(hand=hand).values_list("position", "score")) == [
        (0, -2),
        (1, -2),
        (2, 4),
    ]


def test_the_players_confirmation_stores_the_device_and_who_held_the_phone() -> None:
    table, pins = _players_table()
    referee = _user("referee")
    hand = _pending(table, landlord=1)
    hand_confirm_by_pins(
        hand=hand, pins={1: pins[1], 2: pins[2]}, recorded_by=referee, device_id="phone-1"
    )
    event = _last_event(hand)
    assert (event.payload["seats"], event.device_id, event.recorded_by_id) == (
        [1, 2],
        "phone-1",
        referee.pk,
    )


def test_five_wrong_pins_lock_the_hand_counting_down_the_tries() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    bad = {0: pins[0], 1: _wrong(pins[1])}
    seen = []
    for _attempt in range(5):
        with pytest.raises(ApplicationError) as caught:
            hand_confirm_by_pins(hand=hand, pins=bad, recorded_by=None)
        seen.append((caught.value.code, caught.value.message, caught.value.extra))
    assert seen == [
        ("pin_wrong", "A PIN is wrong (4 tries left for this hand).", {"tries_left": 4}),
        ("pin_wrong", "A PIN is wrong (3 tries left for this hand).", {"tries_left": 3}),
        ("pin_wrong", "A PIN is wrong (2 tries left for this hand).", {"tries_left": 2}),
        ("pin_wrong", "A PIN is wrong (1 try left for this hand).", {"tries_left": 1}),
        ("pin_wrong", "A PIN is wrong (0 tries left for this hand).", {"tries_left": 0}),
    ]
    row = _row(hand)
    assert (row.pin_failures, row.version, row.confirmation) == (5, 1, "pending")
    assert [kind for kind, _ in _events(hand)] == ["result"]
    right = {0: pins[0], 1: pins[1]}
    assert _refused(
        lambda: hand_confirm_by_pins(hand=hand, pins=right, recorded_by=None).hand, hand
    ) == (
        "pins_locked",
        "Too many wrong PINs for this hand: a director confirms it.",
    )


def test_four_wrong_pins_still_let_the_right_ones_confirm() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    for _attempt in range(4):
        with pytest.raises(ApplicationError):
            hand_confirm_by_pins(hand=hand, pins={0: _wrong(pins[0]), 1: pins[1]}, recorded_by=None)
    assert _row(hand).pin_failures == 4
    done = hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
    assert (done.confirmation, _row(hand).pin_failures) == ("confirmed", 4)


def test_each_refusal_of_the_players_pins_says_why() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    assert _refused(
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 7: "1234"}, recorded_by=None).hand
        ),
        hand,
    ) == ("pins_incomplete", "A PIN is for a seat not at this table.")
    assert _refused(
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={1: pins[1], 2: pins[2]}, recorded_by=None).hand
        ),
        hand,
    ) == ("pins_incomplete", "One player of each side enters a PIN: the landlord and a farmer.")

    officials = factories.seated_table(requires_confirmation=True)
    by_official = _pending(officials)
    official_pins = _pins(officials)
    assert _refused(
        lambda: (
            hand_confirm_by_pins(
                hand=by_official, pins={0: official_pins[0], 1: official_pins[1]}, recorded_by=None
            ).hand
        ),
        by_official,
    ) == (
        "confirmed_by_official",
        "In this tournament a second official confirms a hand, not the players.",
    )

    hand_dispute(hand=hand, reason="r", recorded_by=_user("dir", is_staff=True))
    assert _refused(
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
        ),
        hand,
    ) == (
        "not_awaiting_confirmation",
        "Only a hand awaiting confirmation can be confirmed by the players.",
    )


def test_a_passed_out_hand_takes_any_two_players_but_not_one() -> None:
    table, pins = _players_table()
    hand = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    assert _refused(
        lambda: hand_confirm_by_pins(hand=hand, pins={2: pins[2]}, recorded_by=None).hand, hand
    ) == ("pins_incomplete", "One player of each side enters a PIN: the landlord and a farmer.")
    done = hand_confirm_by_pins(hand=hand, pins={1: pins[1], 2: pins[2]}, recorded_by=None).hand
    assert done.confirmation == "confirmed"
    assert _last_event(hand).payload == {"by": "players", "seats": [1, 2], "registrations": [3, 1]}


def test_all_three_players_may_enter_their_pins() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=1)
    done = hand_confirm_by_pins(hand=hand, pins=dict(pins), recorded_by=None).hand
    assert done.confirmation == "confirmed"
    assert _last_event(hand).payload == {
        "by": "players",
        "seats": [0, 1, 2],
        "registrations": [2, 3, 1],
    }


def test_a_pins_key_reused_after_an_official_confirmation_is_a_conflict() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    hand_confirm(hand=hand, recorded_by=_user("dir", is_staff=True), idempotency_key="k-9")
    assert _refused(
        lambda: (
            hand_confirm_by_pins(
                hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None, idempotency_key="k-9"
            ).hand
        ),
        hand,
    )[0] == ("idempotency_conflict")


def test_a_pins_retry_answers_the_confirmed_hand_and_writes_nothing() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    request: dict[str, Any] = {"pins": {0: pins[0], 1: pins[1]}, "recorded_by": None}
    first = hand_confirm_by_pins(hand=hand, idempotency_key="p-1", **request).hand
    again = hand_confirm_by_pins(hand=hand, idempotency_key="p-1", **request).hand
    assert (first.version, again.version, again.confirmation) == (2, 2, "confirmed")
    assert [kind for kind, _ in _events(hand)] == ["result", "confirm"]


def test_a_pins_confirmation_at_a_stale_version_is_refused() -> None:
    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    assert _refused(
        lambda: (
            hand_confirm_by_pins(
                hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None, expected_version=0
            ).hand
        ),
        hand,
    )[0] == ("version_conflict")
    done = hand_confirm_by_pins(
        hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None, expected_version=1
    ).hand
    assert done.version == 2


def test_the_players_confirmation_is_one_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the append leaves no event behind (as ``test_each_write_is_one_
    transaction`` of the pinned tests, for the PIN path: its own atomic block)."""

    def broken(*, hand: Hand, replay: Any = None) -> Hand:
        raise RuntimeError("the connection dropped after the append")

    table, pins = _players_table()
    hand = _pending(table, landlord=0)
    monkeypatch.setattr(hand_writing, "hand_commit", broken)  # every write commits there
    with pytest.raises(RuntimeError):
        hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None)
    assert [kind for kind, _ in _events(hand)] == ["result"]
    assert (_row(hand).version, _row(hand).confirmation) == (1, "pending")


def test_a_table_confirms_its_pending_hands_in_key_order_and_skips_the_others() -> None:
    tournament, entries = tournament_with_entries(3, requires_confirmation=True, hands_per_round=4)
    table = table_of(tournament, 1, 1, entries)
    recorder, director = _user("recorder"), _user("dir", is_staff=True)
    first = _pending(table, recorded_by=recorder)
    hand_confirm(hand=first, recorded_by=director)  # already confirmed: skipped
    second = _pending(table, recorded_by=recorder)
    third = _pending(table, recorded_by=director)  # the director's own: refused
    fourth = _pending(table, recorded_by=recorder)
    hands = [_row(h) for h in (fourth, third, second, first)]
    done = table_hands_confirm(hands=hands, recorded_by=director)
    assert [h.pk for h in done.confirmed] == [second.pk, fourth.pk]
    assert [h.confirmation for h in done.confirmed] == ["confirmed", "confirmed"]
    assert [(h.pk, e.code) for h, e in done.refused] == [(third.pk, "second_person_required")]
    assert [_row(h).confirmation for h in (first, second, third, fourth)] == [
        "confirmed",
        "confirmed",
        "pending",
        "confirmed",
    ]
    assert [kind for kind, _ in _events(first)] == ["result", "confirm"]


# =========================================================================== corrections.py
def _logged(table: Table) -> Hand:
    """Deal 7 played out by ``random_hand_actions(seed=1)``; its log says: landlord 0, bid 3,
    doubled by seat 1 and redoubled, no bomb, no rocket, no spring, the defenders win."""
    deal = deal_from_seed(7)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=1):
        hand = hand_action_record(hand=hand, action=action).hand
    return _row(hand)


_LOGGED = {
    "landlord": 0, "bid": 3, "winner": "defenders", "doubled": (False, True, False),
    "redoubled": True,
}  # fmt: skip


def _correction_refused(hand: Hand, **fields: Any) -> tuple[str, str, dict[str, object]]:
    before = _written(hand)
    with pytest.raises(ApplicationError) as caught:
        hand_result_correct(hand=hand, reason="the table says so", **fields)
    assert _written(hand) == before
    return caught.value.code, caught.value.message, caught.value.extra


def _contradiction(field: str, log_value: str, value: str) -> str:
    return (
        f"This hand was logged play by play and its log says {field} = {log_value}, not "
        f"{value}: correct it through its log (undo, void), or override the log with a reason."
    )


def test_the_logged_hand_is_what_the_tests_below_say() -> None:
    row = _logged(factories.seated_table())
    assert (row.status, row.landlord_seat, row.bid, row.winner, row.redoubled) == (
        "finished",
        0,
        3,
        "defenders",
        True,
    )
    assert (*row.doubled, row.bombs, row.rockets) == (
        False,
        True,
        False,
        0,
        0,
    )


@pytest.mark.parametrize(
    ("change", "field", "log_value", "value", "log_text", "text"),
    [
        ({"landlord": 1, "bid": 2, "doubled": (False, False, True)}, "landlord", 0, 1, "0", "1"),
        ({"bid": 2, "winner": "landlord"}, "bid", 3, 2, "3", "2"),
        ({"winner": "landlord", "rockets": 1}, "winner", "defenders", "landlord", "defenders",
         "landlord"),
        ({"doubled": (False, True, True), "bombs": 1}, "doubled", [False, True, False],
         [False, True, True], "false/true/false", "false/true/true"),
        ({"redoubled": False, "bombs": 1}, "redoubled", True, False, "true", "false"),
        ({"bombs": 1, "rockets": 1}, "bombs", 0, 1, "0", "1"),
        ({"rockets": 1}, "rockets", 0, 1, "0", "1"),
        ({"anti_spring": True}, "anti_spring", False, True, "false", "true"),
    ],
)  # fmt: skip
def test_a_correction_against_the_log_names_the_first_field_that_differs(
    change: dict[str, Any], field: str, log_value: Any, value: Any, log_text: str, text: str
) -> None:
    hand = _logged(factories.seated_table())
    assert _correction_refused(hand, **{**_LOGGED, **change}) == (
        "contradicts_log",
        _contradiction(field, log_text, text),
        {"field": field, "log_value": log_value, "value": value},
    )


def test_a_spring_the_log_did_not_have_contradicts_it() -> None:
    """Deal 3 played by ``random_hand_actions(seed=2)``: landlord 1 wins a bid of 1,
    doubled by seats 0 and 2, no spring."""
    deal = deal_from_seed(3)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=2):
        hand = hand_action_record(hand=hand, action=action).hand
    logged: dict[str, Any] = {
        "landlord": 1,
        "bid": 1,
        "winner": "landlord",
        "doubled": (True, False, True),
    }
    assert _correction_refused(_row(hand), **logged, spring=True) == (
        "contradicts_log",
        _contradiction("spring", "false", "true"),
        {"field": "spring", "log_value": False, "value": True},
    )
    same = hand_result_correct(hand=hand, reason="as logged", **logged).hand
    assert "override" not in _last_event(hand).payload
    assert (same.status, *same.scores) == ("finished", -2, 4, -2)


def test_a_logged_hand_corrected_to_passed_out_names_passed_out() -> None:
    hand = _logged(factories.seated_table())
    assert _correction_refused(hand, passed_out=True) == (
        "contradicts_log",
        _contradiction("passed_out", "false", "true"),
        {"field": "passed_out", "log_value": False, "value": True},
    )


def _logged_pass_out(table: Table) -> Hand:
    deal = deal_from_seed(7)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    for n in range(3):
        hand = hand_action_record(hand=hand, action={"seat": (2 + n) % 3, "bid": 0}).hand
    return _row(hand)


def test_a_hand_logged_as_passed_out_is_corrected_only_to_passed_out() -> None:
    hand = _logged_pass_out(factories.seated_table())
    assert hand.status == "passed_out"
    assert _correction_refused(hand, landlord=0, bid=1, winner="landlord") == (
        "contradicts_log",
        _contradiction("passed_out", "true", "false"),
        {"field": "passed_out", "log_value": True, "value": False},
    )
    done = hand_result_correct(hand=hand, reason="recorded again", passed_out=True).hand
    assert (done.status, done.version, *done.scores) == (
        "passed_out",
        4,
        0,
        0,
        0,
    )
    payload = _last_event(hand).payload
    assert "override" not in payload
    assert (payload["passed_out"], payload["scores"], payload["reason"]) == (
        True,
        [0, 0, 0],
        "recorded again",
    )


def test_an_override_of_a_logged_pass_out_keeps_the_logs_pass_out() -> None:
    hand = _logged_pass_out(factories.seated_table())
    done = hand_result_correct(
        hand=hand, reason="they bid after all", landlord=2, bid=1, winner="landlord",
        override=True,
    ).hand  # fmt: skip
    assert (done.status, *done.scores) == ("finished", -1, -1, 2)
    payload = _last_event(hand).payload
    assert (payload["override"], payload["log_result"]) == (
        True,
        {"passed_out": True, "landlord": None, "bid": None, "winner": None},
    )


def test_keeping_an_irregular_hand_is_one_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*, hand: Hand, replay: Any = None) -> Hand:
        raise RuntimeError("the connection dropped after the append")

    hand = _irregular(factories.seated_table())
    before = _written(hand)
    monkeypatch.setattr(hand_writing, "hand_commit", broken)  # every write commits there
    with pytest.raises(RuntimeError):
        hand_irregular_keep(hand=hand, reason="kept")
    assert _written(hand) == before


def test_an_override_keeps_the_logs_own_result_in_its_event() -> None:
    hand = _logged(factories.seated_table())
    profile_hash = _row(hand).rule_profile_hash
    done = hand_result_correct(
        hand=hand, reason=" the log is wrong ", landlord=0, bid=3, winner="landlord",
        doubled=(False, True, False), redoubled=True, override=True, recorded_by=None,
    ).hand  # fmt: skip
    assert (done.winner, *done.scores) == ("landlord", 15, -12, -3)
    event = _last_event(hand)
    assert (event.kind, event.device_id) == ("correction", "")
    assert event.payload == {
        "result": {
            "landlord": 0, "bid": 3, "doubled": [False, True, False], "redoubled": True,
            "bombs": 0, "rockets": 0, "spring": False, "anti_spring": False,
            "winner": "landlord",
        },
        "scores": [15, -12, -3],
        "rule_profile": "comp2016",
        "rule_profile_hash": profile_hash,
        "override": True,
        "log_result": {
            "passed_out": False, "landlord": 0, "bid": 3, "winner": "defenders",
            "doubled": [False, True, False], "redoubled": True, "bombs": 0, "rockets": 0,
            "spring": False, "anti_spring": False,
        },
        "reason": "the log is wrong",
        "needs_confirmation": False,
    }  # fmt: skip


def test_a_result_only_correction_to_passed_out_stores_its_payload() -> None:
    table = factories.seated_table(requires_confirmation=True)
    first = _user("first")
    hand = _pending(table, recorded_by=first)
    profile_hash = _row(hand).rule_profile_hash
    corrector = _user("corrector")
    done = hand_result_correct(
        hand=hand, reason="nobody bid", passed_out=True, recorded_by=corrector, device_id="d-1"
    ).hand
    assert (done.status, done.confirmation, done.counts, done.version) == (
        "passed_out",
        "pending",
        False,
        2,
    )
    event = _last_event(hand)
    assert (event.kind, event.device_id, event.recorded_by_id) == (
        "correction",
        "d-1",
        corrector.pk,
    )
    assert event.payload == {
        "passed_out": True,
        "scores": [0, 0, 0],
        "rule_profile": "comp2016",
        "rule_profile_hash": profile_hash,
        "reason": "nobody bid",
        "needs_confirmation": True,
    }
    assert HandSeatResult.objects.filter(hand=hand).count() == 0


def test_a_correction_key_reused_for_a_pass_out_or_another_reason_is_a_conflict() -> None:
    hand = _finished_plain()
    hand_result_correct(
        hand=hand, reason="r", landlord=0, bid=1, winner="landlord", idempotency_key="k"
    )
    assert _refused(
        lambda: (
            hand_result_correct(hand=hand, reason="r", passed_out=True, idempotency_key="k").hand
        ),
        hand,
    )[0] == ("idempotency_conflict")
    assert _refused(
        lambda: (
            hand_result_correct(
                hand=hand, reason="s", landlord=0, bid=1, winner="landlord", idempotency_key="k"
            ).hand
        ),
        hand,
    )[0] == ("idempotency_conflict")
    again = hand_result_correct(
        hand=hand, reason="r", landlord=0, bid=1, winner="landlord", idempotency_key="k"
    ).hand
    assert again.version == 2


def test_a_pass_out_correction_retried_with_its_key_writes_one_event() -> None:
    hand = _finished_plain()
    for _attempt in range(2):
        done = hand_result_correct(hand=hand, reason="r", passed_out=True, idempotency_key="p").hand
        assert (done.version, done.status) == (2, "passed_out")
    assert [kind for kind, _ in _events(hand)] == ["result", "correction"]


def _finished_plain() -> Hand:
    return hand_record_result(
        hand=hand_create(table=factories.seated_table()).hand, landlord=0, bid=2, winner="landlord"
    ).hand


def test_a_live_hand_is_not_corrected_and_says_why() -> None:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand
    assert _refused(
        lambda: (
            hand_result_correct(hand=hand, reason="r", landlord=2, bid=1, winner="landlord").hand
        ),
        hand,
    ) == (
        "hand_not_closed",
        "Only a finished hand's result is corrected; undo or void a live hand.",
    )


def test_a_correction_needs_a_reason_and_boolean_flags() -> None:
    hand = _finished_plain()
    assert _refused(
        lambda: (
            hand_result_correct(hand=hand, reason=" ", landlord=0, bid=1, winner="landlord").hand
        ),
        hand,
    )[0] == ("reason_required")
    for flag in ("passed_out", "override"):
        assert _refused(
            lambda flags={flag: "yes"}: (
                hand_result_correct(
                    hand=hand, reason="r", landlord=0, bid=1, winner="landlord", **flags
                ).hand
            ),
            hand,
        )[0] == ("invalid")


def test_a_correction_with_two_doubles_is_refused_naming_the_field() -> None:
    hand = _finished_plain()
    before = _written(hand)
    with pytest.raises(ApplicationError) as caught:
        hand_result_correct(
            hand=hand, reason="r", landlord=0, bid=1, winner="landlord", doubled=[False, True]
        )
    assert (caught.value.code, caught.value.message) == (
        "invalid",
        "doubled: must be 3 booleans, one per seat.",
    )
    assert list(caught.value.extra["fields"]) == ["doubled"]  # type: ignore[call-overload]
    assert _written(hand) == before


def test_a_void_stores_who_and_no_device_unless_given() -> None:
    hand = _finished_plain()
    voider = _user("voider")
    done = hand_void(hand=hand, reason="misdeal", recorded_by=voider).hand
    assert (done.status, done.version, done.counts) == ("voided", 2, False)
    event = _last_event(hand)
    assert (event.kind, event.payload, event.device_id, event.recorded_by_id) == (
        "void",
        {"reason": "misdeal"},
        "",
        voider.pk,
    )
    assert HandSeatResult.objects.filter(hand=hand).count() == 0
    other = _finished_plain()
    hand_void(hand=other, reason="misdeal", device_id="desk")
    assert (_last_event(other).device_id, _last_event(other).recorded_by_id) == ("desk", None)


def test_an_irregular_hand_kept_stores_keep_and_the_reason() -> None:
    hand = _irregular(factories.seated_table())
    keeper = _user("keeper")
    done = hand_irregular_keep(hand=hand, reason="  written in wrongly ", recorded_by=keeper).hand
    assert (done.counts, done.version) == (True, hand.version + 1)
    event = _last_event(hand)
    assert (event.kind, event.payload, event.device_id, event.recorded_by_id) == (
        "confirm",
        {"keep": True, "reason": "written in wrongly"},
        "",
        keeper.pk,
    )
    assert _refused(lambda: hand_irregular_keep(hand=hand, reason="x").hand, hand) == (
        "hand_not_irregular",
        "Only a hand whose deal check failed is kept as played.",
    )


def test_keeping_an_irregular_hand_retried_with_its_key_writes_one_event() -> None:
    hand = _irregular(factories.seated_table())
    version = hand.version
    for _attempt in range(2):
        done = hand_irregular_keep(
            hand=hand, reason="kept", idempotency_key="keep-1", device_id="t"
        ).hand
        assert done.version == version + 1
    assert [kind for kind, _ in _events(hand)][-2:] == ["dispute", "confirm"]
    assert _last_event(hand).device_id == "t"
    assert _refused(
        lambda: hand_irregular_keep(hand=hand, reason="other", idempotency_key="keep-1").hand, hand
    )[0] == ("idempotency_conflict")


# =========================================================================== results.py
_ROW_FIELDS = (
    "position", "entry__registration_order", "is_landlord", "won", "score", "passed_out",
    "hand_number", "board_id", "tournament_id", "round_id", "table_id",
)  # fmt: skip


def _seat_rows(hand: Hand) -> list[tuple[Any, ...]]:
    return list(
        HandSeatResult.objects.filter(hand=hand).order_by("position").values_list(*_ROW_FIELDS)
    )


def _log_version(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).log_version


def _registered_table(**fields: Any) -> tuple[Tournament, Table]:
    tournament, entries = tournament_with_entries(3, hands_per_round=6, **fields)
    # registration numbers 1, 2, 3 sit at positions 2, 0, 1
    return tournament, table_of(tournament, 1, 1, [entries[1], entries[2], entries[0]])


def test_a_finished_hand_has_one_row_per_seat_written_out() -> None:
    tournament, table = _registered_table()
    ids = (tournament.pk, table.round_id, table.pk)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=2, winner="defenders"
    ).hand
    assert _seat_rows(hand) == [
        (0, 2, False, True, 2, False, 1, None, *ids),
        (1, 3, True, False, -4, False, 1, None, *ids),
        (2, 1, False, True, 2, False, 1, None, *ids),
    ]
    won = hand_record_result(
        hand=hand_create(table=table).hand, landlord=2, bid=1, winner="landlord"
    ).hand
    assert _seat_rows(won) == [
        (0, 2, False, False, -1, False, 2, None, *ids),
        (1, 3, False, False, -1, False, 2, None, *ids),
        (2, 1, True, True, 2, False, 2, None, *ids),
    ]


def test_a_passed_out_hand_has_rows_that_nobody_won() -> None:
    tournament, table = _registered_table()
    ids = (tournament.pk, table.round_id, table.pk)
    hand = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    assert _seat_rows(hand) == [
        (0, 2, False, False, 0, True, 1, None, *ids),
        (1, 3, False, False, 0, True, 1, None, *ids),
        (2, 1, False, False, 0, True, 1, None, *ids),
    ]


def test_a_board_hand_keeps_its_board_on_its_rows() -> None:
    tournament, table = _registered_table()
    board = builders.board(tournament, 1)
    hand = hand_record_passed_out(hand=hand_create(table=table, board=board).hand).hand
    assert [row[7] for row in _seat_rows(hand)] == [board.pk, board.pk, board.pk]


def test_a_correction_replaces_the_rows_and_a_void_removes_them() -> None:
    tournament, table = _registered_table()
    ids = (tournament.pk, table.round_id, table.pk)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord"
    ).hand
    hand_result_correct(hand=hand, reason="r", landlord=0, bid=3, winner="defenders")
    assert _seat_rows(hand) == [
        (0, 2, True, False, -6, False, 1, None, *ids),
        (1, 3, False, True, 3, False, 1, None, *ids),
        (2, 1, False, True, 3, False, 1, None, *ids),
    ]
    hand_result_correct(hand=hand, reason="r2", landlord=0, bid=3, winner="defenders", bombs=1)
    assert [row[4] for row in _seat_rows(hand)] == [-12, 6, 6]
    assert HandSeatResult.objects.filter(hand=hand).count() == 3
    hand_void(hand=hand, reason="misdeal")
    assert _seat_rows(hand) == []


def test_a_correction_keeps_the_row_it_does_not_change_once() -> None:
    """A double added by seat 1 changes seats 0 and 1 only: seat 2's row stays as it was."""
    tournament, table = _registered_table()
    ids = (tournament.pk, table.round_id, table.pk)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    kept = HandSeatResult.objects.get(hand=hand, position=2).pk
    hand_result_correct(
        hand=hand, reason="seat 1 doubled", landlord=0, bid=2, winner="landlord",
        doubled=(False, True, False),
    )  # fmt: skip
    assert _seat_rows(hand) == [
        (0, 2, True, True, 6, False, 1, None, *ids),
        (1, 3, False, False, -4, False, 1, None, *ids),
        (2, 1, False, False, -2, False, 1, None, *ids),
    ]
    assert HandSeatResult.objects.get(hand=hand, position=2).pk == kept


def test_each_change_of_a_count_bumps_the_log_version_by_one() -> None:
    tournament, table = _registered_table(requires_confirmation=True)
    assert _log_version(tournament) == 0
    deal = deal_from_seed(7)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": deal.first_bidder, "bid": 1}).hand
    assert _log_version(tournament) == 0  # mid-hand: nothing counts yet
    plain = hand_create(table=factories.seated_table()).hand
    hand_record_result(hand=plain, landlord=0, bid=1, winner="landlord")
    assert _log_version(tournament) == 0  # another tournament
    hand_void(hand=hand, reason="misdeal")
    assert _log_version(tournament) == 1
    other = _pending(table)
    assert _log_version(tournament) == 2
    hand_confirm(hand=other, recorded_by=_user("second"))
    assert _log_version(tournament) == 3


def test_a_finished_tournaments_results_are_refused_with_results_final() -> None:
    tournament, table = _registered_table()
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord"
    ).hand
    factories.tournament_set(tournament.pk, status="finished")
    version = _log_version(tournament)
    assert _refused(lambda: hand_void(hand=hand, reason="late").hand, hand) == (
        "results_final",
        "The final standings are published: the results are locked. A director can reopen "
        "them, with a reason.",
    )
    assert _log_version(tournament) == version


def test_a_counted_result_reaches_the_standings_after_the_commit(
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, table = _registered_table()
    with django_capture_on_commit_callbacks(execute=True):
        hand_record_result(hand=hand_create(table=table).hand, landlord=0, bid=2, winner="landlord")
    totals = [
        (s.entry.registration_order, s.total) for s in standings_latest(tournament=tournament)
    ]
    assert totals == [(2, 4), (1, -2), (3, -2)]


# =========================================================================== write.py
def test_a_board_of_another_tournament_is_refused() -> None:
    table = factories.seated_table()
    foreign = builders.board(tournament_with_entries(0)[0], 1)
    assert _create_refused(table, board=foreign) == (
        "board_not_in_tournament",
        "The board belongs to another tournament.",
        {},
    )


def _create_refused(table: Table, **fields: Any) -> tuple[str, str, dict[str, object]]:
    before = list(Hand.objects.filter(table=table).values_list("pk", "status"))
    with pytest.raises(ApplicationError) as caught:
        hand_create(table=table, **fields)
    assert list(Hand.objects.filter(table=table).values_list("pk", "status")) == before
    return caught.value.code, caught.value.message, caught.value.extra


def test_a_second_live_hand_at_a_table_is_refused_naming_the_live_one() -> None:
    table = factories.seated_table()
    live = hand_create(table=table).hand
    number = table.number
    assert _create_refused(table) == (
        "hand_in_progress",
        f"Table {number} is playing hand 1: finish or void it first.",
        {"hand": live.pk},
    )


def test_a_table_that_played_its_hands_is_refused_until_a_director_adds_one() -> None:
    tournament, entries = tournament_with_entries(3, hands_per_round=1)
    table = table_of(tournament, 1, 4, entries)
    hand_record_passed_out(hand=hand_create(table=table).hand)
    assert _create_refused(table) == (
        "round_hands_done",
        "Table 4 has played the round's 1 hand; a director can add a hand, with a reason.",
        {"hands": 1},
    )
    table_hand_add(table=table, reason="misdeal replayed", recorded_by=_user("d", is_staff=True))
    second = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    assert second.number == 2
    assert _create_refused(table) == (
        "round_hands_done",
        "Table 4 has played the round's 2 hands; a director can add a hand, with a reason.",
        {"hands": 2},
    )


def test_an_undo_of_the_closing_play_waits_for_the_next_live_hand() -> None:
    tournament, entries = tournament_with_entries(3, hands_per_round=3)
    table = table_of(tournament, 1, 5, entries)
    deal = deal_from_seed(11)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=11):
        hand = hand_action_record(hand=hand, action=action).hand
    hand_create(table=table)
    assert _refused(lambda: hand_action_undo(hand=hand, reason="typo").hand, hand) == (
        "hand_in_progress",
        "Table 5 is playing hand 2: finish or void it before hand 1 reopens.",
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"number": 2**31}, "number: must be between 1 and 2147483647."),
        ({"number": 0}, "number: must be between 1 and 2147483647."),
        ({"seed": 2**53}, "seed: must be between 0 and 9007199254740991."),
        ({"seed": -1}, "seed: must be between 0 and 9007199254740991."),
    ],
)
def test_a_hand_number_or_seed_out_of_range_is_refused(
    fields: dict[str, Any], message: str
) -> None:
    code, text, _extra = _create_refused(factories.seated_table(), **fields)
    assert (code, text) == ("invalid", message)


def test_the_largest_number_and_seed_are_accepted() -> None:
    hand = hand_create(table=factories.seated_table(), number=2**31 - 1, seed=2**53 - 1).hand
    assert (_row(hand).number, _row(hand).seed) == (2**31 - 1, 2**53 - 1)


@pytest.mark.parametrize(
    "fields",
    [
        {"seed": 5, "deal": deal_from_seed(5).to_json()},
        {"seed": 5, "physical_cards": True},
        {"random_deal": True, "physical_cards": True},
        {"deal": deal_from_seed(5).to_json(), "physical_cards": True},
    ],
)
def test_two_sources_of_a_deal_are_refused(fields: dict[str, Any]) -> None:
    assert _create_refused(factories.seated_table(), **fields) == (
        "board_and_deal",
        "Give one of a board, an ad-hoc deal, a seed or physical cards, not several.",
        {},
    )


def test_a_hand_from_the_movement_without_a_board_is_refused() -> None:
    tournament, entries = tournament_with_entries(3)
    table = table_of(tournament, 1, 3, entries)
    assert _create_refused(table, board_from_movement=True) == (
        "board_not_assigned",
        "The round assigns no board to hand 1 of table 3.",
        {},
    )


def test_a_stale_version_is_refused_with_both_versions() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action={"seat": 0, "bid": 2}, expected_version=0)
    assert (caught.value.code, caught.value.message, caught.value.extra) == (
        "version_conflict",
        "Another device wrote first: the hand is at version 1, not 0.",
        {"version": 1},
    )
    assert _row(hand).version == 1


def test_an_action_on_a_closed_hand_is_refused_naming_its_status() -> None:
    hand = hand_record_passed_out(hand=hand_create(table=factories.seated_table()).hand).hand
    assert _refused(
        lambda: hand_action_record(hand=hand, action={"seat": 0, "bid": 1}).hand, hand
    ) == (
        "hand_closed",
        "The hand is already closed (Passed out (流局)).",
    )


def test_an_action_on_a_hand_without_deal_is_refused() -> None:
    hand = hand_create(table=factories.seated_table()).hand
    assert _refused(
        lambda: hand_action_record(hand=hand, action={"seat": 0, "bid": 1}).hand, hand
    ) == (
        "no_deal",
        "This hand has no deal and is not in physical-cards mode: enter its result.",
    )


def test_an_undo_without_an_action_says_so() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    assert _refused(lambda: hand_action_undo(hand=hand, reason="r").hand, hand) == (
        "nothing_to_undo",
        "The hand has no action to undo.",
    )


def test_an_undo_is_stored_with_what_it_undid_and_no_device() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand
    undone = hand_action_undo(hand=hand, reason="wrong seat").hand
    assert (undone.version, undone.status) == (2, "bidding")
    event = _last_event(hand)
    assert (event.kind, event.payload, event.actor_seat, event.device_id) == (
        "undo",
        {"undone_seq": 1, "action": {"seat": 2, "bid": 1}, "reason": "wrong seat"},
        2,
        "",
    )


def test_an_announcement_is_stored_with_no_device_unless_given() -> None:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    recorded: list[HandEvent] = []
    for action in random_hand_actions(deal, seed=4):
        hand = hand_action_record(hand=hand, action=action).hand
        if hand.status != "playing":
            continue
        for seat in (0, 1, 2):
            try:
                device: dict[str, Any] = {"device_id": "p"} if recorded else {}
                hand = hand_announcement_record(hand=hand, seat=seat, **device).hand
            except ApplicationError as exc:
                assert (exc.code, exc.message) == (
                    "no_announcement_due",
                    f"{_seat_label(seat)} has no announcement due.",
                )
                continue
            recorded.append(_last_event(hand))
        if len(recorded) >= 2:
            break
    assert [(e.kind, e.device_id) for e in recorded[:2]] == [("announce", ""), ("announce", "p")]


def _seat_label(seat: int) -> str:
    return str(seat_name(seat))


def test_a_deal_written_in_while_the_hand_is_live_is_refused_with_its_message() -> None:
    deal = deal_from_seed(7)
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand
    assert _refused(lambda: hand_deal_record(hand=hand, deal=deal.to_json()).hand, hand) == (
        "hand_live",
        "The deal of a physical-cards hand is written in once the hand has ended.",
    )


def test_a_result_event_stores_the_whole_result_and_its_scores() -> None:
    hand = hand_create(table=factories.seated_table(requires_confirmation=True)).hand
    done = hand_record_result(
        hand=hand, landlord=2, bid=3, winner="landlord", doubled=(True, False, False),
        redoubled=True, bombs=1, rockets=1, spring=True,
    ).hand  # fmt: skip
    event = _last_event(hand)
    assert (event.kind, event.device_id, event.recorded_by_id) == ("result", "", None)
    assert event.payload == {
        "result": {
            "landlord": 2, "bid": 3, "doubled": [True, False, False], "redoubled": True,
            "bombs": 1, "rockets": 1, "spring": True, "anti_spring": False, "winner": "landlord",
        },
        "scores": [-96, -24, 120],
        "rule_profile": "comp2016",
        "rule_profile_hash": _row(hand).rule_profile_hash,
        "needs_confirmation": True,
    }  # fmt: skip
    assert (*done.scores, done.confirmation) == (
        -96,
        -24,
        120,
        "pending",
    )


def test_a_result_entered_with_defaults_has_no_rocket_bomb_or_spring() -> None:
    hand = hand_record_result(
        hand=hand_create(table=factories.seated_table()).hand, landlord=1, bid=1, winner="landlord"
    ).hand
    assert _last_event(hand).payload["result"] == {
        "landlord": 1, "bid": 1, "doubled": [False, False, False], "redoubled": False,
        "bombs": 0, "rockets": 0, "spring": False, "anti_spring": False, "winner": "landlord",
    }  # fmt: skip
    assert hand.scores == [-1, 2, -1]


def test_a_pass_out_event_closes_the_hand() -> None:
    hand = hand_record_passed_out(hand=hand_create(table=factories.seated_table()).hand).hand
    assert _events(hand) == [("pass_out", {"closes": True, "needs_confirmation": False})]


def test_the_preview_answers_what_would_be_recorded_and_writes_nothing() -> None:
    hand = hand_create(table=factories.seated_table(requires_confirmation=True)).hand
    preview = hand_result_preview(hand=hand, landlord=0, bid=2, winner="defenders")
    assert preview["scores"] == [-4, 2, 2]
    assert preview["needs_confirmation"] is True
    assert preview["result"]["winner"] == "defenders"
    assert (_row(hand).version, _events(hand)) == (0, [])


def test_a_result_for_a_logged_hand_is_refused_with_its_message() -> None:
    hand = hand_create(table=factories.seated_table(), deal=deal_from_seed(7).to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}).hand
    expected = (
        "hand_logged_live",
        "This hand's actions are being logged; its result comes from the log.",
    )
    assert (
        _refused(
            lambda: hand_record_result(hand=hand, landlord=2, bid=1, winner="landlord").hand, hand
        )
        == expected
    )
    assert _refused(lambda: hand_record_passed_out(hand=hand).hand, hand) == expected
