"""Reads for the director screens: a tournament's rounds, tables and their state."""

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from tournaments.models import (
    Confirmation,
    Entry,
    Hand,
    HandStatus,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentLog,
    TournamentLogKind,
)
from tournaments.services.tournaments import LOGGED_SETTINGS

LIVE = (HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING)
CLOSED = (HandStatus.FINISHED, HandStatus.PASSED_OUT)


def tournament_get(*, slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug).first()


def round_get(*, tournament: Tournament, number: int) -> Round | None:
    return Round.objects.filter(tournament=tournament, number=number).first()


def entries_for_director(*, tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player")


def round_tables(*, round: Round) -> QuerySet[Table]:
    """The round's tables with seats, players, hands and referee assignments."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    hands = Hand.objects.select_related("board").order_by("number")
    assignments = RefereeAssignment.objects.select_related("user").order_by("user__username")
    return (
        Table.objects.filter(round=round)
        .order_by("number")
        .prefetch_related(
            Prefetch("seats", queryset=seats),
            Prefetch("hands", queryset=hands),
            Prefetch("referee_assignments", queryset=assignments),
        )
    )


@dataclass
class TableState:
    """A table as the results desk shows it: playing, finished, missing or disputed."""

    table: Table
    state: str
    hands: list[Hand] = field(default_factory=list)
    counted: int = 0


def results_desk(*, round: Round) -> list[TableState]:
    wanted = round.tournament.hands_per_round
    out = []
    for table in round_tables(round=round):
        hands = list(table.hands.all())
        counted = sum(1 for h in hands if h.status in CLOSED)
        if any(h.confirmation == Confirmation.DISPUTED for h in hands):
            state = "disputed"
        elif any(h.status in LIVE for h in hands):
            state = "playing"
        elif counted >= wanted:
            state = "finished"
        else:
            state = "missing"
        out.append(TableState(table=table, state=state, hands=hands, counted=counted))
    return out


def round_referees(*, round: Round) -> QuerySet[RefereeAssignment]:
    return (
        RefereeAssignment.objects.filter(round=round)
        .select_related("user", "table")
        .order_by("table__number", "user__username")
    )


def hand_for_director(*, tournament: Tournament, hand_id: int) -> Hand | None:
    return (
        Hand.objects.select_related("table__round__tournament", "board")
        .filter(pk=hand_id, table__round__tournament=tournament)
        .first()
    )


#: How many lines of a tournament's history its settings page shows (newest first).
HISTORY_LINES = 50


def tournament_history(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The newest lines of the tournament log, for the director's tournament page: when,
    who, what (settings ``field: old → new``, the entry withdrawn or reinstated, the
    penalty revoked) and why."""
    rows = (
        TournamentLog.objects.filter(tournament=tournament)
        .select_related("recorded_by", "entry__player")
        .order_by("-recorded_at", "-id")[:HISTORY_LINES]
    )
    return [
        {
            "recorded_at": row.recorded_at,
            "who": row.recorded_by.get_username() if row.recorded_by else "",
            "kind": row.get_kind_display(),
            "entry": str(row.entry.player) if row.entry else "",
            "changes": [
                (field, _history_value(change[0]), _history_value(change[1]))
                for field, change in sorted(row.changes.items())
                if row.kind == TournamentLogKind.SETTINGS_CHANGED and field in LOGGED_SETTINGS
            ],
            "penalty": row.changes if row.kind == TournamentLogKind.PENALTY_REVOKED else None,
            "reason": row.reason,
        }
        for row in rows
    ]


def _history_value(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    return str(value)
