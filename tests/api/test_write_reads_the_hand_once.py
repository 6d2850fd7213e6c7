"""A referee write reads its hand once: the permission check's read is the row lock
(``selectors.hand_lock_for_write``), which the write then takes (``writing.hand_prelocked``)
instead of locking the row again. The check runs inside the write's transaction, and its
refusals stay what they were: answered, never kept under the key, nothing written."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.rules.cards import Deal
from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand
from tournaments.models import HandEvent, IdempotencyRecord, Round, RoundStatus

pytestmark = pytest.mark.django_db


def _hand_reads(queries: Any) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].startswith("SELECT") and 'FROM "tournaments_hand" h' in q["sql"]
    ]


@pytest.fixture
def started() -> tuple[Any, Any, dict[str, Any]]:
    table = playing_table()
    user = referee_user("lock-once")
    assign(user, table)
    client = client_for(user)
    hand = start_hand(client, table).json()
    return client, table, hand


def test_a_play_reads_and_locks_its_hand_in_one_statement(started: Any) -> None:
    client, _, hand = started
    bid = {"seat": Deal.from_json(hand["deal"]).first_bidder, "bid": 1}
    with CaptureQueriesContext(connection) as queries:
        answer = post(client, f"/api/v1/hands/{hand['id']}/actions/", bid, key="once")
    assert answer.status_code == 200, answer.json()
    reads = _hand_reads(queries)
    assert len(reads) == 1, reads
    if connection.vendor == "postgresql":
        assert reads[0].endswith("FOR UPDATE OF h")
    # the statement read the key's event: a retry is answered from it, once
    again = post(client, f"/api/v1/hands/{hand['id']}/actions/", bid, key="once")
    assert (again.status_code, again.json()) == (200, answer.json())
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1


def test_a_refused_check_is_answered_and_not_kept_under_the_key(started: Any) -> None:
    client, table, hand = started
    url = f"/api/v1/hands/{hand['id']}/actions/"
    bid = {"seat": Deal.from_json(hand["deal"]).first_bidder, "bid": 1}
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    refused = post(client, url, bid, key="after-the-round")
    assert (refused.status_code, refused.json()["code"]) == (409, "round_not_playing")
    assert not IdempotencyRecord.objects.filter(key="after-the-round").exists()

    stranger = client_for(referee_user("other-table"))
    not_assigned = post(stranger, url, bid, key="stranger")
    assert (not_assigned.status_code, not_assigned.json()["code"]) == (403, "not_assigned")
    missing = post(client, "/api/v1/hands/999999/actions/", bid, key="missing")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    assert not IdempotencyRecord.objects.filter(key__in=["stranger", "missing"]).exists()
    assert not HandEvent.objects.filter(hand_id=hand["id"]).exists()

    # the key stayed free: once the round plays again, the same request is written
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    accepted = post(client, url, bid, key="after-the-round")
    assert accepted.status_code == 200, accepted.json()
    assert accepted.json()["event"]["seq"] == 1


def test_nobody_signed_in_is_refused_before_any_read(started: Any) -> None:
    _, _, hand = started
    bid = {"seat": 0, "bid": 1}
    with CaptureQueriesContext(connection) as queries:
        answer = post(client_for(None), f"/api/v1/hands/{hand['id']}/actions/", bid)
    assert (answer.status_code, answer.json()["code"]) == (401, "not_authenticated")
    assert _hand_reads(queries) == []
