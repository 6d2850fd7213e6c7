"""The JSON archive of a whole tournament (event logs included): reading it out.

Rows refer to each other by their numbers in the game (registration order, round, table
and hand numbers, board numbers), never by database ids, and keys are sorted, so the same
tournament always gives the same bytes: export → import → export is byte-identical.
Per-seat result rows and standings are not archived: they are projections of the hands.
Idempotency records of the referee API (``IdempotencyRecord``) are not archived either: they
are a cache of recent answers to retried requests, not part of the tournament.

Database ids inside event and round-log payloads (the entries of a seat correction or a
seating's byes, the hands a seat correction touched) are written as registration orders and
hand keys, and turned back into the new ids on import (``PAYLOAD_ENTRY_KEYS``).
"""

import json
from datetime import UTC, datetime
from typing import Any

from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    Entry,
    Hand,
    HandEvent,
    HandEventKind,
    HandExclusion,
    HandPar,
    Penalty,
    RefereeAssignment,
    Round,
    RoundBoard,
    RoundBye,
    RoundLog,
    Seat,
    Table,
    Tournament,
)

ARCHIVE_FORMAT = "doudizhu-tournament-archive"
#: 4: a table's ``exclusions`` (a director's exclusions of its hands) and the tournament's
#: ``rounds_planned``;
#: a tournament's and a hand's ``stake_cap`` (five players' cap, R14.7), a board's ``face_up``
#: and a hand's ``partner_seat`` (six players, R13.3, R13.11): optional on import, archives of
#: version 4 written before them have none (no cap, no face-up card, no partner);
#: 3: per-seat arrays (a hand's ``seats``, ``doubled``, ``scores``; a board's ``seat_cards``)
#: and a ``laizi`` board's ``wild_rank``;
#: 3 and 2 (the three-seat columns) are still read (``tournaments.archive.restore``).
ARCHIVE_VERSION = 4

TOURNAMENT_FIELDS = (
    "slug",
    "name",
    "rule_profile",
    "format",
    "status",
    "hands_per_round",
    "rounds_planned",
    "is_public",
    "requires_confirmation",
    "separate_clubs",
    "tiebreaks",
    "log_version",
    "stake_cap",
)
PLAYER_FIELDS = ("name", "chinese_name", "club", "external_id")
BOARD_FIELDS = ("number", "seed", "seat_cards", "kitty", "first_bidder", "wild_rank", "face_up")
HAND_FIELDS = (
    "number",
    "deal",
    "status",
    "rule_profile",
    "rule_profile_hash",
    "landlord_seat",
    "bid",
    "winner",
    "seats",
    "doubled",
    "redoubled",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "scores",
    "confirmation",
    "physical_cards",
    "first_bidder",
    "seed",
    "version",
    "stake_cap",
    "partner_seat",
)
EVENT_FIELDS = ("seq", "kind", "actor_seat", "idempotency_key", "device_id")
ROUND_FIELDS = ("number", "status", "seed", "seating_explanation")
TABLE_FIELDS = ("number", "section", "first_bidder")
ROUND_LOG_FIELDS = ("kind", "reason")
#: Payload keys that hold an entry's database id (archived as its registration order).
PAYLOAD_ENTRY_KEYS = ("old_entry", "new_entry")
PENALTY_FIELDS = ("points", "reason", "revoke_reason", "idempotency_key")
#: An exclusion's ``hand`` is archived as the number of its table's hand (its ``number``),
#: or null when the table had not played it (a missing hand).
EXCLUSION_FIELDS = ("number", "state", "reason")
#: A board's par (issue 33), archived once done (a run queued, running or cancelled is not:
#: null), and where each of its finished hands left it. Optional on import: archives of
#: version 4 written before par have none.
BOARD_PAR_FIELDS = (
    "table", "outcome", "landlord", "bid", "scores", "nodes", "ms", "budget",
)  # fmt: skip
HAND_PAR_FIELDS = (
    "hand_version", "outcome", "start_action", "start_landlord_wins", "turn_action",
    "turn_seat", "kept_play", "open_action", "nodes", "ms",
)  # fmt: skip


