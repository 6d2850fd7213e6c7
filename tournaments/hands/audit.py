"""The audit of the hand rows against their logs (``manage.py hand_audit``).

Each hand's log is replayed from the start (``replay.hand_replay``) and compared with what
its row holds: the summary (``SUMMARY_FIELDS``) and the snapshot (``Hand.state``, the log
folded, which the next write builds its state from). A NULL snapshot is sound (the next
write folds the log); any other difference is a mismatch.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Prefetch

from tournaments.hands.replay import hand_check_replays
from tournaments.models import Hand, HandEvent

#: Hands read (with their logs) per round trip.
AUDIT_CHUNK = 200


@dataclass(frozen=True)
class HandMismatch:
    """A hand whose row says otherwise than its log: the fields that differ."""

    hand_id: int
    where: str
    fields: tuple[str, ...]


def hands_audit(*, tournament_slugs: list[str] | None = None) -> Iterator[HandMismatch]:
    """Every hand (of the given tournaments, or all) whose summary or snapshot is not what
    its log gives, in id order."""
    hands = (
        Hand.objects.select_related("table__round__tournament", "board")
        .prefetch_related(Prefetch("events", queryset=HandEvent.objects.order_by("seq")))
        .order_by("pk")
    )
    if tournament_slugs:
        hands = hands.filter(table__round__tournament__slug__in=tournament_slugs)
    for hand in hands.iterator(chunk_size=AUDIT_CHUNK):
        wrong = hand_check_replays(hand=hand, events=list(hand.events.all()))
        if wrong:
            table = hand.table
            where = (
                f"{table.round.tournament.slug} round {table.round.number} "
                f"table {table.number} hand {hand.number}"
            )
            yield HandMismatch(hand_id=hand.pk, where=where, fields=tuple(wrong))


__all__ = ["HandMismatch", "hands_audit"]
