"""A retry that waited on the hand's row lock answers the write it waited for (PostgreSQL).

On PostgreSQL (READ COMMITTED) the locking statement of ``hands.writing.hand_write`` sees the
data of when it started, so a write with the same Idempotency-Key that committed while it
waited is not in the key's subselect: ``hand_row_lock_keyed`` sees the version move and reads
the key again after the lock (``hand_retry_check``). Here the two writes are ordered for
certain: the first holds the lock until the second is seen waiting on it."""

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from referee.rules.cards import deal_from_seed
from tests import factories
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandEvent

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

KEY = "the-same-key"


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _run(target: Any, results: dict[str, Any], name: str) -> threading.Thread:
    def body() -> None:
        try:
            results[name] = target()
        except Exception as exc:  # reported by the assertions below
            results[name] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=body)
    thread.start()
    return thread


def test_a_retry_that_waited_on_the_lock_answers_the_write_it_waited_for() -> None:
    deal = deal_from_seed(11, first_bidder=1)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    bid = {"seat": 1, "bid": 2}
    first_wrote, release = threading.Event(), threading.Event()
    results: dict[str, Any] = {}

    def first() -> int:
        with transaction.atomic():
            Hand.objects.select_for_update().get(pk=hand.pk)
            written = hand_action_record(hand=hand, action=bid, idempotency_key=KEY)
            first_wrote.set()
            assert release.wait(timeout=30)
            assert written.event is not None
            return written.event.pk  # committed on leaving the block

    def retry() -> tuple[int, int]:
        assert first_wrote.wait(timeout=30)
        again = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
        written = hand_action_record(hand=again, action=bid, idempotency_key=KEY)
        assert written.event is not None
        return written.event.pk, written.hand.version

    threads = [_run(first, results, "first"), _run(retry, results, "retry")]
    deadline = time.monotonic() + 30
    while not _waiting_on_a_lock():  # the retry is inside its locking statement
        assert time.monotonic() < deadline, "the retry never waited on the row lock"
        time.sleep(0.05)
    release.set()
    for thread in threads:
        thread.join(timeout=60)

    assert not isinstance(results["first"], Exception), results["first"]
    assert not isinstance(results["retry"], Exception), results["retry"]
    assert results["retry"] == (results["first"], 1)  # the first write's event, at version 1
    assert list(HandEvent.objects.filter(hand=hand).values_list("seq", "idempotency_key")) == [
        (1, KEY)
    ]
    hand.refresh_from_db()
    assert (hand.version, hand.status) == (1, "bidding")
