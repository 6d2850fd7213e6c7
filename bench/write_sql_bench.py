"""Each hand-written SQL statement of the referee write path against the ORM call it
replaces: microseconds per call, in-process, on PostgreSQL (the production settings:
server-side binding and prepared statements), in a fresh database of its own.

A referee write runs six statements that the code writes by hand
(``tournaments.common.rows``): the token with its user (``referee.api.authentication``),
the hand with its table, round, tournament, board and the writer's assignment
and the row lock with the key's event, in one statement
(``hands.selectors.hand_lock_for_write``; before, ``hand_get_for_write`` and
``hands.writing.hand_row_lock_keyed``; ``table_get_for_write`` for a start), the event's insert
(``hands.writing.hand_event_append``), the row's update (``rows.update`` in
``replay.hand_row_write``) and the idempotency record's insert and read
(``referee.api.idempotency``). Each is timed against the ORM doing the same in as many
statements as the ORM needs, the two interleaved call by call (the machine's drift hits
both alike), inside a transaction rolled back at the end. Prints the median of each and
what the hand-written one saves; the comment beside each statement quotes these numbers.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/write_sql_bench.py

Options: --calls 400  --db doudizhu_write_sql (dropped and created)
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402
from bench.api_load import fresh_database, server_environment, setup_tables  # noqa: E402


def _timed(pairs: dict[str, tuple[Callable[[], Any], Callable[[], Any]]], calls: int) -> None:
    from django.db import transaction

    spent: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in pairs}

    class Rollback(Exception):
        pass

    try:
        with transaction.atomic():
            for name, (hand_written, orm) in pairs.items():
                for _ in range(5):  # prepared on the server (prepare_threshold) and warm
                    hand_written()
                    orm()
                ours, theirs = spent[name]
                for _ in range(calls):
                    t0 = time.perf_counter()
                    hand_written()
                    t1 = time.perf_counter()
                    orm()
                    t2 = time.perf_counter()
                    ours.append(t1 - t0)
                    theirs.append(t2 - t1)
            raise Rollback
    except Rollback:
        pass
    print(f"{'statement':<34} {'by hand µs':>10} {'ORM µs':>8} {'saved µs':>8}")
    for name, (ours, theirs) in spent.items():
        by_hand, by_orm = statistics.median(ours) * 1e6, statistics.median(theirs) * 1e6
        print(f"{name:<34} {by_hand:>10.0f} {by_orm:>8.0f} {by_orm - by_hand:>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--db", default="doudizhu_write_sql")
    args = parser.parse_args()
    _postgres.postgres_required("write_sql_bench.py")
    broker = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
    server_environment(args.db, "config.settings", broker)
    fresh_database(args.db)
    token_key, tables = setup_tables([1])

    from django.db.models import Exists, OuterRef
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from referee.api.authentication import TokenAuthentication
    from referee.api.idempotency import _RECORD_INSERT, _record_of
    from referee.rules.cards import deal_from_seed
    from tournaments.common.access import assigned_referee_rows
    from tournaments.common.rows import update
    from tournaments.hands import selectors as hand_selectors
    from tournaments.hands.write import hand_action_record, hand_create
    from tournaments.hands.writing import (
        _EVENT_INSERT,
        hand_row_lock,
        hand_row_lock_keyed,
    )
    from tournaments.models import Hand, HandEvent, IdempotencyRecord, Table

    table = Table.objects.select_related("round__tournament").get(pk=tables[1][0])
    hand = hand_create(table=table, deal=deal_from_seed(7).to_json()).hand
    hand = hand_action_record(hand=hand, action={"seat": 2, "bid": 3}, idempotency_key="b").hand
    user = Token.objects.get(key=token_key).user
    auth = TokenAuthentication()
    deferred = ("state", "table__round__seating_explanation", "table__round__tournament__tiebreaks")
    seq = iter(range(100, 10**9))
    record = iter(range(10**9))

    def orm_hand_for_write() -> Any:
        assigned = Exists(
            assigned_referee_rows(user.pk, OuterRef("table_id"), OuterRef("table__round_id"))
        )
        return (
            Hand.objects.select_related("table__round__tournament", "board")
            .defer(*deferred)
            .annotate(assigned=assigned)
            .get(pk=hand.pk)
        )

    def orm_table_for_write() -> Any:
        assigned = Exists(assigned_referee_rows(user.pk, OuterRef("pk"), OuterRef("round_id")))
        return (
            Table.objects.select_related("round__tournament")
            .defer("round__seating_explanation", "round__tournament__tiebreaks")
            .annotate(assigned=assigned)
            .get(pk=table.pk)
        )

    def orm_lock() -> Any:
        locked = hand_row_lock(hand=hand)
        return locked, HandEvent.objects.filter(hand_id=hand.pk, idempotency_key="b").first()

    def event(hand_written: bool) -> Any:
        values = {
            "hand_id": hand.pk,
            "seq": next(seq),
            "kind": "note",
            "payload": {"text": "bench"},
            "actor_seat": None,
            "recorded_by_id": user.pk,
            "idempotency_key": None,
            "device_id": "bench",
        }
        if hand_written:
            return _EVENT_INSERT.save(**values)
        return HandEvent.objects.create(**values)

    def record_insert(hand_written: bool) -> Any:
        values = {
            "user_id": user.pk,
            "key": f"bench-{next(record)}",
            "request_hash": "0" * 64,
            "status_code": 200,
            "body": '{"id": 1}',
            "created_at": timezone.now(),
        }
        if hand_written:
            return _RECORD_INSERT.save(**values)
        return IdempotencyRecord.objects.create(**values)

    row = Hand.objects.get(pk=hand.pk)
    pairs: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
        "token + user (authentication)": (
            lambda: auth.authenticate_credentials(token_key),
            lambda: Token.objects.select_related("user").get(key=token_key),
        ),
        "hand_get_for_write": (
            lambda: hand_selectors.hand_get_for_write(hand_id=hand.pk, user=user),
            orm_hand_for_write,
        ),
        "table_get_for_write": (
            lambda: hand_selectors.table_get_for_write(table_id=table.pk, user=user),
            orm_table_for_write,
        ),
        "hand_row_lock_keyed": (
            lambda: hand_row_lock_keyed(hand=hand, idempotency_key="b"),
            orm_lock,
        ),
        # Not against the ORM: the referee API's one statement against the two it replaces.
        "hand_lock_for_write vs read+lock": (
            lambda: hand_selectors.hand_lock_for_write(
                hand_id=hand.pk, user=user, idempotency_key="b"
            ),
            lambda: hand_row_lock_keyed(
                hand=hand_selectors.hand_get_for_write(hand_id=hand.pk, user=user)[0],  # type: ignore[index]
                idempotency_key="b",
            ),
        ),
        "event insert (hand_event_append)": (lambda: event(True), lambda: event(False)),
        "hand row update (state, version)": (
            lambda: update(row, ["state", "version"]),
            lambda: row.save(update_fields=["state", "version"]),
        ),
        "idempotency record insert": (
            lambda: record_insert(True),
            lambda: record_insert(False),
        ),
        "idempotency record read": (
            lambda: _record_of(user.pk, "bench-0"),
            lambda: IdempotencyRecord.objects.filter(user_id=user.pk, key="bench-0").first(),
        ),
    }
    print(
        f"PostgreSQL database {args.db}, {args.calls} calls of each, interleaved; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    _timed(pairs, args.calls)


if __name__ == "__main__":
    main()
