"""The card-secrecy rule (tournaments/hands/card_secrecy.py): when a duplicate board is released."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from tests import factories
from tests.api.helpers import assign, referee_user
from tournaments.hands.card_secrecy import (
    ALL,
    NONE,
    PLAYED_ONLY,
    board_cards_visible,
    boards_released,
    hand_cards_shown,
    hands_cards_shown,
)
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import hand_create, hand_record_passed_out, hand_record_result
from tournaments.models import Board, Hand, Round, RoundBoard, RoundStatus, Table, Tournament

pytestmark = pytest.mark.django_db

ANONYMOUS = AnonymousUser()


def _round(tournament: Tournament, number: int, status: str = RoundStatus.PLAYING) -> Round:
    return factories.RoundFactory(tournament=tournament, number=number, status=status)


def _table(round_: Round, number: int, section: int = 1) -> Table:
    table = factories.TableFactory(round=round_, number=number, section=section)
    for position in range(3):
        factories.SeatFactory(table=table, position=position)
    return table


def _finish(table: Table, board: Board | None = None) -> Hand:
    hand = hand_create(table=table, board=board).hand
    return hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord").hand


def _released(board: Board) -> bool:
    return board.pk in boards_released(board_ids=[board.pk])


@pytest.fixture
def duplicate() -> dict[str, Any]:
    tournament = factories.TournamentFactory(is_public=True)
    round_ = _round(tournament, 1)
    board = factories.BoardFactory(tournament=tournament, number=1)
    RoundBoard.objects.create(round=round_, section=1, hand_number=1, board=board)
    tables = [_table(round_, n) for n in (1, 2)]
    return {"tournament": tournament, "round": round_, "board": board, "tables": tables}


def test_a_table_that_has_not_started_the_board_keeps_it_secret(duplicate: Any) -> None:
    board, (t1, t2) = duplicate["board"], duplicate["tables"]
    hand = _finish(t1)
    assert hand.board_id == board.pk
    assert not _released(board)
    assert hand_cards_shown(user=ANONYMOUS, hand=hand) == NONE
    _finish(t2)
    assert _released(board)
    assert hand_cards_shown(user=ANONYMOUS, hand=hand) == ALL


def test_passed_out_and_voided_hands_close_the_board(duplicate: Any) -> None:
    board, (t1, t2) = duplicate["board"], duplicate["tables"]
    hand_record_passed_out(hand=hand_create(table=t1).hand)
    live = hand_create(table=t2).hand
    assert not _released(board)
    hand_void(hand=live, reason="wrong cards dealt")
    assert _released(board)


def test_a_live_hand_on_the_board_keeps_it_secret_but_its_referee_sees_it(
    duplicate: Any,
) -> None:
    board, (t1, t2) = duplicate["board"], duplicate["tables"]
    finished = _finish(t1)
    live = hand_create(table=t2).hand
    referee = referee_user("ref-t2")
    assign(referee, t2)
    other = referee_user("ref-t1")
    assign(other, t1)
    director = factories.UserFactory(username="boss", is_staff=True)
    assert hand_cards_shown(user=referee, hand=live) == ALL
    assert hand_cards_shown(user=referee, hand=finished) == NONE
    assert hand_cards_shown(user=other, hand=live) == NONE
    # their own table's closed hand: what the table saw, not the other seats' cards (issue 28)
    assert hand_cards_shown(user=other, hand=finished) == PLAYED_ONLY
    assert hand_cards_shown(user=ANONYMOUS, hand=live) == NONE
    assert hand_cards_shown(user=director, hand=finished) == ALL
    assert hand_cards_shown(user=director, hand=live) == ALL
    assert not board_cards_visible(user=referee, board=board)
    assert board_cards_visible(user=director, board=board)


def test_closing_the_round_releases_the_board(duplicate: Any) -> None:
    board, round_, (t1, _t2) = duplicate["board"], duplicate["round"], duplicate["tables"]
    _finish(t1)
    assert not _released(board)
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.CLOSED)
    assert _released(board)


def test_a_board_reused_by_a_later_round_stays_secret_until_that_round_plays_it(
    duplicate: Any,
) -> None:
    tournament, board, tables = duplicate["tournament"], duplicate["board"], duplicate["tables"]
    for table in tables:
        _finish(table)
    assert _released(board)
    later = _round(tournament, 2, status=RoundStatus.SEATED)
    RoundBoard.objects.create(round=later, section=1, hand_number=1, board=board)
    later_table = _table(later, 1)
    assert not _released(board)
    Round.objects.filter(pk=later.pk).update(status=RoundStatus.PLAYING)
    later_table.round.refresh_from_db()
    _finish(later_table)
    assert _released(board)


def test_another_section_assigned_the_board_keeps_it_secret(duplicate: Any) -> None:
    board, round_, tables = duplicate["board"], duplicate["round"], duplicate["tables"]
    for table in tables:
        _finish(table)
    RoundBoard.objects.create(round=round_, section=2, hand_number=1, board=board)
    section_2 = _table(round_, 3, section=2)
    assert not _released(board)
    _finish(section_2)
    assert _released(board)


def test_a_board_started_by_hand_at_any_table_keeps_it_secret(duplicate: Any) -> None:
    """A hand started on the board explicitly (deal "board"), outside the round's boards."""
    tournament, board, tables = duplicate["tournament"], duplicate["board"], duplicate["tables"]
    for table in tables:
        _finish(table)
    other_round = _round(tournament, 2)
    hand_create(table=_table(other_round, 1), board=board)
    assert not _released(board)


def test_a_board_nobody_has_played_is_secret() -> None:
    board = factories.BoardFactory()
    assert not _released(board)
    assert not board_cards_visible(user=ANONYMOUS, board=board)


def test_a_tables_own_deal_shows_its_played_cards(duplicate: Any) -> None:
    (t1, _t2) = duplicate["tables"]
    live = hand_create(table=t1, seed=12).hand
    assert live.board_id is None
    assert hand_cards_shown(user=ANONYMOUS, hand=live) == PLAYED_ONLY
    closed = hand_record_result(hand=live, landlord=0, bid=1, winner="landlord").hand
    assert hand_cards_shown(user=ANONYMOUS, hand=closed) == ALL


def test_the_list_variant_agrees_and_asks_one_query(
    duplicate: Any, django_assert_num_queries: Any
) -> None:
    t1, t2 = duplicate["tables"]
    hands = [_finish(t1), hand_create(table=t2).hand, hand_create(table=t1, seed=3).hand]
    for hand in hands:
        hand.refresh_from_db()
    with django_assert_num_queries(1):
        shown = hands_cards_shown(user=ANONYMOUS, hands=hands)
    assert shown == {h.pk: hand_cards_shown(user=ANONYMOUS, hand=h) for h in hands}
    assert [shown[h.pk] for h in hands] == [NONE, NONE, PLAYED_ONLY]
