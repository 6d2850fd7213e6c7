"""The hypothesis fuzz of test_services_bad_input, over the services built after it: hand
actions, undo, announcements, deals, corrections, confirmation, penalties, rounds, seating,
entries, referee accounts and archive import.

Each service gets junk for its plain arguments (text, numbers, flags, keys, versions): it
either succeeds or raises ApplicationError with a code, and a refusal writes nothing (rows
of every model of the project and of accounts are counted before and after).
"""

import contextlib
from typing import Any

import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import strategies as st

from tests import factories
from tests.tournaments.test_services_bad_input import (
    FUZZ,
    RESULT,
    assert_refused_cleanly,
    fuzz_arguments,
    junk,
)
from tournaments.archive.restore import tournament_import
from tournaments.common.errors import ApplicationError
from tournaments.hands.confirmation import hand_confirm, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_announcement_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import Hand, RoundStatus, Seat, Table
from tournaments.rounds.referees import referee_account_create
from tournaments.rounds.services import round_close, round_reopen, round_start
from tournaments.seating.services import (
    round_seat,
    round_seat_preview,
    seat_correct,
    seat_override,
    seat_remove,
    table_seats_set,
)
from tournaments.standings.snapshots import standings_request, standings_snapshot_update
from tournaments.tournament.entry_import import entries_import, entries_import_preview
from tournaments.tournament.penalties import penalty_create, penalty_revoke
from tournaments.tournament.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

WRITE_OPTIONS = ["idempotency_key", "expected_version", "device_id"]

#: An action: junk, or a dict of the action keys (and a stray one) holding junk.
actions = junk | st.dictionaries(
    st.sampled_from(["seat", "bid", "double", "redouble", "play", "pass", "x"]), junk, max_size=4
)


def dealt_hand(table: Table) -> Hand:
    return hand_create(table=table, random_deal=True, seed=11, first_bidder=0).hand


def finished_hand(table: Table) -> Hand:
    hand = hand_create(table=table).hand
    return hand_record_result(hand=hand, **RESULT).hand


@FUZZ
@given(action=actions, args=fuzz_arguments(WRITE_OPTIONS))
def test_fuzz_hand_action_record(seated_table: Table, action: Any, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_action_record(hand=hand, action=action, **args).hand,
        lambda: dealt_hand(seated_table),
    )


@FUZZ
@given(args=fuzz_arguments(["reason", *WRITE_OPTIONS]))
def test_fuzz_hand_action_undo(seated_table: Table, args: dict[str, Any]) -> None:
    def setup() -> Hand:
        hand = dealt_hand(seated_table)
        return hand_action_record(hand=hand, action={"seat": 0, "bid": 1}).hand

    assert_refused_cleanly(
        lambda hand: hand_action_undo(hand=hand, **{"reason": "misheard", **args}).hand, setup
    )


@FUZZ
@given(args=fuzz_arguments(["seat", "made", *WRITE_OPTIONS]))
def test_fuzz_hand_announcement_record(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_announcement_record(hand=hand, **{"seat": 0, **args}).hand,
        lambda: dealt_hand(seated_table),
    )


@FUZZ
@given(
    deal=junk
    | st.dictionaries(st.sampled_from(["hands", "kitty", "first_bidder", "x"]), junk, max_size=3),
    args=fuzz_arguments(WRITE_OPTIONS),
)
def test_fuzz_hand_deal_record(seated_table: Table, deal: Any, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_deal_record(hand=hand, deal=deal, **args).hand,
        lambda: hand_create(table=seated_table, physical_cards=True).hand,
    )


@FUZZ
@given(args=fuzz_arguments(WRITE_OPTIONS))
def test_fuzz_hand_record_passed_out(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_record_passed_out(hand=hand, **args).hand,
        lambda: hand_create(table=seated_table).hand,
    )


@FUZZ
@given(args=fuzz_arguments(["reason", *WRITE_OPTIONS]))
def test_fuzz_hand_void(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_void(hand=hand, **{"reason": "wrong table", **args}).hand,
        lambda: finished_hand(seated_table),
    )


@FUZZ
@given(args=fuzz_arguments(["reason", *RESULT, *WRITE_OPTIONS]))
def test_fuzz_hand_result_correct(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda hand: hand_result_correct(hand=hand, **{**RESULT, "reason": "typo", **args}).hand,
        lambda: finished_hand(seated_table),
    )


