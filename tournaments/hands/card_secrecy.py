"""Who may see a hand's cards: the one check every read path asks (API, public pages, exports).

Two kinds of cards:

- **unplayed**: the deal (every seat's hand), the kitty (底牌) before it is turned, the
  deal's seed, the legal actions of the seat on turn;
- **played**: the cards already on the table — the plays in the log and its replay, the
  top play, the kitty once the landlord has taken it.

The rule (issue 16, point 2):

- Directors (staff) see everything, always.
- A *live* hand (bidding, doubling, playing): its table's referees (assigned to the table or
  to the whole round) see every card; nobody else sees its unplayed cards.
- A hand dealt from a duplicate **board** (复式, one deal for every table of a section):
  nobody but directors and the live hand's own referees sees any card of that board — on any
  hand played on it, at any table, even a finished one — until the board is *released*.
- Any other hand (a random or written-in deal of its own table) shows its played cards to
  everyone who may read it, and every card once it is closed.

A board is **released** once it has been played (a hand on it exists, or a round it is
assigned to is closed) and nothing still plays it:

- no hand on it is live in a round that is not closed, and
- every table of every section it is assigned to (``RoundBoard``) has *closed* its hand on it,
  unless that round is closed. "Closed" is finished, passed out (流局) or voided: a table
  that has not yet started the board (no hand on it) counts as not closed; a board assigned to
  a seated or playing round (a reuse in a later round or another section) stays secret until
  that round's tables have played it too.

The public pages render what an anonymous visitor may see whoever is signed in (they are
public and cacheable); directors read the cards on the director pages and the API.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _

from tournaments.common.access import referee_assigned
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.models import Board, Hand, HandStatus, RoundBoard, RoundStatus, Table

LIVE_STATUSES = frozenset({HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING})
#: A table has closed its hand on a board when the hand is one of these.
CLOSED_STATUSES = frozenset({HandStatus.FINISHED, HandStatus.PASSED_OUT, HandStatus.VOIDED})

#: Whom the public pages are rendered for.
PUBLIC = AnonymousUser()


@dataclass(frozen=True)
class CardsShown:
    """Which of a hand's cards a reader sees (see the module docstring)."""

    played: bool
    unplayed: bool


ALL = CardsShown(played=True, unplayed=True)
PLAYED_ONLY = CardsShown(played=True, unplayed=False)
NONE = CardsShown(played=False, unplayed=False)


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


def board_cards_visible(*, user: Any, board: Board) -> bool:
    """Whether ``user`` may see ``board``'s cards as such (its traveller's deal, its seed):
    directors always, everybody else once it is released."""
    return user_is_director(user) or board.pk in boards_released(board_ids=[board.pk])


def _shown(
    *, user: Any, hand: Hand, released: bool | None, table_referee: bool | None
) -> CardsShown:
    if hand.status in LIVE_STATUSES:
        if table_referee is None:
            table_referee = bool(
                user.is_authenticated and referee_assigned(user=user, table=hand.table)
            )
        if table_referee:
            return ALL
        if hand.board_id is None:
            return PLAYED_ONLY
        if released is None:
            released = hand.board_id in boards_released(board_ids=[hand.board_id])
        return PLAYED_ONLY if released else NONE
    if hand.board_id is None:
        return ALL
    if released is None:
        released = hand.board_id in boards_released(board_ids=[hand.board_id])
    return ALL if released else NONE


def hand_cards_shown(*, user: Any, hand: Hand, table_referee: bool | None = None) -> CardsShown:
    """Which cards of ``hand`` ``user`` may see. ``table_referee``: whether ``user`` is a
    referee assigned to the hand's table, when the caller knows it already (a writer that
    passed ``access.table_write_check``)."""
    if user_is_director(user):
        return ALL
    return _shown(user=user, hand=hand, released=None, table_referee=table_referee)


def hands_cards_shown(*, user: Any, hands: Iterable[Hand]) -> dict[int, CardsShown]:
    """``hand_cards_shown`` for a list (the boards' release in one query): hand id → shown."""
    hands = list(hands)
    if user_is_director(user):
        return {h.pk: ALL for h in hands}
    released = boards_released(board_ids=[h.board_id for h in hands if h.board_id is not None])
    anonymous = not user.is_authenticated
    return {
        h.pk: _shown(
            user=user,
            hand=h,
            released=h.board_id in released,
            table_referee=False if anonymous else None,
        )
        for h in hands
    }


def board_start_check(*, user: Any, table: Table, board: Board) -> None:
    """Refuse a referee's hand started on a board the rounds assign elsewhere.

    A referee sees the cards of their table's live hand, so starting any board by number
    would let them read one that other tables still play (and void the hand). A board that a
    round assigns (``RoundBoard``) is started by hand only as the hand its section plays it
    as, at the table's next hand; boards no round assigns (duplicate run by hand) and
    directors are not limited."""
    if user_is_director(user):
        return
    assigned = RoundBoard.objects.filter(board=board)
    if not assigned.exists():
        return
    last = Hand.objects.filter(table=table).aggregate(last=Max("number"))["last"] or 0
    if assigned.filter(
        round_id=table.round_id, section=table.section, hand_number=last + 1
    ).exists():
        return
    raise ApplicationError(
        "board_not_assigned",
        _("Board %(number)s is not this table's next board; a director may start it.")
        % {"number": board.number},
    )
