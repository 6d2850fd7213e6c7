"""Migration 0020 (issue 20, a seat count from the profile) loses no hand: every hand's and
board's three-seat columns (``score_0..2``, ``doubled_0..2``, ``hand_0..2``) become the
per-seat arrays and back. Played hands are taken back to the schema of 0019, where their
columns must hold what the arrays held, and forward again to the latest schema, where every
row must be as it was and every hand must still replay to its stored result."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.public_data import hand_played, tournament_with_tables
from tournaments.hands.audit import hands_audit
from tournaments.hands.boards import board_create
from tournaments.models import Board, Hand

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0019_hand_state")]
RESULT = (
    "seats", "doubled", "scores", "status", "landlord_seat", "bid", "winner", "redoubled",
    "bombs", "rockets", "spring", "anti_spring", "version",
)  # fmt: skip


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate the test database to ``targets``; the apps (historical models) there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def test_migration_0020_keeps_every_hand_through_the_three_seat_columns_and_back() -> None:
    tournament, tables = tournament_with_tables(tables=2)
    played = [hand_played(tables[0], seed=seed) for seed in (11, 12, 13)]
    live = hand_played(tables[1], seed=14, upto=9)  # no result yet: no scores
    board = board_create(tournament=tournament, number=1, seed=918_273_645_501)
    hands = {h.pk: tuple(getattr(h, f) for f in RESULT) for h in Hand.objects.all()}
    assert len(hands) == 4 and hands[live.pk][2] is None
    assert all(hands[h.pk][2] is not None for h in played)
    assert any(any(hands[h.pk][1]) for h in played) or all(h.bid for h in played)
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()

    try:
        old = _migrate(BEFORE)
        columns = {
            row.pk: (
                [row.doubled_0, row.doubled_1, row.doubled_2],
                [row.score_0, row.score_1, row.score_2],
            )
            for row in old.get_model("tournaments", "Hand").objects.all()
        }
        old_board = old.get_model("tournaments", "Board").objects.get(pk=board.pk)
        seat_cards = [old_board.hand_0, old_board.hand_1, old_board.hand_2]
    finally:
        _migrate(latest)

    assert columns == {
        pk: (list(result[1]), list(result[2] or [None, None, None])) for pk, result in hands.items()
    }
    assert seat_cards == board.seat_cards
    assert {h.pk: tuple(getattr(h, f) for f in RESULT) for h in Hand.objects.all()} == hands
    assert Board.objects.get(pk=board.pk).seat_cards == board.seat_cards
    assert list(hands_audit(tournament_slugs=[tournament.slug])) == []
