"""A hand service joins a caller's transaction without a savepoint; a refusal there rolls
the caller's writes back with it, and outside one the service keeps its savepoint."""

from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from referee.rules.cards import Deal
from tournaments.common.errors import ApplicationError
from tournaments.common.transactions import caller_transaction
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandEvent, IdempotencyRecord, Table

pytestmark = pytest.mark.django_db


def _savepoints(captured: CaptureQueriesContext) -> int:
    return sum("SAVEPOINT" in q["sql"].upper() for q in captured.captured_queries)


def _first_bid(hand: Hand) -> dict[str, Any]:
    return {"seat": Deal.from_json(hand.deal).first_bidder, "bid": 1}


def test_in_a_caller_transaction_a_hand_service_opens_no_savepoint(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, random_deal=True).hand
    with transaction.atomic():  # the test's own block, as the request's would be absent
        with CaptureQueriesContext(connection) as joined, caller_transaction():
            hand = hand_action_record(hand=hand, action=_first_bid(hand)).hand
        # caller_transaction is nested in the test's block: its own savepoint, and no other
        assert _savepoints(joined) == 2  # SAVEPOINT and RELEASE SAVEPOINT of the caller's
        action = {"seat": (hand.events.get().actor_seat + 1) % 3, "bid": 2}
        with CaptureQueriesContext(connection) as nested, transaction.atomic():
            hand_action_record(hand=hand, action=action)
        assert _savepoints(nested) == 4  # the caller's and the service's own
    assert HandEvent.objects.filter(hand=hand).count() == 2


def test_a_refusal_in_a_caller_transaction_rolls_back_the_callers_writes(
    seated_table: Table, referee: Any
) -> None:
    hand = hand_create(table=seated_table, random_deal=True).hand
    wrong_seat = (_first_bid(hand)["seat"] + 1) % 3
    with pytest.raises(ApplicationError) as refused, caller_transaction():
        IdempotencyRecord.objects.create(
            user=referee, key="k", request_hash="h", status_code=200, body="{}"
        )
        hand_action_record(hand=hand, action={"seat": wrong_seat, "bid": 1})
    assert refused.value.code == "out_of_turn"
    assert not IdempotencyRecord.objects.exists()
    assert not HandEvent.objects.filter(hand=hand).exists()
    # and the connection is usable afterwards: the next write goes through
    written = hand_action_record(hand=hand, action=_first_bid(hand)).hand
    assert written.version == 1


def test_outside_a_caller_transaction_a_refusal_keeps_the_callers_writes(
    seated_table: Table, referee: Any
) -> None:
    hand = hand_create(table=seated_table, random_deal=True).hand
    wrong_seat = (_first_bid(hand)["seat"] + 1) % 3
    with transaction.atomic():
        IdempotencyRecord.objects.create(
            user=referee, key="k", request_hash="h", status_code=200, body="{}"
        )
        with pytest.raises(ApplicationError):
            hand_action_record(hand=hand, action={"seat": wrong_seat, "bid": 1})
    assert IdempotencyRecord.objects.count() == 1
