"""Penalties (罚分, SPEC §9): signed score adjustments on an entry, records of their own.

Never edited or deleted: a mistaken penalty is revoked, which keeps the record.
"""

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.idempotency import idempotency_retry_check
from tournaments.common.validation import PENALTY_POINTS_MAX, idempotency_key_check, reason_check
from tournaments.hands.results import tournament_scores_changed
from tournaments.models import Entry, Hand, Penalty, Seat, TournamentLogKind
from tournaments.tournament.log import tournament_log_append


@transaction.atomic
def penalty_create(
    *,
    entry: Entry,
    points: int,
    reason: str,
    hand: Hand | None = None,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
) -> Penalty:
    """Record a penalty (negative points) or an adjustment (positive) on ``entry``,
    optionally tied to a hand the entry played. A retry by the same user with the same key
    returns the first record; keys are per tournament and user (another user's key, or the
    same key in another tournament, is another key: a tournament imported again as a copy
    keeps its penalties' keys)."""
    idempotency_key_check(idempotency_key)
    user_id = getattr(recorded_by, "pk", None)
    if idempotency_key is not None and user_id is None:
        raise ApplicationError(
            "idempotency_key_without_user", _("An idempotency key belongs to a signed-in user.")
        )
    if idempotency_key is not None:
        previous = Penalty.objects.filter(
            tournament_id=entry.tournament_id,
            recorded_by_id=user_id,
            idempotency_key=idempotency_key,
        ).first()
        if previous is not None:
            same = (previous.entry_id, previous.points, previous.reason, previous.hand_id) == (
                entry.pk,
                points,
                reason.strip() if isinstance(reason, str) else reason,
                hand.pk if hand is not None else None,
            )
            if not same:
                raise ApplicationError(
                    "idempotency_conflict",
                    _("This idempotency key was already used for a different request."),
                )
            idempotency_retry_check(recorded_at=previous.recorded_at)
            return previous
    reason = reason_check(reason)
    if (
        isinstance(points, bool)
        or not isinstance(points, int)
        or points == 0
        or not -PENALTY_POINTS_MAX <= points <= PENALTY_POINTS_MAX
    ):
        raise ApplicationError(
            "invalid_penalty",
            _("A penalty is a non-zero whole number of points, at most %(maximum)s either way.")
            % {"maximum": PENALTY_POINTS_MAX},
        )
    if hand is not None and not Seat.objects.filter(table_id=hand.table_id, entry=entry).exists():
        raise ApplicationError("entry_not_at_table", _("The entry did not play this hand."))
    try:
        with transaction.atomic():
            penalty = Penalty.objects.create(
                tournament_id=entry.tournament_id,
                entry=entry,
                hand=hand,
                points=points,
                reason=reason.strip(),
                recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
                idempotency_key=idempotency_key,
            )
    except IntegrityError as exc:  # a concurrent request with the same key won
        raise ApplicationError(
            "idempotency_conflict", _("This idempotency key is being used by another request.")
        ) from exc
    tournament_scores_changed(tournament_id=entry.tournament_id)
    return penalty


@transaction.atomic
def penalty_revoke(*, penalty: Penalty, reason: str, recorded_by: Any = None) -> Penalty:
    """Revoke a penalty, keeping it on record with who revoked it, when and why (set once,
    the database refuses a second change), and a line in the tournament log.  Revoking
    twice with the same reason answers the first revocation (a retry)."""
    locked = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if locked.revoked_at is not None:
        if locked.revoke_reason == (reason.strip() if isinstance(reason, str) else reason):
            return locked
        raise ApplicationError("penalty_revoked", _("This penalty is already revoked."))
    reason = reason_check(reason)
    if getattr(recorded_by, "pk", None) is None:
        raise ApplicationError("revoker_required", _("A revocation names who revoked it."))
    locked.revoked_at = timezone.now()
    locked.revoked_by = recorded_by
    locked.revoke_reason = reason
    locked.save(update_fields=["revoked_at", "revoked_by", "revoke_reason"])
    tournament_log_append(
        tournament_id=locked.tournament_id,
        kind=TournamentLogKind.PENALTY_REVOKED,
        entry_id=locked.entry_id,
        reason=reason,
        changes={"penalty": locked.pk, "points": locked.points},
        recorded_by=recorded_by,
    )
    tournament_scores_changed(tournament_id=locked.tournament_id)
    return locked
