"""The one skeleton of a hand write (``hand_write``): every hand service goes through it.

Lock the hand row; answer a retry (the same Idempotency-Key: the recorded write) or a stale
``If-Match`` version (``version_conflict``); build the state from the row's snapshot
(``Hand.state``, in the same transaction: no process keeps anything between requests);
let the service decide (refuse, or name the event to append); append it; write the
summary, the snapshot and the version; queue the standings on commit (through
``hand_results_sync`` when the hand's counting fields changed).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import idempotency_key_check, int_check, text_check
from tournaments.hands.replay import (
    HandReplay,
    hand_replay,
    hand_replay_stored,
    hand_summary_apply,
    replay_of_snapshot,
    snapshot_fold,
)
from tournaments.hands.results import hand_results_sync
from tournaments.models import Hand, HandEvent

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


def hand_write(
    *,
    hand: Hand,
    idempotency_key: str | None,
    expected_version: int | None,
    same_request: Callable[[HandEvent], bool],
    decide: Decide,
    recorded_by: Any = None,
    device_id: str = "",
) -> Hand:
    """Run one hand write in the caller's transaction (the services are
    ``hand_write_atomic``) and return the hand as written (or as it is, for a retry).

    A retry (same key, ``same_request`` of the event recorded with it) writes nothing; the
    same key with another request is ``idempotency_conflict``; a stale
    ``expected_version`` is ``version_conflict``; then ``decide`` runs on the locked row
    and its replay."""
    idempotency_key_check(idempotency_key)
    int_check("expected_version", expected_version, minimum=0, allow_none=True)
    locked = hand_row_lock(hand=hand)
    if hand_retry_check(
        hand=locked,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=same_request,
    ):
        return locked
    replay = hand_replay_stored(hand=locked)
    decided = decide(locked, replay)
    new = [decided] if isinstance(decided, NewEvent) else list(decided)
    if not new:  # the service decided to write nothing to the log (a wrong PIN's count)
        return locked
    snapshot = {
        **replay.snapshot,
        "actions": list(replay.snapshot["actions"]),
        "announced": list(replay.snapshot["announced"]),
    }
    for index, item in enumerate(new):
        event = hand_event_append(
            hand=locked,
            kind=item.kind,
            payload=item.payload,
            actor_seat=item.actor_seat,
            recorded_by=recorded_by,
            idempotency_key=idempotency_key if index == 0 else None,
            device_id=device_id,
            seq=locked.version + 1,
        )
        snapshot_fold(snapshot, event)
    return hand_commit(hand=locked, replay=replay_of_snapshot(hand=locked, snapshot=snapshot))


def hand_row_lock(*, hand: Hand) -> Hand:
    """``SELECT … FOR UPDATE`` of the hand row. Its table, round, tournament and board
    (rows a hand write reads but does not change, so does not lock) are the caller's
    hand's: read with it (``selectors.hand_get``), not read again."""
    locked = Hand.objects.select_for_update().get(pk=hand.pk)
    locked.table = hand.table
    if locked.board_id is not None and locked.board_id == hand.board_id:
        locked.board = hand.board
    return locked


def hand_retry_check(
    *,
    hand: Hand,
    idempotency_key: str | None,
    expected_version: int | None,
    same_request: Callable[[HandEvent], bool],
) -> bool:
    """The checks of the locked row (``hand_row_lock``): whether the write is a retry.

    The event of the key is read by a statement of its own, after the lock: on
    PostgreSQL (READ COMMITTED) a statement that waited for the lock still sees the data
    of when it started, so a key recorded by the write it waited for would be missed in
    the locking statement itself (the second of two requests with one key would then be
    refused instead of answered)."""
    if idempotency_key is not None:
        try:  # one at most (hand_event_idempotency_key_unique)
            event = HandEvent.objects.get(hand_id=hand.pk, idempotency_key=idempotency_key)
        except HandEvent.DoesNotExist:
            event = None
        if event is not None:
            if not same_request(event):
                raise ApplicationError(
                    "idempotency_conflict",
                    _("This idempotency key was already used for a different request."),
                )
            return True
    if expected_version is not None and expected_version != hand.version:
        raise ApplicationError(
            "version_conflict",
            _("Another device wrote first: the hand is at version %(current)s, not %(seen)s.")
            % {"current": hand.version, "seen": expected_version},
            extra={"version": hand.version},
        )
    return False


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
    event = HandEvent(
        hand=hand,
        seq=seq,
        kind=kind,
        payload=payload,
        actor_seat=actor_seat,
        recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
        idempotency_key=idempotency_key,
        device_id=device_id,
    )
    event.save(force_insert=True)
    hand.version += 1
    return event


#: What the per-seat rows and the standings depend on.
_COUNTING_FIELDS = ("status", "confirmation", "score_0", "score_1", "score_2", "landlord_seat")


def hand_commit(*, hand: Hand, replay: HandReplay | None = None) -> Hand:
    """Write the row's summary and snapshot (``replay``, default: the log replayed) and,
    when the status, scores or confirmation changed, the per-seat rows and the standings
    request on commit (same transaction). A play in the middle of a hand leaves the
    tournament row alone, so tables do not queue on its log version."""
    replay = replay or hand_replay(hand=hand)
    before = [getattr(hand, name) for name in _COUNTING_FIELDS]
    hand_summary_apply(hand=hand, replay=replay)
    if before != [getattr(hand, name) for name in _COUNTING_FIELDS]:
        hand_results_sync(hand=hand)
    return hand


__all__ = [
    "DEVICE_ID_MAX_LENGTH",
    "Decide",
    "NewEvent",
    "hand_commit",
    "hand_event_append",
    "hand_retry_check",
    "hand_row_lock",
    "hand_write",
]
