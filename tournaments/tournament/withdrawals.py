"""Withdrawals (退赛) and reinstatements, each written to the tournament log (who, when,
why).  Registration, late entries included, is ``entry_create`` in
``tournament.services``: an entry registered while the event runs is seated from the
next round on."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import reason_check
from tournaments.hands.results import tournament_scores_changed
from tournaments.models import Entry, RoundStatus, Seat, TournamentLogKind, TournamentStatus
from tournaments.tournament.log import tournament_log_append


@transaction.atomic
def entry_withdraw(*, entry: Entry, reason: str = "", recorded_by: Any = None) -> Entry:
    """Withdraw ``entry``: it keeps every result it played and is ranked below the active
    entries (SPEC R10.8.6), and is left out of later seatings (R10.8.7).

    Refused while it holds a seat in a round that is seated but not started: reseat
    that round or override the seat first, so no table is left a player short.
    """
    reason = _optional_reason(reason)
    locked = Entry.objects.select_for_update().get(pk=entry.pk)
    if locked.withdrawn:
        raise ApplicationError("entry_withdrawn", _("The entry has already withdrawn."))
    waiting = (
        Seat.objects.filter(entry=locked, round__status__in=(RoundStatus.DRAFT, RoundStatus.SEATED))
        .select_related("round", "table")
        .first()
    )
    if waiting is not None:
        raise ApplicationError(
            "entry_seated_in_next_round",
            _(
                "The entry sits at table %(table)s of round %(round)s, which has not started: "
                "reseat that round or give the seat to another entry first."
            )
            % {"table": waiting.table.number, "round": waiting.round.number},
        )
    # The log row first: the database lets ``withdrawn`` change only to what the entry's
    # newest withdrawal or reinstatement row says (migration 0024).
    tournament_log_append(
        tournament_id=locked.tournament_id,
        kind=TournamentLogKind.ENTRY_WITHDRAWN,
        entry_id=locked.pk,
        reason=reason,
        recorded_by=recorded_by,
    )
    locked.withdrawn = True
    locked.save(update_fields=["withdrawn"])
    tournament_scores_changed(tournament_id=locked.tournament_id)  # the ranking changes
    return locked


@transaction.atomic
def entry_reinstate(*, entry: Entry, reason: str, recorded_by: Any = None) -> Entry:
    """Undo a withdrawal: ``entry`` is ranked with the active entries again and seated
    from the next seating on.  Refused once the tournament has finished."""
    reason = reason_check(reason)
    locked = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    if not locked.withdrawn:
        raise ApplicationError("entry_not_withdrawn", _("The entry has not withdrawn."))
    if locked.tournament.status == TournamentStatus.FINISHED:
        raise ApplicationError("tournament_finished", _("The tournament has finished."))
    # The log row first: the database lets ``withdrawn`` change only to what the entry's
    # newest withdrawal or reinstatement row says (migration 0024).
    tournament_log_append(
        tournament_id=locked.tournament_id,
        kind=TournamentLogKind.ENTRY_REINSTATED,
        entry_id=locked.pk,
        reason=reason,
        recorded_by=recorded_by,
    )
    locked.withdrawn = False
    locked.save(update_fields=["withdrawn"])
    tournament_scores_changed(tournament_id=locked.tournament_id)
    return locked


def _optional_reason(reason: str) -> str:
    return reason_check(reason) if reason != "" else ""
