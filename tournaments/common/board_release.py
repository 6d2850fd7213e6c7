"""When a duplicate board is *released* (复式牌的公开): one SQL condition, read by the card
secrecy of every read path (``tournaments.hands.card_secrecy``) and by the standings, which
count a board's results only once it is released.

A board is released once it has been played (a hand on it exists, or a round it is assigned
to is closed) and nothing still plays it:

- no hand on it is live in a round that is not closed, and
- every table of every section it is assigned to (``RoundBoard``) has *closed* its hand on it,
  unless that round is closed. "Closed" is finished, passed out (流局) or voided: a table
  that has not yet started the board (no hand on it) counts as not closed; a board assigned to
  a seated or playing round (a reuse in a later round or another section) stays secret until
  that round's tables have played it too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from tournaments.models import Board, Hand, HandStatus, RoundBoard, RoundStatus, Table

LIVE_STATUSES = frozenset({HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING})


def board_released_q(board: Any) -> Q:
    """The release condition of the board ``board`` points at (an ``OuterRef`` to a board id
    in the queryset it filters: ``OuterRef("pk")`` on boards, ``OuterRef("board_id")`` on
    hands), as one SQL condition."""
    played = Exists(Hand.objects.filter(board=board)) | Exists(
        RoundBoard.objects.filter(board=board, round__status=RoundStatus.CLOSED)
    )
    live = Hand.objects.filter(board=board, status__in=LIVE_STATUSES).exclude(
        table__round__status=RoundStatus.CLOSED
    )
    # A table of the assignment's round and section without a hand on the board.
    unplayed_table = Table.objects.filter(
        round_id=OuterRef("round_id"), section=OuterRef("section")
    ).exclude(
        Exists(
            Hand.objects.filter(table_id=OuterRef("pk"), board_id=OuterRef(OuterRef("board_id")))
        )
    )
    pending = (
        RoundBoard.objects.filter(board=board)
        .exclude(round__status=RoundStatus.CLOSED)
        .filter(Exists(unplayed_table))
    )
    return Q(played) & ~Q(Exists(live)) & ~Q(Exists(pending))


def boards_released(*, board_ids: Iterable[int]) -> set[int]:
    """Which of ``board_ids`` are released (one query)."""
    ids = {i for i in board_ids if i is not None}
    if not ids:
        return set()
    return set(
        Board.objects.filter(pk__in=ids)
        .filter(board_released_q(OuterRef("pk")))
        .values_list("pk", flat=True)
    )


def boards_secret(*, tournament_id: int) -> QuerySet[Board, int]:
    """The ids of the tournament's boards that have been played somewhere and are not
    released: their results count nowhere public yet. Lazy: a subquery of the read that
    filters by it, or one query of its own when listed."""
    return (
        Board.objects.filter(tournament_id=tournament_id)
        .filter(Exists(Hand.objects.filter(board=OuterRef("pk"))))
        .exclude(board_released_q(OuterRef("pk")))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
