"""Seating rounds through the services: random, Swiss and duplicate; byes; overrides and
corrections of a seat (SPEC §10.4, §10.5, R10.8.6, R10.8.7)."""

from collections import Counter
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from tests import factories
from tests.at_once import at_once
from tournaments.common.errors import ApplicationError
from tournaments.director.selectors import seating_explanation_text
from tournaments.hands.replay import hand_replay
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import (
    Entry,
    HandEvent,
    HandSeatResult,
    Penalty,
    Round,
    RoundBoard,
    RoundBye,
    RoundLog,
    Seat,
    Table,
    Tournament,
)
from tournaments.rounds.services import round_close, round_create, round_start
from tournaments.seating.services import round_seat, round_seat_preview, seat_correct, seat_override
from tournaments.tournament import selectors
from tournaments.tournament.services import entry_create
from tournaments.tournament.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def _tournament(count: int, **fields: Any) -> Tournament:
    tournament = factories.TournamentFactory(**fields)
    for order in range(1, count + 1):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    return tournament


def _seats(round_: Round) -> list[tuple[int, int, int]]:
    return list(
        Seat.objects.filter(round=round_)
        .order_by("table__number", "position")
        .values_list("table__number", "position", "entry_id")
    )


def _play_round(round_: Round, *, landlord_wins: bool = True) -> None:
    """Start ``round_``, play one hand per table (seat 0 is landlord at bid 1), close it."""
    round_start(round=round_)
    for table in Table.objects.filter(round=round_).order_by("number"):
        hand = hand_create(table=table).hand
        winner = "landlord" if landlord_wins else "defenders"
        hand_record_result(hand=hand, landlord=0, bid=1, winner=winner)
    round_close(round=round_)


def test_round_create_numbers_rounds_in_order() -> None:
    tournament = factories.TournamentFactory()
    assert [round_create(tournament=tournament).number for _ in range(3)] == [1, 2, 3]


def test_round_seat_writes_the_preview_and_records_the_seed() -> None:
    tournament = _tournament(10, hands_per_round=4)
    round_ = round_create(tournament=tournament)
    preview = round_seat_preview(round=round_, seed=77)
    assert not Table.objects.filter(round=round_).exists()  # a preview writes nothing
    seating = round_seat(round=round_, seed=77)
    assert seating == preview
    round_.refresh_from_db()
    assert (round_.status, round_.seed) == ("seated", 77)
    assert seating_explanation_text(round=round_) == preview.explanation
    assert [(t.number, p, e) for t in preview.tables for p, e in enumerate(t.entries)] == _seats(
        round_
    )
    assert list(RoundBye.objects.filter(round=round_).values_list("entry_id", flat=True)) == list(
        preview.byes
    )
    firsts = list(Table.objects.filter(round=round_).values_list("first_bidder", flat=True))
    assert firsts == [t.first_bidder for t in preview.tables] and None not in firsts
    assert RoundLog.objects.get(round=round_, kind="seated").payload["seed"] == 77


def test_reseating_with_the_same_seed_gives_the_same_seats() -> None:
    round_ = round_create(tournament=_tournament(9))
    round_seat(round=round_, seed=5)
    first = _seats(round_)
    round_seat(round=round_, seed=6)
    round_seat(round=round_, seed=5)
    assert _seats(round_) == first


def test_a_round_with_hands_cannot_be_reseated() -> None:
    round_ = round_create(tournament=_tournament(3))
    round_seat(round=round_, seed=1)
    hand_create(table=Table.objects.get(round=round_))
    with pytest.raises(ApplicationError) as excinfo:
        round_seat(round=round_, seed=2)
    assert excinfo.value.code == "round_has_hands"


