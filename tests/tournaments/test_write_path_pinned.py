"""The hand-write path's behaviour pinned on literal values (issue 19, step 0).

Each test names what mutation testing found unguarded: a retry of every kind of write, the
reasons stored in events, the refusal codes, the second-person rule, the transaction of
each service, the device id, the first bidder, the summary's scores and doubles, and the
index of a refused action. Expected values are written out, never recomputed by the code
under test."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands import write as hands
from tournaments.hands import writing as hand_writing
from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import Hand, HandEvent, HandSeatResult, Table

pytestmark = pytest.mark.django_db


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(username=name, password="x")


def _finished(table: Table, **fields: Any) -> Hand:
    values: dict[str, Any] = {"landlord": 0, "bid": 2, "winner": "landlord"}
    values.update(fields)
    return hand_record_result(hand=hand_create(table=table).hand, **values).hand


def _events(hand: Hand) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, e.payload) for e in HandEvent.objects.filter(hand=hand).order_by("seq")]


def _row(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


# --------------------------------------------------------------------------- retries
def test_a_void_retried_with_its_key_writes_one_event_and_answers_the_same_hand() -> None:
    hand = _finished(factories.seated_table())
    first = hand_void(hand=hand, reason="misdeal", idempotency_key="void-1").hand
    again = hand_void(hand=hand, reason="misdeal", idempotency_key="void-1").hand
    assert (first.version, again.version) == (2, 2)
    assert [kind for kind, _ in _events(hand)] == ["result", "void"]
    assert _row(hand).status == "voided"


def test_a_void_key_reused_for_another_reason_is_an_idempotency_conflict() -> None:
    hand = _finished(factories.seated_table())
    hand_void(hand=hand, reason="misdeal", idempotency_key="void-1")
    with pytest.raises(ApplicationError) as caught:
        hand_void(hand=hand, reason="another", idempotency_key="void-1")
    assert caught.value.code == "idempotency_conflict"
    assert len(_events(hand)) == 2


def test_a_correction_retried_with_its_key_writes_one_event() -> None:
    hand = _finished(factories.seated_table())
    for _attempt in range(2):
        done = hand_result_correct(
            hand=hand, reason="wrong bid", landlord=0, bid=3, winner="landlord",
            idempotency_key="fix-1",
        ).hand  # fmt: skip
        assert done.version == 2
    assert [kind for kind, _ in _events(hand)] == ["result", "correction"]
    row = _row(hand)
    assert row.scores == [6, -3, -3]


def test_a_correction_key_reused_with_another_result_is_refused() -> None:
    hand = _finished(factories.seated_table())
    hand_result_correct(
        hand=hand, reason="r", landlord=0, bid=3, winner="landlord", idempotency_key="k"
    )
    with pytest.raises(ApplicationError) as caught:
        hand_result_correct(
            hand=hand, reason="r", landlord=0, bid=1, winner="landlord", idempotency_key="k"
        )
    assert caught.value.code == "idempotency_conflict"


def test_a_confirm_retried_with_its_key_writes_one_event() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _finished(table, recorded_by=_user("first"))
    second = _user("second")
    for _attempt in range(2):
        assert hand_confirm(hand=hand, recorded_by=second, idempotency_key="c-1").hand.version == 2
    assert [kind for kind, _ in _events(hand)] == ["result", "confirm"]
    assert _row(hand).confirmation == "confirmed"


def test_a_dispute_retried_with_its_key_writes_one_event_and_keeps_its_reason() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _finished(table, recorded_by=_user("first"))
    other = _user("other")
    for _attempt in range(2):
        hand_dispute(hand=hand, reason="wrong winner", recorded_by=other, idempotency_key="d-1")
    assert _events(hand)[1:] == [("dispute", {"reason": "wrong winner"})]
    assert _row(hand).confirmation == "disputed"


def test_a_dispute_key_reused_with_another_reason_is_refused() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _finished(table, recorded_by=_user("first"))
    other = _user("other")
    hand_dispute(hand=hand, reason="one", recorded_by=other, idempotency_key="d-1")
    with pytest.raises(ApplicationError) as caught:
        hand_dispute(hand=hand, reason="two", recorded_by=other, idempotency_key="d-1")
    assert caught.value.code == "idempotency_conflict"


def _physical_hand_played(table: Table, seed: int) -> tuple[Hand, dict[str, Any]]:
    deal = deal_from_seed(seed, first_bidder=0)
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    for action in random_hand_actions(deal, seed=seed):
        hand = hand_action_record(hand=hand, action=action).hand
    return hand, deal.to_json()


def test_a_deal_record_retried_with_its_key_writes_one_event() -> None:
    hand, deal = _physical_hand_played(factories.seated_table(), seed=7)
    version = _row(hand).version
    for _attempt in range(2):
        assert hand_deal_record(hand=hand, deal=deal, idempotency_key="deal-1").hand.version == (
            version + 1
        )
    kinds = [kind for kind, _ in _events(hand)]
    assert kinds.count("deal") == 1
    assert _events(hand)[-1][1]["check"] == {"ok": True}


# --------------------------------------------------------------------------- stored reasons
def test_a_void_stores_its_reason_in_its_event() -> None:
    hand = _finished(factories.seated_table())
    hand_void(hand=hand, reason="  cards fell on the floor  ")
    assert _events(hand)[-1] == ("void", {"reason": "cards fell on the floor"})


# --------------------------------------------------------------------------- refusal codes
def test_voiding_a_voided_hand_is_refused_as_closed_and_writes_nothing() -> None:
    hand = _finished(factories.seated_table())
    hand_void(hand=hand, reason="misdeal")
    with pytest.raises(ApplicationError) as caught:
        hand_void(hand=hand, reason="again")
    assert (caught.value.code, caught.value.message) == (
        "hand_closed",
        "The hand is already voided.",
    )
    assert len(_events(hand)) == 2 and _row(hand).version == 2


@pytest.mark.parametrize("requires_confirmation", [False, True])
def test_confirming_a_hand_not_awaiting_confirmation_is_refused(
    requires_confirmation: bool,
) -> None:
    table = factories.seated_table(requires_confirmation=requires_confirmation)
    hand = _finished(table, recorded_by=_user("first"))
    if requires_confirmation:
        hand_confirm(hand=hand, recorded_by=_user("second"))
    before = _events(hand)
    with pytest.raises(ApplicationError) as caught:
        hand_confirm(hand=hand, recorded_by=_user("third"))
    assert caught.value.code == "not_awaiting_confirmation"
    assert _events(hand) == before


def test_disputing_a_hand_not_awaiting_confirmation_is_refused() -> None:
    hand = _finished(factories.seated_table(requires_confirmation=False))
    with pytest.raises(ApplicationError) as caught:
        hand_dispute(hand=hand, reason="why", recorded_by=_user("other"))
    assert caught.value.code == "not_awaiting_confirmation"
    assert [kind for kind, _ in _events(hand)] == ["result"]


def test_disputing_a_disputed_hand_is_refused() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = _finished(table, recorded_by=_user("first"))
    hand_dispute(hand=hand, reason="one", recorded_by=_user("other"))
    with pytest.raises(ApplicationError) as caught:
        hand_dispute(hand=hand, reason="two", recorded_by=_user("third"))
    assert caught.value.code == "not_awaiting_confirmation"


# --------------------------------------------------------------------------- second person
def test_whoever_entered_the_closing_play_cannot_confirm_the_hand() -> None:
    table = factories.seated_table(requires_confirmation=True)
    deal = deal_from_seed(11)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    opener, closer = _user("opener"), _user("closer")
    actions = random_hand_actions(deal, seed=11)
    for n, action in enumerate(actions):
        who = closer if n == len(actions) - 1 else opener
        hand = hand_action_record(hand=hand, action=action, recorded_by=who).hand
    assert _row(hand).confirmation == "pending"
    with pytest.raises(ApplicationError) as caught:
        hand_confirm(hand=hand, recorded_by=closer)
    assert caught.value.code == "second_person_required"
    assert hand_confirm(hand=hand, recorded_by=opener).hand.confirmation == "confirmed"


def test_the_corrector_cannot_confirm_the_correction_but_the_first_recorder_can() -> None:
    table = factories.seated_table(requires_confirmation=True)
    first, corrector = _user("first"), _user("corrector")
    hand = _finished(table, recorded_by=first)
    hand_result_correct(
        hand=hand, reason="bid was 3", landlord=0, bid=3, winner="landlord",
        recorded_by=corrector,
    )  # fmt: skip
    with pytest.raises(ApplicationError) as caught:
        hand_confirm(hand=hand, recorded_by=corrector)
    assert caught.value.code == "second_person_required"
    assert hand_confirm(hand=hand, recorded_by=first).hand.confirmation == "confirmed"


# --------------------------------------------------------------------------- transactions
def _fail_after_append(monkeypatch: pytest.MonkeyPatch, module: Any) -> None:
    """Make the service fail after it appended its event (as a lost connection would):
    every service writes through ``writing.hand_write``, which commits with ``hand_commit``."""

    def broken(*, hand: Hand, replay: Any = None) -> Hand:
        raise RuntimeError("the connection dropped after the append")

    monkeypatch.setattr(module, "hand_commit", broken)


_WRITES: dict[str, tuple[Any, Callable[[Hand, Any], object]]] = {
    "void": (hand_writing, lambda h, u: hand_void(hand=h, reason="r", recorded_by=u).hand),
    "correction": (
        hand_writing,
        lambda h, u: (
            hand_result_correct(
                hand=h, reason="r", landlord=0, bid=3, winner="landlord", recorded_by=u
            ).hand
        ),
    ),
    "confirm": (hand_writing, lambda h, u: hand_confirm(hand=h, recorded_by=u).hand),
    "dispute": (
        hand_writing,
        lambda h, u: hand_dispute(hand=h, reason="r", recorded_by=u).hand,
    ),
}


@pytest.mark.parametrize("write", sorted(_WRITES))
def test_each_write_is_one_transaction(write: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the append leaves no event behind (the service's own atomic block
    is a savepoint inside the test's transaction)."""
    table = factories.seated_table(requires_confirmation=True)
    hand = _finished(table, recorded_by=_user("first"))
    module, call = _WRITES[write]
    _fail_after_append(monkeypatch, module)
    with pytest.raises(RuntimeError):
        call(hand, _user("second"))
    assert [kind for kind, _ in _events(hand)] == ["result"]
    assert _row(hand).version == 1