def finished_hand_and_player_account(table: Table) -> tuple[Hand, Any]:
    hand = finished_hand(table)
    seat = Seat.objects.get(table=table, position=1)
    user = factories.UserFactory()
    seat.entry.player.user = user
    seat.entry.player.save()
    return hand, user


@FUZZ
@given(args=fuzz_arguments(WRITE_OPTIONS))
def test_fuzz_hand_confirm(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda made: hand_confirm(hand=made[0], recorded_by=made[1], **args).hand,
        lambda: finished_hand_and_player_account(seated_table),
    )


@FUZZ
@given(args=fuzz_arguments(["reason", *WRITE_OPTIONS]))
def test_fuzz_hand_dispute(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(
        lambda made: (
            hand_dispute(
                hand=made[0], recorded_by=made[1], **{"reason": "not my score", **args}
            ).hand
        ),
        lambda: finished_hand_and_player_account(seated_table),
    )


@FUZZ
@given(args=fuzz_arguments(["points", "reason", "idempotency_key"]))
def test_fuzz_penalty_create(seated_table: Table, args: dict[str, Any]) -> None:
    entry = Seat.objects.get(table=seated_table, position=0).entry
    assert_refused_cleanly(
        lambda _: penalty_create(entry=entry, **{"points": -10, "reason": "slow play", **args})
    )


@FUZZ
@given(args=fuzz_arguments(["reason"]))
def test_fuzz_penalty_revoke(seated_table: Table, args: dict[str, Any]) -> None:
    entry = Seat.objects.get(table=seated_table, position=0).entry
    director = factories.UserFactory(is_staff=True)
    revoke = {"reason": "appeal upheld", "recorded_by": director, **args}
    assert_refused_cleanly(
        lambda penalty: penalty_revoke(penalty=penalty, **revoke),
        lambda: penalty_create(entry=entry, points=-10, reason="slow play"),
    )


@FUZZ
@given(args=fuzz_arguments(["force", "reason"]))
def test_fuzz_round_close(seated_table: Table, args: dict[str, Any]) -> None:
    def setup() -> Any:
        hand_create(table=seated_table)  # unfinished: closing needs force and a reason
        return round_start(round=seated_round(seated_table))

    assert_refused_cleanly(lambda round: round_close(round=round, **args), setup)


@FUZZ
@given(args=fuzz_arguments(["reason"]))
def test_fuzz_round_reopen(seated_table: Table, args: dict[str, Any]) -> None:
    director = factories.UserFactory(is_staff=True)

    def setup() -> Any:
        # no hand played: the close excludes the round's hands, with a reason (issue 29)
        round_ = round_start(round=seated_round(seated_table))
        return round_close(round=round_, force=True, reason="no play", recorded_by=director)

    assert_refused_cleanly(
        lambda round: round_reopen(round=round, **{"reason": "late result", **args}), setup
    )


def seated_round(table: Table) -> Any:
    table.round.status = RoundStatus.SEATED
    table.round.save(update_fields=["status"])
    return table.round


def draft_round_with_six_entries(table: Table) -> Any:
    tournament = table.round.tournament
    for _ in range(3):
        factories.EntryFactory(tournament=tournament)
    return factories.RoundFactory(tournament=tournament, status=RoundStatus.DRAFT)


@FUZZ
@given(seed=junk)
def test_fuzz_round_seat_and_preview(seated_table: Table, seed: Any) -> None:
    assert_refused_cleanly(
        lambda round: round_seat_preview(round=round, seed=seed),
        lambda: draft_round_with_six_entries(seated_table),
    )
    assert_refused_cleanly(
        lambda round: round_seat(round=round, seed=seed),
        lambda: draft_round_with_six_entries(seated_table),
    )


@FUZZ
@given(args=fuzz_arguments(["reason"]), played=st.booleans())
def test_fuzz_seat_override_and_correct(
    seated_table: Table, args: dict[str, Any], played: bool
) -> None:
    def setup() -> tuple[Seat, Any]:
        if played:
            finished_hand(seated_table)
        seat = Seat.objects.get(table=seated_table, position=2)
        return seat, factories.EntryFactory(tournament=seated_table.round.tournament)

    for service in (seat_override, seat_correct):
        assert_refused_cleanly(
            lambda made, service=service: service(
                seat=made[0], entry=made[1], **{"reason": "wrong card", **args}
            ),
            setup,
        )


@FUZZ
@given(text=junk | st.text(alphabet=st.sampled_from("name,club,中文\n\"'\x00;"), max_size=200))
def test_fuzz_entries_import(seated_table: Table, text: Any) -> None:
    tournament = seated_table.round.tournament
    assert_refused_cleanly(lambda _: entries_import_preview(tournament=tournament, text=text))
    assert_refused_cleanly(lambda _: entries_import(tournament=tournament, text=text))


@FUZZ
@given(username=junk)
def test_fuzz_referee_account_create(username: Any) -> None:
    assert_refused_cleanly(lambda _: referee_account_create(username=username))


@FUZZ
@given(text=junk | st.text(alphabet=st.sampled_from('{}[]":,0123 abcformat'), max_size=200))
def test_fuzz_tournament_import(text: Any) -> None:
    assert_refused_cleanly(lambda _: tournament_import(text=text))


def test_withdrawing_an_entry_twice_is_harmless(seated_table: Table) -> None:
    entry = factories.EntryFactory(tournament=seated_table.round.tournament)
    entry_withdraw(entry=entry)
    assert_refused_cleanly(lambda _: entry_withdraw(entry=entry))


@FUZZ
@given(args=fuzz_arguments(["number", "seed", "random_deal", "physical_cards", "first_bidder"]))
def test_fuzz_hand_create_every_option(seated_table: Table, args: dict[str, Any]) -> None:
    assert_refused_cleanly(lambda _: hand_create(table=seated_table, **args).hand)


@FUZZ
@given(reason=junk)
def test_fuzz_seat_remove(seated_table: Table, reason: Any) -> None:
    assert_refused_cleanly(
        lambda seat: seat_remove(seat=seat, reason=reason),
        lambda: Seat.objects.get(table=seated_table, position=2),
    )


@FUZZ
@given(
    positions=st.lists(junk, max_size=3),
    reason=junk,
)
def test_fuzz_table_seats_set(seated_table: Table, positions: list[Any], reason: Any) -> None:
    """The admin's seat editor: junk positions and reasons for real entries."""

    def setup() -> dict[Any, Any]:
        entries = [factories.EntryFactory(tournament=seated_table.round.tournament)]
        seats: dict[Any, Any] = {}
        for position in positions:
            with contextlib.suppress(TypeError):  # an unhashable junk key is no dict key
                seats[position] = entries[0]
        return seats

    assert_refused_cleanly(
        lambda seats: table_seats_set(table=seated_table, seats=seats, reason=reason), setup
    )


@FUZZ
@given(tournament_id=junk)
def test_fuzz_standings_services(tournament_id: Any) -> None:
    assert_refused_cleanly(lambda _: standings_snapshot_update(tournament_id=tournament_id))
    assert_refused_cleanly(lambda _: standings_request(tournament_id=tournament_id))


@pytest.mark.parametrize(
    "reason, code",
    [
        ("wrong\x00seat", "invalid"),
        ("x" * 2001, "invalid"),
        ("  ", "reason_required"),
        (7, "reason_required"),
    ],
    ids=["nul", "too-long", "blank", "number"],
)
def test_every_reason_is_checked_alike(seated_table: Table, reason: Any, code: str) -> None:
    """One check for every service's reason: PostgreSQL refused a NUL in the text (and
    jsonb) columns with a raw DataError (found by the fuzz in CI pass 2)."""
    calls = [
        lambda hand: hand_void(hand=hand, reason=reason).hand,
        lambda hand: hand_result_correct(hand=hand, reason=reason, **RESULT).hand,
        lambda hand: penalty_create(
            entry=Seat.objects.get(table=seated_table, position=0).entry, points=-5, reason=reason
        ),
        lambda hand: seat_remove(
            seat=Seat.objects.get(table=seated_table, position=2), reason=reason
        ),
    ]
    for call in calls:
        with transaction.atomic():
            hand = finished_hand(seated_table)
            with pytest.raises(ApplicationError) as refused:
                call(hand)
            assert refused.value.code == code
            transaction.set_rollback(True)
