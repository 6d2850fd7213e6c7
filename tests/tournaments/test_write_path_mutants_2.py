"""The hand-write skeleton's and the log replay's survivors of mutation testing, pinned
(issue 19, step 0; the sibling of ``test_write_path_mutants``).

mutmut (2.x, per module, with the tests that exercise it) left these mutants of
``tournaments/hands/writing.py`` and ``tournaments/hands/replay.py`` alive. Each test
goes through the public services (or the skeleton ``hand_write`` itself, with a
``decide`` of its own) and compares with values written out by hand: the refusal's code
and message, the stored event and row, the write's answer. Nothing is recomputed by the
code under test."""

import dataclasses
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from referee.rules.actions import action_from_json
from referee.rules.cards import deal_from_seed
from referee.rules.errors import InvalidResult, RulesError
from referee.rules.hand import HandState
from referee.rules.physical import PhysicalHandState
from referee.rules.profiles import get_profile
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.replay import hand_replay, hand_replay_stored, hand_state_new, rules_error
from tournaments.hands.selectors import hand_detail, hand_write_detail
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_result,
)
from tournaments.hands.writing import (
    HandWrite,
    LockedHand,
    NewEvent,
    hand_event_append,
    hand_retry_check,
    hand_row_lock,
    hand_row_lock_keyed,
    hand_write,
)
from tournaments.models import Hand, HandEvent

pytestmark = pytest.mark.django_db

#: deal_from_seed(7): seat 2 bids first.
SEED = 7


def _row(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


def _dealt() -> Hand:
    return hand_create(table=factories.seated_table(), deal=deal_from_seed(SEED).to_json()).hand


def _events(hand: Hand) -> list[tuple[int, str, dict[str, Any], int | None, str, str | None]]:
    return [
        (e.seq, e.kind, e.payload, e.actor_seat, e.device_id, e.idempotency_key)
        for e in HandEvent.objects.filter(hand=hand).order_by("seq")
    ]


def _summary(hand: Hand) -> tuple[Any, ...]:
    row = _row(hand)
    assert row.state is not None
    return (row.version, row.status, row.landlord_seat, row.bid, len(row.state["actions"]))


def _write(hand: Hand, decide: Any, **fields: Any) -> Hand:
    """The skeleton with a ``decide`` of the test's own (no key, no version, by nobody)."""
    return hand_write(
        hand=hand,
        idempotency_key=fields.pop("idempotency_key", None),
        expected_version=fields.pop("expected_version", None),
        same_request=lambda event: True,
        decide=decide,
        **fields,
    )


# =========================================================================== writing.py
def test_the_skeleton_stores_an_empty_device_unless_given() -> None:
    hand = _dealt()
    bid = NewEvent("bid", {"action": {"seat": 2, "bid": 1}}, actor_seat=2)

    def decide(locked: Hand, replay: Any) -> NewEvent:
        assert replay.state is not None
        replay.state.push(action_from_json({"seat": 2, "bid": 1}))
        return bid

    _write(hand, decide)
    assert _events(hand) == [(1, "bid", {"action": {"seat": 2, "bid": 1}}, 2, "", None)]


def test_a_key_too_long_or_not_printable_is_refused_before_anything_is_written() -> None:
    hand = _dealt()
    for key, message in [
        ("k" * 129, "idempotency_key: must be at most 128 characters."),
        ("a\nb", "idempotency_key: must be 1 to 128 printable characters."),
        ("", "idempotency_key: must be 1 to 128 printable characters."),
    ]:
        with pytest.raises(ApplicationError) as caught:
            hand_action_record(hand=hand, action={"seat": 2, "bid": 1}, idempotency_key=key)
        assert (caught.value.code, caught.value.message) == ("invalid", message)
    assert (_row(hand).version, _events(hand)) == (0, [])


def test_a_negative_expected_version_is_refused_naming_the_field() -> None:
    hand = _dealt()
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action={"seat": 2, "bid": 1}, expected_version=-1)
    assert (caught.value.code, caught.value.extra) == (
        "invalid",
        {"fields": {"expected_version": ["must be between 0 and 9223372036854775807."]}},
    )
    assert (_row(hand).version, _events(hand)) == (0, [])


