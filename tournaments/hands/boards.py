"""Boards: duplicate deals generated from a recorded seed."""

from django.db import transaction
from django.utils.translation import gettext as _

from referee.rules.games import WILD, deal_json_from_seed
from referee.rules.laizi import parse_wild
from referee.rules.profiles import get_profile
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
    deal = deal_json_from_seed(get_profile(tournament.rule_profile), seed)
    board = Board(
        tournament=tournament,
        number=number,
        seed=seed,
        seat_cards=deal["hands"],
        kitty=deal["kitty"],
        first_bidder=deal["first_bidder"],
        wild_rank=parse_wild(deal[WILD]) if WILD in deal else None,
    )
    model_validate(board)
    board.save()
    return board


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