def test_r10_8_7_swiss_seats_the_next_round_by_standing() -> None:
    """Round 1: the landlord (seat 0) wins at every table.  Round 2 seats the three winners
    at table 1: they have not met, so R10.5.1 applies as it stands."""
    tournament = _tournament(9, format="swiss", hands_per_round=1)
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=11)
    _play_round(first)
    winners = set(Seat.objects.filter(round=first, position=0).values_list("entry_id", flat=True))
    order = selectors.entry_order_for_seating(tournament=tournament)
    assert set(order[:3]) == winners
    second = round_create(tournament=tournament)
    seating = round_seat(round=second, seed=12)
    assert set(seating.tables[0].entries) == winners
    assert "Swiss" in seating.explanation
    assert seating.repeat_meetings == 0


def test_swiss_waits_for_the_previous_round_to_close() -> None:
    tournament = _tournament(6, format="swiss")
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=1)
    second = round_create(tournament=tournament)
    with pytest.raises(ApplicationError) as excinfo:
        round_seat(round=second, seed=2)
    assert excinfo.value.code == "previous_round_open"


def test_standing_order_counts_penalties_and_leaves_withdrawn_entries_out() -> None:
    tournament = _tournament(3)
    first, second, third = Entry.objects.filter(tournament=tournament).order_by(
        "registration_order"
    )
    Penalty.objects.create(tournament=tournament, entry=first, points=-5, reason="slow play")
    Penalty.objects.create(tournament=tournament, entry=third, points=3, reason="compensation")
    Penalty.objects.create(
        tournament=tournament, entry=second, points=9, reason="x", revoked_at=timezone.now()
    )
    assert selectors.entry_order_for_seating(tournament=tournament) == [
        third.pk,
        second.pk,
        first.pk,
    ]
    entry_withdraw(entry=third)
    assert selectors.entry_order_for_seating(tournament=tournament) == [second.pk, first.pk]


def test_duplicate_every_table_plays_the_same_boards() -> None:
    """R10.4.1: hand k of every table of the section is the same board."""
    tournament = _tournament(9, format="duplicate", hands_per_round=2)
    for number in (1, 2):
        round_ = round_create(tournament=tournament)
        seating = round_seat(round=round_, seed=number)
        assert all(t.first_bidder is None for t in seating.tables)
        tables = list(Table.objects.filter(round=round_))
        for hand_number in (1, 2):
            boards = {selectors.round_board(table=t, hand_number=hand_number) for t in tables}
            assert len(boards) == 1
            board = boards.pop()
            assert board is not None
            assert board.number == (number - 1) * 2 + hand_number
            assert selectors.table_first_bidder(table=tables[0], hand_number=hand_number) == (
                board.first_bidder
            )
    assert RoundBoard.objects.filter(round__tournament=tournament).count() == 4


def test_table_play_first_bidder_rotates_hand_by_hand() -> None:
    round_ = round_create(tournament=_tournament(3, hands_per_round=3))
    round_seat(round=round_, seed=3)
    table = Table.objects.get(round=round_)
    assert table.first_bidder is not None
    bidders = [selectors.table_first_bidder(table=table, hand_number=k) for k in (1, 2, 3)]
    assert sorted(bidders) == [0, 1, 2]


def test_r10_5_2_byes_go_round_the_field() -> None:
    """Four entries, four rounds, one bye each round: everyone sits out exactly once."""
    tournament = _tournament(4)
    for number in range(1, 5):
        round_seat(round=round_create(tournament=tournament), seed=number)
    byes = Counter(RoundBye.objects.filter(round__tournament=tournament).values_list("entry_id"))
    assert sorted(byes.values()) == [1, 1, 1, 1]


def test_a_late_entry_is_seated_next_round_and_a_withdrawn_one_is_not() -> None:
    tournament = _tournament(6)
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=1)
    late = entry_create(tournament=tournament, player=factories.PlayerFactory())
    gone = Seat.objects.filter(round=first).first()
    assert gone is not None
    round_start(round=first)
    entry_withdraw(entry=gone.entry)
    second = round_create(tournament=tournament)
    seating = round_seat(round=second, seed=2)
    seated = {e for t in seating.tables for e in t.entries} | set(seating.byes)
    assert late.pk in seated and gone.entry_id not in seated


