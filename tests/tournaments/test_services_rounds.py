from typing import Any

import pytest
from django.contrib.auth.models import Permission

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import (
    HandExclusion,
    RefereeAssignment,
    Round,
    RoundLog,
    Seat,
    Table,
    Tournament,
)
from tournaments.rounds.services import (
    referee_assign,
    round_close,
    round_create,
    round_reopen,
    round_start,
    seat_create,
    table_create,
    table_move,
)
from tournaments.seating.services import round_seat
from tournaments.tournament.services import entry_create

pytestmark = pytest.mark.django_db


def test_seat_create_denormalises_the_round() -> None:
    table = factories.TableFactory()
    entry = factories.EntryFactory(tournament=table.round.tournament)
    seat = seat_create(table=table, position=1, entry=entry)
    assert seat.round_id == table.round_id


def test_seat_create_refuses_an_entry_seated_in_the_round(seated_table: Table) -> None:
    other = table_create(round=seated_table.round, number=99)
    entry = seated_table.seats.get(position=0).entry
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=other, position=0, entry=entry)
    assert excinfo.value.code == "entry_already_seated"


def test_seat_create_refuses_a_foreign_or_withdrawn_entry() -> None:
    table = factories.TableFactory()
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=table, position=0, entry=factories.EntryFactory())
    assert excinfo.value.code == "entry_not_in_tournament"
    withdrawn = factories.EntryFactory(tournament=table.round.tournament, withdrawn=True)
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=table, position=0, entry=withdrawn)
    assert excinfo.value.code == "entry_withdrawn"


def test_referee_assign(referee: object, seated_table: Table) -> None:
    assignment = referee_assign(round=seated_table.round, user=referee, table=seated_table)
    assert assignment.table == seated_table
    with pytest.raises(ApplicationError) as excinfo:
        referee_assign(round=seated_table.round, user=factories.UserFactory())
    assert excinfo.value.code == "not_a_referee_account"
    with pytest.raises(ApplicationError) as excinfo:
        referee_assign(round=factories.RoundFactory(), user=referee, table=seated_table)
    assert excinfo.value.code == "table_not_in_round"


def test_referee_assign_refuses_any_account_but_a_plain_referee(
    referee: Any, seated_table: Table
) -> None:
    """Issue 16: staff, superusers, permission holders and inactive accounts are refused,
    even in the referee group; nothing is written."""
    group = referee.groups.get()
    staff = factories.UserFactory(is_staff=True)
    superuser = factories.UserFactory(is_superuser=True)
    holder = factories.UserFactory()
    holder.user_permissions.add(Permission.objects.get(codename="view_user"))
    inactive = factories.UserFactory(is_active=False)
    cases = [(staff, "privileged_account"), (superuser, "privileged_account")]
    cases += [(holder, "privileged_account"), (inactive, "inactive_account")]
    for user, code in cases:
        user.groups.add(group)
        with pytest.raises(ApplicationError) as excinfo:
            referee_assign(round=seated_table.round, user=user, table=seated_table)
        assert excinfo.value.code == code, user
    assert not RefereeAssignment.objects.exists()


# --- round life: start, close, reopen --------------------------------------------------


def _seated_round(count: int = 3, hands_per_round: int = 1) -> Round:
    tournament = factories.TournamentFactory(hands_per_round=hands_per_round)
    for order in range(1, count + 1):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    return round_


def test_round_start_needs_a_seated_round_with_full_tables() -> None:
    round_ = round_create(tournament=factories.TournamentFactory())
    with pytest.raises(ApplicationError) as excinfo:
        round_start(round=round_)
    assert excinfo.value.code == "round_not_seated"
    seated = _seated_round()
    Seat.objects.filter(round=seated, position=2).delete()
    with pytest.raises(ApplicationError) as excinfo:
        round_start(round=seated)
    assert excinfo.value.code == "table_incomplete"


