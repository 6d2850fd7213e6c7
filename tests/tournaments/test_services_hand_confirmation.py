"""Confirmation (SPEC R10.8.1, issue 17 point 3): who confirms, the players' PINs, each
refusal with its code and nothing written, fixed when the hand closes."""

from typing import Any

import pytest

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.confirmation import (
    PIN_TRIES,
    hand_confirm,
    hand_confirm_by_pins,
    hand_dispute,
    table_hands_confirm,
)
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.write import hand_create, hand_record_passed_out, hand_record_result
from tournaments.models import Hand, HandEvent, HandSeatResult, Seat, Table, Tournament
from tournaments.tournament.services import tournament_update

pytestmark = pytest.mark.django_db


def _pins(table: Table) -> dict[int, str]:
    return {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}


def _pending(table: Table, landlord: int = 0, recorded_by: Any = None) -> Hand:
    return hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=landlord,
        bid=2,
        winner="landlord",
        recorded_by=recorded_by,
    ).hand


def _snapshot(hand: Hand) -> tuple[Any, ...]:
    row = Hand.objects.get(pk=hand.pk)
    return (
        row.confirmation,
        row.version,
        row.pin_failures,
        HandEvent.objects.filter(hand=hand).count(),
        HandSeatResult.objects.filter(hand=hand).count(),
    )


def _refused(code: str, call: Any, hand: Hand, *, failures_added: int = 0) -> ApplicationError:
    before = _snapshot(hand)
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == code
    after = _snapshot(hand)
    assert after[:2] == before[:2] and after[3:] == before[3:]
    assert after[2] == before[2] + failures_added
    return caught.value


def test_every_entry_gets_its_own_four_digit_pin() -> None:
    table = factories.seated_table()
    pins = list(_pins(table).values())
    assert all(len(p) == 4 and p.isdigit() for p in pins)
    entries = [factories.EntryFactory() for _ in range(40)]
    assert len({e.pin for e in entries}) > 1


def test_players_confirm_with_one_pin_of_each_side() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table, landlord=1)
    pins = _pins(table)
    done = hand_confirm_by_pins(hand=hand, pins={1: pins[1], 2: pins[2]}, recorded_by=None).hand
    assert done.confirmation == "confirmed"
    assert done.counts
    assert HandSeatResult.objects.filter(hand=hand).count() == 3
    event = HandEvent.objects.filter(hand=hand).order_by("-seq").first()
    assert event is not None and event.payload["by"] == "players"
    assert event.payload["seats"] == [1, 2]


def test_a_passed_out_hand_is_confirmed_by_two_players() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = hand_record_passed_out(hand=hand_create(table=table).hand).hand
    pins = _pins(table)
    _refused(
        "pins_incomplete",
        lambda: hand_confirm_by_pins(hand=hand, pins={0: pins[0]}, recorded_by=None).hand,
        hand,
    )
    done = hand_confirm_by_pins(hand=hand, pins={0: pins[0], 2: pins[2]}, recorded_by=None).hand
    assert done.confirmation == "confirmed"


def test_refused_pins_incomplete_when_a_side_is_missing() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table, landlord=0)
    pins = _pins(table)
    # the two farmers only: the landlord's side did not confirm
    _refused(
        "pins_incomplete",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={1: pins[1], 2: pins[2]}, recorded_by=None).hand
        ),
        hand,
    )
    _refused(
        "pins_incomplete",
        lambda: hand_confirm_by_pins(hand=hand, pins={0: pins[0]}, recorded_by=None).hand,
        hand,
    )
    _refused(
        "pins_incomplete",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 5: "1234"}, recorded_by=None).hand
        ),
        hand,
    )


def test_a_wrong_pin_is_refused_and_counted_then_the_hand_locks() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table, landlord=0)
    pins = _pins(table)
    wrong = "0000" if pins[1] != "0000" else "1111"
    for tries in range(PIN_TRIES):
        error = _refused(
            "pin_wrong",
            lambda: (
                hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: wrong}, recorded_by=None).hand
            ),
            hand,
            failures_added=1,
        )
        assert error.extra["tries_left"] == PIN_TRIES - tries - 1
    # locked: even the right PINs are refused now, and no more tries are counted
    _refused(
        "pins_locked",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
        ),
        hand,
    )
    # a director confirms it
    director = factories.UserFactory(is_staff=True)
    assert hand_confirm(hand=hand, recorded_by=director).hand.confirmation == "confirmed"


