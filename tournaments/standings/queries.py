"""Reads for the standings: SQL aggregates over the per-seat rows, and the snapshots.

Everything is summed by the database (``GROUP BY`` and window functions that run on
SQLite ≥ 3.25 and PostgreSQL); Python only ranks the per-entry rows.
"""

from typing import Any

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
)
from django.db.models.functions import Coalesce

from tournaments.common.board_release import boards_secret
from tournaments.common.seats import MAX_SEATS
from tournaments.models import (
    Entry,
    HandSeatResult,
    Penalty,
    Round,
    StandingSnapshot,
    Tournament,
)
from tournaments.standings.ranking import (
    EntryTotals,
    MatchpointGroup,
    Meeting,
    Standing,
    chain_for,
    standings_rank,
)

# One pass over the per-seat rows gives every entry's sums per table (its match score in
# that meeting, R10.3.1), split by the size n of the duplicate comparison groups its
# results fell in (n is NULL without a board).  The database then adds those rows up per
# (entry, n) and, when the chain needs them, per meeting, so Python reads one row per
# entry (and one per meeting) instead of adding up one per table.
#
# Matchpoints (R10.4.3) within each (board, position) group: the scores are first counted
# per value (a few rows per group), then a running sum over the values in ascending order
# gives, for each value, the results below it (running sum − its own count c), so
# MP = 2·lower + (c − 1).  Groups of one result are not scored (R10.8.4).  (The casts
# keep PostgreSQL's sums in integers, not numeric: its numeric sums are much slower, and
# its driver reads numeric as Decimal. Counts fit an INTEGER; scores and their sums are
# BIGINT: six players are uncapped, 5 × 2^42 a hand, R13.9. PostgreSQL's SUM of a BIGINT is
# numeric, so every sum of scores is cast back.)
#
# The per-seat rows meet the matchpoints on one combined key, board · MAX_SEATS + position
# (positions are 0 … MAX_SEATS − 1, so no two groups share a key), and the score: on the three
# columns apart, PostgreSQL's estimate of the hash buckets makes it hash the millions of
# rows instead of the few matchpoint ones (30,000 entries: 1.8 million rows, 160 MB,
# twice the CPU time).
#
# Winner of the last deal (R10.8.5): an entry sits at one table per round, so its hands
# are ordered by (round number, hand number).  ``last_deal`` is the largest of
# 2·(round · 100000 + hand number) + won over its finished hands: the order key sits above
# the lowest bit, so the largest value is the last hand's and its lowest bit says whether
# the entry's side won it (hand numbers stay far below 100000).  No sort, no second pass;
# the round's number is joined to the per-table rows, not to every per-seat row.
_ENTRY_SUMS_SQL = """
WITH scores AS (
    SELECT board_id, position, score, COUNT(*) AS c
    FROM {results}
    WHERE tournament_id = %s AND board_id IS NOT NULL{secret_boards}
    GROUP BY board_id, position, score
), matchpoints AS (
    SELECT board_id, position, score,
           CAST(2 * (SUM(c) OVER (PARTITION BY board_id, position ORDER BY score) - c) + c - 1
                AS INTEGER) AS mp,
           CAST(SUM(c) OVER (PARTITION BY board_id, position) AS INTEGER) AS n
    FROM scores
), per_table AS (
    SELECT r.table_id, r.round_id, r.entry_id, m.n,
           CAST(COUNT(*) AS INTEGER) AS hands,
           CAST(SUM(r.score) AS BIGINT) AS points,
           CAST(SUM(CASE WHEN r.is_landlord THEN 1 ELSE 0 END) AS INTEGER) AS landlord,
           CAST(SUM(CASE WHEN r.is_landlord AND r.won THEN 1 ELSE 0 END) AS INTEGER) AS won,
           CAST(SUM(m.mp) AS INTEGER) AS mp,
           CAST(SUM(CASE WHEN m.mp = 2 * (m.n - 1) THEN 1 ELSE 0 END) AS INTEGER) AS tops,
           MAX(CASE WHEN r.passed_out THEN NULL
                    ELSE 2 * r.hand_number + CASE WHEN r.won THEN 1 ELSE 0 END END) AS last
    FROM {results} r
    LEFT JOIN matchpoints m
      ON m.board_id * {seats} + m.position = r.board_id * {seats} + r.position
         AND m.score = r.score
    WHERE r.tournament_id = %s{secret_rows}
    GROUP BY r.table_id, r.round_id, r.entry_id, m.n
)
SELECT p.entry_id, p.n, SUM(p.hands), CAST(SUM(p.points) AS BIGINT), SUM(p.landlord),
       SUM(p.won), SUM(p.mp), SUM(p.tops), MAX(rd.number * 200000 + p.last), NULL
FROM per_table p
JOIN {rounds} rd ON rd.id = p.round_id
GROUP BY p.entry_id, p.n
"""
# The match score of every meeting (R10.3.1), from the same per-table rows: ``n`` is NULL
# and the table's id stands where ``last`` stands in the per-entry rows.
_MEETINGS_SQL = """
UNION ALL
SELECT entry_id, NULL, NULL, CAST(SUM(points) AS BIGINT), NULL, NULL, NULL, NULL, NULL,
       table_id
FROM per_table
GROUP BY table_id, entry_id
"""