def test_withdrawal_is_refused_while_seated_in_a_round_not_started() -> None:
    tournament = _tournament(3)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    before = Tournament.objects.get(pk=tournament.pk).log_version
    with pytest.raises(ApplicationError) as excinfo:
        entry_withdraw(entry=entry)
    assert excinfo.value.code == "entry_seated_in_next_round"
    round_start(round=round_)
    entry_withdraw(entry=entry)
    assert Entry.objects.get(pk=entry.pk).withdrawn
    assert Tournament.objects.get(pk=tournament.pk).log_version == before + 1
    with pytest.raises(ApplicationError):
        entry_withdraw(entry=entry)


# --- overrides and corrections -----------------------------------------------------------


def test_seat_override_swaps_two_positions_of_a_table(director: Any) -> None:
    round_ = round_create(tournament=_tournament(3))
    round_seat(round=round_, seed=1)
    seat0 = Seat.objects.get(round=round_, position=0)
    seat1 = Seat.objects.get(round=round_, position=1)
    seat_override(seat=seat0, entry=seat1.entry, reason="wrong chairs", recorded_by=director)
    after = dict(Seat.objects.filter(round=round_).values_list("position", "entry_id"))
    assert (after[0], after[1]) == (seat1.entry_id, seat0.entry_id)
    log = RoundLog.objects.get(round=round_, kind="seat_override")
    assert log.reason == "wrong chairs" and log.recorded_by == director


def test_seat_override_needs_a_reason_and_no_hands() -> None:
    round_ = round_create(tournament=_tournament(4))
    round_seat(round=round_, seed=1)
    seat = Seat.objects.filter(round=round_).first()
    bye = RoundBye.objects.get(round=round_)
    assert seat is not None
    with pytest.raises(ApplicationError) as excinfo:
        seat_override(seat=seat, entry=bye.entry, reason=" ")
    assert excinfo.value.code == "reason_required"
    hand_create(table=seat.table)
    with pytest.raises(ApplicationError) as excinfo:
        seat_override(seat=seat, entry=bye.entry, reason="late arrival")
    assert excinfo.value.code == "seat_has_hands"


def test_seat_override_with_the_bye_gives_the_bye_to_the_displaced_entry() -> None:
    round_ = round_create(tournament=_tournament(4))
    round_seat(round=round_, seed=1)
    seat = Seat.objects.filter(round=round_).first()
    assert seat is not None
    displaced, bye = seat.entry_id, RoundBye.objects.get(round=round_).entry
    seat_override(seat=seat, entry=bye, reason="asked to play")
    assert list(RoundBye.objects.filter(round=round_).values_list("entry_id", flat=True)) == [
        displaced
    ]


def test_a_seat_correction_moves_the_scores_with_an_event(director: Any) -> None:
    """The wrong player was recorded at seat 1: correcting it moves that seat's scores to
    the right entry, logs a seat correction on the hand and moves the log version on; the
    hand's result is untouched and still the replay of its log."""
    tournament = _tournament(4)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    table = Table.objects.get(round=round_)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=3, winner="landlord"
    ).hand
    seat = Seat.objects.get(table=table, position=1)
    wrong, right = seat.entry, RoundBye.objects.get(round=round_).entry
    before = Tournament.objects.get(pk=tournament.pk).log_version
    version = hand.version

    seat_correct(
        seat=seat, entry=right, reason="scoresheet had the wrong name", recorded_by=director
    )

    rows = dict(HandSeatResult.objects.filter(hand=hand).values_list("entry_id", "score"))
    assert rows[right.pk] == hand.score_of(1) and wrong.pk not in rows
    event = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert event is not None and event.kind == "seat_correction"
    assert event.payload["old_entry"] == wrong.pk and event.payload["new_entry"] == right.pk
    assert event.payload["reason"] == "scoresheet had the wrong name"
    assert event.recorded_by == director
    hand.refresh_from_db()
    assert hand.version == version + 1
    assert hand_replay(hand=hand).summary["scores"] == hand.scores
    assert hand.status == "finished"
    assert Tournament.objects.get(pk=tournament.pk).log_version > before
    assert RoundBye.objects.filter(round=round_, entry=wrong).exists()
    # a retry of the same request (with the stale seat object) changes nothing more
    seat_correct(seat=seat, entry=right, reason="scoresheet had the wrong name")
    assert hand.events.filter(kind="seat_correction").count() == 1
    order = selectors.entry_order_for_seating(tournament=tournament)
    assert order[0] == right.pk  # the landlord's winnings followed the seat


