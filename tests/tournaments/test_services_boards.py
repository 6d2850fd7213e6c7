import pytest

from referee.rules.cards import deal_from_seed, format_cards, parse_cards
from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.boards import board_create

pytestmark = pytest.mark.django_db


def test_board_is_the_rules_library_deal_of_its_seed() -> None:
    board = board_create(tournament=factories.TournamentFactory(), number=1, seed=12345)
    deal = deal_from_seed(12345)
    assert board.seat_cards == [format_cards(h) for h in deal.hands]
    assert board.kitty == format_cards(deal.kitty)
    assert board.first_bidder == deal.first_bidder
    cards = [card for text in board.seat_cards for card in parse_cards(text)]
    assert len(cards) == 51 and len(parse_cards(board.kitty)) == 3
    assert all(card.suit or card.is_joker for card in cards)


def test_board_number_is_unique() -> None:
    tournament = factories.TournamentFactory()
    board_create(tournament=tournament, number=1, seed=1)
    with pytest.raises(ApplicationError):
        board_create(tournament=tournament, number=1, seed=2)