def test_the_write_answers_the_event_under_its_key_and_none_without_a_key() -> None:
    hand = _dealt()
    written = hand_action_record(
        hand=hand, action={"seat": 2, "bid": 1}, idempotency_key="k1", device_id="d"
    )
    answer = hand_write_detail(written=written, show_cards=False)
    assert (answer["version"], answer["status"], answer["turn"]) == (1, "bidding", 0)
    assert (answer["event"]["seq"], answer["event"]["kind"], answer["event"]["payload"]) == (
        1,
        "bid",
        {"action": {"seat": 2, "bid": 1}},
    )
    assert "events" not in answer
    assert written.event is not None
    assert (written.hand.version, written.event.seq, written.event.idempotency_key) == (1, 1, "k1")
    assert written.replay is not None and written.replay.summary["status"] == "bidding"

    unkeyed = hand_action_record(hand=written.hand, action={"seat": 0, "bid": 2})
    assert (unkeyed.hand.version, unkeyed.event) == (2, None)
    answer = hand_write_detail(written=unkeyed, show_cards=False)
    assert (answer["version"], answer["event"]) == (2, None)


def test_a_retry_answers_the_event_recorded_with_its_key() -> None:
    hand = _dealt()
    first = hand_action_record(hand=hand, action={"seat": 2, "bid": 1}, idempotency_key="k1").hand
    again = hand_action_record(hand=first, action={"seat": 2, "bid": 1}, idempotency_key="k1")
    assert again.event is not None
    assert (again.hand.version, again.event.seq, again.replay) == (1, 1, None)
    assert _row(hand).version == 1
    answer = hand_write_detail(written=again, show_cards=False)
    assert (answer["version"], answer["event"]["seq"]) == (1, 1)


def test_the_write_hangs_nothing_on_the_hand_it_returns() -> None:
    """What a write wrote is its return value, not an attribute of the model instance."""
    written = hand_action_record(hand=_dealt(), action={"seat": 2, "bid": 1}, idempotency_key="k")
    assert not hasattr(written.hand, "written")


def test_a_write_of_nothing_answers_the_row_as_it_is() -> None:
    """A decision to append nothing (a wrong PIN's count): no event, the row's state."""
    hand = _dealt()
    written = hand_write(
        hand=hand,
        idempotency_key="k",
        expected_version=None,
        same_request=lambda event: True,
        decide=lambda locked, replay: [],
    )
    assert (written.event, written.replay, written.hand.version) == (None, None, 0)
    assert hand_write_detail(written=written, show_cards=False)["version"] == 0


def test_a_deal_that_breaks_the_log_answers_the_deal_under_the_key() -> None:
    """Two events (the deal, then its dispute): the key and the answer are the deal's."""
    deal = deal_from_seed(SEED)
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    actions = random_hand_actions(deal, seed=5)
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
    other = deal_from_seed(8, first_bidder=2)
    written = hand_deal_record(hand=hand, deal=other.to_json(), idempotency_key="deal")
    n = len(actions)
    kinds = [(seq, kind, key) for seq, kind, _, _, _, key in _events(hand)]
    assert kinds[n:] == [(n + 1, "deal", "deal"), (n + 2, "dispute", None)]
    answer = hand_write_detail(written=written, show_cards=False)
    assert (answer["event"]["seq"], answer["event"]["kind"]) == (n + 1, "deal")
    assert answer["version"] == n + 2


def test_an_action_appended_without_being_pushed_is_replayed_into_the_row() -> None:
    """A ``decide`` that appends an action it did not push onto the replay's state: the
    row holds the log's state (rebuilt), not the state it was handed."""
    hand = _dealt()
    _write(hand, lambda locked, replay: NewEvent("bid", {"action": {"seat": 2, "bid": 3}}, 2))
    assert _summary(hand) == (1, "doubling", 2, 3, 1)


