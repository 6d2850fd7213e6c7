"""The standings table of the public pages, read from the latest snapshot (never computed
on a page request): the rows, their movement since the previous round, the marker.

Three queries whatever the field's size: the latest version, its rows (with players) and
the ranks of the previous round's kept snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import F, OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    StandingSnapshot,
    Tournament,
    TournamentFormat,
    TournamentLog,
    TournamentLogKind,
    TournamentStatus,
)
from tournaments.standings.queries import standings_newest_version, standings_not_ahead
from tournaments.standings.ranking import CRITERIA, PRIMARY, chain_for

#: Column titles of the tie-break criteria (tournaments.standings.ranking.CRITERIA).
CRITERION_LABELS = {
    "total": _("Total"),
    "mp_percentage": _("Matchpoint %"),
    "last_deal": _("Won last deal"),
    "registration": _("Registration"),
    "opponents_outscored": _("Opponents outscored"),
    "tops": _("Tops"),
    "head_to_head": _("Head to head"),
}


#: Criteria whose values are exact fractions (percentages): shown with two decimals.
PERCENTAGE_CRITERIA = frozenset({"mp_percentage", "opponents_outscored"})


def percentage_text(value: float) -> str:
    """A percentage as every page and export shows it: two decimals ("16.67")."""
    return f"{value:.2f}"


def tiebreak_text(name: str, value: object) -> str:
    """A tie-break value as the standings page and its CSV show it: percentages with two
    decimals (the snapshot keeps six, the ranking exact fractions), counts and flags as
    whole numbers; "" for none."""
    if value is None or value == "":
        return ""
    if name in PERCENTAGE_CRITERIA and isinstance(value, int | float):
        return percentage_text(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


#: What each criterion means (tournaments.standings.ranking.CRITERIA, in the reader's language).
CRITERION_HELP = {
    "total": _("total score: deal scores plus penalties (R10.8.2)"),
    "mp_percentage": _("matchpoint percentage: 100 × mean matchpoint ratio (R10.8.3)"),
    "last_deal": _("1 if the entry's side won its own last counted finished hand (R10.6.2)"),
    "registration": _("earlier registration first (R10.6.2)"),
    "opponents_outscored": _("mean final matchpoint % of the table-mates outscored (R10.6.1)"),
    "tops": _("number of tops: results that beat every other in their group (R10.8.3)"),
    "head_to_head": _("placement points between the entries still tied (R10.3.2)"),
}


def criteria_explained() -> list[tuple[str, str, str]]:
    """(key, title, meaning) of every tie-break criterion, for the tournament forms."""
    return [
        (key, str(CRITERION_LABELS.get(key, key)), str(CRITERION_HELP.get(key, text)))
        for key, text in CRITERIA.items()
    ]


_RENAMED = {
    "name": "entry__player__name",
    "chinese_name": "entry__player__chinese_name",
    "club": "entry__player__club",
}
ROW_FIELDS = (
    "entry_id", "rank", "total", "tiebreaks", "round_number", "computed_at", "hands_played",
    "landlord_hands", "landlord_wins", "mp_percentage", *_RENAMED.values(),
)  # fmt: skip


@dataclass
class StandingsTable:
    tournament: Tournament
    #: one dict per entry (``ROW_FIELDS``): plain values, no model instances, because a
    #: 3,000-player page builds 3,000 of them on every render
    rows: list[dict[str, Any]] = field(default_factory=list)
    clubs: list[str] = field(default_factory=list)
    log_version: int | None = None
    round_number: int = 0
    computed_at: datetime | None = None
    final: bool = False
    #: when the final standings were published again after a reopen, and the reopen's
    #: reason ("Final, revised <time>: <reason>"); None for a first publication
    revised_at: datetime | None = None
    revision_reason: str = ""
    #: tie-break criteria shown as columns, after the format's primary criterion
    tiebreaks: list[str] = field(default_factory=list)
    #: entry id → places gained since the previous round (None: no previous round)
    movement: dict[int, int] = field(default_factory=dict)
    has_movement: bool = False

    @property
    def duplicate(self) -> bool:
        return self.tournament.format == TournamentFormat.DUPLICATE

    @property
    def tiebreak_labels(self) -> list[Any]:
        return [CRITERION_LABELS.get(name, name) for name in self.tiebreaks]

    def csv_header(self) -> list[Any]:
        head: list[Any] = [_("Rank"), _("Player"), _("Chinese name"), _("Club"), _("Total")]
        if self.duplicate:
            head.append(_("Matchpoint %"))
        head += [_("Hands played"), _("Landlord hands"), _("Landlord wins")]
        return head + self.tiebreak_labels

    def csv_row(self, row: dict[str, Any]) -> list[Any]:
        out: list[Any] = [row["rank"], row["name"], row["chinese_name"], row["club"], row["total"]]
        if self.duplicate:
            out.append(percentage_text(row["mp_percentage"]))
        out += [row["hands_played"], row["landlord_hands"], row["landlord_wins"]]
        values = row["tiebreaks"] or {}
        return out + [tiebreak_text(name, values.get(name)) for name in self.tiebreaks]


def standings_key(*, slug: str) -> str | None:
    """What the standings page depends on, as one string (None: no public tournament).
    One query, on indexes only (the newest snapshot row by ``standing_by_version``): the
    ETag of a conditional GET costs no more than this. Every row of a snapshot has its
    version and time, and a newer version is a later snapshot. The tournament's log
    version counts only as whether the standings are final (``standings_table``): a
    finished hand bumps it before its snapshot is made, and the page does not change
    until then."""
    last_log = TournamentLog.objects.filter(tournament=OuterRef("pk")).order_by("-id")
    newest = StandingSnapshot.objects.filter(
        tournament=OuterRef("pk"), log_version__lte=OuterRef("log_version")
    ).order_by("-log_version")
    row = (
        Tournament.objects.filter(slug=slug, is_public=True)
        .annotate(
            version=Subquery(newest.values("log_version")[:1]),
            at=Subquery(newest.values("computed_at")[:1]),
            logged=Subquery(last_log.values("id")[:1]),
        )
        .values_list("pk", "status", "log_version", "version", "at", "logged", "inputs_changed")
        .first()
    )
    if row is None:
        return None
    pk, status, log_version, version, at, logged, pending = row
    final = int(status == TournamentStatus.FINISHED and version == log_version and not pending)
    return f"s{pk}-{status}-{final}-{version}-{at.timestamp() if at else 0}-{logged}"


def _revision_columns() -> dict[str, Subquery]:
    """When the final standings were last published, and when and why they were last
    reopened, as subqueries of a tournament queryset."""
    log = TournamentLog.objects.filter(tournament=OuterRef("pk")).order_by("-recorded_at", "-id")
    published = log.filter(kind=TournamentLogKind.FINAL_PUBLISHED)
    reopened = log.filter(kind=TournamentLogKind.RESULTS_REOPENED)
    return {
        "published_at": Subquery(published.values("recorded_at")[:1]),
        "reopened_at": Subquery(reopened.values("recorded_at")[:1]),
        "reopen_reason": Subquery(reopened.values("reason")[:1]),
    }


def _revision(row: Mapping[str, Any]) -> tuple[datetime, str] | None:
    published, reopened = row["published_at"], row["reopened_at"]
    if published is None or reopened is None or reopened > published:
        return None
    return published, row["reopen_reason"]


def final_revision(*, tournament: Tournament) -> tuple[datetime, str] | None:
    """When the final standings were last published and the reason of the reopen before
    it, if they were ever reopened; None for final standings published once (or not)."""
    row = Tournament.objects.filter(pk=tournament.pk).values(**_revision_columns()).first()
    return _revision(row) if row is not None else None


def standings_table(*, tournament: Tournament, club: str | None = None) -> StandingsTable:
    """The newest snapshot, best rank first, optionally one club's players."""
    table = StandingsTable(tournament=tournament)
    # The latest version and the final's revision in one query.
    head = (
        Tournament.objects.filter(pk=tournament.pk)
        .values(
            latest=standings_newest_version(),
            current=F("log_version"),
            pending=F("inputs_changed"),
            **_revision_columns(),
        )
        .get()
    )
    latest = head["latest"]
    if latest is None:
        return table
    rows = list(
        StandingSnapshot.objects.filter(tournament=tournament, log_version=latest)
        .order_by("rank", "entry__registration_order")
        .values(*ROW_FIELDS)
    )
    for row in rows:
        for name, path in _RENAMED.items():
            row[name] = row.pop(path)
    table.clubs = sorted({r["club"] for r in rows if r["club"]})
    table.rows = [r for r in rows if r["club"] == club] if club else rows
    table.log_version = latest
    table.round_number = rows[0]["round_number"] if rows else 0
    table.computed_at = max((r["computed_at"] for r in rows), default=None)
    # Final only when the snapshot is the one of the log as it stands (the version read
    # with it, in the same query, and no change the database marked and nobody versioned).
    table.final = (
        tournament.status == TournamentStatus.FINISHED
        and latest == head["current"]
        and not head["pending"]
    )
    revision = _revision(head) if table.final else None
    if revision is not None:
        table.revised_at, table.revision_reason = revision
    chain = chain_for(format=tournament.format, tiebreaks=tournament.tiebreaks)
    table.tiebreaks = [c for c in chain if c != PRIMARY.get(tournament.format, "total")]
    table.movement = _movement(tournament, table.round_number, rows)
    table.has_movement = bool(table.movement)
    return table


