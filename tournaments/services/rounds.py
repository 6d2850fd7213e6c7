"""Rounds, tables, seats and referee assignments."""

from typing import Any

from django.db import transaction

from tournaments.errors import ApplicationError
from tournaments.models import Entry, RefereeAssignment, Round, Seat, Table, Tournament
from tournaments.roles import user_is_director, user_is_referee
from tournaments.services.common import model_validate


@transaction.atomic
def round_create(*, tournament: Tournament, number: int, status: str = "draft") -> Round:
    round_ = Round(tournament=tournament, number=number, status=status)
    model_validate(round_)
    round_.save()
    return round_


@transaction.atomic
def table_create(*, round: Round, number: int) -> Table:
    table = Table(round=round, number=number)
    model_validate(table)
    table.save()
    return table


def seat_check(*, table: Table, entry: Entry) -> None:
    """Refuse an entry of another tournament or a withdrawn one (also used by the admin)."""
    if entry.tournament_id != table.round.tournament_id:
        raise ApplicationError(
            "entry_not_in_tournament", "The entry belongs to another tournament."
        )
    if entry.withdrawn:
        raise ApplicationError("entry_withdrawn", "A withdrawn entry cannot be seated.")


@transaction.atomic
def seat_create(*, table: Table, position: int, entry: Entry) -> Seat:
    """Seat ``entry`` at ``position`` of ``table`` (one seat per entry per round)."""
    seat_check(table=table, entry=entry)
    seat = Seat(table=table, round_id=table.round_id, position=position, entry=entry)
    model_validate(seat)
    seat.save()
    return seat


def referee_assignment_check(*, round: Round, user: Any, table: Table | None = None) -> None:
    """Refuse a user who is neither referee nor director, or a table of another round
    (also used by the admin)."""
    if not (user_is_referee(user) or user_is_director(user)):
        raise ApplicationError("not_a_referee", "Only referees and directors can be assigned.")
    if table is not None and table.round_id != round.pk:
        raise ApplicationError("table_not_in_round", "The table belongs to another round.")


@transaction.atomic
def referee_assign(*, round: Round, user: Any, table: Table | None = None) -> RefereeAssignment:
    """Assign a referee (or a director) to a round, or to one of its tables."""
    referee_assignment_check(round=round, user=user, table=table)
    assignment = RefereeAssignment(round=round, table=table, user=user)
    model_validate(assignment)
    assignment.save()
    return assignment