def _sql(template: str, *, secret: int = 0) -> str:
    """``template`` with its table names, and the conditions that leave out the results of
    ``secret`` boards (their ids are the statement's first parameters after each
    tournament id)."""
    quote = connection.ops.quote_name
    ids = ", ".join(["%s"] * secret)
    return template.format(
        results=quote(HandSeatResult._meta.db_table),
        rounds=quote(Round._meta.db_table),
        seats=int(MAX_SEATS),
        secret_boards=f" AND board_id NOT IN ({ids})" if secret else "",
        secret_rows=f" AND (r.board_id IS NULL OR r.board_id NOT IN ({ids}))" if secret else "",
    )


def _entry_sums(
    *, tournament_id: int, with_meetings: bool = True
) -> tuple[list[EntryTotals], list[MatchpointGroup], list[Meeting]]:
    """Every entry's totals, its duplicate results by comparison-group size, and (when
    ``with_meetings``) its match score at every table it sat at."""
    sums: dict[int, list[int]] = {}
    groups: list[MatchpointGroup] = []
    meetings: list[Meeting] = []
    sql = _ENTRY_SUMS_SQL + (_MEETINGS_SQL if with_meetings else "")
    # A duplicate board's results count once it is released: until every table has played
    # it, another table's score tells the tables still to play it where the strong hand
    # sits (``tournaments.common.board_release``). Few boards are secret at a time.
    secret = list(boards_secret(tournament_id=tournament_id))
    with connection.cursor() as cursor:
        cursor.execute(
            _sql(sql, secret=len(secret)), [tournament_id, *secret, tournament_id, *secret]
        )
        rows = cursor.fetchall()
    for entry_id, n, count, points, landlord, won, mp, tops, last, table_id in rows:
        if table_id is not None:
            meetings.append(Meeting(0, table_id, entry_id, int(points)))
            continue
        row = sums.get(entry_id)
        if row is None:
            row = sums[entry_id] = [0, 0, 0, 0, -1]
        row[0] += points
        row[1] += count
        row[2] += landlord
        row[3] += won
        if last is not None and last > row[4]:
            row[4] = last
        if n is not None and n > 1:
            groups.append(MatchpointGroup(entry_id, int(n), int(count), int(mp), int(tops)))
    penalties = penalty_points(tournament_id=tournament_id)
    entries = []
    for entry_id, order, withdrawn in Entry.objects.filter(tournament_id=tournament_id).values_list(
        "id", "registration_order", "withdrawn"
    ):
        points, hands, landlord, landlord_won, last = sums.get(entry_id, (0, 0, 0, 0, -1))
        entries.append(
            EntryTotals(
                entry_id=entry_id,
                registration_order=order,
                withdrawn=withdrawn,
                deal_points=int(points),
                penalty_points=penalties.get(entry_id, 0),
                hands_played=int(hands),
                landlord_hands=int(landlord),
                landlord_wins=int(landlord_won),
                last_deal_won=last >= 0 and last % 2 == 1,
            )
        )
    return entries, groups, meetings


def penalties_in_force() -> QuerySet[Penalty]:
    """Penalties and adjustments that count: a revoked one stays on record but no longer
    counts (SPEC §9)."""
    return Penalty.objects.filter(revoked_at__isnull=True)


def penalty_points(*, tournament_id: int) -> dict[int, int]:
    """Entry id → the sum of its penalties and adjustments in force; entries without any
    are left out. One query."""
    penalties = penalties_in_force().filter(tournament_id=tournament_id)
    return {
        entry: points or 0
        for entry, points in penalties.values("entry_id")
        .annotate(points=Sum("points"))
        .values_list("entry_id", "points")
    }


