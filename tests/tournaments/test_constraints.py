"""Every invariant is enforced by the DATABASE: rows are written with
objects.create / QuerySet.update, bypassing Python validation."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests import factories
from tournaments.common.seats import MAX_SEATS
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Player,
    RefereeAssignment,
    Round,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)
from tournaments.tournament.penalties import penalty_create

pytestmark = pytest.mark.django_db


def assert_rejected(write: Callable[[], Any]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        write()


def finished_values(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "status": "finished",
        "landlord_seat": 0,
        "bid": 3,
        "winner": "landlord",
        "scores": [12, -6, -6],
    }
    return {**values, **overrides}


# --- players, tournaments, entries --------------------------------------------


def test_player_external_id_unique_when_given() -> None:
    Player.objects.create(name="A", external_id="CN-1")
    Player.objects.create(name="B")
    Player.objects.create(name="C")  # several players without an id are fine
    assert_rejected(lambda: Player.objects.create(name="D", external_id="CN-1"))


def test_tournament_slug_unique() -> None:
    factories.TournamentFactory(slug="open")
    assert_rejected(lambda: Tournament.objects.create(name="x", slug="open"))


@pytest.mark.parametrize(
    "field, value",
    [
        ("hands_per_round", 0),
        ("hands_per_round", -1),
        ("rule_profile", "house-rules"),
        ("format", "knockout"),
        ("status", "paused"),
    ],
)
def test_tournament_checks(field: str, value: Any) -> None:
    tournament = factories.TournamentFactory()
    if field == "status":  # the log row first, so the CHECK is what refuses (0024)
        factories.tournament_log_says(tournament.pk, status=value)
    assert_rejected(lambda: Tournament.objects.filter(pk=tournament.pk).update(**{field: value}))


def test_entry_player_once_per_tournament() -> None:
    entry = factories.EntryFactory()
    assert_rejected(
        lambda: Entry.objects.create(
            tournament=entry.tournament, player=entry.player, registration_order=99
        )
    )


def test_entry_registration_order_unique_and_positive() -> None:
    entry = factories.EntryFactory(registration_order=1)
    other = factories.PlayerFactory()
    assert_rejected(
        lambda: Entry.objects.create(
            tournament=entry.tournament, player=other, registration_order=1
        )
    )
    assert_rejected(
        lambda: Entry.objects.create(
            tournament=entry.tournament, player=other, registration_order=0
        )
    )


# --- rounds, tables, seats, referees --------------------------------------------


def test_round_number_unique_per_tournament() -> None:
    round_ = factories.RoundFactory(number=1)
    assert_rejected(lambda: Round.objects.create(tournament=round_.tournament, number=1))
    factories.RoundFactory(number=1)  # another tournament may have its round 1


def test_round_status_known() -> None:
    round_ = factories.RoundFactory()
    assert_rejected(lambda: Round.objects.filter(pk=round_.pk).update(status="paused"))


def test_table_number_unique_per_round() -> None:
    table = factories.TableFactory(number=1)
    assert_rejected(lambda: Table.objects.create(round=table.round, number=1))


def test_duplicate_seat_position_rejected(seated_table: Table) -> None:
    entry = factories.EntryFactory(tournament=seated_table.round.tournament)
    assert_rejected(
        lambda: Seat.objects.create(
            table=seated_table, round=seated_table.round, position=0, entry=entry
        )
    )


def test_entry_seated_twice_in_a_round_rejected(seated_table: Table) -> None:
    other_table = factories.TableFactory(round=seated_table.round)
    seated_entry = seated_table.seats.get(position=0).entry
    assert_rejected(
        lambda: Seat.objects.create(
            table=other_table, round=seated_table.round, position=0, entry=seated_entry
        )
    )


def test_same_entry_may_sit_in_the_next_round(seated_table: Table) -> None:
    next_round = factories.RoundFactory(tournament=seated_table.round.tournament)
    next_table = factories.TableFactory(round=next_round)
    entry = seated_table.seats.get(position=0).entry
    Seat.objects.create(table=next_table, round=next_round, position=0, entry=entry)


@pytest.mark.parametrize("position", [-1, MAX_SEATS])
def test_seat_position_range(seated_table: Table, position: int) -> None:
    entry = factories.EntryFactory(tournament=seated_table.round.tournament)
    assert_rejected(
        lambda: Seat.objects.create(
            table=seated_table, round=seated_table.round, position=position, entry=entry
        )
    )


def test_seat_round_must_match_its_table(seated_table: Table) -> None:
    """A trigger rejects a seat whose round is not its table's round, and a table
    with seats moving to another round."""
    other_round = factories.RoundFactory(tournament=seated_table.round.tournament)
    entry = factories.EntryFactory(tournament=seated_table.round.tournament)
    seated_table.seats.filter(position=0).delete()
    assert_rejected(
        lambda: Seat.objects.create(table=seated_table, round=other_round, position=0, entry=entry)
    )
    seat = seated_table.seats.get(position=1)
    assert_rejected(lambda: Seat.objects.filter(pk=seat.pk).update(round=other_round))
    assert_rejected(lambda: Table.objects.filter(pk=seated_table.pk).update(round=other_round))
    empty_table = factories.TableFactory(round=seated_table.round)
    assert Table.objects.filter(pk=empty_table.pk).update(round=other_round) == 1


def test_referee_assignment_unique_per_round_and_per_table() -> None:
    assignment = factories.RefereeAssignmentFactory()
    round_, user = assignment.round, assignment.user
    assert_rejected(lambda: RefereeAssignment.objects.create(round=round_, user=user))
    table = factories.TableFactory(round=round_)
    RefereeAssignment.objects.create(round=round_, table=table, user=user)
    assert_rejected(lambda: RefereeAssignment.objects.create(round=round_, table=table, user=user))


# --- boards -------------------------------------------------------------------------


def test_board_number_unique_per_tournament() -> None:
    board = factories.BoardFactory(number=1)
    assert_rejected(
        lambda: Board.objects.create(
            tournament=board.tournament,
            number=1,
            seed=7,
            seat_cards=board.seat_cards,
            kitty=board.kitty,
            first_bidder=0,
        )
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("first_bidder", 3),  # a three-seat board: at no seat of its table
        ("first_bidder", MAX_SEATS),
        ("first_bidder", -1),
        ("seed", -5),
        ("number", 0),
        ("seat_cards", ["", ""]),  # two seats: no table has two
        ("seat_cards", [""] * (MAX_SEATS + 1)),  # more seats than any table has
    ],
)
def test_board_checks(field: str, value: Any) -> None:
    board = factories.BoardFactory()
    assert_rejected(lambda: Board.objects.filter(pk=board.pk).update(**{field: value}))


# --- hands ----------------------------------------------------------------------------


def test_rule_profile_frozen_once_the_tournament_has_a_hand() -> None:
    table = factories.TableFactory()
    tournaments = Tournament.objects.filter(pk=table.round.tournament_id)
    factories.tournament_set(tournaments.get().pk, rule_profile="classic")  # no hand yet
    factories.HandFactory(table=table, rule_profile="classic")
    factories.tournament_log_says(table.round.tournament_id, rule_profile="comp2016")
    assert_rejected(lambda: tournaments.update(rule_profile="comp2016"))  # the hand's freeze
    assert tournaments.update(name="Renamed", rule_profile="classic") == 1  # unchanged profile


def test_hand_carries_its_tournament_rule_profile() -> None:
    table = factories.TableFactory()  # a comp2016 tournament
    assert_rejected(lambda: Hand.objects.create(table=table, number=1, rule_profile="classic"))
    hand = Hand.objects.create(table=table, number=1, rule_profile="comp2016")
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(rule_profile="classic"))
    classic_table = factories.TableFactory(round__tournament__rule_profile="classic")
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(table=classic_table))


def test_hand_number_unique_per_table() -> None:
    hand = factories.HandFactory(number=1)
    assert_rejected(
        lambda: Hand.objects.create(table=hand.table, number=1, rule_profile="comp2016")
    )


@pytest.mark.parametrize(
    "values",
    [
        {"landlord_seat": 3},  # a three-seat hand: hand_landlord_at_table
        {"landlord_seat": MAX_SEATS},
        {"landlord_seat": -1},
        {"seats": 4},  # comp2016 is a three-seat profile: hand_seats_of_profile
        {"seats": 2},
        {"doubled": [False, False]},  # one flag a seat: hand_doubled_one_a_seat
        {"doubled": [False, False, False, False]},
        {"bid": 0},
        {"bid": 4},
        {"bombs": -1},
        {"rockets": 2},
        {"rockets": -1},
        {"version": -1},
        {"number": 0},
        {"status": "abandoned"},
        {"rule_profile": "house-rules"},
        {"winner": "nobody"},
        {"spring": True, "anti_spring": True},
    ],
    ids=lambda values: ",".join(f"{k}={v}" for k, v in values.items()),
)
def test_hand_checks(values: dict[str, Any]) -> None:
    hand = factories.HandFactory()
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(**values))


def test_hand_board_and_adhoc_deal_exclusive() -> None:
    hand = factories.HandFactory()
    board = factories.BoardFactory(tournament=hand.table.round.tournament)
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(board=board, deal={"hands": []}))


def new_result_event(hand: Hand) -> dict[str, int]:
    """Append a result event as the services do and return the version that goes with it:
    a hand's result changes only together with a new event (the freeze trigger), so the
    CHECKs below are what refuses these rows."""
    HandEvent.objects.create(hand=hand, seq=hand.version + 1, kind="result")
    return {"version": hand.version + 1}


def test_finished_hand_zero_sum_accepted() -> None:
    hand = factories.HandFactory()
    changes = {**finished_values(), **new_result_event(hand)}
    assert Hand.objects.filter(pk=hand.pk).update(**changes) == 1


@pytest.mark.parametrize(
    "overrides",
    [
        {"scores": [13, -6, -6]},
        {"scores": [0, 0, 1]},
        {"scores": [12, -6, None]},
        {"scores": None},
        {"landlord_seat": None},
        {"bid": None},
        {"winner": ""},
    ],
    ids=lambda values: ",".join(f"{k}={v}" for k, v in values.items()),
)
def test_finished_hand_must_be_complete_and_zero_sum(overrides: dict[str, Any]) -> None:
    hand = factories.HandFactory()
    changes = {**finished_values(**overrides), **new_result_event(hand)}
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(**changes))


def test_finished_hand_rejected_on_insert_too() -> None:
    table = factories.TableFactory()
    assert_rejected(
        lambda: Hand.objects.create(
            table=table, number=1, rule_profile="comp2016", **finished_values(scores=[12, -5, -6])
        )
    )


@pytest.mark.parametrize(
    "scores",
    [
        [12, -6, -6, 0],  # four scores at a three-seat table
        [6, -6],
        [12.5, -6.5, -6],  # zero-sum, but not integers
        [12.0, -6, -6],
        [12, -6, "-6"],
        [6, -7, True],
        [{"points": 12}, -6, -6],
        [[12], -6, -6],
    ],
    ids=repr,
)
def test_finished_hand_scores_are_one_integer_a_seat(scores: Any) -> None:
    """``hand_scores_one_a_seat_zero_sum``: as many scores as seats, each a JSON integer."""
    hand = factories.HandFactory()
    changes = {**finished_values(scores=scores), **new_result_event(hand)}
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(**changes))


@pytest.mark.parametrize(
    "doubled",
    [
        [True, 0, False],
        [1, 0, 0],
        [False, "true", False],
        [False, None, False],
        [[True], False, False],
    ],
    ids=repr,
)
def test_doubled_flags_are_json_booleans(doubled: Any) -> None:
    """``hand_doubled_flags_boolean``: one JSON boolean a seat, on a live hand as on a
    finished one (the per-seat rows and the standings read them as true or false)."""
    hand = factories.HandFactory()
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(doubled=doubled))
    assert Hand.objects.filter(pk=hand.pk).update(doubled=[True, False, True]) == 1


def test_a_first_bidder_must_sit_at_the_hands_table() -> None:
    """``hand_first_bidder_at_table``: seat 3 is a seat of some table, not of a three-seat one."""
    table = factories.TableFactory()
    fields = {"table": table, "number": 1, "rule_profile": "comp2016", "physical_cards": True}
    assert_rejected(lambda: Hand.objects.create(**fields, first_bidder=3))
    assert Hand.objects.create(**fields, first_bidder=2).seats == 3


@pytest.mark.parametrize(
    "values",
    [
        {"status": "playing", "scores": [5, None, None]},
        {"status": "playing", "scores": [6, -3, -3]},
        {"status": "voided", "scores": [999, None, None]},
        {"status": "voided", "scores": [0, 0, 0]},
        {"status": "passed_out", "scores": [1, 0, 0]},
        {"status": "passed_out", "scores": [0, None, None]},
        {"status": "passed_out", "scores": [0, 0]},
    ],
    ids=lambda values: ",".join(f"{k}={v}" for k, v in values.items()),
)
def test_scores_zero_sum_whenever_set_and_only_on_a_counted_status(
    values: dict[str, Any],
) -> None:
    hand = factories.HandFactory()
    changes = {**values, **new_result_event(hand)}
    assert_rejected(lambda: Hand.objects.filter(pk=hand.pk).update(**changes))


def test_passed_out_hand_scores_nothing() -> None:
    hand = factories.HandFactory()
    changes = {"status": "passed_out", "scores": [0, 0, 0]}
    assert Hand.objects.filter(pk=hand.pk).update(**changes, **new_result_event(hand)) == 1


# --- hand events -------------------------------------------------------------------


def test_hand_event_seq_unique_per_hand() -> None:
    event = factories.HandEventFactory(seq=1)
    assert_rejected(lambda: HandEvent.objects.create(hand=event.hand, seq=1, kind="note"))


def test_hand_event_idempotency_key_unique_per_hand_when_not_null() -> None:
    event = factories.HandEventFactory(seq=1, idempotency_key="k-1")
    hand = event.hand
    assert_rejected(
        lambda: HandEvent.objects.create(hand=hand, seq=2, kind="note", idempotency_key="k-1")
    )
    HandEvent.objects.create(hand=hand, seq=2, kind="note", idempotency_key=None)
    HandEvent.objects.create(hand=hand, seq=3, kind="note", idempotency_key=None)
    other_hand = factories.HandFactory()
    HandEvent.objects.create(hand=other_hand, seq=1, kind="note", idempotency_key="k-1")


@pytest.mark.parametrize(
    "values",
    [{"seq": 0}, {"actor_seat": MAX_SEATS}, {"actor_seat": -1}, {"kind": "shout"}],
    ids=["seq", "seat", "negative seat", "kind"],
)
def test_hand_event_checks(values: dict[str, Any]) -> None:
    hand = factories.HandFactory()
    fields = {"hand": hand, "seq": 1, "kind": "note", **values}
    assert_rejected(lambda: HandEvent.objects.create(**fields))


def test_hand_events_are_append_only() -> None:
    """A trigger rejects UPDATE and DELETE of hand events."""
    event = factories.HandEventFactory(payload={"text": "original"})
    events = HandEvent.objects.filter(pk=event.pk)
    assert_rejected(lambda: events.update(payload={"text": "rewritten"}))
    assert_rejected(lambda: events.delete())
    assert HandEvent.objects.get(pk=event.pk).payload == {"text": "original"}
    HandEvent.objects.create(hand=event.hand, seq=event.seq + 1, kind="note")


# --- standings -------------------------------------------------------------------------


def test_standing_snapshot_unique_per_log_version() -> None:
    snapshot = factories.StandingSnapshotFactory()
    assert_rejected(
        lambda: StandingSnapshot.objects.create(
            tournament=snapshot.tournament, entry=snapshot.entry, rank=2, total=0, log_version=0
        )
    )
    other = factories.EntryFactory(tournament=snapshot.tournament)
    penalty_create(entry=other, points=-1, reason="R9")  # the log moves on to version 1
    StandingSnapshot.objects.create(
        tournament=snapshot.tournament, entry=snapshot.entry, rank=2, total=0, log_version=1
    )


@pytest.mark.parametrize("values", [{"rank": 0}, {"log_version": -1}], ids=["rank", "version"])
def test_standing_snapshot_checks(values: dict[str, int]) -> None:
    snapshot = factories.StandingSnapshotFactory()
    assert_rejected(lambda: StandingSnapshot.objects.filter(pk=snapshot.pk).update(**values))


def test_the_service_profiles_are_the_tournaments_choices_and_set_the_seat_counts() -> None:
    """``SERVICE_PROFILES`` (what the seat checks are made of) and ``RuleProfileKey`` (what a
    row may hold) name the same profiles, every game of the rules library; those in
    preparation (six players) are in the database's checks but no director's choice."""
    from referee.rules.profiles import GAME_PROFILES, get_profile
    from tournaments.common.seats import OFFERED_PROFILES, SEAT_COUNTS, SERVICE_PROFILES
    from tournaments.models.tournaments import RuleProfileKey, offered_rule_profiles

    assert set(SERVICE_PROFILES) == set(RuleProfileKey.values)
    assert set(SEAT_COUNTS) == {get_profile(k).seats for k in RuleProfileKey.values}
    assert MAX_SEATS == max(SEAT_COUNTS) == 6
    assert set(GAME_PROFILES) <= set(SERVICE_PROFILES)
    assert {k for k, _ in offered_rule_profiles()} == set(OFFERED_PROFILES)
    assert set(OFFERED_PROFILES) == set(SERVICE_PROFILES)


@pytest.mark.parametrize("profile", ["six_p", "six_p_no_kitty"])
def test_six_players_are_a_directors_choice(profile: str, director: Any) -> None:
    from tournaments.tournament.services import tournament_create, tournament_update

    six = tournament_create(name="Six", slug="six", rule_profile=profile, stake_cap=64)
    assert (six.rule_profile, six.stake_cap) == (profile, 64)
    tournament = tournament_create(name="Three", slug="three")
    tournament_update(tournament=tournament, rule_profile=profile, recorded_by=director)
    assert Tournament.objects.get(slug="three").rule_profile == profile