def test_refused_confirmed_by_official_when_the_tournament_has_officials_confirm() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="official")
    hand = _pending(table)
    pins = _pins(table)
    _refused(
        "confirmed_by_official",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
        ),
        hand,
    )


def test_refused_not_awaiting_confirmation_for_pins() -> None:
    table = factories.seated_table(requires_confirmation=False, confirmed_by="players")
    hand = _pending(table)
    pins = _pins(table)
    _refused(
        "not_awaiting_confirmation",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
        ),
        hand,
    )


def test_a_disputed_hand_is_for_a_director_not_the_players() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table)
    director = factories.UserFactory(is_staff=True)
    hand = hand_dispute(hand=hand, reason="the bid was 3", recorded_by=director).hand
    pins = _pins(table)
    _refused(
        "not_awaiting_confirmation",
        lambda: (
            hand_confirm_by_pins(hand=hand, pins={0: pins[0], 1: pins[1]}, recorded_by=None).hand
        ),
        hand,
    )


def test_refused_confirmed_by_players_for_a_second_referee() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table)
    referee = factories.UserFactory()
    _refused(
        "confirmed_by_players", lambda: hand_confirm(hand=hand, recorded_by=referee).hand, hand
    )


def test_refused_second_person_required_for_the_recorder() -> None:
    table = factories.seated_table(requires_confirmation=True)
    recorder = factories.UserFactory(is_staff=True)
    hand = _pending(table, recorded_by=recorder)
    _refused(
        "second_person_required", lambda: hand_confirm(hand=hand, recorded_by=recorder).hand, hand
    )


def test_refused_not_awaiting_confirmation_for_an_official() -> None:
    table = factories.seated_table(requires_confirmation=False)
    hand = _pending(table)
    _refused(
        "not_awaiting_confirmation",
        lambda: hand_confirm(hand=hand, recorded_by=factories.UserFactory(is_staff=True)).hand,
        hand,
    )


def test_a_confirmation_pin_retry_with_its_key_writes_nothing_more() -> None:
    table = factories.seated_table(requires_confirmation=True, confirmed_by="players")
    hand = _pending(table)
    pins = _pins(table)
    request = {"pins": {0: pins[0], 1: pins[1]}, "recorded_by": None, "idempotency_key": "k-1"}
    hand_confirm_by_pins(hand=hand, **request)
    events = HandEvent.objects.filter(hand=hand).count()
    assert hand_confirm_by_pins(hand=hand, **request).hand.confirmation == "confirmed"
    assert HandEvent.objects.filter(hand=hand).count() == events


def test_a_table_confirms_all_its_hands_at_once_and_names_the_refused() -> None:
    table = factories.seated_table(requires_confirmation=True, hands_per_round=3)
    table.round.status = "playing"
    table.round.save()
    director = factories.UserFactory(is_staff=True)
    other = factories.UserFactory(is_staff=True)
    first = _pending(table, recorded_by=other)
    second = _pending(table, recorded_by=director)  # the director recorded this one
    done = table_hands_confirm(hands=list(table.hands.all()), recorded_by=director)
    assert [h.pk for h in done.confirmed] == [first.pk]
    assert [(h.pk, e.code) for h, e in done.refused] == [(second.pk, "second_person_required")]
    assert Hand.objects.get(pk=second.pk).confirmation == "pending"


def test_a_table_starts_its_next_hand_while_the_last_awaits_confirmation() -> None:
    table = factories.seated_table(requires_confirmation=True)
    first = _pending(table)
    assert first.confirmation == "pending"
    second = hand_create(table=table).hand
    assert second.number == first.number + 1


def test_r10_8_1_changing_the_setting_changes_no_closed_hand() -> None:
    """SPEC R10.8.1: whether a hand needs confirmation is fixed when it closes."""
    table = factories.seated_table(requires_confirmation=True)
    tournament = table.round.tournament
    pending = _pending(table)
    tournament_update(tournament=tournament, requires_confirmation=False)
    assert Hand.objects.get(pk=pending.pk).confirmation == "pending"
    later = _pending(table)
    assert later.confirmation == "not_required" and later.counts
    tournament_update(
        tournament=Tournament.objects.get(pk=tournament.pk), requires_confirmation=True
    )
    assert Hand.objects.get(pk=later.pk).confirmation == "not_required"
    # ... but correcting its result closes it again, under the setting of that moment
    corrected = hand_result_correct(
        hand=later, reason="bid was 1", landlord=0, bid=1, winner="landlord"
    ).hand
    assert corrected.confirmation == "pending" and not corrected.counts
