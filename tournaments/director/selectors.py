"""Reads for the director screens: a tournament's rounds, tables and their state."""

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Field, Prefetch, Q, QuerySet
from django.utils.translation import gettext, ngettext

from tournaments.common import phrases
from tournaments.common.seat_names import seat_name
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.gate import table_lines
from tournaments.hands.replay import result_confirm_event
from tournaments.hands.words import LogLine, log_lines
from tournaments.models import (
    Confirmation,
    ConfirmedBy,
    Entry,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentLog,
    TournamentLogKind,
)
from tournaments.standings.public_table import CRITERION_LABELS
from tournaments.tournament.services import LOGGED_SETTINGS

LIVE = (HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING)
CLOSED = (HandStatus.FINISHED, HandStatus.PASSED_OUT)


def tournament_get(*, slug: str) -> Tournament | None:
    return Tournament.objects.filter(slug=slug).first()


def round_get(*, tournament: Tournament, number: int) -> Round | None:
    return Round.objects.filter(tournament=tournament, number=number).first()


def entries_for_director(*, tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player")


def seating_explanation_text(*, round: Round) -> str:
    """How ``round`` was seated, in the reader's language: the engine's phrases as the
    round keeps them (``tournaments.common.phrases``); a text kept as words (an older round, an
    imported archive) as it is."""
    kept = phrases.from_json(round.seating_explanation)
    if kept is None:
        return round.seating_explanation
    return phrases.render(kept, translate=gettext, translate_plural=ngettext, seat_name=seat_name)


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


#: A hand's state on the results desk (issue 17): ``missing`` is a hand not started yet.
HAND_STATES = (
    "playing", "awaiting", "confirmed", "finished", "disputed", "irregular", "voided", "missing",
)  # fmt: skip


@dataclass
class DeskHand:
    """One hand's line on the desk: its state and, once confirmed, who confirmed it."""

    number: int
    state: str
    hand: Hand | None = None
    confirmed_by: str = ""


@dataclass
class TableState:
    """A table as the results desk shows it: disputed, awaiting confirmation, playing,
    missing (fewer counted hands than the round wants) or finished; and each hand."""

    table: Table
    state: str
    hands: list[Hand] = field(default_factory=list)
    counted: int = 0
    lines: list[DeskHand] = field(default_factory=list)

    @property
    def awaiting(self) -> int:
        return sum(1 for line in self.lines if line.state == "awaiting")


def confirmers(*, hands: list[Hand]) -> dict[int, str]:
    """Who confirmed each confirmed hand's current result (``result_confirm_event``): the
    official's user name, or the players whose PINs were entered. A hand corrected since
    its confirmation has none: its earlier confirmers are in its log. One query for the
    events that tell (confirmations and what replaces a result), one for the players'
    names."""
    confirmed = {h.pk: h for h in hands if h.confirmation == Confirmation.CONFIRMED}
    events: dict[int, list[HandEvent]] = {pk: [] for pk in confirmed}
    for event in (
        HandEvent.objects.filter(hand_id__in=list(confirmed))
        .filter(Q(kind__in=RESULT_EVENTS) | Q(payload__closes=True))
        .select_related("recorded_by", "hand__table__round")
        .order_by("hand_id", "seq")
    ):
        events[event.hand_id].append(event)
    found = {pk: result_confirm_event(hand=h, events=events[pk]) for pk, h in confirmed.items()}
    current = {pk: confirm for pk, confirm in found.items() if confirm is not None}
    wanted = {
        (e.hand.table.round.tournament_id, n)
        for e in current.values()
        for n in e.payload.get("registrations", [])
    }
    names = {
        (entry.tournament_id, entry.registration_order): str(entry)
        for entry in Entry.objects.filter(
            tournament_id__in={t for t, _ in wanted},
            registration_order__in={n for _, n in wanted},
        ).select_related("player")
    }
    out: dict[int, str] = {}
    for pk, event in current.items():
        if event.payload.get("by") == ConfirmedBy.PLAYERS:
            tournament_id = event.hand.table.round.tournament_id
            out[pk] = ", ".join(
                names.get((tournament_id, n), f"#{n}") for n in event.payload["registrations"]
            )
        else:
            out[pk] = event.recorded_by.get_username() if event.recorded_by else ""
    return out


#: The log events that tell whose confirmation is the current one (with the closing actions).
RESULT_EVENTS = (
    HandEventKind.CONFIRM,
    HandEventKind.RESULT,
    HandEventKind.CORRECTION,
    HandEventKind.UNDO,
    HandEventKind.VOID,
)


def results_desk(*, round: Round) -> list[TableState]:
    """Each table of ``round`` with its hands' lines (``gate.table_lines``: the states the
    results gate refuses on are the desk's), who confirmed each and the table's state."""
    wanted = round.tournament.hands_per_round
    tables = list(round_tables(round=round))
    all_hands = [h for t in tables for h in t.hands.all()]
    who = confirmers(hands=all_hands)
    irregular = hand_selectors.irregular_hand_ids(hands=all_hands)
    out = []
    for table in tables:
        hands = list(table.hands.all())
        lines = [
            DeskHand(
                number=line.number,
                state=line.state,
                hand=line.hand,
                confirmed_by=who.get(line.hand.pk, "") if line.hand is not None else "",
            )
            for line in table_lines(hands=hands, wanted=wanted, irregular=irregular)
        ]
        counted = sum(1 for h in hands if h.counts)
        states = {line.state for line in lines}
        if "irregular" in states:
            state = "irregular"
        elif "disputed" in states:
            state = "disputed"
        elif "awaiting" in states:
            state = "awaiting"
        elif "playing" in states:
            state = "playing"
        elif counted >= wanted:
            state = "finished"
        else:
            state = "missing"
        out.append(TableState(table=table, state=state, hands=hands, counted=counted, lines=lines))
    return out


def awaiting_confirmation(*, round: Round) -> QuerySet[Hand]:
    """The round's hands still awaiting confirmation, table by table."""
    return (
        Hand.objects.filter(table__round=round, confirmation=Confirmation.PENDING)
        .exclude(status=HandStatus.VOIDED)
        .select_related("table")
        .order_by("table__number", "number")
    )


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


def hand_log(*, events: list[dict[str, Any]], profile_key: str | None = None) -> list[LogLine]:
    """A hand's log (``hand_selectors.hand_detail``'s rows) in words, as the public replay
    words it (``hand_words``), in the words of its rules (``profile_key``: Big Three's
    digger); a seat correction names its entries. One query at most."""
    ids = {
        event["payload"].get(key)
        for event in events
        if event["kind"] == HandEventKind.SEAT_CORRECTION
        for key in ("old_entry", "new_entry")
    } - {None}
    names = {
        entry.pk: f"{entry.player} (#{entry.registration_order})"
        for entry in Entry.objects.filter(pk__in=ids).select_related("player")
    }
    return log_lines(events, entry_names=names, profile_key=profile_key)


def tournament_history(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The newest lines of the tournament log, for the director's tournament page: when,
    who, what (settings ``field: old → new`` in words, the entry withdrawn or reinstated,
    the penalty revoked) and why."""
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
                (
                    field,
                    setting_label(field),
                    _history_value(field, change[0]),
                    _history_value(field, change[1]),
                )
                for field, change in sorted(row.changes.items())
                if row.kind == TournamentLogKind.SETTINGS_CHANGED and field in LOGGED_SETTINGS
            ],
            "penalty": row.changes if row.kind == TournamentLogKind.PENALTY_REVOKED else None,
            "reason": row.reason,
        }
        for row in rows
    ]


def _setting_field(name: str) -> "Field[Any, Any]":
    field = Tournament._meta.get_field(name)
    assert isinstance(field, Field)  # every logged setting is a column of the tournament
    return field


def setting_label(field: str) -> str:
    """A tournament setting's name in the reader's language."""
    return str(_setting_field(field).verbose_name)


def _history_value(field: str, value: Any) -> str:
    """A setting's value in words: a choice by its label (the rule profile's name …),
    yes / no, the tie-break criteria by their titles."""
    if field == "tiebreaks" and isinstance(value, list):
        return gettext(", ").join(str(CRITERION_LABELS.get(v, v)) for v in value) or "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    choices = dict(_setting_field(field).flatchoices)
    return str(choices.get(value, value))
