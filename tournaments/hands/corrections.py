"""Corrections of a hand: void it, correct its result. Each is a new event with a reason;
nothing is edited or deleted (SPEC R9.5)."""

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.profiles import rules_of
from tournaments.common.transactions import hand_write_atomic
from tournaments.common.validation import bool_check, reason_check
from tournaments.hands.replay import RESULT_FIELDS, HandReplay
from tournaments.hands.write import (
    LEFT_OUT,
    LeftOut,
    hand_needs_confirmation,
    partner_given,
    passed_out_check,
    result_entry,
    result_payload,
)
from tournaments.hands.writing import HandWrite, NewEvent, hand_write
from tournaments.models import Hand, HandEventKind, HandStatus


@hand_write_atomic
def hand_void(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Void the hand (it no longer counts), keeping its whole log."""
    reason = reason_check(reason)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if locked.status == HandStatus.VOIDED:
            raise ApplicationError("hand_closed", _("The hand is already voided."))
        return NewEvent(HandEventKind.VOID, {"reason": reason})

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.VOID and e.payload.get("reason") == reason,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


def log_result(*, replay: HandReplay) -> dict[str, Any] | None:
    """What a hand's play-by-play log says its result is (None when nothing is logged or
    the log has not ended)."""
    state = replay.state
    if not replay.actions or state is None or not state.is_over:
        return None
    result = state.result()
    if result is None:  # everybody passed (流局)
        return {"passed_out": True, "landlord": None, "bid": None, "winner": None}
    logged = {"passed_out": False, **result.to_json()}
    # a four_p result has no doubling and no rocket (R11.1): what it has is compared
    return {name: logged[name] for name in RESULT_FIELDS if name in logged}


def _first_contradiction(
    logged: dict[str, Any], wanted: dict[str, Any]
) -> tuple[str, Any, Any] | None:
    for name in RESULT_FIELDS:
        if name in logged and name in wanted and logged[name] != wanted[name]:
            return name, logged[name], wanted[name]
    return None


@hand_write_atomic
def hand_irregular_keep(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Keep, with a reason, a hand whose written-in deal failed its check (the log as
    played stands): a ``confirm`` event with ``keep``; the hand counts again."""
    reason = reason_check(reason)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if replay.irregular is None:
            raise ApplicationError(
                "hand_not_irregular", _("Only a hand whose deal check failed is kept as played.")
            )
        return NewEvent(HandEventKind.CONFIRM, {"keep": True, "reason": reason})

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.CONFIRM
            and bool(e.payload.get("keep"))
            and e.payload.get("reason") == reason
        ),
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


@hand_write_atomic
def hand_result_correct(
    *,
    hand: Hand,
    reason: str,
    landlord: int | None = None,
    bid: int | None = None,
    partner: int | LeftOut | None = LEFT_OUT,
    winner: str | None = None,
    doubled: Sequence[bool] | None = None,
    redoubled: bool = False,
    bombs: int = 0,
    rockets: int = 0,
    spring: bool = False,
    anti_spring: bool = False,
    passed_out: bool = False,
    override: bool = False,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Correct a closed hand's result: a ``correction`` event that the summary follows from
    now on (a confirmed or disputed hand goes back to awaiting confirmation).

    ``passed_out`` corrects the hand to 流局 (0 for every seat, R10.4.5). A hand with a
    play-by-play log is corrected through its log (undo, void); a correction that says
    otherwise than the log is refused (``contradicts_log``, naming the first field and the
    log's value) unless it is an explicit director ``override``, which keeps the log's own
    result beside it for every page that shows the hand.
    """
    reason = reason_check(reason)
    bool_check(passed_out=passed_out, override=override)
    profile = rules_of(hand)
    if passed_out:
        passed_out_check(hand.rule_profile)  # Big Three passes out no deal (R12.5.2)
        payload: dict[str, Any] = {
            "passed_out": True,
            "scores": [0] * hand.seats,
            "rule_profile": profile.key,
            "rule_profile_hash": profile.content_hash,
        }
        wanted: dict[str, Any] = {"passed_out": True, "landlord": None}
    else:
        fields = {
            "landlord": landlord, "bid": bid, "doubled": doubled, "redoubled": redoubled,
            "bombs": bombs, "rockets": rockets, "spring": spring, "anti_spring": anti_spring,
            "winner": winner, **partner_given(partner),
        }  # fmt: skip
        result = result_entry(fields, hand=hand)
        payload = result_payload(result, profile)
        wanted = {"passed_out": False, **payload["result"]}

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if locked.status not in (HandStatus.FINISHED, HandStatus.PASSED_OUT):
            raise ApplicationError(
                "hand_not_closed",
                _("Only a finished hand's result is corrected; undo or void a live hand."),
            )
        written = dict(payload)
        logged = log_result(replay=replay)
        if logged is not None:
            contradiction = _first_contradiction(logged, wanted)
            if contradiction is not None and not override:
                name, log_value, value = contradiction
                raise ApplicationError(
                    "contradicts_log",
                    _(
                        "This hand was logged play by play and its log says %(field)s = "
                        "%(log_value)s, not %(value)s: correct it through its log (undo, "
                        "void), or override the log with a reason."
                    )
                    % {"field": name, "log_value": _text(log_value), "value": _text(value)},
                    extra={"field": name, "log_value": log_value, "value": value},
                )
            if contradiction is not None:
                written.update(override=True, log_result=logged)
        written.update(reason=reason, needs_confirmation=hand_needs_confirmation(hand=locked))
        return NewEvent(HandEventKind.CORRECTION, written)

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.CORRECTION
            and e.payload.get("result") == payload.get("result")
            and bool(e.payload.get("passed_out")) == passed_out
            and e.payload.get("reason") == reason
        ),
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


def _text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "/".join(_text(v) for v in value)
    return str(value)
