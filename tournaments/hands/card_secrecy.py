"""Who may see what of a hand: the one check every read path asks (API, public pages, exports).

What a hand shows, in three parts:

- **unplayed** cards: the deal (every seat's hand), the kitty (底牌) before it is turned, the
  deal's seed, the legal actions of the seat on turn;
- **played** cards: the cards already on the table — the plays in the log and its replay, the
  top play, the kitty once the landlord has taken it;
- the **outcome**: everything else the deal decides — the auction and the doublings, the
  landlord, the wild rank (癞子), the turn, the cards left, the bombs, the stakes, the winner,
  the scores, the log's length (the hand's version) and its events.

The rule (issue 16, point 2; issue 28, point 2):

- Directors (staff) see everything, always.
- A *live* hand (bidding, doubling, playing): its table's referees (assigned to the table or
  to the whole round) see every card; nobody else sees its unplayed cards. Six players
  (``six_p``): nobody but directors, the table's referees included, sees a live hand's
  unplayed cards, which name the landlord's secret partner (R13.11).
- A hand dealt from a duplicate **board** (复式, one deal for every table of a section) that
  is not *released* (``tournaments.common.board_release``) shows nobody but directors and
  its own table's referees anything of the board (``NONE``): only which table plays which
  board and whether its hand is in play or closed. Duplicate practice hides the whole board:
  another table's auction, landlord or score tells the tables still to play it where the
  strong hand sits. Its own table's referees see their live hand's every card (the phone
  needs them) and, once it is closed, what the table saw (``PLAYED_ONLY``); the other seats'
  unplayed cards only once the board is released.
- Any other hand (a random or written-in deal of its own table) shows its played cards and
  its outcome to everyone who may read it, and every card once it is closed.

The public pages render what an anonymous visitor may see whoever is signed in (they are
public and cacheable); directors read the cards on the director pages and the API.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.common.access import referee_assigned
from tournaments.common.board_release import LIVE_STATUSES, board_released_q, boards_released
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.common.seats import SIX_PLAYER_PROFILES
from tournaments.models import Board, Hand, HandStatus, RoundBoard, Table

__all__ = [
    "ALL",
    "CLOSED_STATUSES",
    "LIVE_STATUSES",
    "NONE",
    "PLAYED_ONLY",
    "PUBLIC",
    "CardsShown",
    "board_cards_visible",
    "board_released_q",
    "board_start_check",
    "boards_released",
    "hand_cards_shown",
    "hands_cards_shown",
    "status_shown",
]

#: A table has closed its hand on a board when the hand is one of these.
CLOSED_STATUSES = frozenset({HandStatus.FINISHED, HandStatus.PASSED_OUT, HandStatus.VOIDED})

#: Whom the public pages are rendered for.
PUBLIC = AnonymousUser()


@dataclass(frozen=True)
class CardsShown:
    """What of a hand a reader sees (see the module docstring)."""

    played: bool
    unplayed: bool
    #: the auction, the result and whatever else the deal decides; False: a secret board's
    outcome: bool = True


ALL = CardsShown(played=True, unplayed=True)
PLAYED_ONLY = CardsShown(played=True, unplayed=False)
#: No card, played or not, but the auction and the result (what a bool False asks for).
NO_CARDS = CardsShown(played=False, unplayed=False)
#: A secret board's hand: nothing of the board (which table plays it, in play or closed).
NONE = CardsShown(played=False, unplayed=False, outcome=False)

#: What a reader who sees nothing of a hand's board reads of its status: whether it is in
#: play or closed, not whether it was passed out (all four seats too weak to bid), finished
#: or voided.
SECRET_IN_PLAY = "in_play"
SECRET_CLOSED = "closed"


def status_shown(status: str, shown: CardsShown) -> str:
    """A hand's status as ``shown`` lets a reader see it."""
    if shown.outcome:
        return status
    return SECRET_IN_PLAY if status in LIVE_STATUSES else SECRET_CLOSED


def board_cards_visible(*, user: Any, board: Board) -> bool:
    """Whether ``user`` may see ``board``'s cards as such (its traveller's deal, its seed):
    directors always, everybody else once it is released."""
    return user_is_director(user) or board.pk in boards_released(board_ids=[board.pk])


def _shown(
    *, user: Any, hand: Hand, released: bool | None, table_referee: bool | None
) -> CardsShown:
    def own_table() -> bool:
        if table_referee is not None:
            return table_referee
        return bool(user.is_authenticated and referee_assigned(user=user, table=hand.table))

    live = hand.status in LIVE_STATUSES
    if live and own_table():
        # Six players: the deal names the secret partner (the third copy's holder), so not
        # even the table's referee reads it, nor the legal plays of a seat, before the end
        # (R13.11); he enters what the table plays, as with physical cards.
        return PLAYED_ONLY if hand.rule_profile in SIX_PLAYER_PROFILES else ALL
    if hand.board_id is not None:
        if released is None:
            released = hand.board_id in boards_released(board_ids=[hand.board_id])
        if not released:  # a secret board: what the table saw for its referees, else nothing
            return PLAYED_ONLY if not live and own_table() else NONE
    return PLAYED_ONLY if live else ALL


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
