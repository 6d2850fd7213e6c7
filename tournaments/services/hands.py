"""Hands and their append-only event log.

Scores come from one place only: ``referee.rules.scoring.score_result``.
"""

from typing import Any

from django.db import transaction
from django.db.models import Max

from referee.rules.cards import Deal
from referee.rules.errors import RulesError
from referee.rules.profiles import get_profile
from referee.rules.scoring import DealResult, score_result
from tournaments.errors import ApplicationError
from tournaments.models import (
    Board,
    Confirmation,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
    Table,
    Tournament,
)
from tournaments.services.common import model_validate
from tournaments.services.hand_results import hand_results_sync

CLOSED_STATUSES = frozenset({HandStatus.FINISHED, HandStatus.PASSED_OUT, HandStatus.VOIDED})


def hand_board_check(*, table: Table, board: Board) -> None:
    """Refuse a board of another tournament than the table's (also used by the admin)."""
    if board.tournament_id != table.round.tournament_id:
        raise ApplicationError(
            "board_not_in_tournament", "The board belongs to another tournament."
        )


@transaction.atomic
def hand_create(
    *,
    table: Table,
    number: int | None = None,
    board: Board | None = None,
    deal: dict[str, Any] | None = None,
) -> Hand:
    """Start hand ``number`` (default: the next one) at ``table``.

    The tournament row is locked so the hand is created with the tournament's
    current rule profile and a concurrent profile change waits (or is refused).
    """
    tournament = Tournament.objects.select_for_update().get(pk=table.round.tournament_id)
    if board is not None and deal is not None:
        raise ApplicationError("board_and_deal", "Give a board or an ad-hoc deal, not both.")
    if board is not None:
        hand_board_check(table=table, board=board)
    if deal is not None:
        try:
            deal = Deal.from_json(deal).to_json()
        except RulesError as exc:
            raise ApplicationError(exc.code, exc.message) from exc
    if number is None:
        last = Hand.objects.filter(table=table).aggregate(last=Max("number"))["last"]
        number = (last or 0) + 1
    hand = Hand(
        table=table,
        number=number,
        board=board,
        deal=deal,
        rule_profile=tournament.rule_profile,
    )
    model_validate(hand)
    hand.save()
    return hand


def _result_payload(result: DealResult) -> dict[str, Any]:
    return {
        "landlord": result.landlord,
        "bid": result.bid,
        "doubled": list(result.doubled),
        "redoubled": result.redoubled,
        "bombs": result.bombs,
        "rockets": result.rockets,
        "spring": result.spring,
        "anti_spring": result.anti_spring,
        "winner": result.winner,
    }


def _hand_event_append(
    *,
    hand: Hand,
    kind: str,
    payload: dict[str, Any],
    recorded_by: Any,
    actor_seat: int | None = None,
    idempotency_key: str | None = None,
) -> HandEvent:
    """Append an event to a hand whose row the caller has locked; bumps ``version``."""
    last = hand.events.aggregate(last=Max("seq"))["last"]
    event = HandEvent.objects.create(
        hand=hand,
        seq=(last or 0) + 1,
        kind=kind,
        payload=payload,
        actor_seat=actor_seat,
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
    )
    hand.version += 1
    hand.save(update_fields=["version"])
    return event


@transaction.atomic
def hand_record_result(
    *,
    hand: Hand,
    landlord: int,
    bid: int,
    winner: str,
    doubled: tuple[bool, bool, bool] = (False, False, False),
    redoubled: bool = False,
    bombs: int = 0,
    rockets: int = 0,
    spring: bool = False,
    anti_spring: bool = False,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
) -> Hand:
    """Record a hand's result summary (result-only scoring) and finish the hand.

    Scores come from ``score_result`` under the hand's rule profile.  The hand
    row is locked for the whole operation.  Repeating a call with the same
    ``idempotency_key`` and the same result returns the hand unchanged; the
    same key with a different result is refused.
    """
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    result = DealResult(
        landlord=landlord,
        bid=bid,
        doubled=doubled,
        redoubled=redoubled,
        bombs=bombs,
        rockets=rockets,
        spring=spring,
        anti_spring=anti_spring,
        winner=winner,  # type: ignore[arg-type]  # checked by score_result
    )
    payload = _result_payload(result)

    if idempotency_key is not None:
        previous = locked.events.filter(idempotency_key=idempotency_key).first()
        if previous is not None:
            if previous.kind != HandEventKind.RESULT or previous.payload.get("result") != payload:
                raise ApplicationError(
                    "idempotency_conflict",
                    "This idempotency key was already used for a different request.",
                )
            return locked

    if locked.status in CLOSED_STATUSES:
        raise ApplicationError("hand_closed", f"The hand is already {locked.status}.")
    if expected_version is not None and expected_version != locked.version:
        raise ApplicationError(
            "version_conflict",
            f"The hand is at version {locked.version}, not {expected_version}.",
            extra={"version": locked.version},
        )

    try:
        profile = get_profile(locked.rule_profile)
        scores = score_result(result, profile)
    except RulesError as exc:
        raise ApplicationError(exc.code, exc.message) from exc

    locked.landlord_seat = landlord
    locked.bid = bid
    locked.winner = winner
    locked.doubled_0, locked.doubled_1, locked.doubled_2 = result.doubled
    locked.redoubled = redoubled
    locked.bombs = bombs
    locked.rockets = rockets
    locked.spring = spring
    locked.anti_spring = anti_spring
    locked.score_0, locked.score_1, locked.score_2 = scores
    locked.rule_profile_hash = profile.content_hash
    locked.status = HandStatus.FINISHED
    locked.confirmation = (
        Confirmation.PENDING
        if locked.table.round.tournament.requires_confirmation
        else Confirmation.NOT_REQUIRED
    )
    locked.save()
    _hand_event_append(
        hand=locked,
        kind=HandEventKind.RESULT,
        payload={
            "result": payload,
            "scores": list(scores),
            "rule_profile": profile.key,
            "rule_profile_hash": profile.content_hash,
        },
        recorded_by=recorded_by,
        idempotency_key=idempotency_key,
    )
    hand_results_sync(hand=locked)
    return locked


@transaction.atomic
def hand_record_passed_out(*, hand: Hand, recorded_by: Any = None) -> Hand:
    """Close a hand that everybody passed (流局, R2.4): it scores 0 for every seat.

    Stop-gap until the action service records pass-outs from the bidding log (issue 8:
    the generator and the standings tests need passed-out hands).
    """
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    if locked.status in CLOSED_STATUSES:
        raise ApplicationError("hand_closed", f"The hand is already {locked.status}.")
    locked.status = HandStatus.PASSED_OUT
    locked.score_0 = locked.score_1 = locked.score_2 = 0
    locked.confirmation = (
        Confirmation.PENDING
        if locked.table.round.tournament.requires_confirmation
        else Confirmation.NOT_REQUIRED
    )
    locked.save()
    _hand_event_append(
        hand=locked, kind=HandEventKind.PASS_OUT, payload={}, recorded_by=recorded_by
    )
    hand_results_sync(hand=locked)
    return locked
