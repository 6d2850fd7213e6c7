"""The standings table of the public pages, read from the latest snapshot (never computed
on a page request): the rows, their movement since the previous round, the marker."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from tournaments.models import StandingSnapshot, Tournament, TournamentFormat, TournamentStatus


@dataclass
class StandingsTable:
    tournament: Tournament
    rows: list[StandingSnapshot] = field(default_factory=list)
    clubs: list[str] = field(default_factory=list)
    log_version: int | None = None
    computed_at: datetime | None = None
    final: bool = False
    tiebreak_names: list[str] = field(default_factory=list)

    @property
    def duplicate(self) -> bool:
        return self.tournament.format == TournamentFormat.DUPLICATE

    def csv_header(self) -> list[Any]:
        head = [_("Rank"), _("Player"), _("Chinese name"), _("Club"), _("Total")]
        return head + [_("Tie-break %(n)s") % {"n": i + 1} for i in range(len(self.tiebreak_names))]

    def csv_row(self, row: StandingSnapshot) -> list[Any]:
        player = row.entry.player
        return [row.rank, player.name, player.chinese_name, player.club, row.total, *row.tiebreaks]


def standings_key(*, slug: str) -> str | None:
    """What the standings page depends on, as one string (None: no public tournament)."""
    row = (
        Tournament.objects.filter(slug=slug, is_public=True)
        .annotate(version=Max("standings__log_version"), at=Max("standings__computed_at"))
        .values_list("pk", "status", "log_version", "version", "at")
        .first()
    )
    if row is None:
        return None
    pk, status, log_version, version, at = row
    return f"s{pk}-{status}-{log_version}-{version}-{at.timestamp() if at else 0}"


def standings_table(*, tournament: Tournament, club: str | None = None) -> StandingsTable:
    """The newest snapshot, best rank first, optionally one club's players."""
    table = StandingsTable(tournament=tournament)
    latest = StandingSnapshot.objects.filter(tournament=tournament).aggregate(v=Max("log_version"))[
        "v"
    ]
    if latest is None:
        return table
    rows = list(
        StandingSnapshot.objects.filter(tournament=tournament, log_version=latest)
        .select_related("entry__player")
        .order_by("rank", "entry__registration_order")
    )
    table.clubs = sorted({r.entry.player.club for r in rows if r.entry.player.club})
    table.rows = [r for r in rows if r.entry.player.club == club] if club else rows
    table.log_version = latest
    table.computed_at = max((r.computed_at for r in rows), default=None)
    table.final = (
        tournament.status == TournamentStatus.FINISHED and latest == tournament.log_version
    )
    width = max((len(r.tiebreaks) for r in rows), default=0)
    table.tiebreak_names = [str(i + 1) for i in range(width)]
    return table
