"""The JSON archive of a whole tournament (event logs included): reading it out.

Rows refer to each other by their numbers in the game (registration order, round, table
and hand numbers, board numbers), never by database ids, and keys are sorted, so the same
tournament always gives the same bytes: export → import → export is byte-identical.
Per-seat result rows and standings are not archived: they are projections of the hands.
"""

import json
from datetime import UTC, datetime
from typing import Any

from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Penalty,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
)

ARCHIVE_FORMAT = "doudizhu-tournament-archive"
ARCHIVE_VERSION = 1

TOURNAMENT_FIELDS = (
    "slug",
    "name",
    "rule_profile",
    "format",
    "status",
    "hands_per_round",
    "is_public",
    "requires_confirmation",
    "tiebreaks",
    "log_version",
)
PLAYER_FIELDS = ("name", "chinese_name", "club", "external_id")
BOARD_FIELDS = ("number", "seed", "hand_0", "hand_1", "hand_2", "kitty", "first_bidder")
HAND_FIELDS = (
    "number",
    "deal",
    "status",
    "rule_profile",
    "rule_profile_hash",
    "landlord_seat",
    "bid",
    "winner",
    "doubled_0",
    "doubled_1",
    "doubled_2",
    "redoubled",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "score_0",
    "score_1",
    "score_2",
    "confirmation",
    "version",
)
EVENT_FIELDS = ("seq", "kind", "payload", "actor_seat", "idempotency_key")
PENALTY_FIELDS = ("points", "reason", "revoke_reason", "idempotency_key")


def timestamp(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


def _hand_key(hand: Hand) -> dict[str, int]:
    return {"round": hand.table.round.number, "table": hand.table.number, "hand": hand.number}


def tournament_archive(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON data."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("registration_order")
    )
    order_of = {e.pk: e.registration_order for e in entries}
    events_of: dict[int, list[dict[str, Any]]] = {}
    for ev in (
        HandEvent.objects.filter(hand__table__round__tournament=tournament)
        .select_related("recorded_by")
        .order_by("hand_id", "seq")
    ):
        events_of.setdefault(ev.hand_id, []).append(
            {
                **{f: getattr(ev, f) for f in EVENT_FIELDS},
                "recorded_by": _username(ev.recorded_by),
                "recorded_at": timestamp(ev.recorded_at),
            }
        )
    referees = RefereeAssignment.objects.filter(round__tournament=tournament).select_related("user")
    rounds = []
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        tables = []
        for table in Table.objects.filter(round=round_).order_by("number"):
            tables.append(
                {
                    "number": table.number,
                    "seats": [
                        {"position": s.position, "entry": order_of[s.entry_id]}
                        for s in Seat.objects.filter(table=table).order_by("position")
                    ],
                    "referees": sorted(
                        r.user.get_username() for r in referees if r.table_id == table.pk
                    ),
                    "hands": [
                        {
                            **{f: getattr(h, f) for f in HAND_FIELDS},
                            "board": h.board.number if h.board else None,
                            "events": events_of.get(h.pk, []),
                        }
                        for h in Hand.objects.filter(table=table)
                        .select_related("board")
                        .order_by("number")
                    ],
                }
            )
        rounds.append(
            {
                "number": round_.number,
                "status": round_.status,
                "referees": sorted(
                    r.user.get_username()
                    for r in referees
                    if r.round_id == round_.pk and r.table_id is None
                ),
                "tables": tables,
            }
        )
    penalties = [
        {
            **{f: getattr(p, f) for f in PENALTY_FIELDS},
            "entry": order_of[p.entry_id],
            "hand": _hand_key(p.hand) if p.hand else None,
            "recorded_by": _username(p.recorded_by),
            "recorded_at": timestamp(p.recorded_at),
            "revoked_at": timestamp(p.revoked_at),
        }
        for p in Penalty.objects.filter(tournament=tournament)
        .select_related("recorded_by", "hand__table__round")
        .order_by("recorded_at", "id")
    ]
    return {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "tournament": {
            **{f: getattr(tournament, f) for f in TOURNAMENT_FIELDS},
            "created_at": timestamp(tournament.created_at),
        },
        "entries": [
            {
                "registration_order": e.registration_order,
                "withdrawn": e.withdrawn,
                "player": {f: getattr(e.player, f) for f in PLAYER_FIELDS},
            }
            for e in entries
        ],
        "boards": [
            {f: getattr(b, f) for f in BOARD_FIELDS}
            for b in Board.objects.filter(tournament=tournament).order_by("number")
        ],
        "rounds": rounds,
        "penalties": penalties,
    }


def archive_dumps(data: dict[str, Any]) -> str:
    """The archive's one text form: sorted keys, UTF-8 characters as they are."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
