"""The one skeleton of a hand write (``hand_write``): every hand service goes through it.

Lock the hand row; answer a retry (the same Idempotency-Key: the recorded write) or a stale
``If-Match`` version (``version_conflict``); build the state from the row's snapshot
(``Hand.state``, in the same transaction: no process keeps anything between requests);
let the service decide (refuse, or name the event to append); append it; write the
summary, the snapshot and the version; queue the standings on commit (through
``hand_results_sync`` when the hand's counting fields changed). It returns what it wrote,
``HandWrite`` (the hand, the event under the key, the replay computed), which the write's
answer uses in the same request instead of reading them again.

The lock, the event's insert and the row's update are hand-written statements
(``tournaments.common.rows``): the hottest statements of every write, built once; each says
beside it what it saves against the ORM (``bench/write_sql_bench.py``).
"""

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.rows import Columns, Insert, column, fetch_one, table_name
from tournaments.common.transactions import before_commit, before_commit_run
from tournaments.common.validation import idempotency_key_check, int_check, text_check
from tournaments.hands.replay import (
    AnyHandState,
    HandReplay,
    hand_replay,
    hand_replay_stored,
    hand_row_write,
    hand_summary_set,
    replay_of_snapshot,
    snapshot_fold,
)
from tournaments.hands.results import hand_results_sync
from tournaments.models import ACTION_KINDS, Hand, HandEvent
from tournaments.models.hands import LIVE_HAND_STATUSES

#: HandEvent.device_id is a varchar(64).
DEVICE_ID_MAX_LENGTH = 64


@dataclass(frozen=True)
class NewEvent:
    """An event a service decided to append (the skeleton numbers, keys and writes it)."""

    kind: str
    payload: dict[str, Any]
    actor_seat: int | None = None


#: A service's decision on the locked hand and its replayed state: the event to append
#: (a written-in deal that breaks the log appends its dispute after it; none: nothing is
#: appended, as for a wrong PIN, which only counts), or a refusal (``ApplicationError``,
#: nothing written).
Decide = Callable[[Hand, HandReplay], NewEvent | Sequence[NewEvent]]


@dataclass(frozen=True)
class HandWrite:
    """What a hand write wrote, for its answer in the same request
    (``selectors.hand_detail``): the hand as written (or as it is, for a retry), the event
    recorded under the request's key (the one appended, or a retry's; None without a key or
    when nothing was appended) and the replay the write computed (None: the row's snapshot
    holds it, as for a retry). ``retried``: the key's event was in the log already, so the
    write is a retry and wrote nothing."""

    hand: Hand
    event: HandEvent | None = None
    replay: HandReplay | None = None
    retried: bool = False


def hand_write(
    *,
    hand: Hand,
    idempotency_key: str | None,
    expected_version: int | None,
    same_request: Callable[[HandEvent], bool],
    decide: Decide,
    recorded_by: Any = None,
    device_id: str = "",
) -> HandWrite:
    """Run one hand write in the caller's transaction (the services are
    ``hand_write_atomic``) and return what it wrote (``HandWrite``).

    A retry (same key, ``same_request`` of the event recorded with it) writes nothing; the
    same key with another request is ``idempotency_conflict``; a stale
    ``expected_version`` is ``version_conflict``; then ``decide`` runs on the locked row
    and its replay."""
    idempotency_key_check(idempotency_key)
    int_check("expected_version", expected_version, minimum=0, allow_none=True)
    before_commit_run()  # a write put off in this transaction reaches the rows first
    locked = hand_row_lock_keyed(hand=hand, idempotency_key=idempotency_key)
    retry = hand_retry_check(
        hand=locked.hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=same_request,
        key_seen=locked.key_seen,
        key_event_id=locked.key_event_id,
    )
    row = locked.hand
    if retry is not None:
        return HandWrite(hand=row, event=retry, retried=True)
    replay = hand_replay_stored(hand=row)
    decided = decide(row, replay)
    new = [decided] if isinstance(decided, NewEvent) else list(decided)
    if not new:  # the service decided to write nothing to the log (a wrong PIN's count)
        return HandWrite(hand=row)
    snapshot = {
        **replay.snapshot,
        "actions": list(replay.snapshot["actions"]),
        "announced": list(replay.snapshot["announced"]),
    }
    keyed: HandEvent | None = None
    for index, item in enumerate(new):
        event = hand_event_append(
            hand=row,
            kind=item.kind,
            payload=item.payload,
            actor_seat=item.actor_seat,
            recorded_by=recorded_by,
            idempotency_key=idempotency_key if index == 0 else None,
            device_id=device_id,
            seq=row.version + 1,
        )
        snapshot_fold(snapshot, event)
        if index == 0 and idempotency_key is not None:
            keyed = event
    after = replay_of_snapshot(
        hand=row, snapshot=snapshot, state=_state_pushed(replay, new, snapshot)
    )
    hand_commit(hand=row, replay=after)
    return HandWrite(hand=row, event=keyed, replay=after)


