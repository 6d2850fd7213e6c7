"""Reads for the standings: SQL aggregates over the per-seat rows, and the snapshots.

Everything is summed by the database (``GROUP BY`` and window functions that run on
SQLite ≥ 3.25 and PostgreSQL); Python only ranks the per-entry rows.
"""

from django.db import connection
from django.db.models import (
    F,
    Max,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from tournaments.models import (
    Entry,
    Hand,
    HandSeatResult,
    Penalty,
    Round,
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

# R10.8.5 "winner of the last deal": an entry sits at one table per round, so its last
# counted finished hand is the highest-numbered one in its latest round with one.  The
# latest round is found first (a join with the few round rows), so only that round's rows
# are joined with their hands and ordered.
_LAST_DEAL_SQL = """
WITH latest AS (
    SELECT r.entry_id, MAX(rd.number) AS round_number
    FROM {results} r JOIN {rounds} rd ON rd.id = r.round_id
    WHERE r.tournament_id = %s AND NOT r.passed_out
    GROUP BY r.entry_id
), last_round AS (
    SELECT r.entry_id, r.won,
           ROW_NUMBER() OVER (PARTITION BY r.entry_id ORDER BY h.number DESC) AS recency
    FROM {results} r
    JOIN {rounds} rd ON rd.id = r.round_id
    JOIN latest ON latest.entry_id = r.entry_id AND latest.round_number = rd.number
    JOIN {hands} h ON h.id = r.hand_id
    WHERE r.tournament_id = %s AND NOT r.passed_out
)
SELECT entry_id FROM last_round WHERE recency = 1 AND won
"""

# One pass over the per-seat rows gives every entry's sums, split by the size n of the
# duplicate comparison groups its results fell in (n is NULL without a board).  R10.4.3
# within each (board, position) group: the scores are first counted per value (a few
# rows per group), then a running sum over the values ordered ascending gives, for each
# value, the results below it (running sum − its own count c), so
# MP = 2·lower + (c − 1).  Groups of one result are not scored (R10.8.4).
_ENTRY_SUMS_SQL = """
WITH scores AS (
    SELECT board_id, position, score, COUNT(*) AS c
    FROM {results}
    WHERE tournament_id = %s AND board_id IS NOT NULL
    GROUP BY board_id, position, score
), matchpoints AS (
    SELECT board_id, position, score,
           2 * (SUM(c) OVER (PARTITION BY board_id, position ORDER BY score) - c) + c - 1
             AS mp,
           SUM(c) OVER (PARTITION BY board_id, position) AS n
    FROM scores
)
SELECT r.entry_id, m.n, COUNT(*), SUM(r.score),
       SUM(CASE WHEN r.is_landlord THEN 1 ELSE 0 END),
       SUM(CASE WHEN r.is_landlord AND r.won THEN 1 ELSE 0 END),
       SUM(m.mp),
       SUM(CASE WHEN m.mp = 2 * (m.n - 1) THEN 1 ELSE 0 END)
FROM {results} r
LEFT JOIN matchpoints m
  ON m.board_id = r.board_id AND m.position = r.position AND m.score = r.score
WHERE r.tournament_id = %s
GROUP BY r.entry_id, m.n
"""


def _sql(template: str) -> str:
    quote = connection.ops.quote_name
    return template.format(
        results=quote(HandSeatResult._meta.db_table),
        rounds=quote(Round._meta.db_table),
        hands=quote(Hand._meta.db_table),
    )


def _last_deal_winners(*, tournament_id: int) -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute(_sql(_LAST_DEAL_SQL), [tournament_id, tournament_id])
        return {row[0] for row in cursor.fetchall()}


def _entry_sums(
    *, tournament_id: int, last_deal: bool
) -> tuple[list[EntryTotals], list[MatchpointGroup]]:
    """Every entry's totals, and its duplicate results by comparison-group size."""
    sums: dict[int, list[int]] = {}
    groups = []
    with connection.cursor() as cursor:
        cursor.execute(_sql(_ENTRY_SUMS_SQL), [tournament_id, tournament_id])
        for entry_id, n, count, points, landlord, landlord_won, mp, tops in cursor.fetchall():
            row = sums.setdefault(entry_id, [0, 0, 0, 0])
            row[0] += int(points)
            row[1] += count
            row[2] += int(landlord)
            row[3] += int(landlord_won)
            if n is not None and n > 1:
                groups.append(MatchpointGroup(entry_id, int(n), count, int(mp), int(tops)))
    penalties = dict(
        Penalty.objects.filter(tournament_id=tournament_id, revoked_at__isnull=True)
        .values("entry_id")
        .annotate(points=Sum("points"))
        .values_list("entry_id", "points")
    )
    winners = _last_deal_winners(tournament_id=tournament_id) if last_deal else set()
    entries = []
    for entry_id, order, withdrawn in Entry.objects.filter(tournament_id=tournament_id).values_list(
        "id", "registration_order", "withdrawn"
    ):
        points, hands, landlord, landlord_won = sums.get(entry_id, (0, 0, 0, 0))
        entries.append(
            EntryTotals(
                entry_id=entry_id,
                registration_order=order,
                withdrawn=withdrawn,
                deal_points=points,
                penalty_points=penalties.get(entry_id) or 0,
                hands_played=hands,
                landlord_hands=landlord,
                landlord_wins=landlord_won,
                last_deal_won=entry_id in winners,
            )
        )
    return entries, groups


def _meetings(*, tournament_id: int) -> list[Meeting]:
    """Each entry's match score per table (a table belongs to one round) (R10.3.1)."""
    rows = (
        HandSeatResult.objects.filter(tournament_id=tournament_id)
        .values("table_id", "entry_id")
        .annotate(match_score=Sum("score"))
        .values_list("table_id", "entry_id", "match_score")
        .order_by()
    )
    return [Meeting(0, t, e, s) for t, e, s in rows]


def standings_compute(*, tournament: Tournament) -> list[Standing]:
    """The standings from scratch, from the rows as they are now (best first)."""
    chain = chain_for(format=tournament.format, tiebreaks=tournament.tiebreaks)
    entries, groups = _entry_sums(tournament_id=tournament.pk, last_deal="last_deal" in chain)
    needs_meetings = "opponents_outscored" in chain or "head_to_head" in chain
    return standings_rank(
        format=tournament.format,
        tiebreaks=tournament.tiebreaks,
        entries=entries,
        matchpoints=groups if tournament.format == "duplicate" else (),
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