def _movement(
    tournament: Tournament, round_number: int, rows: list[dict[str, Any]]
) -> dict[int, int]:
    """Places gained since the standings kept for the last earlier round."""
    previous = (
        standings_not_ahead(tournament_id=tournament.pk)
        .filter(round_number__lt=round_number)
        .order_by("-log_version")
        .values_list("log_version", flat=True)[:1]
    )
    before = dict(
        StandingSnapshot.objects.filter(
            tournament=tournament, log_version__in=previous
        ).values_list("entry_id", "rank")
    )
    if not before:
        return {}
    return {
        r["entry_id"]: before[r["entry_id"]] - r["rank"] for r in rows if r["entry_id"] in before
    }


def entry_rank_history(*, tournament: Tournament, entry_id: int) -> list[tuple[int, int]]:
    """(round number, rank) after each round, from the kept snapshots (the latest of each
    round). One query."""
    by_round: dict[int, tuple[int, int]] = {}
    for round_number, version, rank in (
        standings_not_ahead(tournament_id=tournament.pk)
        .filter(entry_id=entry_id, round_number__gt=0)
        .values_list("round_number", "log_version", "rank")
    ):
        if round_number not in by_round or version > by_round[round_number][0]:
            by_round[round_number] = (version, rank)
    return [(n, by_round[n][1]) for n in sorted(by_round)]