def entry_totals(*, entry: Entry) -> EntryTotals:
    """One entry's sums as the standings rank it (``EntryTotals.total``: deal points plus
    penalties, R10.8.2), read now: what its player page shows; a secret board's results
    count once it is released, as in the standings. One query."""
    rows = (
        HandSeatResult.objects.filter(entry=OuterRef("pk"))
        .exclude(board_id__in=boards_secret(tournament_id=entry.tournament_id))
        .values("entry")
    )
    penalties = penalties_in_force().filter(entry=OuterRef("pk"))

    def counted(**where: Any) -> Subquery:
        return Subquery(rows.filter(**where).annotate(n=Count("pk")).values("n"))

    sums = (
        Entry.objects.filter(pk=entry.pk)
        .values(
            points=Subquery(rows.annotate(s=Sum("score")).values("s")),
            hands=counted(),
            landlord=counted(is_landlord=True),
            landlord_won=counted(is_landlord=True, won=True),
            penalty=Subquery(penalties.values("entry").annotate(s=Sum("points")).values("s")),
        )
        .get()
    )
    return EntryTotals(
        entry_id=entry.pk,
        registration_order=entry.registration_order,
        withdrawn=entry.withdrawn,
        deal_points=sums["points"] or 0,
        penalty_points=sums["penalty"] or 0,
        hands_played=sums["hands"] or 0,
        landlord_hands=sums["landlord"] or 0,
        landlord_wins=sums["landlord_won"] or 0,
    )


def standings_compute(*, tournament: Tournament) -> list[Standing]:
    """The standings from scratch, from the rows as they are now (best first)."""
    chain = chain_for(format=tournament.format, tiebreaks=tournament.tiebreaks)
    needs_meetings = "opponents_outscored" in chain or "head_to_head" in chain
    entries, groups, meetings = _entry_sums(
        tournament_id=tournament.pk, with_meetings=needs_meetings
    )
    return standings_rank(
        format=tournament.format,
        tiebreaks=tournament.tiebreaks,
        entries=entries,
        matchpoints=groups if tournament.format == "duplicate" else (),
        meetings=meetings if needs_meetings else (),
    )


def standings_round_number(*, tournament_id: int) -> int:
    """The latest round with a counted hand (0 before the first)."""
    # One index probe per round, newest first (usually one): not a pass over every
    # per-seat row, nor a join, which the recompute's planner settings make a hash join.
    rounds = Round.objects.filter(tournament_id=tournament_id).order_by("-number")
    for round_id, number in rounds.values_list("id", "number"):
        if HandSeatResult.objects.filter(round_id=round_id).exists():
            return number
    return 0


def standings_latest(
    *, tournament: Tournament, round_number: int | None = None
) -> QuerySet[StandingSnapshot]:
    """The newest snapshot rows, best rank first (empty before the first computation);
    with ``round_number``, the newest kept after that round (empty if none was)."""
    snapshots = standings_not_ahead(tournament_id=tournament.pk)
    if round_number is not None:
        snapshots = snapshots.filter(round_number=round_number)
    version = snapshots.aggregate(v=Max("log_version"))["v"]
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


def standings_not_ahead(*, tournament_id: Any) -> QuerySet[StandingSnapshot]:
    """A tournament's snapshot rows that are not ahead of its log version (``tournament_id``
    may be an ``OuterRef``).  The database refuses a row ahead (migration 0024); the
    readers still take only these, so a row from before that rule never shows."""
    version = Tournament.objects.filter(pk=tournament_id).values("log_version")[:1]
    return StandingSnapshot.objects.filter(
        tournament_id=tournament_id, log_version__lte=Subquery(version)
    )


def standings_newest_version() -> Subquery:
    """The newest snapshot version not ahead of the log, of the tournament ``OuterRef("pk")``."""
    return Subquery(
        StandingSnapshot.objects.filter(
            tournament=OuterRef("pk"), log_version__lte=OuterRef("log_version")
        )
        .order_by("-log_version")
        .values("log_version")[:1]
    )


def standings_stale_tournament_ids() -> list[int]:
    """Tournaments with entries whose log version is ahead of their latest snapshot, or
    with a change the database marked and no service versioned (``inputs_changed``)."""
    return list(
        Tournament.objects.filter(entries__isnull=False)
        .annotate(snapshot_version=Coalesce(standings_newest_version(), Value(-1)))
        .filter(Q(snapshot_version__lt=F("log_version")) | Q(inputs_changed=True))
        .values_list("id", flat=True)
        .distinct()
    )


def standings_snapshot_exists(*, tournament_id: int, log_version: int) -> bool:
    return StandingSnapshot.objects.filter(
        tournament_id=tournament_id, log_version=log_version
    ).exists()
