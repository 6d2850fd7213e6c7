"""Confirmation (SPEC R10.8.1): a hand that closed while the tournament required
confirmation counts only once it is confirmed. The tournament's ``confirmed_by`` says by
whom: a second official (another referee of the round, or a director), or the players at
the table, one of each side entering the PIN printed on their entry's table card. A
director may always confirm or dispute.

Wrong PINs are counted on the hand (``Hand.pin_failures``, in the database, so every
process sees them); at ``PIN_TRIES`` the hand is locked against PINs and a director
confirms it."""

import hmac
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.common.transactions import hand_write_atomic
from tournaments.common.validation import reason_check
from tournaments.hands.replay import HandReplay
from tournaments.hands.writing import HandWrite, NewEvent, hand_write
from tournaments.models import Confirmation, ConfirmedBy, Hand, HandEventKind, HandStatus, Seat


def _recorder_id(replay: HandReplay) -> int | None:
    """Who recorded the hand's current result: the closing result, correction or action."""
    return replay.closing.recorded_by_id if replay.closing is not None else None


@hand_write_atomic
def hand_confirm(
    *,
    hand: Hand,
    recorded_by: Any,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Confirm a closed hand awaiting confirmation (or disputed); the hand then counts.
    The person who recorded the result cannot confirm it."""

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if locked.confirmation not in (Confirmation.PENDING, Confirmation.DISPUTED):
            raise ApplicationError(
                "not_awaiting_confirmation", _("This hand is not awaiting confirmation.")
            )
        tournament = locked.table.round.tournament
        if tournament.confirmed_by == ConfirmedBy.PLAYERS and not user_is_director(recorded_by):
            raise ApplicationError(
                "confirmed_by_players",
                _("In this tournament the players confirm a hand with their PINs (or a director)."),
            )
        if replay.irregular is not None:  # hand_corrections.hand_irregular_keep
            raise ApplicationError(
                "hand_irregular",
                _(
                    "This hand's written-in deal does not fit its log: a director keeps it as "
                    "played (with a reason), corrects or voids it."
                ),
            )
        recorder = _recorder_id(replay)
        if recorder is not None and recorder == getattr(recorded_by, "pk", None):
            raise ApplicationError(
                "second_person_required",
                _("A second person confirms a result, not the one who recorded it."),
            )
        return NewEvent(HandEventKind.CONFIRM, {"by": ConfirmedBy.OFFICIAL.value})

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.CONFIRM,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


@hand_write_atomic
def hand_dispute(
    *,
    hand: Hand,
    reason: str,
    recorded_by: Any,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Dispute a closed hand's result: it stops counting until corrected and confirmed."""
    reason_check(reason)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if locked.confirmation != Confirmation.PENDING:
            raise ApplicationError(
                "not_awaiting_confirmation",
                _("Only a hand awaiting confirmation can be disputed."),
            )
        return NewEvent(HandEventKind.DISPUTE, {"reason": reason})

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: (
            e.kind == HandEventKind.DISPUTE and e.payload.get("reason") == reason
        ),
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )


#: Wrong PIN entries a hand accepts before it is locked against PINs.
PIN_TRIES = 5