def test_round_start_runs_the_tournament_and_one_round_plays_at_a_time() -> None:
    round_ = _seated_round()
    round_start(round=round_)
    assert Tournament.objects.get(pk=round_.tournament_id).status == "running"
    nxt = round_create(tournament=round_.tournament)
    round_seat(round=nxt, seed=2)
    with pytest.raises(ApplicationError) as excinfo:
        round_start(round=nxt)
    assert excinfo.value.code == "round_in_progress"


def test_round_close_is_refused_while_a_hand_is_unfinished(director: object) -> None:
    round_ = _seated_round()
    round_start(round=round_)
    table = Table.objects.get(round=round_)
    hand = hand_create(table=table).hand
    with pytest.raises(ApplicationError) as excinfo:
        round_close(round=round_)
    assert excinfo.value.code == "results_incomplete"
    assert "round 1, table 1, hand 1 — Playing" in excinfo.value.message
    with pytest.raises(ApplicationError) as excinfo:
        round_close(round=round_, force=True, reason="", recorded_by=director)
    assert excinfo.value.code == "reason_required"
    with pytest.raises(ApplicationError) as excinfo:
        round_close(round=round_, force=True, reason="time", recorded_by=factories.UserFactory())
    assert excinfo.value.code == "director_required"
    assert Round.objects.get(pk=round_.pk).status == "playing"
    round_close(round=round_, force=True, reason="out of time", recorded_by=director)
    assert Round.objects.get(pk=round_.pk).status == "closed"
    log = RoundLog.objects.get(round=round_, kind="forced_close")
    listed = {"round": 1, "table": 1, "hand": 1, "state": "playing", "hand_id": hand.pk}
    assert log.reason == "out of time" and log.payload["excluded"] == [listed]
    # the forced close is the exclusion of every hand listed, with its reason (issue 29)
    excluded = HandExclusion.objects.get(table=table)
    assert (excluded.number, excluded.hand, excluded.state) == (1, hand, "playing")
    assert (excluded.reason, excluded.recorded_by) == ("out of time", director)


def test_round_close_when_every_hand_is_finished() -> None:
    round_ = _seated_round()
    round_start(round=round_)
    hand = hand_create(table=Table.objects.get(round=round_)).hand
    hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    assert round_close(round=round_).status == "closed"


def test_round_reopen_needs_a_reason_and_no_later_round_started() -> None:
    round_ = _seated_round()
    round_start(round=round_)
    hand = hand_create(table=Table.objects.get(round=round_)).hand
    hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    round_close(round=round_)
    with pytest.raises(ApplicationError) as excinfo:
        round_reopen(round=round_, reason="")
    assert excinfo.value.code == "reason_required"
    assert round_reopen(round=round_, reason="late result").status == "playing"
    round_close(round=round_)
    later = round_create(tournament=round_.tournament)
    round_seat(round=later, seed=3)
    round_start(round=later)
    with pytest.raises(ApplicationError) as excinfo:
        round_reopen(round=round_, reason="late result")
    assert excinfo.value.code == "later_round_started"


def test_table_move_refuses_a_table_with_seats(seated_table: Table) -> None:
    other = round_create(tournament=seated_table.round.tournament)
    with pytest.raises(ApplicationError) as excinfo:
        table_move(table=seated_table, round=other)
    assert excinfo.value.code == "table_has_seats"
    empty = table_create(round=seated_table.round, number=50)
    assert table_move(table=empty, round=other).round_id == other.pk
    with pytest.raises(ApplicationError) as excinfo:
        table_move(table=empty, round=factories.RoundFactory())
    assert excinfo.value.code == "round_not_in_tournament"


def test_no_round_or_entry_is_added_to_a_finished_tournament() -> None:
    tournament = factories.TournamentFactory(status="finished")
    with pytest.raises(ApplicationError) as excinfo:
        round_create(tournament=tournament)
    assert excinfo.value.code == "tournament_finished"
    with pytest.raises(ApplicationError) as excinfo:
        entry_create(tournament=tournament, player=factories.PlayerFactory())
    assert excinfo.value.code == "tournament_finished"