def test_a_seat_correction_swapping_two_tables_corrects_both() -> None:
    tournament = _tournament(6)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=2)
    round_start(round=round_)
    hands = [
        hand_record_result(
            hand=hand_create(table=t).hand, landlord=0, bid=2, winner="landlord"
        ).hand
        for t in Table.objects.filter(round=round_).order_by("number")
    ]
    a = Seat.objects.get(table__number=1, round=round_, position=0)
    b = Seat.objects.get(table__number=2, round=round_, position=2)
    seat_correct(seat=a, entry=b.entry, reason="players swapped tables")
    for hand in hands:
        assert hand.events.filter(kind="seat_correction").count() == 1
    assert HandSeatResult.objects.get(hand=hands[0], position=0).entry_id == b.entry_id
    assert HandSeatResult.objects.get(hand=hands[1], position=2).entry_id == a.entry_id


def test_a_seat_correction_needs_hands_and_a_reason() -> None:
    round_ = round_create(tournament=_tournament(4))
    round_seat(round=round_, seed=1)
    seat = Seat.objects.filter(round=round_).first()
    assert seat is not None
    other = RoundBye.objects.get(round=round_).entry
    with pytest.raises(ApplicationError) as excinfo:
        seat_correct(seat=seat, entry=other, reason="x")
    assert excinfo.value.code == "seat_has_no_hands"
    with pytest.raises(ApplicationError) as excinfo:
        seat_correct(seat=seat, entry=other, reason="")
    assert excinfo.value.code == "reason_required"
    assert Seat.objects.get(pk=seat.pk).entry_id == seat.entry_id


# Committed transactions only where the threads need them (see test_services_hands.py).
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_concurrent_identical_corrections_make_one() -> None:
    """PostgreSQL: two devices send the same correction at once; they serialise on the
    round and seat locks, the second finds the seat already corrected."""
    tournament = _tournament(4)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    table = Table.objects.get(round=round_)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    seat = Seat.objects.get(table=table, position=0)
    right = RoundBye.objects.get(round=round_).entry
    outcomes = at_once(lambda: seat_correct(seat=seat, entry=right, reason="wrong name"), 2)
    assert [getattr(o, "entry_id", o) for o in outcomes] == [right.pk, right.pk]
    assert hand.events.filter(kind="seat_correction").count() == 1
    assert HandSeatResult.objects.get(hand=hand, position=0).entry_id == right.pk


def test_earlier_rounds_seats_and_first_bids_reach_the_engine() -> None:
    """Round 2 of a table-play event avoids every meeting of round 1 (possible with nine
    entries), and the history read back holds round 1's tables and first-bidder turns."""
    tournament = _tournament(9, hands_per_round=2)
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=21)
    round_start(round=first)
    for table in Table.objects.filter(round=first):
        for _ in range(2):
            hand_record_result(
                hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord"
            )
    round_close(round=first)
    second = round_create(tournament=tournament)
    history = selectors.seating_history(round=second)
    assert sorted(t.entries for t in history.tables) == sorted(
        tuple(Seat.objects.filter(table=t).order_by("position").values_list("entry_id", flat=True))
        for t in Table.objects.filter(round=first)
    )
    assert all(sum(t.first_bidder_turns) == 2 for t in history.tables)
    seating = round_seat(round=second, seed=22)
    assert seating.repeat_meetings == 0
