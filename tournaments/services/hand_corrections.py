"""Corrections of a hand: void it, correct its result. Each is a new event with a reason;
nothing is edited or deleted (SPEC R9.5)."""

from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ApplicationError
from tournaments.models import Hand, HandEventKind, HandStatus
from tournaments.services.hands import (
    deal_result,
    hand_commit,
    hand_event_append,
    hand_lock,
    hand_needs_confirmation,
    result_payload,
)
from tournaments.services.transactions import hand_write_atomic
from tournaments.services.validation import bool_check, bool_triple_check, reason_check


@hand_write_atomic
def hand_void(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> Hand:
    """Void the hand (it no longer counts), keeping its whole log."""
    reason = reason_check(reason)
    locked, retry = hand_lock(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.VOID and e.payload.get("reason") == reason,
    )
    if retry:
        return locked
    if locked.status == HandStatus.VOIDED:
        raise ApplicationError("hand_closed", _("The hand is already voided."))
    hand_event_append(
        hand=locked,
        kind=HandEventKind.VOID,
        payload={"reason": reason},
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    return hand_commit(hand=locked)


@hand_write_atomic
def hand_result_correct(
    *,
    hand: Hand,
    reason: str,
    landlord: int,
    bid: int,
    winner: str,
    doubled: tuple[bool, bool, bool] | list[bool] = (False, False, False),
    redoubled: bool = False,
    bombs: int = 0,
    rockets: int = 0,
    spring: bool = False,
    anti_spring: bool = False,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> Hand:
    """Correct a closed hand's result: a ``correction`` event that the summary follows from
    now on (a confirmed or disputed hand goes back to awaiting confirmation)."""
    reason = reason_check(reason)
    bool_triple_check("doubled", doubled)
    bool_check(redoubled=redoubled, spring=spring, anti_spring=anti_spring)
    result = deal_result(
        landlord=landlord,
        bid=bid,
        winner=winner,
        doubled=doubled,
        redoubled=redoubled,
        bombs=bombs,
        rockets=rockets,
        spring=spring,
        anti_spring=anti_spring,
    )
    payload = result_payload(result, hand.rule_profile)
    locked, retry = hand_lock(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.CORRECTION
            and e.payload.get("result") == payload["result"]
            and e.payload.get("reason") == reason
        ),
    )
    if retry:
        return locked
    if locked.status not in (HandStatus.FINISHED, HandStatus.PASSED_OUT):
        raise ApplicationError(
            "hand_not_closed",
            _("Only a finished hand's result is corrected; undo or void a live hand."),
        )
    payload.update(
        reason=reason,
        needs_confirmation=hand_needs_confirmation(hand=locked),
    )
    hand_event_append(
        hand=locked,
        kind=HandEventKind.CORRECTION,
        payload=payload,
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    return hand_commit(hand=locked)
