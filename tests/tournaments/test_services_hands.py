from typing import Any

import pytest
from django.db import connection, connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.profiles import get_profile
from referee.rules.scoring import DealResult, score_result
from tests import factories
from tests.at_once import at_once
from tournaments.common.errors import ApplicationError
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandEvent, Table

pytestmark = pytest.mark.django_db

RESULT = {
    "landlord": 0,
    "bid": 3,
    "doubled": (False, True, False),
    "redoubled": True,
    "bombs": 1,
    "rockets": 0,
    "spring": False,
    "anti_spring": False,
    "winner": "landlord",
}


def expected_scores(profile_key: str = "comp2016", **result: Any) -> list[int]:
    """The rules library's scores, one a seat, in the form a hand row stores them."""
    return list(score_result(DealResult(**{**RESULT, **result}), get_profile(profile_key)))


def test_hand_create_takes_the_tournament_profile_and_next_number(seated_table: Table) -> None:
    first = hand_create(table=seated_table).hand
    assert first.rule_profile == "comp2016"
    assert (first.status, first.version) == ("bidding", 0)
    hand_record_result(hand=first, **RESULT)  # one live hand per table
    second = hand_create(table=seated_table).hand
    assert (first.number, second.number) == (1, 2)


def test_hand_create_with_board_or_adhoc_deal(seated_table: Table) -> None:
    tournament = seated_table.round.tournament
    board = factories.BoardFactory(tournament=tournament)
    boarded = hand_create(table=seated_table, board=board).hand
    assert boarded.board == board
    hand_record_result(hand=boarded, **RESULT)  # one live hand per table

    deal = {"hands": list(board.seat_cards), "kitty": board.kitty}
    adhoc = hand_create(table=seated_table, deal=deal).hand
    assert adhoc.deal is not None and adhoc.deal["hands"][0] == board.seat_cards[0]
    hand_record_result(hand=adhoc, **RESULT)

    with pytest.raises(ApplicationError) as excinfo:
        hand_create(table=seated_table, deal={"hands": ["3", "4", "5"], "kitty": "6"})
    assert excinfo.value.code == "invalid_deal"
    with pytest.raises(ApplicationError) as excinfo:
        hand_create(table=seated_table, board=factories.BoardFactory())
    assert excinfo.value.code == "board_not_in_tournament"
    with pytest.raises(ApplicationError) as excinfo:
        hand_create(table=seated_table, board=board, deal=deal)
    assert excinfo.value.code == "board_and_deal"


def test_record_result_scores_through_the_rules_library(seated_table: Table, referee: Any) -> None:
    hand = hand_create(table=seated_table).hand

    recorded = hand_record_result(
        hand=hand, recorded_by=referee, idempotency_key="r-1", **RESULT
    ).hand

    stored = Hand.objects.get(pk=hand.pk)
    assert stored.scores == expected_scores() == recorded.scores
    assert sum(stored.scores) == 0  # type: ignore[arg-type]
    assert stored.status == "finished"
    assert (stored.landlord_seat, stored.bid, stored.winner) == (0, 3, "landlord")
    assert stored.doubled == [False, True, False] and stored.redoubled
    assert (stored.bombs, stored.rockets) == (1, 0)
    assert stored.version == 1
    assert stored.rule_profile_hash == get_profile("comp2016").content_hash

    (event,) = HandEvent.objects.filter(hand=hand)
    assert (event.seq, event.kind, event.idempotency_key) == (1, "result", "r-1")
    assert event.recorded_by == referee
    assert event.payload["scores"] == list(expected_scores())
    assert event.payload["result"]["doubled"] == [False, True, False]
    assert event.payload["rule_profile"] == "comp2016"


def test_record_result_is_idempotent(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    first = hand_record_result(hand=hand, idempotency_key="same", **RESULT).hand
    again = hand_record_result(hand=hand, idempotency_key="same", **RESULT).hand
    assert again.pk == first.pk and again.version == 1
    assert HandEvent.objects.filter(hand=hand).count() == 1


def test_same_key_with_a_different_result_is_a_conflict(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, idempotency_key="same", **RESULT)
    with pytest.raises(ApplicationError) as excinfo:
        hand_record_result(hand=hand, idempotency_key="same", **{**RESULT, "bid": 2})
    assert excinfo.value.code == "idempotency_conflict"


def test_a_finished_hand_is_closed(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, **RESULT)
    with pytest.raises(ApplicationError) as excinfo:
        hand_record_result(hand=hand, **RESULT)
    assert excinfo.value.code == "hand_closed"
    assert HandEvent.objects.filter(hand=hand).count() == 1


def test_expected_version_guards_against_stale_writes(seated_table: Table) -> None:
    hand = hand_create(table=seated_table).hand
    with pytest.raises(ApplicationError) as excinfo:
        hand_record_result(hand=hand, expected_version=3, **RESULT)
    assert excinfo.value.code == "version_conflict"
    assert hand_record_result(hand=hand, expected_version=0, **RESULT).hand.version == 1


@pytest.mark.parametrize(
    "bad",
    [
        {"doubled": (True, False, False)},  # the landlord cannot double
        {"redoubled": True, "doubled": (False, False, False)},
        {"spring": True, "winner": "defenders"},
        {"bid": 4},
        {"winner": "nobody"},
    ],
)
def test_impossible_results_are_refused_and_nothing_is_written(
    seated_table: Table, bad: dict[str, Any]
) -> None:
    hand = hand_create(table=seated_table).hand
    with pytest.raises(ApplicationError) as excinfo:
        hand_record_result(hand=hand, **{**RESULT, **bad})
    assert excinfo.value.code == "invalid_result"
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.status, stored.version, stored.scores) == ("bidding", 0, None)
    assert not HandEvent.objects.filter(hand=hand).exists()


