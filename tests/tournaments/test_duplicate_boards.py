"""Issue 17 point 4, SPEC R10.8.3: in duplicate the board of each hand comes from the
round's movement, and an entry plays each board at most once (``board_already_played``,
at seating and at hand start, nothing written)."""

from typing import Any

import pytest

from tests import factories
from tests.api.helpers import assign, client_for, playing_table, referee_user, start_hand
from tests.tournaments.builders import board as make_board
from tests.tournaments.builders import finish, table_of, tournament_with_entries
from tournaments.common.errors import ApplicationError
from tournaments.hands.write import hand_create
from tournaments.models import Hand, Round, RoundBoard, RoundStatus, Seat, Table
from tournaments.seating.services import round_seat

pytestmark = pytest.mark.django_db


def test_a_hand_start_refuses_a_board_an_entry_has_played() -> None:
    tournament, entries = tournament_with_entries(6, format="duplicate", hands_per_round=2)
    board = make_board(tournament, 1)
    first = table_of(tournament, 1, 1, entries[:3])
    finish(first, landlord=0, bid=2, winner="landlord", board=board)
    # Round 2: entry #1 meets three who have not played board 1; still refused.
    second = table_of(tournament, 2, 1, [entries[0], entries[3], entries[4]])
    with pytest.raises(ApplicationError) as excinfo:
        hand_create(table=second, board=board)
    assert excinfo.value.code == "board_already_played"
    assert excinfo.value.extra == {"played": [{"entry": 1, "board": 1}]}
    assert not Hand.objects.filter(table=second).exists()
    # Three entries that have not played it may.
    Seat.objects.filter(table=second).delete()
    third = table_of(tournament, 2, 2, [entries[3], entries[4], entries[5]])
    assert hand_create(table=third, board=board).hand.board == board


def test_a_voided_hand_counts_as_played() -> None:
    from tournaments.hands.corrections import hand_void

    tournament, entries = tournament_with_entries(3, format="duplicate", hands_per_round=3)
    board = make_board(tournament, 1)
    table = table_of(tournament, 1, 1, entries)
    hand_void(hand=hand_create(table=table, board=board).hand, reason="misdeal")
    with pytest.raises(ApplicationError) as excinfo:
        hand_create(table=table, board=board)
    assert excinfo.value.code == "board_already_played"
    assert Hand.objects.filter(table=table).count() == 1


def test_seating_refuses_a_movement_that_replays_a_board() -> None:
    tournament, entries = tournament_with_entries(3, format="duplicate", hands_per_round=1)
    first = table_of(tournament, 1, 1, entries)
    # A director ran board 2 (round 2's board by the movement) at the table in round 1.
    finish(first, landlord=0, bid=2, winner="landlord", board=make_board(tournament, 2))
    Round.objects.filter(pk=first.round_id).update(status=RoundStatus.CLOSED)
    round_2 = Round.objects.create(tournament=tournament, number=2)
    with pytest.raises(ApplicationError) as excinfo:
        round_seat(round=round_2, seed=1)
    assert excinfo.value.code == "board_already_played"
    round_2.refresh_from_db()
    assert round_2.status == RoundStatus.DRAFT
    assert not Table.objects.filter(round=round_2).exists()
    assert not RoundBoard.objects.filter(round=round_2).exists()


def test_seating_a_fresh_round_deals_it_new_boards() -> None:
    tournament, entries = tournament_with_entries(3, format="duplicate", hands_per_round=2)
    first = table_of(tournament, 1, 1, entries)
    finish(first, landlord=0, bid=2, winner="landlord", board=make_board(tournament, 1))
    Round.objects.filter(pk=first.round_id).update(status=RoundStatus.CLOSED)
    round_2 = Round.objects.create(tournament=tournament, number=2)
    round_seat(round=round_2, seed=1)
    assert sorted(
        RoundBoard.objects.filter(round=round_2).values_list("board__number", flat=True)
    ) == [3, 4]


# --------------------------------------------------------------------------- over the API
def _duplicate_table() -> tuple[Table, Any]:
    table = playing_table(format="duplicate", hands_per_round=2)
    board = make_board(table.round.tournament, 5)
    RoundBoard.objects.create(round=table.round, section=1, hand_number=1, board=board)
    return table, board


def test_deal_board_without_a_number_plays_the_movements_board() -> None:
    table, board = _duplicate_table()
    referee = referee_user("ref-movement")
    assign(referee, table)
    response = start_hand(client_for(referee), table, deal="board")
    assert response.status_code == 201, response.content
    assert Hand.objects.get(table=table).board == board


def test_deal_board_without_a_movement_is_refused_for_every_role() -> None:
    table = playing_table(format="duplicate", hands_per_round=2)
    own = referee_user("ref-own")
    assign(own, table)
    other_table = factories.TableFactory(round=table.round, number=table.number + 1)
    other = referee_user("ref-other")
    assign(other, other_table)
    director = factories.UserFactory(username="boss", is_staff=True)
    expected = {
        None: (401, "not_authenticated"),
        own: (403, "board_not_assigned"),
        director: (403, "board_not_assigned"),
        other: (403, "not_assigned"),
    }
    for user, (status, code) in expected.items():
        response = start_hand(client_for(user), table, deal="board")
        assert (response.status_code, response.json()["code"]) == (status, code), user
    assert not Hand.objects.exists()


def test_the_api_refuses_a_board_already_played() -> None:
    table, board = _duplicate_table()
    finish(table, landlord=0, bid=2, winner="landlord", board=board)
    director = factories.UserFactory(username="boss2", is_staff=True)
    response = start_hand(client_for(director), table, deal="board", board=board.number)
    assert response.status_code in (400, 409), response.content
    assert response.json()["code"] == "board_already_played"
    assert Hand.objects.filter(table=table).count() == 1
