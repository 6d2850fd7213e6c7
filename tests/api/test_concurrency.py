"""Exactly once under real concurrency: threads against a live server on PostgreSQL.

Row locks and database constraints only (no process-local locks): the server runs its
requests in threads with their own database connections, as gunicorn workers would.
"""

import threading
from collections import Counter
from typing import Any

import pytest
import requests
from rest_framework.authtoken.models import Token

from tests.api.helpers import assign, playing_table, referee_user
from tournaments.models import Hand, HandEvent, IdempotencyRecord

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]
THREADS = 8


def _together(calls: list[Any]) -> list[requests.Response]:
    """Run the calls at the same moment, one thread each; return their responses."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture
def setup(live_server: Any) -> dict[str, Any]:
    table = playing_table()
    user = referee_user("concurrent-ref")
    assign(user, table)
    token = Token.objects.create(user=user)
    return {
        "base": live_server.url + "/api/v1",
        "table": table,
        "auth": {"Authorization": f"Token {token.key}"},
    }


def _post(s: dict[str, Any], path: str, body: Any, key: str, **headers: str) -> Any:
    return requests.post(
        s["base"] + path,
        json=body,
        headers={**s["auth"], "Idempotency-Key": key, **headers},
        timeout=60,
    )


def test_n_retries_of_one_start_create_one_hand(setup: dict[str, Any]) -> None:
    path = f"/tables/{setup['table'].pk}/hands/"
    responses = _together([lambda: _post(setup, path, {"deal": "random"}, "start-1")] * THREADS)
    assert {r.status_code for r in responses} == {201}
    assert len({r.text for r in responses}) == 1  # every retry answers the original body
    assert Hand.objects.count() == 1
    assert IdempotencyRecord.objects.count() == 1


def test_n_retries_of_one_action_record_one_event(setup: dict[str, Any]) -> None:
    hand = _post(setup, f"/tables/{setup['table'].pk}/hands/", {"deal": "random"}, "s").json()
    action = hand["legal_actions"][1]  # a bid of 1 by the first bidder
    path = f"/hands/{hand['id']}/actions/"
    responses = _together(
        [
            lambda i=i: _post(setup, path, action, "bid-1", **{"X-Device-Id": f"phone-{i}"})
            for i in range(THREADS)
        ]
    )
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1


def test_n_different_plays_for_one_turn_exactly_one_is_accepted(setup: dict[str, Any]) -> None:
    hand = _post(setup, f"/tables/{setup['table'].pk}/hands/", {"deal": "random"}, "s").json()
    path = f"/hands/{hand['id']}/actions/"
    step = 0
    while hand["status"] != "playing":  # bid 3, nobody doubles
        options = hand["legal_actions"]
        choice = (
            options[-1]
            if "bid" in options[-1]
            else next(
                (o for o in options if o.get("double") is False or o.get("redouble") is False),
                options[-1],
            )
        )
        step += 1
        hand = _post(setup, path, choice, f"setup-{step}").json()
    plays = [a for a in hand["legal_actions"] if a.get("play") != "pass"][:THREADS]
    assert len(plays) == THREADS
    version = hand["version"]
    responses = _together(
        [
            lambda i=i, play=play: _post(
                setup,
                path,
                play,
                f"device-{i}",
                **({"If-Match": f'"{version}"'} if i % 2 else {}),
                **{"X-Device-Id": f"phone-{i}"},
            )
            for i, play in enumerate(plays)
        ]
    )
    statuses = Counter(r.status_code for r in responses)
    assert statuses[200] == 1, statuses
    codes = Counter(r.json()["code"] for r in responses if r.status_code != 200)
    assert set(codes) <= {"out_of_turn", "version_conflict"}, codes
    assert sum(codes.values()) == THREADS - 1
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == version + 1


def test_retries_of_an_out_of_turn_bid_racing_its_turn_all_answer_the_keys_one_answer(
    setup: dict[str, Any],
) -> None:
    """A key has one answer (issue 29): retries of a bid sent out of turn, at the moment the
    seat on turn passes, are all refused alike (the refusal kept under the key) or all
    answered the one bid recorded, never some of each."""
    hand = _post(setup, f"/tables/{setup['table'].pk}/hands/", {"deal": "random"}, "s").json()
    first = hand["turn"]
    path = f"/hands/{hand['id']}/actions/"
    early = {"seat": (first + 1) % 3, "bid": 1}
    calls = [lambda: _post(setup, path, early, "early")] * (THREADS - 1)
    calls.insert(THREADS // 2, lambda: _post(setup, path, {"seat": first, "bid": 0}, "pass"))
    responses = _together(calls)
    passed = responses.pop(THREADS // 2)
    assert passed.status_code == 200
    answers = {(r.status_code, r.text) for r in responses}
    assert len(answers) == 1, answers
    status = answers.pop()[0]
    assert status in (200, 422)
    keyed = HandEvent.objects.filter(hand_id=hand["id"], idempotency_key="early")
    assert keyed.count() == (1 if status == 200 else 0)
    assert IdempotencyRecord.objects.get(key="early").status_code == status


def test_six_devices_with_their_own_keys_start_one_hand(setup: dict[str, Any]) -> None:
    """Issue 16: six devices with different keys started six hands at one table at once.
    One hand is live at a table at a time: one start wins, the others are 409."""
    path = f"/tables/{setup['table'].pk}/hands/"
    responses = _together(
        [lambda i=i: _post(setup, path, {"deal": "random"}, f"device-{i}") for i in range(6)]
    )
    statuses = Counter(r.status_code for r in responses)
    assert statuses == Counter({201: 1, 409: 5})
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"hand_in_progress"}
    assert Hand.objects.filter(table=setup["table"]).count() == 1


def test_an_undo_reopening_a_hand_and_starts_at_once_leave_one_live_hand(
    setup: dict[str, Any],
) -> None:
    """The undo of the pass that passed a hand out reopens it; five devices start the next
    hand at that moment. One of the six wins; the others are 409 hand_in_progress (the
    database's one-live-hand index was a 500 for the undo that lost)."""
    table = setup["table"]
    hand = _post(setup, f"/tables/{table.pk}/hands/", {"deal": "random"}, "s").json()
    bidder = hand["turn"]
    for i in range(3):
        _post(setup, f"/hands/{hand['id']}/actions/", {"seat": (bidder + i) % 3, "bid": 0}, f"p{i}")
    assert Hand.objects.get(pk=hand["id"]).status == "passed_out"
    undo = f"/hands/{hand['id']}/undo/"
    calls = [lambda: _post(setup, undo, {"reason": "the last pass was a bid"}, "undo")]
    calls += [
        lambda i=i: _post(setup, f"/tables/{table.pk}/hands/", {"deal": "random"}, f"device-{i}")
        for i in range(5)
    ]

    responses = _together(calls)

    statuses = Counter(r.status_code for r in responses)
    assert statuses[409] == 5 and statuses[200] + statuses[201] == 1, statuses
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"hand_in_progress"}
    live = Hand.objects.filter(table=table, status__in=("bidding", "doubling", "playing"))
    assert live.count() == 1
