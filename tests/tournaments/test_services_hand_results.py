"""Per-seat result rows and the tournament log version follow every recorded result."""

import pytest

from tests import factories
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import HandSeatResult, Table, Tournament

pytestmark = pytest.mark.django_db


def rows(hand_id: int) -> list[tuple[int, int, bool, bool, int]]:
    return list(
        HandSeatResult.objects.filter(hand_id=hand_id)
        .order_by("position")
        .values_list("position", "entry_id", "is_landlord", "won", "score")
    )


def test_a_finished_hand_has_one_row_per_seat_with_the_hand_scores(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    assert rows(hand.pk) == []
    hand = hand_record_result(hand=hand, landlord=1, bid=2, winner="defenders").hand
    entries = [seat.entry_id for seat in seated_table.seats.order_by("position")]
    assert rows(hand.pk) == [
        (0, entries[0], False, True, hand.score_of(0)),
        (1, entries[1], True, False, hand.score_of(1)),
        (2, entries[2], False, True, hand.score_of(2)),
    ]
    assert sum(score for *_, score in rows(hand.pk)) == 0


def test_recording_a_result_bumps_the_tournament_log_version(seated_table: Table) -> None:
    tournament = seated_table.round.tournament
    hand = hand_create(table=seated_table).hand
    before = Tournament.objects.get(pk=tournament.pk).log_version
    hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    assert Tournament.objects.get(pk=tournament.pk).log_version == before + 1


def test_a_hand_awaiting_confirmation_has_no_rows() -> None:
    table = factories.seated_table(requires_confirmation=True)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord"
    ).hand
    assert hand.confirmation == "pending"
    assert hand.counts is False
    assert rows(hand.pk) == []
