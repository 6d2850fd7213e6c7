"""Boards: duplicate deals generated from a recorded seed."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rules.cards import rank_text
from referee.rules.games import WILD, deal_json_from_seed
from referee.rules.laizi import parse_wild
from referee.rules.profiles import get_profile
from referee.rules.six_hand import SixDeal
from tournaments.common.errors import ApplicationError
from tournaments.common.limits import BOARD_NUMBER_MAX
from tournaments.common.model_validation import model_validate
from tournaments.common.validation import at_most_check, int_check
from tournaments.models import Board, Tournament
from tournaments.tournament import selectors


@transaction.atomic
def board_create(*, tournament: Tournament, number: int, seed: int) -> Board:
    """Deal board ``number`` from ``seed`` with the rules library."""
    at_most_check("number", number, maximum=BOARD_NUMBER_MAX)
    int_check("seed", seed)  # a bigint column; random accepts other types, the table not
    profile = get_profile(tournament.rule_profile)
    deal = deal_json_from_seed(profile, seed)
    if profile.game == "six_p":  # the face-up card's holder is the landlord (R13.3)
        first_bidder = SixDeal.from_json(deal, no_kitty=profile.kitty_size == 0).landlord
    else:
        first_bidder = deal["first_bidder"]
    board = Board(
        tournament=tournament,
        number=number,
        seed=seed,
        seat_cards=deal["hands"],
        kitty=deal["kitty"],
        first_bidder=first_bidder,
        wild_rank=parse_wild(deal[WILD]) if WILD in deal else None,
        face_up=deal.get("face_up", ""),
    )
    model_validate(board)
    board.save()
    return board


def board_deal_json(board: Board) -> dict[str, Any]:
    """A board's deal as the rules library reads it (``referee.rules.games``): the seats'
    cards, the kitty, the first bidder, and the wild rank (``laizi``) or the face-up card
    (``six_p``) when it has one."""
    data: dict[str, Any] = {
        "hands": board.seat_cards,
        "kitty": board.kitty,
        "first_bidder": board.first_bidder,
    }
    if board.wild_rank is not None:
        data[WILD] = rank_text(board.wild_rank)
    if board.face_up:
        data["face_up"] = board.face_up
    return data


def boards_not_replayed_check(*, entry_ids: list[int], board_ids: list[int]) -> None:
    """An entry plays each board at most once, as in bridge (SPEC R10.8.3): refuse a
    seating or a hand start that would give one of ``entry_ids`` a board of ``board_ids``
    it has already played (``board_already_played``)."""
    played = selectors.boards_played_by(entry_ids=entry_ids, board_ids=board_ids)
    if played:
        listed = ", ".join(
            _("#%(entry)s board %(board)s") % {"entry": entry, "board": board}
            for entry, board in played
        )
        raise ApplicationError(
            "board_already_played",
            _("An entry plays each board at most once; already played: %(played)s.")
            % {"played": listed},
            extra={"played": [{"entry": entry, "board": board} for entry, board in played]},
        )
