"""Issue 16, point 5: idempotency records expire (removed by a beat task after
``IDEMPOTENCY_RECORD_DAYS``) and a retry after that is ``idempotency_key_expired``; penalty
idempotency keys belong to their user."""

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from referee.rules.cards import Deal
from tests import factories
from tests.api.helpers import (
    assign,
    client_for,
    new_key,
    playing_table,
    post,
    referee_user,
    start_hand,
)
from tournaments.common.errors import ApplicationError
from tournaments.common.idempotency import idempotency_records_expire
from tournaments.models import HandEvent, IdempotencyRecord, Penalty
from tournaments.tasks import idempotency_records_expire_task
from tournaments.tournament.penalties import penalty_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> Any:
    return playing_table()


def test_the_beat_task_removes_records_older_than_the_setting(settings: Any, table: Any) -> None:
    settings.IDEMPOTENCY_RECORD_DAYS = 7
    user = factories.UserFactory()
    old = timezone.now() - timedelta(days=8)
    fresh = timezone.now() - timedelta(days=6)
    for i in range(5):
        IdempotencyRecord.objects.create(
            user=user, key=f"old-{i}", request_hash="x", status_code=200, body="{}", created_at=old
        )
    IdempotencyRecord.objects.create(
        user=user, key="fresh", request_hash="x", status_code=200, body="{}", created_at=fresh
    )
    assert idempotency_records_expire(batch=2) == 5
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["fresh"]
    assert idempotency_records_expire_task.delay().get() == 0


def test_a_hand_write_retried_after_its_record_expired_is_refused_clearly(
    settings: Any, table: Any
) -> None:
    referee = referee_user("ref-expiry")
    assign(referee, table)
    client = client_for(referee)
    started = start_hand(client, table).json()
    hand_id = started["id"]
    key = new_key()
    url = f"/api/v1/hands/{hand_id}/actions/"
    action = {"seat": Deal.from_json(started["deal"]).first_bidder, "bid": 1}
    first = post(client, url, action, key=key)
    assert first.status_code == 200, first.json()
    again = post(client, url, action, key=key)  # within the window: the same answer
    assert again.status_code == 200 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    # The beat task runs after the window: the record goes; the event stays in the log.
    settings.IDEMPOTENCY_RECORD_DAYS = 0
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(seconds=1))
    assert idempotency_records_expire() >= 1
    events = HandEvent.objects.filter(hand_id=hand_id).count()
    late = post(client, url, action, key=key)
    assert late.status_code == 409 and late.json()["code"] == "idempotency_key_expired"
    assert HandEvent.objects.filter(hand_id=hand_id).count() == events
    assert not IdempotencyRecord.objects.filter(key=key).exists()


def test_penalty_keys_are_per_user(table: Any) -> None:
    a = client_for(factories.UserFactory(username="director-a", is_staff=True))
    b = client_for(factories.UserFactory(username="director-b", is_staff=True))
    slug = table.round.tournament.slug
    entry = table.seats.get(position=1).entry_id
    url = f"/api/v1/tournaments/{slug}/penalties/"
    slow = {"entry": entry, "points": -3, "reason": "slow play"}
    noise = {"entry": entry, "points": -1, "reason": "noise"}
    first = post(a, url, slow, key="a-1")
    post(a, url, noise, key="a-2")
    # Director B reusing A's keys gets B's own penalties, never A's answer or a conflict.
    same = post(b, url, slow, key="a-1")
    assert same.status_code == 201 and same.json()["id"] != first.json()["id"]
    other = post(b, url, {**noise, "points": -2}, key="a-2")
    assert other.status_code == 201 and other.json()["points"] == -2
    assert post(a, url, slow, key="a-1").json() == first.json()  # A's retry: A's penalty
    assert Penalty.objects.count() == 4
    assert set(Penalty.objects.values_list("recorded_by__username", flat=True)) == {
        "director-a",
        "director-b",
    }


def test_a_penalty_retry_after_expiry_is_refused(settings: Any, table: Any, director: Any) -> None:
    entry = table.seats.get(position=0).entry
    args = {"entry": entry, "points": -2, "reason": "late", "recorded_by": director}
    penalty = penalty_create(**args, idempotency_key="k1")
    assert penalty_create(**args, idempotency_key="k1") == penalty
    settings.IDEMPOTENCY_RECORD_DAYS = -1  # the penalty is now older than the window
    with pytest.raises(ApplicationError) as excinfo:
        penalty_create(**args, idempotency_key="k1")
    assert excinfo.value.code == "idempotency_key_expired"
    assert Penalty.objects.count() == 1