def _state_pushed(
    replay: HandReplay, new: list[NewEvent], snapshot: dict[str, Any]
) -> AnyHandState | None:
    """The rules state after the write, when ``decide`` pushed the one action it appends
    onto the replay's state (an action: ``write.hand_action_record``), so that it need not
    be rebuilt from the snapshot; else None."""
    state = replay.state
    if state is None or len(new) != 1 or new[0].kind not in ACTION_KINDS:
        return None
    actions = snapshot["actions"]
    if len(state.actions) != len(replay.snapshot["actions"]) + 1 or len(actions) != len(
        state.actions
    ):
        return None
    return state if state.actions[-1].to_json() == actions[-1][3] else None


_HAND = Columns(Hand, "h")
#: What the lock reads beside the row ``h`` (parameters: the hand's id twice and the key),
#: in the same statement, so as of its start: the row's version and the id of the event
#: recorded under the key. When the lock waited for another write, the version differs
#: from the locked row's, and the key is read again after the lock.
LOCK_KEY_SQL = (
    f"(SELECT v.{column(Hand, 'version')} FROM {table_name(Hand)} v"
    f" WHERE v.{column(Hand, 'id')} = %s),"
    f" (SELECT e.{column(HandEvent, 'id')} FROM {table_name(HandEvent)} e"
    f" WHERE e.{column(HandEvent, 'hand')} = %s AND e.{column(HandEvent, 'idempotency_key')} = %s)"
)
#: The lock, with the version and the key's event (``LOCK_KEY_SQL``).
#: By hand: 520–2,530 µs a call against 5,860–14,800 µs for the ORM's lock
#: (``hand_row_lock``) and its read of the key's event, two statements: it saves
#: 5,330–12,270 µs on every hand write (``bench/write_sql_bench.py``, two runs on the
#: shared 2-core machine).
_LOCK_SQL = (
    f"SELECT {_HAND.sql}, {LOCK_KEY_SQL}"
    f" FROM {table_name(Hand)} h WHERE h.{column(Hand, 'id')} = %s"
)
#: ``FOR UPDATE`` of the row ``h`` (SQLite locks the whole database at the first write).
LOCK_CLAUSE = " FOR UPDATE OF h"


@dataclass(frozen=True)
class LockedHand:
    """The hand row as ``hand_row_lock_keyed`` locked it, and what its statement saw of the
    request's key: ``key_seen`` when the statement saw the row as it locked it (it did not
    wait for another write), then ``key_event_id`` is the id of the event recorded under
    the key (None: none); else the key is read again after the lock
    (``hand_retry_check``)."""

    hand: Hand
    key_seen: bool
    key_event_id: int | None = None


#: The hand a request locked already, in its transaction (``hand_prelocked``), with the
#: key it locked it for: ``hand_row_lock_keyed`` takes it instead of locking again.
_PRELOCKED: ContextVar[tuple[LockedHand, str | None] | None] = ContextVar(
    "hand_prelocked", default=None
)