def timestamp(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _username(user: Any) -> str | None:
    return None if user is None else user.get_username()


def _hand_key(hand: Hand) -> dict[str, int]:
    return {"round": hand.table.round.number, "table": hand.table.number, "hand": hand.number}


def payload_ids_mapped(payload: Any, *, entry: Any, hand: Any) -> Any:
    """A seat correction's or a round log's ``payload`` with the ids of the entries and
    hands it names passed through ``entry`` and ``hand`` (ids -> archive references on
    export, and back on import): ``old_entry`` / ``new_entry`` (also inside ``seats``), a
    seating's ``byes`` and a seat correction's ``hands``.  Other payloads are left alone (a
    deal's ``hands`` are cards)."""
    if not isinstance(payload, dict):
        return payload
    out = dict(payload)
    for key in PAYLOAD_ENTRY_KEYS:
        if out.get(key) is not None:
            out[key] = entry(out[key])
    if isinstance(out.get("seats"), list):
        out["seats"] = [payload_ids_mapped(s, entry=entry, hand=hand) for s in out["seats"]]
    if isinstance(out.get("byes"), list):
        out["byes"] = [entry(v) for v in out["byes"]]
    if isinstance(out.get("hands"), list):
        out["hands"] = [hand(v) for v in out["hands"]]
    return out


def _par(row: Any, fields: tuple[str, ...]) -> dict[str, Any] | None:
    return None if row is None else {f: getattr(row, f) for f in fields}


def tournament_archive(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as plain JSON data."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("registration_order")
    )
    order_of = {e.pk: e.registration_order for e in entries}
    all_hands = list(
        Hand.objects.filter(table__round__tournament=tournament)
        .select_related("board", "table__round")
        .order_by("table__round__number", "table__number", "number")
    )
    key_of = {h.pk: _hand_key(h) for h in all_hands}
    board_pars = {
        row.board_id: row
        for row in BoardPar.objects.filter(board__tournament=tournament, status=AnalysisStatus.DONE)
    }
    hand_pars = {
        row.hand_id: row
        for row in HandPar.objects.filter(
            board_par__in=list(board_pars.values()), board_par__status=AnalysisStatus.DONE
        )
    }

    def payload(value: Any) -> Any:
        return payload_ids_mapped(value, entry=order_of.__getitem__, hand=key_of.__getitem__)

    events_of: dict[int, list[dict[str, Any]]] = {}
    for ev in (
        HandEvent.objects.filter(hand__table__round__tournament=tournament)
        .select_related("recorded_by")
        .order_by("hand_id", "seq")
    ):
        events_of.setdefault(ev.hand_id, []).append(
            {
                **{f: getattr(ev, f) for f in EVENT_FIELDS},
                "payload": (
                    payload(ev.payload) if ev.kind == HandEventKind.SEAT_CORRECTION else ev.payload
                ),
                "recorded_by": _username(ev.recorded_by),
                "recorded_at": timestamp(ev.recorded_at),
            }
        )
    hands_of: dict[int, list[dict[str, Any]]] = {}
    for h in all_hands:
        hands_of.setdefault(h.table_id, []).append(
            {
                **{f: getattr(h, f) for f in HAND_FIELDS},
                "board": h.board.number if h.board else None,
                "events": events_of.get(h.pk, []),
                "par": _par(hand_pars.get(h.pk), HAND_PAR_FIELDS),
            }
        )
    exclusions_of: dict[int, list[dict[str, Any]]] = {}
    for ex in (
        HandExclusion.objects.filter(table__round__tournament=tournament)
        .select_related("hand", "recorded_by")
        .order_by("table_id", "number")
    ):
        exclusions_of.setdefault(ex.table_id, []).append(
            {
                **{f: getattr(ex, f) for f in EXCLUSION_FIELDS},
                "hand": ex.hand.number if ex.hand else None,
                "recorded_by": _username(ex.recorded_by),
                "recorded_at": timestamp(ex.recorded_at),
            }
        )
    referees = list(
        RefereeAssignment.objects.filter(round__tournament=tournament).select_related("user")
    )
    rounds = []
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        tables = []
        for table in Table.objects.filter(round=round_).order_by("number"):
            tables.append(
                {
                    **{f: getattr(table, f) for f in TABLE_FIELDS},
                    "seats": [
                        {"position": s.position, "entry": order_of[s.entry_id]}
                        for s in Seat.objects.filter(table=table).order_by("position")
                    ],
                    "referees": sorted(
                        r.user.get_username() for r in referees if r.table_id == table.pk
                    ),
                    "hands": hands_of.get(table.pk, []),
                    "exclusions": exclusions_of.get(table.pk, []),
                }
            )
        rounds.append(
            {
                **{f: getattr(round_, f) for f in ROUND_FIELDS},
                "referees": sorted(
                    r.user.get_username()
                    for r in referees
                    if r.round_id == round_.pk and r.table_id is None
                ),
                "byes": sorted(order_of[b.entry_id] for b in RoundBye.objects.filter(round=round_)),
                "boards": [
                    {"section": rb.section, "hand_number": rb.hand_number, "board": rb.board.number}
                    for rb in RoundBoard.objects.filter(round=round_)
                    .select_related("board")
                    .order_by("section", "hand_number")
                ],
                "log": [
                    {
                        **{f: getattr(row, f) for f in ROUND_LOG_FIELDS},
                        "payload": payload(row.payload),
                        "recorded_by": _username(row.recorded_by),
                        "recorded_at": timestamp(row.recorded_at),
                    }
                    for row in RoundLog.objects.filter(round=round_)
                    .select_related("recorded_by")
                    .order_by("recorded_at", "id")
                ],
                "tables": tables,
            }
        )
    penalties = [
        {
            **{f: getattr(p, f) for f in PENALTY_FIELDS},
            "entry": order_of[p.entry_id],
            "hand": key_of[p.hand_id] if p.hand_id else None,
            "recorded_by": _username(p.recorded_by),
            "recorded_at": timestamp(p.recorded_at),
            "revoked_at": timestamp(p.revoked_at),
            "revoked_by": _username(p.revoked_by),
        }
        for p in Penalty.objects.filter(tournament=tournament)
        .select_related("recorded_by", "revoked_by")
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
            {
                **{f: getattr(b, f) for f in BOARD_FIELDS},
                "par": _par(board_pars.get(b.pk), BOARD_PAR_FIELDS),
            }
            for b in Board.objects.filter(tournament=tournament).order_by("number")
        ],
        "rounds": rounds,
        "penalties": penalties,
    }


def round_archive(*, tournament: Tournament, round_number: int) -> dict[str, Any]:
    """One round's part of the archive: the tournament's header, entries and boards, that
    round (tables, seats, hands with their event logs, exclusions, its log) and the
    penalties given on its hands.  For reading and filing; ``tournament_import`` takes
    whole archives only."""
    data = tournament_archive(tournament=tournament)
    data["rounds"] = [r for r in data["rounds"] if r["number"] == round_number]
    data["penalties"] = [
        p for p in data["penalties"] if p["hand"] is not None and p["hand"]["round"] == round_number
    ]
    data["part"] = {"round": round_number}
    return data


def archive_dumps(data: dict[str, Any]) -> str:
    """The archive's one text form: sorted keys, UTF-8 characters as they are."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"
