"""The hand row's snapshot (``Hand.state``, issue 19 step 3): every write builds its state
from the row, in its transaction, and writes the snapshot with its event; nothing is kept
in a process between writes. ``manage.py hand_audit`` holds rows and logs together."""

import importlib
from io import StringIO
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.actions import action_from_json
from referee.rules.cards import deal_from_seed
from referee.rules.errors import RulesError
from referee.rules.hand import HandState
from referee.rules.profiles import get_profile
from tests import factories
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands.audit import hands_audit
from tournaments.hands.corrections import hand_void
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.write import (
    hand_action_record,
    hand_action_undo,
    hand_create,
    hand_record_result,
)
from tournaments.models import Hand, Table

pytestmark = pytest.mark.django_db
SEED = 11


def _log_reads(queries: CaptureQueriesContext) -> list[str]:
    """The statements that read a hand's event log (the look-up of one Idempotency-Key's
    event aside)."""
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith('SELECT "tournaments_handevent"')
        and '"tournaments_handevent"."idempotency_key" =' not in q["sql"]
    ]


def _audit() -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("hand_audit", stdout=out, stderr=StringIO())
    except SystemExit as exc:
        return int(str(exc.code)), out.getvalue()
    return 0, out.getvalue()


def test_a_new_hand_holds_the_empty_logs_snapshot(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    assert Hand.objects.get(pk=hand.pk).state == {
        "actions": [],
        "result": None,
        "passed_out": False,
        "voided": False,
        "confirmation": "not_required",
        "deal": None,
        "announced": [],
        "closing": None,
        "irregular": None,
        "wild": None,
    }


def test_a_write_stores_the_actions_in_force_and_reads_no_log(seated_table: Table) -> None:
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    hand = hand_create(table=seated_table, seed=SEED).hand
    hand = hand_action_record(hand=hand, action=actions[0], idempotency_key="k0").hand
    with CaptureQueriesContext(connection) as queries:
        hand = hand_action_record(hand=hand, action=actions[1], idempotency_key="k1").hand
    assert _log_reads(queries) == []
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.version == 2
    assert [entry[0] for entry in stored.state["actions"]] == [1, 2]
    assert [entry[3] for entry in stored.state["actions"]] == actions[:2]
    hand = hand_action_undo(hand=hand, reason="wrong card").hand
    assert [entry[0] for entry in Hand.objects.get(pk=hand.pk).state["actions"]] == [1]


def test_two_processes_with_their_own_hand_objects_see_each_others_writes(
    seated_table: Table,
) -> None:
    """Two web processes hold two instances of one hand, read before either wrote: each
    write builds its state from the locked row, so the second continues the first's log."""
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    created = hand_create(table=seated_table, seed=SEED).hand
    first = Hand.objects.get(pk=created.pk)
    second = Hand.objects.get(pk=created.pk)
    hand_action_record(hand=first, action=actions[0])
    written = hand_action_record(hand=second, action=actions[1]).hand
    assert written.version == 2
    with pytest.raises(ApplicationError) as refused:  # the first's stale view: its turn passed
        hand_action_record(hand=first, action=actions[0], expected_version=0)
    assert refused.value.code == "version_conflict"
    assert hand_check_replays(hand=Hand.objects.get(pk=created.pk)) == []


def test_a_null_snapshot_is_rebuilt_from_the_log_by_the_next_write(seated_table: Table) -> None:
    """A row written before the column existed (or imported) has none: the next write
    folds the log and writes it."""
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    hand = hand_create(table=seated_table, seed=SEED).hand
    hand = hand_action_record(hand=hand, action=actions[0]).hand
    Hand.objects.filter(pk=hand.pk).update(state=None)
    assert _audit()[0] == 0  # NULL is sound
    written = hand_action_record(hand=Hand.objects.get(pk=hand.pk), action=actions[1]).hand
    assert written.version == 2
    assert [entry[0] for entry in Hand.objects.get(pk=hand.pk).state["actions"]] == [1, 2]


def test_the_audit_passes_a_clean_database(seated_table: Table) -> None:
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    hand = hand_create(table=seated_table, seed=SEED).hand
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
    other = hand_record_result(
        hand=hand_create(table=factories.seated_table()).hand, landlord=0, bid=2, winner="landlord"
    ).hand
    hand_void(hand=other, reason="misdeal")
    assert _audit() == (0, "every hand agrees with its log\n")


def test_the_audit_reports_a_snapshot_changed_behind_the_logs_back(seated_table: Table) -> None:
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    hand = hand_create(table=seated_table, seed=SEED).hand
    for action in actions[:3]:
        hand = hand_action_record(hand=hand, action=action).hand
    state = Hand.objects.get(pk=hand.pk).state
    Hand.objects.filter(pk=hand.pk).update(state={**state, "actions": state["actions"][:2]})
    code, out = _audit()
    assert code == 1
    table = seated_table
    where = f"{table.round.tournament.slug} round {table.round.number} table {table.number}"
    assert out == f"hand {hand.pk} ({where} hand 1): state\n"
    assert [m.fields for m in hands_audit()] == [("state",)]


def test_the_audit_reports_a_summary_changed_behind_the_logs_back(seated_table: Table) -> None:
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    hand = hand_create(table=seated_table, seed=SEED).hand
    hand = hand_action_record(hand=hand, action=actions[0]).hand
    Hand.objects.filter(pk=hand.pk).update(bombs=2)
    assert [m.fields for m in hands_audit()] == [("bombs",)]
    assert _audit()[0] == 1


def _wrong_seat(state: HandState, action: dict[str, Any]) -> dict[str, Any] | None:
    """``action`` from the next seat, when the rules refuse it."""
    wrong = {**action, "seat": (action["seat"] + 1) % 3}
    try:
        state.push(action_from_json(wrong))
    except RulesError:
        return wrong
    state.pop()
    return None


def _refuse(hand: Hand, kind: str, state: HandState, previous: dict[str, Any]) -> None:
    """A write to ``hand`` that writes nothing: refused, or a retry of the last write."""
    action = state.legal_actions()[0].to_json()
    if kind == "retry":
        retried = hand_action_record(
            hand=hand, action=previous["action"], idempotency_key=previous["key"]
        ).hand
        assert retried.version == hand.version
        return
    if kind == "wrong_seat":
        illegal = _wrong_seat(state, action)
        if illegal is not None:
            with pytest.raises(ApplicationError):
                hand_action_record(hand=hand, action=illegal, idempotency_key=f"x{hand.version}")
        return
    with pytest.raises(ApplicationError) as refused:
        if kind == "stale_version":
            hand_action_record(
                hand=hand, action=action, expected_version=hand.version - 1, idempotency_key="s"
            )
        else:  # the last write's key with another action
            hand_action_record(hand=hand, action=action, idempotency_key=previous["key"])
    expected = {"stale_version": "version_conflict", "key_reused": "idempotency_conflict"}[kind]
    assert refused.value.code == expected


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 10_000),
    play_seed=st.integers(0, 10_000),
    refusals=st.lists(
        st.sampled_from(["wrong_seat", "retry", "stale_version", "key_reused", None]),
        min_size=1,
        max_size=80,
    ),
)
def test_refusals_between_the_actions_leave_the_hand_of_the_accepted_ones(
    seated_table: Table, seed: int, play_seed: int, refusals: list[str | None]
) -> None:
    """Whatever is refused or retried between them, the stored hand (summary and
    snapshot) is the one its accepted actions make, and replays to its row."""
    seated_table = factories.seated_table()  # a table per example: one live hand per table
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed)
    state = HandState(deal, get_profile("comp2016"))
    hand = hand_create(table=seated_table, seed=seed).hand
    previous: dict[str, Any] = {}
    for index, action in enumerate(actions):
        kind = refusals[index % len(refusals)]
        if kind is not None and (previous or kind == "wrong_seat"):
            _refuse(hand, kind, state, previous)
        hand = hand_action_record(hand=hand, action=action, idempotency_key=f"k{index}").hand
        state.push(action_from_json(action))
        previous = {"action": action, "key": f"k{index}"}

    stored = Hand.objects.get(pk=hand.pk)
    assert stored.version == len(actions)
    assert stored.scores == (None if state.scores() is None else list(state.scores()))
    assert [entry[3] for entry in stored.state["actions"]] == actions
    assert hand_check_replays(hand=stored) == []


def test_migration_0022_gives_stored_snapshots_the_wild_key(seated_table: Table) -> None:
    """A snapshot stored before the wild event existed has no ``wild`` key: migration 0022
    adds it (``null``), so that it is still the fold of its log for ``hand_audit``, and
    takes it away when reversed."""
    migration = importlib.import_module("tournaments.migrations.0022_wild_event")
    hand = hand_create(table=seated_table, seed=SEED).hand
    for action in random_hand_actions(deal_from_seed(SEED), seed=3)[:5]:
        hand_action_record(hand=hand, action=action)
    stored = Hand.objects.get(pk=hand.pk).state
    assert stored is not None and stored.pop("wild") is None
    Hand.objects.filter(pk=hand.pk).update(state=stored)  # as a hand of before 0022
    assert hand_check_replays(hand=Hand.objects.get(pk=hand.pk)) == ["state"]
    migration._snapshots_with_wild(django_apps, None)
    assert hand_check_replays(hand=Hand.objects.get(pk=hand.pk)) == []
    migration._snapshots_without_wild(django_apps, None)
    assert "wild" not in (Hand.objects.get(pk=hand.pk).state or {})