def hand_confirm_by_pins(
    *,
    hand: Hand,
    pins: dict[int, str],
    recorded_by: Any,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """The players confirm a hand on the referee's phone: ``pins`` maps seat positions to
    the PINs typed, one seat of each side (the landlord and a farmer; for a passed-out
    hand, two players). A wrong PIN is counted and stays counted (its own transaction,
    so call this outside any caller's transaction); nothing else is written."""
    outcome = _hand_confirm_by_pins(
        hand=hand,
        pins=pins,
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        device_id=device_id,
    )
    if isinstance(outcome, ApplicationError):
        raise outcome
    return outcome


@transaction.atomic
def _hand_confirm_by_pins(
    *, hand: Hand, pins: dict[int, str], **write: Any
) -> HandWrite | ApplicationError:
    wrong: list[ApplicationError] = []

    def decide(locked: Hand, replay: HandReplay) -> list[NewEvent]:
        tournament = locked.table.round.tournament
        if tournament.confirmed_by != ConfirmedBy.PLAYERS:
            raise ApplicationError(
                "confirmed_by_official",
                _("In this tournament a second official confirms a hand, not the players."),
            )
        if locked.confirmation != Confirmation.PENDING:
            raise ApplicationError(
                "not_awaiting_confirmation",
                _("Only a hand awaiting confirmation can be confirmed by the players."),
            )
        if locked.pin_failures >= PIN_TRIES:
            raise ApplicationError(
                "pins_locked",
                _("Too many wrong PINs for this hand: a director confirms it."),
            )
        seats = {
            s.position: s.entry
            for s in Seat.objects.filter(table_id=locked.table_id).select_related("entry__player")
        }
        _sides_check(hand=locked, seats=set(pins), known=set(seats))
        if not all(hmac.compare_digest(seats[p].pin.encode(), pins[p].encode()) for p in pins):
            # Counted and kept: no event, and the transaction commits (the caller raises).
            Hand.objects.filter(pk=locked.pk).update(pin_failures=F("pin_failures") + 1)
            left = PIN_TRIES - locked.pin_failures - 1
            wrong.append(
                ApplicationError(
                    "pin_wrong",
                    ngettext(
                        "A PIN is wrong (%(left)d try left for this hand).",
                        "A PIN is wrong (%(left)d tries left for this hand).",
                        left,
                    )
                    % {"left": left},
                    extra={"tries_left": left},
                )
            )
            return []
        payload = {
            "by": ConfirmedBy.PLAYERS.value,
            "seats": sorted(pins),
            # registration numbers, not ids: they survive an archive's export and import
            "registrations": [seats[p].registration_order for p in sorted(pins)],
        }
        return [NewEvent(HandEventKind.CONFIRM, payload)]

    written = hand_write(
        hand=hand,
        idempotency_key=write["idempotency_key"],
        expected_version=write["expected_version"],
        same_request=lambda e: (
            e.kind == HandEventKind.CONFIRM and e.payload.get("by") == ConfirmedBy.PLAYERS
        ),
        decide=decide,
        recorded_by=write["recorded_by"],
        device_id=write["device_id"],
    )
    return wrong[0] if wrong else written


def _sides_check(*, hand: Hand, seats: set[int], known: set[int]) -> None:
    """One PIN of each side: the landlord's and a farmer's, not his six-player partner's, who
    is on his side (R13.8) (a passed-out hand has no sides: two players)."""
    if not seats <= known:
        raise ApplicationError("pins_incomplete", _("A PIN is for a seat not at this table."))
    if hand.status == HandStatus.PASSED_OUT or hand.landlord_seat is None:
        enough = len(seats) >= 2
    else:
        side = {hand.landlord_seat, hand.partner_seat}
        enough = hand.landlord_seat in seats and len(seats - side) >= 1
    if not enough:
        raise ApplicationError(
            "pins_incomplete",
            _("One player of each side enters a PIN: the landlord and a farmer."),
        )


@dataclass
class BulkConfirmation:
    """What confirming a table's hands at once did: hands confirmed, and those refused
    with their code."""

    confirmed: list[Hand] = field(default_factory=list)
    refused: list[tuple[Hand, ApplicationError]] = field(default_factory=list)


def table_hands_confirm(*, hands: list[Hand], recorded_by: Any) -> BulkConfirmation:
    """Confirm every hand of ``hands`` awaiting confirmation, each on its own (in primary
    key order): one refused (``second_person_required``…) leaves the others confirmed."""
    out = BulkConfirmation()
    for hand in sorted(hands, key=lambda h: h.pk):
        if hand.confirmation != Confirmation.PENDING:
            continue
        try:
            out.confirmed.append(hand_confirm(hand=hand, recorded_by=recorded_by).hand)
        except ApplicationError as exc:
            out.refused.append((hand, exc))
    return out
