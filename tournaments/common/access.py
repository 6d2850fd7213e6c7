"""Who may read and write what (the referee API's permission rules, in one place).

Directors (staff) everywhere. A referee writes only to tables of a *playing* round they
are assigned to (the whole round, or that table); confirming or disputing needs any
assignment in the hand's round (a second referee of the round). The public reads public
tournaments only.
"""

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP, user_is_director, user_is_referee
from tournaments.models import RefereeAssignment, Round, RoundStatus, Table, Tournament


def authenticated_check(*, user: Any) -> None:
    if not user.is_authenticated:
        raise ApplicationError(
            "not_authenticated", _("Authentication credentials were not provided.")
        )


def referee_assigned(*, user: Any, table: Table) -> bool:
    """An active referee (still in the referee group) assigned to ``table`` or its round:
    an assignment alone, of somebody taken out of the group, counts for nothing."""
    return bool(
        user.is_authenticated
        and user.is_active
        and assigned_referee_rows(user.pk, table.pk, table.round_id).exists()
    )


def _referee_check(user: Any) -> None:
    authenticated_check(user=user)
    if not user_is_referee(user):
        raise ApplicationError(
            "permission_denied", _("Only referees and directors may write results.")
        )


def _playing_check(round_: Round) -> None:
    if round_.status != RoundStatus.PLAYING:
        raise ApplicationError(
            "round_not_playing",
            _("Round %(number)s is not being played (%(status)s).")
            % {"number": round_.number, "status": round_.get_status_display()},
        )


def assigned_referee_rows(user_id: Any, table_id: Any, round_id: Any) -> QuerySet[Any]:
    """The assignments that let ``user_id`` write to a table: a referee (in the referee
    group) assigned to the table's round or to the table (ids, or ``OuterRef``s)."""
    return RefereeAssignment.objects.filter(
        Q(table__isnull=True) | Q(table_id=table_id),
        user_id=user_id,
        round_id=round_id,
        user__groups__name=REFEREE_GROUP,
    )


def table_write_check(
    *, user: Any, table: Table, live: bool = True, assigned: bool | None = None
) -> None:
    """Refuse a write to ``table`` by ``user``.

    ``live`` writes (starting a hand, actions, result entry, undo) need a playing round
    for everybody; corrections by a director are allowed in any round. ``assigned``:
    whether ``user`` is a referee assigned there, when the caller read it already (with
    the hand: ``hands.selectors.hand_get_for_write``).
    """
    authenticated_check(user=user)
    if user_is_director(user):
        if live:
            _playing_check(table.round)
        return
    # Only a refusal asks which of the two (referee, assignment) the user lacks.
    if assigned is None:
        assigned = assigned_referee_rows(user.pk, table.pk, table.round_id).exists()
    if not (user.is_active and assigned):
        _referee_check(user)
        raise ApplicationError("not_assigned", _("You are not assigned to this table."))
    _playing_check(table.round)


def table_referee_check(*, user: Any, table: Table) -> None:
    """Read a table as its referee does (its hands and their states): a director, or a
    referee assigned to the table or its round and still in the referee group."""
    authenticated_check(user=user)
    if user_is_director(user) or referee_assigned(user=user, table=table):
        return
    _referee_check(user)
    raise ApplicationError("not_assigned", _("You are not assigned to this table."))


def round_second_person_check(*, user: Any, table: Table) -> None:
    """Confirm or dispute: a director, or a referee assigned anywhere in the round."""
    authenticated_check(user=user)
    if user_is_director(user):
        return
    _referee_check(user)
    if not RefereeAssignment.objects.filter(user=user, round_id=table.round_id).exists():
        raise ApplicationError("not_assigned", _("You are not assigned to this round."))
    _playing_check(table.round)


def director_check(*, user: Any) -> None:
    authenticated_check(user=user)
    if not user_is_director(user):
        raise ApplicationError("permission_denied", _("Only directors may do this."))


def tournament_read_check(*, user: Any, tournament: Tournament) -> None:
    """Public tournaments are read by anyone; others by directors and their referees
    (still in the referee group)."""
    if tournament.is_public or user_is_director(user):
        return
    if (
        user_is_referee(user)
        and RefereeAssignment.objects.filter(user=user, round__tournament=tournament).exists()
    ):
        return
    raise ApplicationError("not_found", _("No such hand."))