def test_an_action_pushed_but_not_the_one_appended_is_replayed_into_the_row() -> None:
    hand = _dealt()

    def decide(locked: Hand, replay: Any) -> NewEvent:
        replay.state.push(action_from_json({"seat": 2, "bid": 3}))
        return NewEvent("bid", {"action": {"seat": 2, "bid": 1}}, actor_seat=2)

    _write(hand, decide)
    assert _summary(hand) == (1, "bidding", None, None, 1)


def test_two_actions_pushed_for_one_appended_are_replayed_into_the_row() -> None:
    """Three passes pushed (the hand passed out), the last one appended: the row holds
    the log of one pass, still bidding."""
    hand = _dealt()
    passes = [{"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}, {"seat": 1, "bid": 0}]

    def decide(locked: Hand, replay: Any) -> NewEvent:
        for action in passes:
            replay.state.push(action_from_json(action))
        return NewEvent("bid", {"action": {"seat": 1, "bid": 0}}, actor_seat=1)

    _write(hand, decide)
    assert _summary(hand) == (1, "bidding", None, None, 1)


def test_a_non_action_appended_after_a_push_is_replayed_into_the_row() -> None:
    hand = _dealt()

    def decide(locked: Hand, replay: Any) -> NewEvent:
        replay.state.push(action_from_json({"seat": 2, "bid": 3}))
        return NewEvent("note", {"text": "a note"})

    _write(hand, decide)
    assert _summary(hand) == (1, "bidding", None, None, 0)


def test_two_actions_appended_with_one_pushed_are_replayed_into_the_row() -> None:
    hand = _dealt()

    def decide(locked: Hand, replay: Any) -> list[NewEvent]:
        replay.state.push(action_from_json({"seat": 2, "bid": 3}))
        return [
            NewEvent("bid", {"action": {"seat": 2, "bid": 1}}, 2),
            NewEvent("bid", {"action": {"seat": 0, "bid": 3}}, 0),
        ]

    _write(hand, decide)
    assert _summary(hand) == (2, "doubling", 0, 3, 2)


def test_two_events_after_a_rewritten_state_are_replayed_into_the_row() -> None:
    """Two events appended (an action, then a dispute) after ``decide`` rewrote the state's
    earlier actions: the row holds the log (three passes: passed out), not that state."""
    hand = _dealt()
    for action in ({"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}):
        hand = hand_action_record(hand=hand, action=action).hand

    def decide(locked: Hand, replay: Any) -> list[NewEvent]:
        replay.state.pop()
        replay.state.pop()
        for action in ({"seat": 2, "bid": 1}, {"seat": 0, "bid": 0}, {"seat": 1, "bid": 0}):
            replay.state.push(action_from_json(action))
        return [
            NewEvent("bid", {"action": {"seat": 1, "bid": 0}}, actor_seat=1),
            NewEvent("dispute", {"reason": "a dispute"}),
        ]

    _write(hand, decide)
    assert _summary(hand) == (4, "passed_out", None, None, 3)


def test_an_action_appended_to_a_hand_without_deal_leaves_it_without_state() -> None:
    hand = hand_create(table=factories.seated_table()).hand
    _write(hand, lambda locked, replay: NewEvent("bid", {"action": {"seat": 0, "bid": 1}}, 0))
    assert _summary(hand) == (1, "bidding", None, None, 1)


def test_an_event_appended_without_seq_takes_the_next_number() -> None:
    locked = _row(_dealt())
    first = hand_event_append(hand=locked, kind="note", payload={"text": "a"}, recorded_by=None)
    second = hand_event_append(hand=locked, kind="note", payload={"text": "b"}, recorded_by=None)
    assert (first.seq, second.seq, locked.version) == (1, 2, 2)
    assert (second.hand is locked, second.hand_id) == (True, locked.pk)
    assert (second.device_id, second.idempotency_key) == ("", None)


def test_the_skeletons_value_objects_are_frozen_with_their_defaults() -> None:
    event = NewEvent("note", {})
    hand = _dealt()
    written = HandWrite(hand=hand)
    locked = LockedHand(hand=hand, key_seen=True)
    assert (event.actor_seat, written.event, written.replay) == (None, None, None)
    assert locked.key_event_id is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.kind = "bid"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        written.event = None  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        locked.key_seen = False  # type: ignore[misc]


def test_the_keyed_lock_says_what_its_statement_saw_of_the_key() -> None:
    """A lock that did not wait: the key's event as its statement read it (None: none),
    so the retry check reads nothing again."""
    _keyed_elsewhere()
    hand = hand_action_record(hand=_dealt(), action={"seat": 2, "bid": 1}, idempotency_key="k").hand
    keyed = HandEvent.objects.get(hand=hand, idempotency_key="k")
    with transaction.atomic():
        found = hand_row_lock_keyed(hand=hand, idempotency_key="k")
        unused = hand_row_lock_keyed(hand=hand, idempotency_key="other")
        unkeyed = hand_row_lock_keyed(hand=hand, idempotency_key=None)
    assert (found.hand.pk, found.hand.version) == (hand.pk, 1)
    assert (found.key_seen, found.key_event_id) == (True, keyed.pk)
    assert (unused.key_seen, unused.key_event_id) == (True, None)
    assert (unkeyed.key_seen, unkeyed.key_event_id) == (True, None)


def _statements(queries: CaptureQueriesContext) -> list[str]:
    """The statements run, savepoints aside, by their first words."""
    words = [" ".join(q["sql"].split()[:2]) for q in queries]
    return [w for w in words if not w.startswith(("SAVEPOINT", "RELEASE"))]


def _board_hand() -> Hand:
    table = factories.seated_table()
    board = factories.BoardFactory(tournament=table.round.tournament, seed=SEED)
    return hand_create(table=table, board=board).hand


def test_a_keyed_write_is_the_lock_the_insert_and_the_update() -> None:
    """No read of the key's event apart from the lock's, and no read of the board the
    caller's hand holds."""
    hand = hand_action_record(hand=_board_hand(), action={"seat": 2, "bid": 1}).hand
    with CaptureQueriesContext(connection) as queries:
        written = hand_action_record(
            hand=hand, action={"seat": 0, "bid": 2}, idempotency_key="k"
        ).hand
    assert _statements(queries) == ['SELECT h."id",', "INSERT INTO", 'UPDATE "tournaments_hand"']
    assert written.board is hand.board
    with CaptureQueriesContext(connection) as queries:
        again = hand_action_record(
            hand=written, action={"seat": 0, "bid": 2}, idempotency_key="k"
        ).hand
    assert _statements(queries) == ['SELECT h."id",', 'SELECT "tournaments_handevent"."id",']
    assert (again.version, again.board is hand.board) == (2, True)


def test_the_row_lock_reads_the_row_and_keeps_the_callers_table_and_board() -> None:
    hand = _board_hand()
    Hand.objects.filter(pk=hand.pk).update(version=5)
    locked = hand_row_lock(hand=hand)
    assert (locked.pk, locked.version) == (hand.pk, 5)
    assert (locked.table is hand.table, locked.board is hand.board) == (True, True)


def _keyed_elsewhere() -> None:
    """Events of another hand first, so that the keyed event's id is not 1 or 2."""
    other = _dealt()
    for action in ({"seat": 2, "bid": 1}, {"seat": 0, "bid": 2}):
        other = hand_action_record(hand=other, action=action).hand


def test_the_retry_check_reads_the_keys_event_itself_by_default() -> None:
    _keyed_elsewhere()
    hand = hand_action_record(hand=_dealt(), action={"seat": 2, "bid": 1}, idempotency_key="k").hand
    keyed = HandEvent.objects.get(hand=hand, idempotency_key="k")
    assert keyed.pk not in (1, 2)
    found = hand_retry_check(
        hand=_row(hand),
        idempotency_key="k",
        expected_version=None,
        same_request=lambda event: event.kind == "bid",
    )
    assert found is not None and (found.pk, found.seq) == (keyed.pk, 1)
    unused = hand_retry_check(
        hand=_row(hand),
        idempotency_key="unused",
        expected_version=1,
        same_request=lambda event: event.kind == "bid",
    )
    assert unused is None


def test_a_key_reused_for_another_action_is_refused_with_its_message() -> None:
    hand = hand_action_record(hand=_dealt(), action={"seat": 2, "bid": 1}, idempotency_key="k").hand
    with pytest.raises(ApplicationError) as caught:
        hand_action_record(hand=hand, action={"seat": 0, "bid": 2}, idempotency_key="k")
    assert (caught.value.code, caught.value.message) == (
        "idempotency_conflict",
        "This idempotency key was already used for a different request.",
    )
    assert _row(hand).version == 1


# =========================================================================== replay.py
@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("out_of_turn", "It is not this seat's turn."),
        ("not_held", "The seat does not hold these cards."),
        ("invalid_combination", "These cards are not a legal combination."),
        ("does_not_beat", "These cards do not beat the play on the table."),
        ("lead_pass", "The leader must play; a lead cannot be passed."),
        ("invalid_bid", "This bid is not allowed now."),
        ("invalid_double", "This double or redouble is not allowed now."),
        ("phase", "This action is not allowed in the hand's current phase."),
        ("bad_notation", "The cards could not be read."),
        ("bad_request", "The action must be a bid, double, redouble, play or pass."),
        (
            "invalid_deal",
            "The deal does not split the pack into the seats' hands and the kitty as the rules "
            "say.",
        ),
        ("invalid_result", "The result contradicts itself."),
        ("impossible_result", "No deal of one pack can give this result."),
        ("unknown_profile", "The rules refuse this."),
    ],
)
def test_each_rules_code_is_refused_with_its_own_message(code: str, message: str) -> None:
    error = rules_error(RulesError("the library's words", code=code))
    assert (error.code, error.message, error.extra) == (
        code,
        message,
        {"rule": "the library's words"},
    )


def test_a_rules_refusal_keeps_the_index_and_the_rule_number() -> None:
    failed = RulesError("bad", code="out_of_turn")
    failed.index = 4
    assert rules_error(failed).extra == {"rule": "bad", "index": 4}
    assert rules_error(failed, index=9, top="x").extra == {"rule": "bad", "index": 9, "top": "x"}
    impossible = InvalidResult("R7.2: too many bombs", rule="R7.2")
    assert rules_error(impossible).extra == {
        "rule": "R7.2: too many bombs",
        "rule_number": "R7.2",
    }


def _logged() -> Hand:
    """Deal 7 played out by ``random_hand_actions(seed=1)``: landlord 0, bid 3, doubled by
    seat 1 and redoubled, no bomb, no rocket, no spring, the defenders win."""
    deal = deal_from_seed(SEED)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    for action in random_hand_actions(deal, seed=1):
        hand = hand_action_record(hand=hand, action=action).hand
    return _row(hand)


def _override_shown(hand: Hand) -> Any:
    return hand_detail(hand=_row(hand), show_cards=False)["override"]


def test_an_override_shows_the_fields_it_changes_beside_the_logs() -> None:
    hand = _logged()
    done = hand_result_correct(
        hand=hand, reason="the log is wrong", landlord=0, bid=3, winner="landlord",
        doubled=(False, True, False), redoubled=True, override=True,
    ).hand  # fmt: skip
    assert _override_shown(done) == {
        "seq": done.version,
        "reason": "the log is wrong",
        "changes": [{"field": "winner", "log": "defenders", "override": "landlord"}],
    }


def test_an_override_of_a_logged_pass_out_shows_each_field_it_sets() -> None:
    deal = deal_from_seed(SEED)
    hand = hand_create(table=factories.seated_table(), deal=deal.to_json()).hand
    for action in ({"seat": 2, "bid": 0}, {"seat": 0, "bid": 0}, {"seat": 1, "bid": 0}):
        hand = hand_action_record(hand=hand, action=action).hand
    done = hand_result_correct(
        hand=hand, reason="they bid after all", landlord=2, bid=1, winner="landlord",
        override=True,
    ).hand  # fmt: skip
    assert _override_shown(done)["changes"] == [
        {"field": "passed_out", "log": True, "override": False},
        {"field": "landlord", "log": None, "override": 2},
        {"field": "bid", "log": None, "override": 1},
        {"field": "winner", "log": None, "override": "landlord"},
    ]


def test_an_override_to_passed_out_shows_the_landlord_it_removes() -> None:
    hand = _logged()
    done = hand_result_correct(hand=hand, reason="a misdeal", passed_out=True, override=True).hand
    assert (done.status, *done.scores) == ("passed_out", 0, 0, 0)
    assert _override_shown(done)["changes"] == [
        {"field": "passed_out", "log": False, "override": True},
        {"field": "landlord", "log": 0, "override": None},
    ]


def test_a_hand_without_override_shows_none() -> None:
    assert _override_shown(_logged()) is None


def test_a_new_rules_state_is_the_hands_deal_or_its_physical_cards_or_none() -> None:
    dealt = hand_state_new(hand=_dealt())
    assert isinstance(dealt, HandState)
    assert (dealt.deal.to_json(), len(dealt.actions)) == (deal_from_seed(SEED).to_json(), 0)
    physical = hand_state_new(
        hand=hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=1).hand
    )
    assert isinstance(physical, PhysicalHandState)
    assert [a.to_json() for a in physical.legal_actions()][:2] == [
        {"seat": 1, "bid": 0},
        {"seat": 1, "bid": 1},
    ]
    assert hand_state_new(hand=hand_create(table=factories.seated_table()).hand) is None


def test_a_log_that_breaks_the_rules_does_not_replay_and_says_which_hand() -> None:
    """An action the rules refuse, appended by a ``decide`` of its own (a write checks
    it): the log read again does not replay."""
    hand = _dealt()
    _write(hand, lambda locked, replay: NewEvent("bid", {"action": {"seat": 0, "bid": 1}}, 0))
    with pytest.raises(RuntimeError) as caught:
        hand_replay(hand=_row(hand))
    assert str(caught.value).startswith(f"hand {hand.pk} log does not replay: ")


def test_a_physical_log_that_breaks_the_rules_does_not_replay_when_checked() -> None:
    """Written (as accepted) by a ``decide`` of its own, the out-of-turn bid of a
    physical-cards hand is refused when its log is read again, checked."""
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    _write(hand, lambda locked, replay: NewEvent("bid", {"action": {"seat": 0, "bid": 1}}, 0))
    assert _summary(hand) == (1, "bidding", None, None, 1)
    with pytest.raises(RuntimeError) as caught:
        hand_replay(hand=_row(hand))
    assert str(caught.value).startswith(f"hand {hand.pk} log does not replay: ")


_RESULT = {
    "landlord": 1, "bid": 2, "doubled": [False, False, False], "redoubled": False,
    "bombs": 0, "rockets": 0, "spring": False, "anti_spring": False, "winner": "landlord",
}  # fmt: skip


@pytest.mark.parametrize(
    ("payload", "status", "scores"),
    [
        ({"result": _RESULT, "scores": [-2, 4, -2]}, "finished", (-2, 4, -2)),
        ({"passed_out": True, "scores": [0, 0, 0]}, "passed_out", (0, 0, 0)),
    ],
)
def test_a_result_keeps_the_profile_hash_it_was_scored_with(
    payload: dict[str, Any], status: str, scores: tuple[int, int, int]
) -> None:
    """A result event's own profile hash is the row's (a result scored before a profile
    changed keeps it); one without a hash takes the profile's."""
    kept = hand_create(table=factories.seated_table()).hand
    _write(kept, lambda locked, replay: NewEvent("result", {**payload, "rule_profile_hash": "0ld"}))
    row = _row(kept)
    assert (row.status, *row.scores) == (status, *scores)
    assert row.rule_profile_hash == "0ld"
    plain = hand_create(table=factories.seated_table()).hand
    _write(plain, lambda locked, replay: NewEvent("result", payload))
    assert _row(plain).rule_profile_hash == get_profile("comp2016").content_hash


_COLUMNS = (
    "status", "landlord_seat", "bid", "winner", "seats", "doubled",
    "redoubled", "bombs", "rockets", "spring", "anti_spring", "scores",
    "confirmation", "rule_profile_hash",
)  # fmt: skip


def _columns(hand: Hand) -> tuple[Any, ...]:
    row = _row(hand)
    return tuple(getattr(row, name) for name in _COLUMNS)


def test_a_hand_without_deal_or_result_holds_an_empty_summary() -> None:
    hand = hand_create(table=factories.seated_table()).hand
    _write(hand, lambda locked, replay: NewEvent("note", {"text": "a note"}))
    assert _columns(hand) == (
        "bidding", None, None, "", 3, [False, False, False],
        False, 0, 0, False, False, None,
        "not_required", "",
    )  # fmt: skip


def test_a_result_entered_is_stored_column_by_column() -> None:
    hand = hand_record_result(
        hand=hand_create(table=factories.seated_table()).hand, landlord=2, bid=3, winner="landlord",
        doubled=(True, False, False), redoubled=True, bombs=1, rockets=1, spring=True,
    ).hand  # fmt: skip
    assert _columns(hand) == (
        "finished", 2, 3, "landlord", 3, [True, False, False],
        True, 1, 1, True, False, [-96, -24, 120],
        "not_required", get_profile("comp2016").content_hash,
    )  # fmt: skip


def test_a_logged_double_is_stored_on_the_doubling_seats_column() -> None:
    hand = _dealt()
    for action in (
        {"seat": 2, "bid": 3},
        {"seat": 0, "double": True},
        {"seat": 1, "double": False},
    ):
        hand = hand_action_record(hand=hand, action=action).hand
    columns = _columns(hand)
    assert columns[1:7] == (2, 3, "", 3, [True, False, False], False)


def test_a_replay_from_the_rows_snapshot_keeps_frozen_actions() -> None:
    hand = hand_action_record(hand=_dealt(), action={"seat": 2, "bid": 1}).hand
    replay = hand_replay_stored(hand=_row(hand))
    assert [(a.seq, a.kind, a.actor_seat, a.payload) for a in replay.actions] == [
        (1, "bid", 2, {"action": {"seat": 2, "bid": 1}})
    ]
    with pytest.raises(dataclasses.FrozenInstanceError):
        replay.actions[0].seq = 5


def test_a_confirm_without_keep_leaves_an_irregular_hand_irregular() -> None:
    """Only a director's keep (with a reason) makes an irregular hand count again: a plain
    confirm appended to its log leaves it disputed and held back."""
    deal = deal_from_seed(SEED)
    hand = hand_create(table=factories.seated_table(), physical_cards=True, first_bidder=2).hand
    for action in random_hand_actions(deal, seed=5):
        hand = hand_action_record(hand=hand, action=action).hand
    hand = hand_deal_record(hand=hand, deal=deal_from_seed(8, first_bidder=2).to_json()).hand
    _write(hand, lambda locked, replay: NewEvent("confirm", {}))
    row = _row(hand)
    assert (row.confirmation, row.counts) == ("disputed", False)
    assert hand_detail(hand=row, show_cards=False)["irregular"] == "deal_check_failed"
