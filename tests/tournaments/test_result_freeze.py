"""Issue 11, point 1: each reproduction of a corrupted result, written around Python as an
attacker or a careless director would, is refused by the DATABASE (migration 0010), on
SQLite and on PostgreSQL; the services still change what they may, with a new event."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.results import hand_results_sync
from tournaments.hands.write import hand_action_record, hand_create, hand_record_result
from tournaments.models import Hand, HandEvent, HandSeatResult, Round, Seat, Table, Tournament
from tournaments.rounds.services import seat_create, table_move
from tournaments.seating.services import seat_correct

pytestmark = pytest.mark.django_db


def assert_refused(write: Callable[[], Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def finished_hand(table: Table | None = None) -> Hand:
    """A result-only hand finished by the service: seat 0 landlord, bid 3, won (6/-3/-3)."""
    hand = hand_create(table=table or factories.seated_table()).hand
    return hand_record_result(hand=hand, landlord=0, bid=3, winner="landlord").hand


def unchanged(hand: Hand) -> None:
    """The row still is what its log replays to."""
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.scores == hand.scores and stored.status == hand.status
    assert hand_check_replays(hand=stored) == []


# --- a closed hand's result ---------------------------------------------------------------


def test_finished_hand_scores_cannot_be_negated() -> None:
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(scores=[-score for score in hand.scores]))
    unchanged(hand)


def test_a_closed_hands_per_seat_arrays_are_frozen_element_by_element() -> None:
    """The freeze reads the arrays: one seat's double or a reordered score is a change too."""
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(doubled=[False, True, False]))
    assert_refused(lambda: rows.update(scores=[hand.scores[1], hand.scores[0], hand.scores[2]]))
    unchanged(hand)


def test_finished_hand_cannot_go_back_to_bidding() -> None:
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(status="bidding", scores=None))
    assert_refused(lambda: rows.update(status="bidding"))  # scores kept: the CHECK too
    unchanged(hand)


def test_voided_hand_cannot_show_a_score() -> None:
    """``status='voided', scores=[999, …]``: refused on a finished hand and on a voided one."""
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(status="voided", scores=[999, *hand.scores[1:]]))
    voided = hand_void(hand=hand, reason="misdeal").hand
    assert_refused(lambda: rows.update(scores=[999, None, None]))
    assert_refused(lambda: rows.update(scores=[999, -999, 0]))
    unchanged(voided)


def test_a_version_bump_without_an_event_is_not_enough() -> None:
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(scores=[12, -6, -6], version=hand.version + 1))
    unchanged(hand)


def test_a_note_is_not_an_event_that_changes_a_result() -> None:
    """Even a forged new event must be one after which a result can change."""
    hand = finished_hand()
    HandEvent.objects.create(hand=hand, seq=hand.version + 1, kind="note", payload={"x": 1})
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(scores=[12, -6, -6], version=hand.version + 1))


def test_an_old_event_does_not_let_a_result_change() -> None:
    """The version must move on to the newest event: a stale event is not this change's."""
    hand = finished_hand()
    rows = Hand.objects.filter(pk=hand.pk)
    assert_refused(lambda: rows.update(scores=[12, -6, -6]))
    assert_refused(lambda: rows.update(winner="defenders", version=hand.version))


def test_a_live_hand_cannot_be_finished_by_hand() -> None:
    """Forging a finish on a live hand is the same change seen from the other side."""
    table = factories.seated_table()
    hand = hand_create(table=table, seed=7).hand
    rows = Hand.objects.filter(pk=hand.pk)
    values = {"status": "finished", "landlord_seat": 0, "bid": 3, "winner": "landlord"}
    assert_refused(lambda: rows.update(**values, scores=[6, -3, -3]))
    unchanged(hand)


def test_services_still_change_a_closed_hand_with_an_event() -> None:
    hand = finished_hand()
    corrected = hand_result_correct(
        hand=hand, reason="wrong landlord", landlord=1, bid=2, winner="defenders"
    ).hand
    assert corrected.scores == [2, -4, 2]
    voided = hand_void(hand=corrected, reason="misdeal").hand
    assert voided.status == "voided" and voided.scores is None
    assert voided.version == HandEvent.objects.filter(hand=hand).count() == 3
    unchanged(voided)


def test_live_hand_passed_out_by_its_last_bid_passes_the_freeze() -> None:
    """Live → passed out (流局) by the service: the status and the 0/0/0 scores move with
    the closing bid's event."""
    hand = hand_create(table=factories.seated_table(), seed=11).hand
    first = hand_first_bidder(hand)
    for turn in range(3):
        hand = hand_action_record(hand=hand, action={"seat": (first + turn) % 3, "bid": 0}).hand
    assert hand.status == "passed_out" and hand.scores == [0, 0, 0]
    unchanged(hand)


# --- rounds and tables ----------------------------------------------------------------------


def test_round_with_hands_cannot_move_to_another_tournament() -> None:
    """The profile-freeze bypass: move the round away, change the profile, move it back."""
    table = factories.seated_table()
    hand = hand_create(table=table, seed=3).hand
    first = Tournament.objects.get(pk=table.round.tournament_id)
    other = factories.TournamentFactory()
    rounds = Round.objects.filter(pk=table.round_id)
    assert_refused(lambda: rounds.update(tournament=other))
    factories.tournament_log_says(first.pk, rule_profile="classic")  # refused all the same
    assert_refused(lambda: Tournament.objects.filter(pk=first.pk).update(rule_profile="classic"))
    # The hand can still be recorded under its tournament's profile.
    hand = hand_action_record(hand=hand, action={"seat": hand_first_bidder(hand), "bid": 1}).hand
    assert hand.version == 1 and hand.rule_profile == first.rule_profile