# --------------------------------------------------------------------------- device id
def test_the_device_id_is_empty_unless_given_and_stored_as_given() -> None:
    table = factories.seated_table()
    hand = hand_create(table=table, deal=deal_from_seed(3).to_json()).hand
    first_bidder = deal_from_seed(3).first_bidder
    hand_action_record(hand=hand, action={"seat": first_bidder, "bid": 1})
    hand_action_record(
        hand=hand, action={"seat": (first_bidder + 1) % 3, "bid": 0}, device_id="d" * 64
    )
    assert [e.device_id for e in HandEvent.objects.filter(hand=hand).order_by("seq")] == [
        "",
        "d" * 64,
    ]


def test_a_device_id_of_65_characters_is_refused_and_nothing_written() -> None:
    table = factories.seated_table()
    hand = hand_create(table=table, deal=deal_from_seed(3).to_json()).hand
    first_bidder = deal_from_seed(3).first_bidder
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action={"seat": first_bidder, "bid": 1}, device_id="d" * 65)
    assert caught.value.code == "invalid"
    assert list(caught.value.extra["fields"]) == ["device_id"]  # type: ignore[call-overload]
    assert _events(hand) == [] and _row(hand).version == 0


# --------------------------------------------------------------------------- hand start
@pytest.mark.parametrize(
    ("first_bidder", "code", "message"),
    [
        (-1, "invalid", "first_bidder: must be between 0 and 5."),
        (6, "invalid", "first_bidder: must be between 0 and 5."),
        (3, "seat_not_at_table", "first_bidder: must be a seat of the table, 0 to 2."),
        (4, "seat_not_at_table", "first_bidder: must be a seat of the table, 0 to 2."),
        (5, "seat_not_at_table", "first_bidder: must be a seat of the table, 0 to 2."),
    ],
)
def test_a_first_bidder_outside_the_seats_is_refused(
    first_bidder: int, code: str, message: str
) -> None:
    """No table's seat: ``invalid``; a four-, five- or six-seat table's seat at a three-seat one:
    ``seat_not_at_table``."""
    table = factories.seated_table()
    with pytest.raises(ApplicationError) as caught:
        hand_create(table=table, physical_cards=True, first_bidder=first_bidder)
    assert (caught.value.code, caught.value.message) == (code, message)
    assert Hand.objects.filter(table=table).count() == 0


