"""The replay cache of hand writes (``tournaments.hands.replay``): a write that writes
nothing gives back the replay it took, and what it gives back is still the committed hand's.

Committed writes fill the cache (``on_commit``), so these tests run the commit callbacks.
"""

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
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
from tournaments.hands.replay import hand_check_replays, replay_cache_clear
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, Table

pytestmark = pytest.mark.django_db
SEED = 11
Commits = Callable[..., AbstractContextManager[Any]]


def log_reads(queries: CaptureQueriesContext) -> list[str]:
    """The statements that read a hand's event log (the lock's last-event subquery aside)."""
    return [q["sql"] for q in queries if q["sql"].startswith('SELECT "tournaments_handevent"')]


def wrong_seat(state: HandState, action: dict[str, Any]) -> dict[str, Any] | None:
    """``action`` from the next seat, when the rules refuse it."""
    wrong = {**action, "seat": (action["seat"] + 1) % 3}
    try:
        state.push(action_from_json(wrong))
    except RulesError:
        return wrong
    state.pop()
    return None


def refuse(hand: Hand, kind: str, state: HandState, previous: dict[str, Any]) -> None:
    """A write to ``hand`` that writes nothing: refused, or a retry of the last write."""
    action = state.legal_actions()[0].to_json()
    if kind == "retry":
        retried = hand_action_record(
            hand=hand, action=previous["action"], idempotency_key=previous["key"]
        )
        assert retried.version == hand.version
        return
    if kind == "wrong_seat":
        illegal = wrong_seat(state, action)
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


@pytest.mark.parametrize("kind", ["wrong_seat", "retry", "stale_version", "key_reused"])
def test_a_write_that_writes_nothing_leaves_the_next_write_the_cached_replay(
    seated_table: Table, django_capture_on_commit_callbacks: Commits, kind: str
) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=3)
    state = HandState(deal, get_profile("comp2016"))
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_create(table=seated_table, seed=SEED)
        hand = hand_action_record(hand=hand, action=actions[0], idempotency_key="k0")
    state.push(action_from_json(actions[0]))

    refuse(hand, kind, state, {"action": actions[0], "key": "k0"})
    with django_capture_on_commit_callbacks(execute=True), CaptureQueriesContext(connection) as q:
        hand = hand_action_record(hand=hand, action=actions[1], idempotency_key="k1")

    assert log_reads(q) == []
    assert hand.version == 2 and hand_check_replays(hand=hand) == []


def test_without_a_cached_replay_a_write_reads_the_log(
    seated_table: Table, django_capture_on_commit_callbacks: Commits
) -> None:
    """The check above can fail: an empty cache makes the write read the log."""
    actions = random_hand_actions(deal_from_seed(SEED), seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_create(table=seated_table, seed=SEED)
        hand = hand_action_record(hand=hand, action=actions[0], idempotency_key="k0")
    replay_cache_clear()
    with CaptureQueriesContext(connection) as q:
        hand_action_record(hand=hand, action=actions[1], idempotency_key="k1")
    assert len(log_reads(q)) == 1


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
    seated_table: Table,
    django_capture_on_commit_callbacks: Commits,
    seed: int,
    play_seed: int,
    refusals: list[str | None],
) -> None:
    """Whatever is refused or retried between them, and whichever replay the cache gives
    back, the stored hand is the one its accepted actions make, and replays to its row."""
    seated_table = factories.seated_table()  # a table per example: one live hand per table
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed)
    state = HandState(deal, get_profile("comp2016"))
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_create(table=seated_table, seed=seed)
    previous: dict[str, Any] = {}
    for index, action in enumerate(actions):
        kind = refusals[index % len(refusals)]
        if kind is not None and (previous or kind == "wrong_seat"):
            with django_capture_on_commit_callbacks(execute=True):
                refuse(hand, kind, state, previous)
        with django_capture_on_commit_callbacks(execute=True):
            hand = hand_action_record(hand=hand, action=action, idempotency_key=f"k{index}")
        state.push(action_from_json(action))
        previous = {"action": action, "key": f"k{index}"}

    stored = Hand.objects.get(pk=hand.pk)
    assert stored.version == len(actions)
    assert stored.scores == state.scores()
    assert hand_check_replays(hand=stored) == []
