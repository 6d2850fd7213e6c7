"""Withdrawals (退赛).  Registration, late entries included, is ``entry_create`` in
``services.tournaments``: an entry registered while the event runs is seated from the
next round on."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import ApplicationError
from tournaments.models import Entry, RoundStatus, Seat
from tournaments.services.hand_results import tournament_scores_changed


@transaction.atomic
def entry_withdraw(*, entry: Entry, recorded_by: Any = None) -> Entry:
    """Withdraw ``entry``: it keeps every result it played and is ranked below the active
    entries (SPEC R10.8.6), and is left out of later seatings (R10.8.7).

    Refused while it holds a seat in a round that is seated but not started: reseat
    that round or override the seat first, so no table is left a player short.
    """
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
    locked.withdrawn = True
    locked.save(update_fields=["withdrawn"])
    tournament_scores_changed(tournament_id=locked.tournament_id)  # the ranking changes
    return locked
