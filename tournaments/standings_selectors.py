"""Reads for the standings: SQL aggregates over the per-seat rows, and the snapshots.

Everything is summed by the database (``GROUP BY`` and window functions that run on
SQLite ≥ 3.25 and PostgreSQL); Python only ranks the per-entry rows.
"""

from django.db import connection
from django.db.models import (
    Count,
    F,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, RowNumber

from tournaments.models import (
    Entry,
    HandSeatResult,
    Penalty,
    StandingSnapshot,
    Tournament,
)
from tournaments.standings import (
    EntryTotals,
    MatchpointGroup,
    Meeting,
    Standing,
    chain_for,
    standings_rank,
)


def _last_deal_winners(*, tournament_id: int) -> set[int]:
    """Entries whose side won their own last counted finished hand (R10.8.5).  An entry
    sits at one table per round, so (round number, hand number) orders its hands."""
    last = (
        HandSeatResult.objects.filter(tournament_id=tournament_id, passed_out=False)
        .annotate(
            recency=Window(
                RowNumber(),
                partition_by=[F("entry_id")],
                order_by=[F("round__number").desc(), F("hand__number").desc()],
            )
        )
        .filter(recency=1)
    )
    # ``won`` is read from the last row, not filtered on: a filter would run before the window.
    return {entry_id for entry_id, won in last.values_list("entry_id", "won") if won}


def _entry_totals(*, tournament_id: int, last_deal: bool) -> list[EntryTotals]:
    sums = {
        row["entry_id"]: row
        for row in HandSeatResult.objects.filter(tournament_id=tournament_id)
        .values("entry_id")
        .annotate(
            points=Sum("score"),
            hands=Count("id"),
            landlord_hands=Count("id", filter=Q(is_landlord=True)),
            landlord_wins=Count("id", filter=Q(is_landlord=True, won=True)),
        )
    }
    penalties = dict(
        Penalty.objects.filter(tournament_id=tournament_id, revoked_at__isnull=True)
        .values("entry_id")
        .annotate(points=Sum("points"))
        .values_list("entry_id", "points")
    )
    winners = _last_deal_winners(tournament_id=tournament_id) if last_deal else set()
    out = []
    for entry_id, order, withdrawn in Entry.objects.filter(tournament_id=tournament_id).values_list(
        "id", "registration_order", "withdrawn"
    ):
        row = sums.get(entry_id, {})
        out.append(
            EntryTotals(
                entry_id=entry_id,
                registration_order=order,
                withdrawn=withdrawn,
                deal_points=row.get("points") or 0,
                penalty_points=penalties.get(entry_id) or 0,
                hands_played=row.get("hands") or 0,
                landlord_hands=row.get("landlord_hands") or 0,
                landlord_wins=row.get("landlord_wins") or 0,
                last_deal_won=entry_id in winners,
            )
        )
    return out


# R10.4.3 within each (board, position) group of n results: the rank of a score among
# the group's scores ordered ascending, minus one, is the number of lower results;
# COUNT over (group, score) is the number of equal results, itself included, so
# MP = 2·lower + (equal − 1).  Groups of one result are not scored (R10.8.4).
_MATCHPOINTS_SQL = """
SELECT entry_id, n, COUNT(*), SUM(mp), SUM(CASE WHEN mp = 2 * (n - 1) THEN 1 ELSE 0 END)
FROM (
    SELECT entry_id,
           2 * (RANK() OVER (PARTITION BY board_id, position ORDER BY score) - 1)
             + COUNT(*) OVER (PARTITION BY board_id, position, score) - 1 AS mp,
           COUNT(*) OVER (PARTITION BY board_id, position) AS n
    FROM {table}
    WHERE tournament_id = %s AND board_id IS NOT NULL
) AS results
WHERE n > 1
GROUP BY entry_id, n
"""


def _matchpoint_groups(*, tournament_id: int) -> list[MatchpointGroup]:
    sql = _MATCHPOINTS_SQL.format(table=connection.ops.quote_name(HandSeatResult._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament_id])
        return [
            MatchpointGroup(entry_id=e, n=n, results=c, matchpoints=int(mp), tops=int(tops))
            for e, n, c, mp, tops in cursor.fetchall()
        ]


def _meetings(*, tournament_id: int) -> list[Meeting]:
    """Each entry's match score per (round, table) (R10.3.1)."""
    rows = (
        HandSeatResult.objects.filter(tournament_id=tournament_id)
        .values("round_id", "table_id", "entry_id")
        .annotate(match_score=Sum("score"))
        .values_list("round_id", "table_id", "entry_id", "match_score")
        .order_by()
    )
    return [Meeting(r, t, e, s) for r, t, e, s in rows]


def standings_compute(*, tournament: Tournament) -> list[Standing]:
    """The standings from scratch, from the rows as they are now (best first)."""
    chain = chain_for(format=tournament.format, tiebreaks=tournament.tiebreaks)
    duplicate = tournament.format == "duplicate"
    needs_meetings = "opponents_outscored" in chain or "head_to_head" in chain
    return standings_rank(
        format=tournament.format,
        tiebreaks=tournament.tiebreaks,
        entries=_entry_totals(tournament_id=tournament.pk, last_deal="last_deal" in chain),
        matchpoints=_matchpoint_groups(tournament_id=tournament.pk) if duplicate else (),
        meetings=_meetings(tournament_id=tournament.pk) if needs_meetings else (),
    )


def standings_round_number(*, tournament_id: int) -> int:
    """The latest round with a counted hand (0 before the first)."""
    latest = HandSeatResult.objects.filter(tournament_id=tournament_id).aggregate(
        latest=Max("round__number")
    )["latest"]
    return latest or 0


def standings_latest(*, tournament: Tournament) -> QuerySet[StandingSnapshot]:
    """The newest snapshot rows, best rank first (empty before the first computation)."""
    version = StandingSnapshot.objects.filter(tournament=tournament).aggregate(
        v=Max("log_version")
    )["v"]
    return (
        StandingSnapshot.objects.filter(tournament=tournament, log_version=version)
        .select_related("entry__player")
        .order_by("rank", "entry__registration_order")
    )


def standings_history(*, tournament: Tournament) -> QuerySet[StandingSnapshot]:
    """Every kept snapshot row (the latest of each round), by version then rank: the data
    of a rank-progression chart."""
    return StandingSnapshot.objects.filter(tournament=tournament).order_by(
        "log_version", "rank", "entry__registration_order"
    )


def standings_stale_tournament_ids() -> list[int]:
    """Tournaments with entries whose log version is ahead of their latest snapshot."""
    latest = (
        StandingSnapshot.objects.filter(tournament=OuterRef("pk"))
        .order_by("-log_version")
        .values("log_version")[:1]
    )
    return list(
        Tournament.objects.filter(entries__isnull=False)
        .annotate(snapshot_version=Coalesce(Subquery(latest), Value(-1)))
        .filter(snapshot_version__lt=F("log_version"))
        .values_list("id", flat=True)
        .distinct()
    )


def standings_snapshot_exists(*, tournament_id: int, log_version: int) -> bool:
    return StandingSnapshot.objects.filter(
        tournament_id=tournament_id, log_version=log_version
    ).exists()
