"""A director's exclusion of a hand that does not count (issue 29): the one way past the
results gate (``tournaments.hands.gate``) besides settling the hand. An exclusion is an
audited write (who, when — the database's clock — and why), once per table and hand number:
a retry with the same reason answers the exclusion already made, another reason is refused.
It changes no score; it bumps the tournament's log version (the public standings list it)
and so is refused once the final standings are published (``results_final``)."""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.common.validation import invalid, reason_check
from tournaments.hands.gate import Unsettled, results_gate
from tournaments.hands.results import tournament_scores_changed
from tournaments.models import ExcludedState, Hand, HandExclusion, Round, Table, Tournament
from tournaments.models.hands import COUNTED_CONFIRMATIONS, COUNTED_STATUSES


def exclusion_write(*, unsettled: Unsettled, reason: str, recorded_by: Any) -> HandExclusion:
    """Record the exclusion of ``unsettled`` in the caller's transaction, which holds its
    round's row lock and has checked the reason and the director (``hand_exclude``, and a
    forced ``round_close``). Bumps the tournament's log version."""
    exclusion = HandExclusion.objects.create(
        table_id=unsettled.table_id,
        number=unsettled.number,
        hand_id=unsettled.hand_id,
        state=unsettled.state,
        reason=reason,
        recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
    )
    tournament_id = Round.objects.filter(tables__pk=unsettled.table_id).values_list(
        "tournament_id", flat=True
    )[0]
    tournament_scores_changed(tournament_id=tournament_id)
    return exclusion


def exclusion_input_check(*, number: Any, reason: Any) -> str:
    """What an exclusion is given, wherever it comes from (a director, an archive): a hand
    number, 1 or more, and a reason (``reason_check``); answers the reason as stored."""
    reason = reason_check(reason)
    if type(number) is not int or number < 1:
        raise invalid("hand", _("must be a hand number, 1 or more."))
    return reason


def exclusion_restore(
    *,
    table: Table,
    number: Any,
    hand: Hand | None,
    state: Any,
    reason: Any,
    recorded_by: Any,
    recorded_at: datetime,
) -> HandExclusion:
    """An archived exclusion written back (``tournaments.archive.restore``, in its
    transaction): what ``hand_exclude`` checks that does not depend on the moment it was
    made — the number and the reason (``exclusion_input_check``, the reason as stored), a
    state of a hand that did not count, ``missing`` exactly when no hand is named (the gate's
    lines: ``gate.table_lines``), the hand the table's of that number, once per table and
    number. The hand may count now (it may have been settled after it was excluded). No
    version bump: the archive carries the tournament's log version."""
    if exclusion_input_check(number=number, reason=reason) != reason:
        raise invalid("reason", _("must not begin or end with white space."))
    if state not in ExcludedState.values:
        raise invalid("state", _("must be a state of a hand that does not count."))
    if (state == ExcludedState.MISSING) != (hand is None):
        raise invalid("state", _("is missing exactly when the table has not played the hand."))
    if hand is not None and (hand.table_id != table.pk or hand.number != number):
        raise invalid("hand", _("must be the table's hand of that number."))
    if HandExclusion.objects.filter(table=table, number=number).exists():
        raise ApplicationError(
            "hand_already_excluded",
            _("Table %(table)s, hand %(hand)s is already excluded: %(reason)s")
            % {"table": table.number, "hand": number, "reason": reason},
        )
    return HandExclusion.objects.create(
        table=table,
        number=number,
        hand=hand,
        state=state,
        reason=reason,
        recorded_by=recorded_by,
        recorded_at=recorded_at,
    )


@transaction.atomic
def hand_exclude(*, table: Table, number: Any, reason: Any, recorded_by: Any) -> HandExclusion:
    """Exclude hand ``number`` of ``table`` from the results, with a reason: a hand that does
    not count yet, or one the table has not played. Only a director. Exactly once: the same
    exclusion again answers the one made; another reason for it is refused
    (``hand_already_excluded``); a hand that counts is refused (``hand_counts``)."""
    reason = exclusion_input_check(number=number, reason=reason)
    if not user_is_director(recorded_by):
        raise ApplicationError("director_required", _("Only a director can exclude a hand."))
    # The round's row orders exclusions against each other and against closing the round.
    round_id = Table.objects.filter(pk=table.pk).values_list("round_id", flat=True).get()
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    made = HandExclusion.objects.filter(table=table, number=number).first()
    if made is not None:
        if made.reason == reason:
            return made
        raise ApplicationError(
            "hand_already_excluded",
            _("Table %(table)s, hand %(hand)s is already excluded: %(reason)s")
            % {"table": table.number, "hand": number, "reason": made.reason},
        )
    gate = results_gate(rounds=[round_], hands_per_round=round_.tournament.hands_per_round)
    wanted = next(
        (u for u in gate.unsettled if u.table_id == table.pk and u.number == number), None
    )
    if wanted is None:
        raise ApplicationError(
            "hand_counts",
            _(
                "Table %(table)s, hand %(hand)s does not wait for anything: it counts, was "
                "voided, or is not one of the round's hands. Only a hand that does not count "
                "yet is excluded."
            )
            % {"table": table.number, "hand": number},
        )
    return exclusion_write(unsettled=wanted, reason=reason, recorded_by=recorded_by)


def exclusions_shown(*, tournament: Tournament) -> QuerySet[HandExclusion]:
    """The exclusions of ``tournament`` whose hand still does not count (a hand that came
    to count later counts, and its exclusion is not shown), round, table and hand in order."""
    counts = Hand.objects.filter(
        table_id=OuterRef("table_id"),
        number=OuterRef("number"),
        status__in=COUNTED_STATUSES,
        confirmation__in=COUNTED_CONFIRMATIONS,
    )
    return (
        HandExclusion.objects.filter(table__round__tournament=tournament)
        .exclude(Exists(counts))
        .select_related("table__round", "recorded_by")
        .order_by("table__round__number", "table__number", "number")
    )
