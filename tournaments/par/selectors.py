"""The reads of par analysis: what a reader may see of a board's par and of a hand's
"where it was lost". A board's par is as secret as its cards: nobody but directors sees any
of it until the board is released (``card_secrecy.board_cards_visible``), whatever is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.hands.card_secrecy import board_cards_visible, boards_released
from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    Hand,
    HandPar,
    HandStatus,
)
from tournaments.par.analysis import PAR_PROFILES

#: What a reader is told of a board's par.
NOT_ANALYSED = "not_analysed"  # a profile the solver does not take
HIDDEN = "hidden"  # not released (or not for this reader)
PENDING = "pending"  # released, no answer yet (queued, running, cancelled, not queued)
DONE = "done"


@dataclass
class ParShown:
    """A board's par as a reader may see it: ``state`` one of the four above; the rest only
    when ``DONE``."""

    state: str
    #: per seat: True wins as landlord, False loses, None unsolved
    table: list[bool | None] = field(default_factory=list)
    outcome: str = ""
    landlord: int | None = None
    bid: int | None = None
    scores: list[int] | None = None
    status: str = ""

    @property
    def done(self) -> bool:
        return self.state == DONE

    def against(self, hand: Hand) -> list[int | None] | None:
        """A closed hand's score against par, seat by seat (its score minus par's); None
        while either is unknown."""
        if not self.done or self.scores is None or hand.scores is None:
            return None
        return [int(s) - int(p) for s, p in zip(hand.scores, self.scores, strict=False)]

    def landlord_par(self, hand: Hand) -> bool | None:
        """The par table's value for the hand's landlord's seat (None: unsolved/none)."""
        if not self.done or hand.landlord_seat is None or hand.landlord_seat >= len(self.table):
            return None
        return self.table[hand.landlord_seat]


def _shown(row: BoardPar | None) -> ParShown:
    if row is None or row.status != AnalysisStatus.DONE:
        return ParShown(PENDING, status="" if row is None else row.status)
    return ParShown(
        DONE,
        table=list(row.table or []),
        outcome=row.outcome,
        landlord=row.landlord,
        bid=row.bid,
        scores=row.scores,
        status=row.status,
    )


def board_par_shown(*, user: Any, board: Board) -> ParShown:
    """``board``'s par as ``user`` may see it."""
    if board.tournament.rule_profile not in PAR_PROFILES:
        return ParShown(NOT_ANALYSED)
    if not board_cards_visible(user=user, board=board):
        return ParShown(HIDDEN)
    return _shown(BoardPar.objects.filter(board=board).first())


@dataclass
class HandParShown:
    """Where a hand left par, as a reader may see it (``HandPar``'s fields), with the
    board's par."""

    board: ParShown
    analysis: HandPar | None = None


def hand_par_shown(*, user: Any, hand: Hand) -> HandParShown | None:
    """A hand's par: None for a hand not on a board; the board's ``ParShown`` and, once the
    board is done and the hand finished, its analysis at its current version."""
    board = hand.board
    if board is None:
        return None
    shown = board_par_shown(user=user, board=board)
    if not shown.done or hand.status != HandStatus.FINISHED:
        return HandParShown(shown)
    analysis = HandPar.objects.filter(hand=hand, hand_version=hand.version).first()
    return HandParShown(shown, analysis)


def boards_par_rows(*, board_ids: list[int], user_is_director: bool) -> dict[int, BoardPar]:
    """The stored rows of ``board_ids`` a reader may see (directors: all; others: released
    boards only): board id → row. For the exports and lists."""
    rows = BoardPar.objects.filter(board_id__in=board_ids)
    if not user_is_director:
        rows = rows.filter(board_id__in=boards_released(board_ids=board_ids))
    return {row.board_id: row for row in rows}


def hand_par_json(*, hand: Hand) -> dict[str, Any] | None:
    """The API's ``par`` of a hand (``referee.api.serializers.HandStateOutput.par``): None
    for a hand not on a board, a board not released (whoever reads: even a table's own
    referee, who sees the cards of a live hand, is not told its par), or not analysed."""
    if hand.board_id is None or hand.board_id not in boards_released(board_ids=[hand.board_id]):
        return None
    row = BoardPar.objects.filter(board_id=hand.board_id, status=AnalysisStatus.DONE).first()
    if row is None:
        return None
    lost = None
    if hand.status == HandStatus.FINISHED:
        found = HandPar.objects.filter(hand=hand, hand_version=hand.version).first()
        if found is not None:
            lost = {
                "outcome": found.outcome,
                "start_action": found.start_action,
                "start_landlord_wins": found.start_landlord_wins,
                "turn_action": found.turn_action,
                "turn_seat": found.turn_seat,
                "kept_play": found.kept_play,
                "open_action": found.open_action,
            }
    return {
        "table": row.table,
        "outcome": row.outcome,
        "landlord": row.landlord,
        "bid": row.bid,
        "scores": row.scores,
        "lost": lost,
    }