def hand_first_bidder(hand: Hand) -> int:
    deal = hand.deal or {}
    return int(deal.get("first_bidder", 0))


def test_round_without_hands_may_still_move() -> None:
    table = factories.seated_table()
    other = factories.TournamentFactory()
    assert Round.objects.filter(pk=table.round_id).update(tournament=other) == 1


def test_table_with_hands_cannot_move_to_another_round() -> None:
    table = factories.TableFactory()  # no seats: the seat trigger of 0003/0004 does not apply
    factories.HandFactory(table=table)  # written directly: the service seats the table first
    other_round = factories.RoundFactory(tournament=table.round.tournament)
    assert_refused(lambda: Table.objects.filter(pk=table.pk).update(round=other_round))
    with pytest.raises(ApplicationError) as refused:
        table_move(table=table, round=other_round)
    assert refused.value.code == "table_has_hands"
    assert Table.objects.get(pk=table.pk).round_id == table.round_id


def test_hand_cannot_move_to_another_table() -> None:
    hand = finished_hand()
    other = factories.TableFactory(round=hand.table.round)
    assert_refused(lambda: Hand.objects.filter(pk=hand.pk).update(table=other))


# --- seats ------------------------------------------------------------------------------------


def _results(hand: Hand) -> dict[int, int]:
    return dict(HandSeatResult.objects.filter(hand=hand).values_list("entry_id", "score"))


def test_seat_entry_cannot_change_after_hands() -> None:
    """Changing a seat's entry after a hand silently credited its scores to another player."""
    hand = finished_hand()
    table = hand.table
    seat = Seat.objects.get(table=table, position=0)
    stranger = factories.EntryFactory(tournament=table.round.tournament)
    seats = Seat.objects.filter(pk=seat.pk)
    assert_refused(lambda: seats.update(entry=stranger))
    assert_refused(lambda: seats.delete())
    other_table = factories.TableFactory(round=table.round)
    assert_refused(lambda: seats.update(table=other_table))
    assert_refused(lambda: seats.update(position=1))
    before = _results(hand)
    hand_results_sync(hand=hand)  # a later rewrite of the rows still credits the right entry
    assert _results(hand) == before and before[seat.entry_id] == hand.score_of(0)


def test_an_empty_position_cannot_be_filled_after_hands() -> None:
    table = factories.seated_table()
    Seat.objects.filter(table=table, position=2).delete()  # no hand yet: free
    with pytest.raises(ApplicationError) as not_full:
        hand_create(table=table)  # the service starts no hand at a table with an empty seat
    assert not_full.value.code == "table_not_full" and not Hand.objects.filter(table=table)
    factories.HandFactory(table=table)  # written directly, the database still holds the seat
    stranger = factories.EntryFactory(tournament=table.round.tournament)
    assert_refused(
        lambda: Seat.objects.create(table=table, round=table.round, position=2, entry=stranger)
    )
    with pytest.raises(ApplicationError) as refused:
        seat_create(table=table, position=2, entry=stranger)
    assert refused.value.code == "seat_has_hands"


def test_seats_of_a_table_without_hands_are_free() -> None:
    table = factories.seated_table()
    stranger = factories.EntryFactory(tournament=table.round.tournament)
    assert Seat.objects.filter(table=table, position=0).update(entry=stranger) == 1


def test_only_the_seat_correction_service_changes_a_seat_after_hands() -> None:
    """A correction writes its events first; the database then lets exactly that change
    through, and nothing else: not a change back, not after the hand moved on."""
    hand = finished_hand()
    table = hand.table
    seat = Seat.objects.get(table=table, position=0)
    wrong = seat.entry
    right = factories.EntryFactory(tournament=table.round.tournament)
    seat_correct(seat=seat, entry=right, reason="scoresheet had the wrong name")
    corrected = Seat.objects.get(table=table, position=0)
    assert corrected.entry_id == right.pk
    assert _results(hand)[right.pk] == hand.score_of(0) and wrong.pk not in _results(hand)
    seats = Seat.objects.filter(pk=corrected.pk)
    assert_refused(lambda: seats.update(entry=wrong))  # no event says right → wrong
    third = factories.EntryFactory(tournament=table.round.tournament)
    assert_refused(lambda: seats.update(entry=third))
    # A later event on the hand closes the door the correction's event opened.
    hand = hand_void(hand=hand, reason="misdeal").hand
    assert_refused(lambda: seats.delete())


def test_a_forged_correction_must_be_newest_on_every_hand_of_the_table() -> None:
    """A seat_correction event on one hand of the table does not cover the others."""
    table = factories.seated_table()
    first = finished_hand(table)
    finished_hand(table)
    seat = Seat.objects.get(table=table, position=1)
    stranger = factories.EntryFactory(tournament=table.round.tournament)
    HandEvent.objects.create(
        hand=first,
        seq=first.version + 1,
        kind="seat_correction",
        payload={"position": 1, "old_entry": seat.entry_id, "new_entry": stranger.pk},
    )
    assert_refused(lambda: Seat.objects.filter(pk=seat.pk).update(entry=stranger))