def test_a_first_bidder_of_seat_2_is_kept_on_a_physical_cards_hand() -> None:
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    assert (_row(hand).first_bidder, _row(hand).status) == (2, "bidding")


# --------------------------------------------------------------------------- summaries
def test_a_passed_out_result_only_hand_scores_zero_for_every_seat() -> None:
    hand = hand_record_passed_out(hand=hand_create(table=factories.seated_table()).hand).hand
    row = _row(hand)
    assert (row.status, *row.scores) == ("passed_out", 0, 0, 0)
    assert sorted(HandSeatResult.objects.filter(hand=hand).values_list("score", flat=True)) == [
        0,
        0,
        0,
    ]


@pytest.mark.parametrize(
    ("landlord", "doubled", "scores"),
    [
        (0, (False, True, False), (6, -4, -2)),
        (0, (False, False, True), (6, -2, -4)),
        (1, (True, False, False), (-4, 6, -2)),
    ],
)
def test_each_seats_double_is_stored_at_its_own_seat(
    landlord: int, doubled: tuple[bool, bool, bool], scores: tuple[int, int, int]
) -> None:
    """R4.2: a double is between the landlord and the defender who made it (bid 2)."""
    hand = _finished(factories.seated_table(), landlord=landlord, doubled=doubled)
    row = _row(hand)
    assert row.doubled == list(doubled)
    assert row.scores == list(scores)


# --------------------------------------------------------------------------- refusals
def test_a_refused_action_names_its_index_and_writes_nothing() -> None:
    deal = deal_from_seed(5)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    seat = deal.first_bidder
    hand = hand_action_record(hand=hand, action={"seat": seat, "bid": 2}).hand
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action={"seat": (seat + 1) % 3, "bid": 1})
    assert caught.value.code == "invalid_bid"
    assert caught.value.extra["index"] == 1
    assert _row(hand).version == 1
    assert hands.hand_needs_confirmation(hand=hand) is False
