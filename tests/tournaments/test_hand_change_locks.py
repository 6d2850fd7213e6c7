"""The tournament row at the hand changes (issue 30): which writes wait for which.

Every table's finishing write marks and bumps the tournament's log version (``FOR NO KEY
UPDATE`` of its row, to the commit); every start reads the row's rule profile under a lock.
On the whole round these queued behind one another at the hand changes (PostgreSQL's
``log_lock_waits``: 50–232 ms each). Each test holds a lock from a second connection, as a
concurrent request would, and shows whether the write waits (``lock_timeout``) or not.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection, connections

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.common.transactions import caller_transaction
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandSeatResult, Round, RoundStatus, Table, Tournament

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

RESULT: dict[str, Any] = {
    "landlord": 0,
    "bid": 2,
    "doubled": (False, False, False),
    "redoubled": False,
    "bombs": 0,
    "rockets": 0,
    "spring": False,
    "anti_spring": False,
    "winner": "landlord",
}


@contextmanager
def held(sql: str, params: list[Any]) -> Iterator[Any]:
    """A second connection's transaction holding the locks of ``sql`` until the block ends."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("BEGIN")
            cursor.execute(sql, params)
            try:
                yield cursor
            finally:
                cursor.execute("ROLLBACK")
    finally:
        other.close()


def lock_timeout(ms: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"SET lock_timeout = '{ms}ms'")


def second_table(table: Table) -> Table:
    """Another seated table of ``table``'s round."""
    other = factories.TableFactory(round=table.round)
    for seat in table.seats.all():
        factories.SeatFactory(table=other, position=seat.position)
    return other


def test_a_start_does_not_wait_for_a_finishing_write_of_another_table() -> None:
    """A finishing write holds the tournament row ``FOR NO KEY UPDATE`` to its commit; the
    next hand of another table starts meanwhile (``FOR SHARE`` waited for it)."""
    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    sql = "SELECT id FROM tournaments_tournament WHERE id = %s FOR NO KEY UPDATE"
    with held(sql, [tournament_id]):
        lock_timeout(2000)
        assert hand_create(table=table, random_deal=True).hand.number == 1


def test_a_finishing_write_does_not_wait_for_a_start_of_another_table() -> None:
    """A start holds its tournament and round rows ``FOR KEY SHARE`` to its commit; another
    table's hand finishes meanwhile and bumps the log version."""
    table = factories.seated_table()
    other = second_table(table)
    hand = hand_create(table=other, random_deal=False).hand
    sql = (
        "SELECT t.id FROM tournaments_tournament t JOIN tournaments_round r"
        " ON r.tournament_id = t.id WHERE r.id = %s FOR KEY SHARE"
    )
    version = Tournament.objects.get(pk=table.round.tournament_id).log_version
    with held(sql, [table.round_id]):
        lock_timeout(2000)
        hand_record_result(hand=hand, **RESULT)
    assert Tournament.objects.get(pk=table.round.tournament_id).log_version == version + 1


def test_a_change_of_the_rule_profile_still_orders_against_a_start() -> None:
    """``tournament_update`` locks the row ``FOR UPDATE``: a start waits for it (and is
    created with the profile it then reads)."""
    table = factories.seated_table()
    sql = "SELECT id FROM tournaments_tournament WHERE id = %s FOR UPDATE"
    with held(sql, [table.round.tournament_id]):
        lock_timeout(300)
        with pytest.raises(OperationalError, match="lock timeout"):
            hand_create(table=table, random_deal=True)
    assert not Hand.objects.filter(table=table).exists()


def test_a_round_closing_orders_against_a_start_and_a_closed_round_starts_no_hand() -> None:
    """``round_close`` locks the round ``FOR UPDATE``: a start waits for it, then finds the
    round closed and is refused, so no live hand lands in a closed round behind the close's
    check of its hands."""
    table = factories.seated_table()
    sql = "SELECT id FROM tournaments_round WHERE id = %s FOR UPDATE"
    with held(sql, [table.round_id]):
        lock_timeout(300)
        with pytest.raises(OperationalError, match="lock timeout"):
            hand_create(table=table, random_deal=True)
    lock_timeout(0)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table, random_deal=True)
    assert refused.value.code == "round_not_playing"
    assert not Hand.objects.filter(table=table).exists()


def test_in_the_api_transaction_the_tournament_row_is_locked_last() -> None:
    """Inside ``caller_transaction`` (the referee API's), a finishing write leaves the
    tournament row unlocked until the caller's own writes are done; then, before the
    commit, the hand row, its per-seat rows and the log version are written together."""
    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    hand = hand_create(table=table, random_deal=False).hand
    version = Tournament.objects.get(pk=tournament_id).log_version
    probe = "SELECT id FROM tournaments_tournament WHERE id = %s FOR NO KEY UPDATE NOWAIT"
    with caller_transaction():
        written = hand_record_result(hand=hand, **RESULT)
        assert written.hand.status == "finished"  # the answer is built from it now
        # Another table's finishing write (a second connection) is not kept waiting …
        with held(probe, [tournament_id]) as cursor:
            assert cursor.fetchone() == (tournament_id,)
        # … and the row still says what it said: nothing of the hand reached the rows yet.
        assert Hand.objects.get(pk=hand.pk).status == "bidding"
        assert not HandSeatResult.objects.filter(hand=hand).exists()
    assert Hand.objects.get(pk=hand.pk).status == "finished"
    assert HandSeatResult.objects.filter(hand=hand).count() == 3
    assert Tournament.objects.get(pk=tournament_id).log_version == version + 1


def test_a_refusal_of_the_write_put_off_rolls_back_the_callers_writes() -> None:
    """The tournament finished meanwhile: the finishing write's bump, put off to the end of
    the caller's transaction, is refused (``results_final``) and the whole transaction rolls
    back, the caller's own writes with it."""
    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    hand = hand_create(table=table, random_deal=False).hand
    other = second_table(table)
    with pytest.raises(ApplicationError) as refused, caller_transaction():
        hand_record_result(hand=hand, **RESULT)
        hand_create(table=other, random_deal=False)  # the caller's own write
        factories.tournament_set(tournament_id, status="finished")
    assert refused.value.code == "results_final"
    assert Hand.objects.get(pk=hand.pk).status == "bidding"
    assert not Hand.objects.filter(table=other).exists()
    assert Tournament.objects.get(pk=tournament_id).status != "finished"