def test_the_hand_profile_decides_the_score() -> None:
    table = factories.seated_table(rule_profile="classic")
    hand = hand_create(table=table).hand
    assert hand.rule_profile == "classic"
    with pytest.raises(ApplicationError):  # classic has no doubling
        hand_record_result(hand=hand, **RESULT)
    plain = {**RESULT, "doubled": (False, False, False), "redoubled": False}
    recorded = hand_record_result(hand=hand, **plain).hand
    assert recorded.scores == expected_scores("classic", doubled=(False,) * 3, redoubled=False)


results = st.builds(
    dict,
    landlord=st.integers(0, 2),
    bid=st.integers(1, 3),
    doubled_defenders=st.tuples(st.booleans(), st.booleans()),
    redoubled=st.booleans(),
    bombs=st.integers(0, 4),
    rockets=st.integers(0, 1),
    winner=st.sampled_from(["landlord", "defenders"]),
    special=st.sampled_from([None, "spring", "anti_spring"]),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(spec=results)
def test_recorded_scores_are_zero_sum_and_match_the_rules_library(
    seated_table: Table, spec: dict[str, Any]
) -> None:
    seated_table = factories.seated_table()  # a table per example: one live hand per table
    landlord = spec["landlord"]
    defenders = [seat for seat in (0, 1, 2) if seat != landlord]
    doubled = [False, False, False]
    for seat, flag in zip(defenders, spec["doubled_defenders"], strict=True):
        doubled[seat] = flag
    winner = spec["winner"]
    special = spec["special"]
    if special == "spring":
        winner = "landlord"
    elif special == "anti_spring":
        winner = "defenders"
    result = {
        "landlord": landlord,
        "bid": spec["bid"],
        "doubled": (doubled[0], doubled[1], doubled[2]),
        "redoubled": spec["redoubled"] and any(doubled),
        "bombs": spec["bombs"],
        "rockets": spec["rockets"],
        "spring": special == "spring",
        "anti_spring": special == "anti_spring",
        "winner": winner,
    }
    hand = hand_create(table=seated_table).hand
    stored = hand_record_result(hand=hand, **result).hand
    stored.refresh_from_db()
    assert stored.scores == expected_scores(**result)
    assert len(stored.scores) == 3 and sum(stored.scores) == 0


# Committed transactions only where the threads need them: flushing a SQLite test
# database afterwards would DELETE hand events, which the append-only trigger refuses.
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_concurrent_replays_of_one_key_record_one_result() -> None:
    """PostgreSQL: two simultaneous requests with one idempotency key serialise on
    the hand row lock; one records, the other replays.  SQLite allows one writer
    at a time anyway, so there the two calls run one after the other."""
    table = factories.seated_table()
    hand = hand_create(table=table).hand
    outcomes = at_once(lambda: hand_record_result(hand=hand, idempotency_key="k", **RESULT).hand, 2)

    assert [getattr(o, "status", o) for o in outcomes] == ["finished", "finished"]
    assert HandEvent.objects.filter(hand=hand).count() == 1
    assert Hand.objects.get(pk=hand.pk).version == 1


@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_simultaneous_starts_at_one_table_take_consecutive_numbers() -> None:
    """PostgreSQL: devices starting a hand at one table at once queue on the table row;
    one starts hand 1, the others are refused (one live hand per table: not a unique
    constraint error half-way through the request)."""
    table = factories.seated_table()
    outcomes = at_once(lambda: hand_create(table=table, random_deal=True).hand.number, 4)
    assert sorted(o for o in outcomes if isinstance(o, int)) == [1]
    assert (
        sorted(o.code for o in outcomes if isinstance(o, ApplicationError))
        == ["hand_in_progress"] * 3
    )


def test_a_taken_hand_number_is_refused_with_a_code(seated_table: Table) -> None:
    hand_record_result(hand=hand_create(table=seated_table, number=3).hand, **RESULT)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=seated_table, number=3)
    assert refused.value.code == "hand_number_taken"
    assert Hand.objects.filter(table=seated_table).count() == 1


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_tournament_lock_survives_a_column_added_by_a_migration() -> None:
    """PostgreSQL, prepared statements: a deploy's migration (another connection) may add a
    column while the old web processes still run; their prepared hand-start statements
    keep working."""
    from tournaments.hands.write import hand_start_lock

    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    for _ in range(3):  # prepared from the second run on (DATABASE_PREPARE_THRESHOLD=2)
        hand_start_lock(table=table)
    migration = connections.create_connection("default")
    try:
        with migration.cursor() as cursor:
            cursor.execute("ALTER TABLE tournaments_tournament ADD COLUMN added_later integer")
        assert hand_start_lock(table=table).pk == tournament_id
        assert hand_create(table=table, random_deal=True).hand.number == 1
    finally:
        with migration.cursor() as cursor:
            cursor.execute("ALTER TABLE tournaments_tournament DROP COLUMN added_later")
        migration.close()