def locked_hand(
    *, hand: Hand, idempotency_key: str | None, seen_version: int | None, key_event_id: int | None
) -> LockedHand:
    """The ``LockedHand`` of a row locked with ``LOCK_KEY_SQL``'s two values beside it."""
    if idempotency_key is not None and key_event_id is None and seen_version != hand.version:
        return LockedHand(hand=hand, key_seen=False)  # waited for another write
    return LockedHand(hand=hand, key_seen=True, key_event_id=key_event_id)


@contextmanager
def hand_prelocked(locked: LockedHand, idempotency_key: str | None) -> Iterator[None]:
    """Inside: the hand write of ``locked.hand`` under ``idempotency_key`` takes ``locked``
    (the row its request locked, in the same transaction, when it read the hand for the
    permission check: ``selectors.hand_lock_for_write``) instead of locking it again: one
    statement fewer on every referee write. Used once."""
    token = _PRELOCKED.set((locked, idempotency_key))
    try:
        yield
    finally:
        _PRELOCKED.reset(token)


def hand_row_lock_keyed(*, hand: Hand, idempotency_key: str | None) -> LockedHand:
    """``hand_row_lock`` in one hand-written statement, with the event recorded under
    ``idempotency_key`` as the statement saw it (``LockedHand``); or the lock its request
    took already (``hand_prelocked``)."""
    prelocked = _PRELOCKED.get()
    if prelocked is not None and prelocked[0].hand is hand and prelocked[1] == idempotency_key:
        _PRELOCKED.set(None)
        return prelocked[0]
    sql = _LOCK_SQL if connection.vendor == "sqlite" else _LOCK_SQL + LOCK_CLAUSE
    row = fetch_one(sql, [hand.pk, hand.pk, idempotency_key, hand.pk])
    if row is None:
        raise Hand.DoesNotExist
    locked: Hand = _HAND.instance(row)
    _keep_related(locked, hand)
    return locked_hand(
        hand=locked,
        idempotency_key=idempotency_key,
        seen_version=row[_HAND.width],
        key_event_id=row[_HAND.width + 1],
    )


def hand_row_lock(*, hand: Hand) -> Hand:
    """``SELECT … FOR UPDATE`` of the hand row. Its table, round, tournament and board
    (rows a hand write reads but does not change, so does not lock) are the caller's
    hand's: read with it (``selectors.hand_get``), not read again."""
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    _keep_related(locked, hand)
    return locked


def _keep_related(locked: Hand, hand: Hand) -> None:
    locked.table = hand.table
    if locked.board_id is not None and locked.board_id == hand.board_id:
        locked.board = hand.board


def hand_retry_check(
    *,
    hand: Hand,
    idempotency_key: str | None,
    expected_version: int | None,
    same_request: Callable[[HandEvent], bool],
    key_seen: bool = False,
    key_event_id: int | None = None,
) -> HandEvent | None:
    """The checks of the locked row (``hand_row_lock``): whether the write is a retry.

    The event of the key is read by a statement of its own, after the lock: on
    PostgreSQL (READ COMMITTED) a statement that waited for the lock still sees the data
    of when it started, so a key recorded by the write it waited for would be missed in
    the locking statement itself (the second of two requests with one key would then be
    refused instead of answered). ``key_seen``: the locking statement saw the locked row
    (``hand_row_lock_keyed``: ``LockedHand``), and ``key_event_id`` is the key's event as
    it read it (None: no such event), not read again. Returns the retry's event, or None."""
    event: HandEvent | None = None
    try:  # one at most (hand_event_idempotency_key_unique)
        if idempotency_key is not None and not key_seen:
            event = HandEvent.objects.get(hand_id=hand.pk, idempotency_key=idempotency_key)
        elif idempotency_key is not None and key_event_id is not None:
            event = HandEvent.objects.get(pk=key_event_id)
    except HandEvent.DoesNotExist:
        event = None
    if event is not None:
        if not same_request(event):
            raise ApplicationError(
                "idempotency_conflict",
                _("This idempotency key was already used for a different request."),
            )
        return event
    if expected_version is not None and expected_version != hand.version:
        raise ApplicationError(
            "version_conflict",
            _("Another device wrote first: the hand is at version %(current)s, not %(seen)s.")
            % {"current": hand.version, "seen": expected_version},
            extra={"version": hand.version},
        )
    return None


