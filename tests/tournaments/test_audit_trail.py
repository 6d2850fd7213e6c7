"""Issue 16, point 5: every number has a trail.  Each forgery of the standings' inputs,
written around Python, is refused by the DATABASE (migration 0011) on SQLite and on
PostgreSQL: per-seat result rows say what their hand says, penalties change only by their
revocation, the round and tournament logs are append-only.  The services still work."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.results import hand_results_sync
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import (
    Hand,
    HandSeatResult,
    Penalty,
    RoundLog,
    RoundLogKind,
    Seat,
    Table,
    TournamentLog,
    TournamentLogKind,
)
from tournaments.tournament.log import tournament_log_append
from tournaments.tournament.penalties import penalty_create, penalty_revoke

pytestmark = pytest.mark.django_db
OLD_TIME = datetime(2000, 1, 1, tzinfo=UTC)


def assert_refused(write: Callable[[], Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def sql(statement: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params or [])


def finished_hand(table: Table | None = None) -> Hand:
    """Seat 0 landlord, bid 3, won: 6 / -3 / -3."""
    hand = hand_create(table=table or factories.seated_table()).hand
    return hand_record_result(hand=hand, landlord=0, bid=3, winner="landlord").hand


def scores(hand: Hand) -> list[int]:
    return list(
        HandSeatResult.objects.filter(hand=hand)
        .order_by("position")
        .values_list("score", flat=True)
    )


# --- per-seat result rows -----------------------------------------------------------------


def test_a_seat_result_score_cannot_be_raised() -> None:
    hand = finished_hand()
    assert scores(hand) == [6, -3, -3]
    rows = HandSeatResult.objects.filter(hand=hand, position=1)
    assert_refused(lambda: rows.update(score=97))
    assert_refused(lambda: sql("UPDATE tournaments_handseatresult SET score = score + 100"))
    assert_refused(lambda: rows.update(won=True))
    assert scores(hand) == [6, -3, -3]


def test_a_seat_result_row_cannot_be_deleted_while_it_matches_its_hand() -> None:
    hand = finished_hand()
    assert_refused(lambda: HandSeatResult.objects.filter(hand=hand).delete())
    assert_refused(lambda: sql("DELETE FROM tournaments_handseatresult"))
    assert scores(hand) == [6, -3, -3]


def test_a_forged_seat_result_row_is_refused() -> None:
    hand = finished_hand()
    row = HandSeatResult.objects.get(hand=hand, position=2)
    # Deleting a matching row is refused, so forge another hand's rows instead.
    other = hand_create(table=hand.table).hand  # not finished: it has no rows
    forged = {
        "hand_id": other.pk,
        "tournament_id": row.tournament_id,
        "round_id": row.round_id,
        "table_id": row.table_id,
        "board_id": None,
        "hand_number": other.number,
        "position": 2,
        "entry_id": row.entry_id,
        "is_landlord": False,
        "won": True,
        "score": 100,
        "passed_out": False,
    }
    assert_refused(lambda: HandSeatResult.objects.create(**forged))
    # A row for a counted hand with another score than the hand's is refused too.
    twin = finished_hand(factories.seated_table())
    assert HandSeatResult.objects.filter(hand=twin).count() == 3
    seat = Seat.objects.get(table_id=twin.table_id, position=0)
    assert_refused(
        lambda: HandSeatResult.objects.create(
            **{
                **forged,
                "hand_id": twin.pk,
                "tournament_id": twin.table.round.tournament_id,
                "round_id": twin.table.round_id,
                "table_id": twin.table_id,
                "hand_number": twin.number,
                "position": 0,
                "entry_id": seat.entry_id,
                "is_landlord": True,
            }
        )
    )
    assert not HandSeatResult.objects.filter(score=100).exists()


def test_the_services_still_rebuild_the_rows_from_the_hand() -> None:
    hand = finished_hand()
    corrected = hand_result_correct(
        hand=hand, landlord=1, bid=2, winner="landlord", reason="wrong landlord"
    ).hand
    assert scores(corrected) == [-2, 4, -2]
    hand_results_sync(hand=Hand.objects.get(pk=hand.pk))  # nothing changed: nothing to do
    assert scores(corrected) == [-2, 4, -2]
    hand_void(hand=corrected, reason="misdeal")
    assert scores(corrected) == []


# --- penalties ----------------------------------------------------------------------------


@pytest.fixture
def penalty(seated_table: Table, director: Any) -> Penalty:
    entry = seated_table.seats.get(position=0).entry
    return penalty_create(entry=entry, points=-3, reason="slow play", recorded_by=director)


def test_a_penalty_cannot_be_changed_or_deleted(penalty: Penalty) -> None:
    rows = Penalty.objects.filter(pk=penalty.pk)
    assert_refused(lambda: rows.update(points=-1000))
    assert_refused(lambda: rows.update(reason="nothing"))
    assert_refused(lambda: rows.update(recorded_at=OLD_TIME))
    assert_refused(lambda: rows.delete())
    assert_refused(lambda: sql("DELETE FROM tournaments_penalty"))
    # A revocation without a reason, or one that also edits the points, is refused.
    assert_refused(lambda: rows.update(revoked_at=OLD_TIME))
    assert_refused(lambda: rows.update(revoked_at=OLD_TIME, revoke_reason="x", points=-1))
    stored = Penalty.objects.get(pk=penalty.pk)
    assert (stored.points, stored.reason, stored.revoked_at) == (-3, "slow play", None)


def test_a_penalty_is_revoked_once_with_who_and_why(penalty: Penalty, director: Any) -> None:
    revoked = penalty_revoke(penalty=penalty, reason="appeal upheld", recorded_by=director)
    assert revoked.revoked_by == director and revoked.revoke_reason == "appeal upheld"
    rows = Penalty.objects.filter(pk=penalty.pk)
    assert_refused(lambda: rows.update(revoke_reason="forged"))
    assert_refused(lambda: rows.update(revoked_at=None, revoke_reason=""))
    log = TournamentLog.objects.get(kind=TournamentLogKind.PENALTY_REVOKED)
    assert (log.recorded_by, log.reason, log.entry_id) == (
        director,
        "appeal upheld",
        penalty.entry_id,
    )
    assert log.changes == {"penalty": penalty.pk, "points": -3}


def test_a_revocation_names_who_revoked(penalty: Penalty) -> None:
    with pytest.raises(ApplicationError) as excinfo:
        penalty_revoke(penalty=penalty, reason="appeal upheld", recorded_by=None)
    assert excinfo.value.code == "revoker_required"
    assert Penalty.objects.get(pk=penalty.pk).revoked_at is None


# --- the logs -----------------------------------------------------------------------------


def test_the_round_log_is_append_only(seated_table: Table, director: Any) -> None:
    RoundLog.objects.create(round=seated_table.round, kind=RoundLogKind.SEATED, reason="draw")
    rows = RoundLog.objects.filter(round=seated_table.round)
    assert_refused(lambda: rows.update(reason="forged"))
    assert_refused(lambda: rows.delete())
    assert_refused(lambda: sql("DELETE FROM tournaments_roundlog"))
    assert list(rows.values_list("reason", flat=True)) == ["draw"]


def test_the_tournament_log_is_append_only(seated_table: Table, director: Any) -> None:
    tournament = seated_table.round.tournament
    tournament_log_append(
        tournament_id=tournament.pk,
        kind=TournamentLogKind.SETTINGS_CHANGED,
        changes={"name": ["a", "b"]},
        recorded_by=director,
    )
    rows = TournamentLog.objects.filter(tournament=tournament)
    assert_refused(lambda: rows.update(changes={}))
    assert_refused(lambda: rows.delete())
    assert rows.get().changes == {"name": ["a", "b"]}


def test_recorded_at_comes_from_the_database(penalty: Penalty) -> None:
    assert penalty.recorded_at is not None
    assert Penalty.objects.get(pk=penalty.pk).recorded_at == penalty.recorded_at
