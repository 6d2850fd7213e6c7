"""Per-seat result rows and the tournament log version: what standings are built from.

Every service that changes whether or how a hand counts (finishing, correcting,
voiding, confirming, disputing it, or correcting who sat where) calls
``hand_results_sync`` in its transaction; penalty services call
``tournament_scores_changed``.  Both queue the standings recompute for after the
commit, so nothing is computed from a write that is rolled back.
"""

import logging
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.models import (
    Hand,
    HandSeatResult,
    HandStatus,
    Seat,
    Tournament,
    TournamentStatus,
    Winner,
)

logger = logging.getLogger(__name__)


def results_final_error() -> ApplicationError:
    """The refusal of a result change once the final standings are published."""
    return ApplicationError(
        "results_final",
        _(
            "The final standings are published: the results are locked. A director can "
            "reopen them, with a reason."
        ),
    )


def tournament_scores_changed(*, tournament_id: int) -> None:
    """Bump the tournament's log version in the caller's transaction and queue the
    standings recompute on commit (coalesced per tournament).

    Every change of a result passes here, so this is where "final means final" is kept:
    the tournament row is locked (ordering this against ``tournament_finish``) and a
    change of a finished tournament's results is refused with ``results_final`` (the
    caller's transaction rolls back).  The database marks the row when something the
    standings count changed (``inputs_changed``, migration 0024) and lets the version
    move only then, by one: the bump is that, and a change that left the counted rows as
    they were (a correction to the same result) moves nothing.
    """
    # Imported here: the standings service imports the models this module's callers use.
    from tournaments.standings.snapshots import standings_request

    # FOR NO KEY UPDATE, as the UPDATE below takes it: tournament_finish takes the same.
    row = (
        Tournament.objects.select_for_update(no_key=True)
        .filter(pk=tournament_id)
        .values_list("status", "inputs_changed")
        .first()
    )
    if row is None or row[0] == TournamentStatus.FINISHED:
        raise results_final_error()
    if row[1]:
        Tournament.objects.filter(pk=tournament_id).update(
            log_version=F("log_version") + 1, inputs_changed=False
        )
    transaction.on_commit(lambda: standings_request(tournament_id=tournament_id))
    # a change of results is what releases a board: its par is analysed then (issue 33)
    transaction.on_commit(lambda: _par_request(tournament_id))


def _par_request(tournament_id: int) -> None:
    from tournaments.par.services import par_request  # the par services read the hands

    try:
        par_request(tournament_id=tournament_id)
    except Exception:  # the analysis is never worth a write's failure: beat's sweep retries
        logger.exception("par analysis of tournament %s not queued", tournament_id)


def hand_results_sync(*, hand: Hand) -> None:
    """Rewrite ``hand``'s per-seat rows from its summary and seats, then bump the log version.

    A hand that counts (finished or passed out, and confirmed where the tournament
    asks for it) has one row per seat; any other hand has none.
    """
    table = hand.table
    tournament_id = table.round.tournament_id
    wanted: list[HandSeatResult] = []
    if hand.counts:
        seats = Seat.objects.filter(table_id=hand.table_id)
        wanted = hand_result_rows(
            hand=hand, seats=seats, tournament_id=tournament_id, round_id=table.round_id
        )
    # The database refuses to delete a row that still says what the hand says (migration
    # 0011): only rows that changed go, and only missing rows are added.
    kept = {_row_key(row) for row in wanted}
    existing = list(HandSeatResult.objects.filter(hand=hand))
    stale = [row.pk for row in existing if _row_key(row) not in kept]
    if stale:
        HandSeatResult.objects.filter(pk__in=stale).delete()
    present = {_row_key(row) for row in existing if row.pk not in stale}
    HandSeatResult.objects.bulk_create([row for row in wanted if _row_key(row) not in present])
    tournament_scores_changed(tournament_id=tournament_id)


def _row_key(row: HandSeatResult) -> tuple[object, ...]:
    return (
        row.tournament_id, row.round_id, row.table_id, row.board_id, row.hand_number,
        row.position, row.entry_id, row.is_landlord, row.won, row.score, row.passed_out,
    )  # fmt: skip


def hand_result_rows(
    *, hand: Hand, seats: Iterable[Seat], tournament_id: int, round_id: int
) -> list[HandSeatResult]:
    """The per-seat rows of a counted ``hand`` (unsaved); also used by the archive import."""
    passed_out = hand.status == HandStatus.PASSED_OUT
    return [
        HandSeatResult(
            hand=hand,
            tournament_id=tournament_id,
            round_id=round_id,
            table_id=hand.table_id,
            board_id=hand.board_id,
            hand_number=hand.number,
            position=seat.position,
            entry_id=seat.entry_id,
            is_landlord=seat.position == hand.landlord_seat,
            won=_seat_won(hand, seat.position),
            score=0 if passed_out else (hand.score_of(seat.position) or 0),
            passed_out=passed_out,
        )
        for seat in sorted(seats, key=lambda s: s.position)
    ]


def _seat_won(hand: Hand, position: int) -> bool:
    """Whether the seat's side won: the landlord's side is the landlord and, in six players,
    his partner (R13.8; public once the hand is over)."""
    if not hand.winner or hand.landlord_seat is None:
        return False
    landlord_side = position in (hand.landlord_seat, hand.partner_seat)
    return landlord_side == (hand.winner == Winner.LANDLORD)