#: The event's insert (the hottest write: one per hand write), built once: 530–790 µs a
#: call against 760–1,060 µs for ``HandEvent.objects.create``, saving 240–280 µs on every
#: hand write (``bench/write_sql_bench.py``, two runs on the shared 2-core machine).
_EVENT_INSERT = Insert(
    HandEvent,
    [
        "hand_id",
        "seq",
        "kind",
        "payload",
        "actor_seat",
        "recorded_by_id",
        "idempotency_key",
        "device_id",
    ],
)


def hand_event_append(
    *,
    hand: Hand,
    kind: str,
    payload: dict[str, Any],
    recorded_by: Any,
    actor_seat: int | None = None,
    idempotency_key: str | None = None,
    device_id: str = "",
    seq: int | None = None,
) -> HandEvent:
    """Append an event to a hand whose row the caller has locked; bumps ``version``
    (saved by ``hand_commit``). ``seq``: the next number, when the caller knows it (the
    version counts the events)."""
    text_check("device_id", device_id, max_length=DEVICE_ID_MAX_LENGTH)
    if seq is None:
        seq = (hand.events.aggregate(last=Max("seq"))["last"] or 0) + 1
    event: HandEvent = _EVENT_INSERT.save(
        hand_id=hand.pk,
        seq=seq,
        kind=kind,
        payload=payload,
        actor_seat=actor_seat,
        recorded_by_id=getattr(recorded_by, "pk", None),
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    event.hand = hand
    hand.version += 1
    return event


#: What the per-seat rows and the standings depend on.
_COUNTING_FIELDS = ("status", "confirmation", "scores", "landlord_seat", "partner_seat")


def hand_commit(*, hand: Hand, replay: HandReplay | None = None) -> Hand:
    """Write the row's summary and snapshot (``replay``, default: the log replayed) and,
    when the status, scores or confirmation changed, the per-seat rows and the standings
    request on commit (same transaction).

    A live hand leaves the tournament row alone, so tables do not queue on its log version:
    a play in the middle of a hand, and a step from one live status to another (bidding →
    doubling → playing, the landlord found), which changes nothing the standings count (a
    live hand has no per-seat row; the database does not mark it either, migration 0029).
    Before, every such step locked the tournament row to the commit, and the tables of a
    tournament took turns there (issue 30). A change that does reach the standings writes
    the row and its per-seat rows last in the transaction (``before_commit``)."""
    replay = replay or hand_replay(hand=hand)
    before = [getattr(hand, name) for name in _COUNTING_FIELDS]
    live_before = hand.status in LIVE_HAND_STATUSES
    fields = hand_summary_set(hand=hand, replay=replay)
    live_step = live_before and hand.status in LIVE_HAND_STATUSES
    if before == [getattr(hand, name) for name in _COUNTING_FIELDS] or live_step:
        hand_row_write(hand=hand, fields=fields)
        return hand

    def counting_write() -> None:
        # The row's UPDATE marks the tournament's row (its trigger: the standings' inputs
        # changed), which stays locked to the commit, as the version's bump does: last in
        # the referee API's transaction, after its answer and record (``before_commit``).
        # Measured on the whole round (issue 30): finishing writes and starts queued there
        # 50–232 ms each at the hand changes (PostgreSQL's ``log_lock_waits``).
        hand_row_write(hand=hand, fields=fields)
        hand_results_sync(hand=hand)

    before_commit(counting_write)
    return hand


__all__ = [
    "DEVICE_ID_MAX_LENGTH",
    "LOCK_CLAUSE",
    "LOCK_KEY_SQL",
    "Decide",
    "HandWrite",
    "LockedHand",
    "NewEvent",
    "hand_commit",
    "hand_event_append",
    "hand_prelocked",
    "hand_retry_check",
    "hand_row_lock",
    "hand_row_lock_keyed",
    "hand_write",
    "locked_hand",
]
