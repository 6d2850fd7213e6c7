"""Confirmation: under a tournament's ``requires_confirmation`` a closed hand counts only
once a second person (another referee of the round, or a director) confirms it."""

from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ApplicationError
from tournaments.models import Confirmation, Hand, HandEventKind
from tournaments.services.hand_log import hand_replay
from tournaments.services.hands import hand_commit, hand_event_append, hand_lock
from tournaments.services.transactions import hand_write_atomic
from tournaments.services.validation import reason_check


def _recorder_id(hand: Hand) -> int | None:
    """Who recorded the hand's current result: the closing result, correction or action."""
    for event in reversed(hand_replay(hand=hand).events):
        if event.kind in (HandEventKind.RESULT, HandEventKind.CORRECTION) or event.payload.get(
            "closes"
        ):
            return event.recorded_by_id
    return None


@hand_write_atomic
def hand_confirm(
    *,
    hand: Hand,
    recorded_by: Any,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> Hand:
    """Confirm a closed hand awaiting confirmation (or disputed); the hand then counts.
    The person who recorded the result cannot confirm it."""
    locked, retry = hand_lock(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.CONFIRM,
    )
    if retry:
        return locked
    if locked.confirmation not in (Confirmation.PENDING, Confirmation.DISPUTED):
        raise ApplicationError(
            "not_awaiting_confirmation", _("This hand is not awaiting confirmation.")
        )
    if hand_replay(hand=locked).irregular is not None:  # hand_corrections.hand_irregular_keep
        raise ApplicationError(
            "hand_irregular",
            _(
                "This hand's written-in deal does not fit its log: a director keeps it as "
                "played (with a reason), corrects or voids it."
            ),
        )
    recorder = _recorder_id(locked)
    if recorder is not None and recorder == getattr(recorded_by, "pk", None):
        raise ApplicationError(
            "second_person_required",
            _("A second person confirms a result, not the one who recorded it."),
        )
    hand_event_append(
        hand=locked,
        kind=HandEventKind.CONFIRM,
        payload={},
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    return hand_commit(hand=locked)


@hand_write_atomic
def hand_dispute(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> Hand:
    """Dispute a closed hand's result: it stops counting until corrected and confirmed."""
    reason_check(reason)
    locked, retry = hand_lock(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.DISPUTE and e.payload.get("reason") == reason
        ),
    )
    if retry:
        return locked
    if locked.confirmation != Confirmation.PENDING:
        raise ApplicationError(
            "not_awaiting_confirmation", _("Only a hand awaiting confirmation can be disputed.")
        )
    hand_event_append(
        hand=locked,
        kind=HandEventKind.DISPUTE,
        payload={"reason": reason},
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    return hand_commit(hand=locked)
