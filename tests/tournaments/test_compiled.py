"""The compiled hot queries and writes answer exactly what the ORM would."""

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Q
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import factories
from tournaments.common.compiled import CompiledExists, CompiledGet, row_insert, row_update
from tournaments.common.roles import REFEREE_GROUP
from tournaments.hands.selectors import hand_get_for_write
from tournaments.hands.write import hand_create
from tournaments.models import (
    Hand,
    HandEvent,
    IdempotencyRecord,
    RefereeAssignment,
    Table,
)

pytestmark = pytest.mark.django_db

HAND_WITH_TABLE = CompiledGet(
    "test_hand_with_table",
    lambda pk: Hand.objects.select_related("table__round__tournament", "board").filter(pk=pk),
)
ASSIGNED = CompiledExists(
    "test_assigned",
    lambda user_id, table_id, round_id: RefereeAssignment.objects.filter(
        Q(table__isnull=True) | Q(table_id=table_id),
        user_id=user_id,
        round_id=round_id,
        user__groups__name=REFEREE_GROUP,
    ),
)
RECORD = CompiledGet(
    "test_record",
    lambda user_id, key: IdempotencyRecord.objects.filter(user_id=user_id, key=key),
)


def _fields(instance: Any) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_a_compiled_get_builds_the_instances_the_orm_builds() -> None:
    # One live hand per table: three tables.
    hands = [hand_create(table=factories.seated_table(), random_deal=True) for _ in range(3)]
    for hand in hands:
        compiled = HAND_WITH_TABLE(hand.pk)
        orm = Hand.objects.select_related("table__round__tournament", "board").get(pk=hand.pk)
        assert _fields(compiled) == _fields(orm)
        assert _fields(compiled.table) == _fields(orm.table)
        assert _fields(compiled.table.round.tournament) == _fields(orm.table.round.tournament)
        assert compiled.deal == orm.deal and isinstance(compiled.deal, dict)  # JSON converted
        assert not compiled._state.adding and compiled._state.db == "default"
    assert HAND_WITH_TABLE(10**9) is None


def test_a_compiled_get_takes_text_arguments(referee: Any) -> None:
    IdempotencyRecord.objects.create(
        user=referee, key="k-1", request_hash="h", status_code=200, body="{}"
    )
    assert RECORD(referee.pk, "k-1").key == "k-1"
    assert RECORD(referee.pk, "k-2") is None
    assert RECORD(referee.pk + 1, "k-1") is None
    with pytest.raises(TypeError):
        RECORD(referee.pk)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    whole_round=st.booleans(),
    same_table=st.booleans(),
    same_round=st.booleans(),
    in_group=st.booleans(),
)
def test_a_compiled_exists_agrees_with_the_orm(
    referee: Any, whole_round: bool, same_table: bool, same_round: bool, in_group: bool
) -> None:
    table = factories.seated_table()
    other = factories.TableFactory(round=table.round, number=table.number + 1)
    elsewhere = factories.seated_table()
    group = Group.objects.get(name=REFEREE_GROUP)
    if in_group:
        referee.groups.add(group)
    else:
        referee.groups.remove(group)
    round_ = table.round if same_round else elsewhere.round
    assigned_table = None if whole_round else (table if same_table else other)
    if assigned_table is not None and assigned_table.round_id != round_.pk:
        assigned_table = elsewhere if not same_table else None
    RefereeAssignment.objects.create(user=referee, round=round_, table=assigned_table)
    for target in (table, other, elsewhere):
        orm = RefereeAssignment.objects.filter(
            Q(table__isnull=True) | Q(table=target),
            user=referee,
            round_id=target.round_id,
            user__groups__name=REFEREE_GROUP,
        ).exists()
        assert ASSIGNED(referee.pk, target.pk, target.round_id) is orm
        hand = Hand.objects.filter(table=target).first() or hand_create(table=target)
        read = hand_get_for_write(hand_id=hand.pk, user=referee)
        assert read is not None and read.writer_assigned is orm
        assert read.table.round.tournament_id == target.round.tournament_id
    RefereeAssignment.objects.all().delete()


def test_row_insert_writes_the_row_create_would(referee: Any) -> None:
    hand = hand_create(table=factories.seated_table())
    event = HandEvent(
        hand=hand,
        seq=1,
        kind="bid",
        payload={"action": {"seat": 0, "bid": 1}, "text": "大王 ♠3"},
        actor_seat=0,
        recorded_by=referee,
        idempotency_key="key-1",
        device_id="phone",
    )
    row_insert(event)
    assert event.pk is not None and not event._state.adding
    stored = HandEvent.objects.get(pk=event.pk)
    assert _fields(stored) == _fields(event)
    with pytest.raises(IntegrityError), transaction.atomic():
        row_insert(HandEvent(hand=hand, seq=1, kind="bid", payload={}))  # (hand, seq) taken


def test_row_update_writes_the_fields_asked(seated_table: Table) -> None:
    hand = hand_create(table=seated_table)
    hand.version, hand.bid, hand.status = 3, 2, "doubling"
    row_update(hand, ["version", "bid"])
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.version, stored.bid, stored.status) == (3, 2, "bidding")
    hand.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        row_update(hand, ["version"])
