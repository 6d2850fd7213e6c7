"""Standing snapshots: requested after every score change, computed by a Celery task.

``standings_request`` (queued by ``tournament_scores_changed`` on commit) sends at most
one task while one is waiting; ``standings_snapshot_update`` (the task's body) computes
the standings of the tournament's current log version from scratch and stores them,
once per version.
"""

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tournaments.common.broker_publish import broker_publish_soon
from tournaments.common.validation import int_check
from tournaments.models import StandingSnapshot, StandingsState, Tournament, TournamentStatus
from tournaments.standings.queries import (
    standings_compute,
    standings_round_number,
    standings_snapshot_exists,
    standings_stale_tournament_ids,
)
from tournaments.standings.ranking import Standing

logger = logging.getLogger(__name__)

#: A request flag older than this is taken for a lost message by the beat sweep.
QUEUED_STALE_AFTER = timedelta(minutes=2)
#: First key of the PostgreSQL advisory lock that serialises one tournament's recomputes.
_ADVISORY_LOCK_CLASS = 0x5D5D


class PublishQueueFull(Exception):
    """The publisher thread's queue is full (the broker has been unreachable for a while)."""


def _flag_release(tournament_id: int) -> None:
    StandingsState.objects.filter(tournament_id=tournament_id).update(queued_at=None)


def _send(tournament_id: int) -> None:
    """Eagerly (no broker) run the task here; otherwise hand it to the publisher thread,
    so the request never waits on the broker (``tournaments.common.broker_publish``)."""
    from tournaments.tasks import standings_recompute  # the task module imports this one

    if standings_recompute.app.conf.task_always_eager:  # the app's, as the tests set it
        standings_recompute.delay(tournament_id)
        return
    queued = broker_publish_soon(
        # No result is read: ignore_result also spares the publish a result-backend connect.
        send=lambda conn: standings_recompute.apply_async(
            (tournament_id,),
            connection=conn,  # type: ignore[call-arg]  # passed on to send_task
            retry=False,
            ignore_result=True,
        ),
        failed=lambda: _flag_release(tournament_id),
    )
    if not queued:
        raise PublishQueueFull(tournament_id)


def standings_request(*, tournament_id: int) -> bool:
    """Send a recompute task unless one is already waiting; True when one was sent (with a
    broker: handed to the publisher thread, which releases the flag if the send fails).

    The flag is claimed with one conditional UPDATE, so of any number of concurrent
    requests exactly one sends (coalescing in the database, not in a process).
    """
    int_check("tournament_id", tournament_id, minimum=1)
    StandingsState.objects.bulk_create(
        [StandingsState(tournament_id=tournament_id)], ignore_conflicts=True
    )
    claimed = StandingsState.objects.filter(
        tournament_id=tournament_id, queued_at__isnull=True
    ).update(queued_at=timezone.now())
    if not claimed:
        return False
    try:
        _send(tournament_id)
    except Exception:
        # Broker unreachable: release the flag so the next change or the sweep sends.
        _flag_release(tournament_id)
        logger.exception("standings recompute of tournament %s not queued", tournament_id)
        return False
    return True


@contextmanager
def _one_computation_at_a_time(tournament_id: int) -> Iterator[None]:
    """On PostgreSQL a session advisory lock per tournament (released when the worker's
    connection closes, also if it dies); SQLite runs one writer at a time anyway."""
    if connection.vendor != "postgresql":
        yield
        return
    # The lock's keys are two int4: a (bigint) id beyond 2³¹ shares its key with a smaller
    # one, which only makes those two tournaments' recomputes take turns.
    key = [_ADVISORY_LOCK_CLASS, tournament_id % 2**31]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", key)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", key)


def _unversioned_change_bump(tournament_id: int) -> None:
    """Give a change the database marked but no service versioned (a row written around
    the services) its version, so the standings computed next say so; a finished
    tournament's version stays (its page then shows the standings as not final)."""
    with transaction.atomic():
        Tournament.objects.filter(pk=tournament_id, inputs_changed=True).exclude(
            status=TournamentStatus.FINISHED
        ).update(log_version=F("log_version") + 1, inputs_changed=False)


def standings_snapshot_update(*, tournament_id: int) -> int | None:
    """Store the standings of the tournament's current log version; return that version
    (None for an unknown tournament).  Idempotent: a version already stored as computed
    is left; one stored otherwise (rows missing, ranks or values forged) is replaced.

    The computation reads one consistent view of the database (REPEATABLE READ on
    PostgreSQL), so the version recorded is exactly the one the rows were read at.
    """
    int_check("tournament_id", tournament_id, minimum=1)
    StandingsState.objects.filter(tournament_id=tournament_id).update(queued_at=None)
    with _one_computation_at_a_time(tournament_id):
        _unversioned_change_bump(tournament_id)
        fresh_transaction = not connection.in_atomic_block
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    if fresh_transaction:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                    # The standings are one pass over the per-seat rows, which wants a hash
                    # join with the few matchpoint rows and a hash aggregate in memory.
                    # Left alone, the planner sorts the 1.8 million rows of 30,000 entries
                    # on disk for the aggregate (it cannot guess that they fall in 300,000
                    # groups), walks an index for the join, and compiles the query (JIT)
                    # for longer than it then runs.
                    cursor.execute("SET LOCAL jit = off")
                    cursor.execute("SET LOCAL enable_mergejoin = off")
                    cursor.execute("SET LOCAL enable_nestloop = off")
                    cursor.execute("SET LOCAL enable_sort = off")
                    cursor.execute("SET LOCAL work_mem = '128MB'")
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            if tournament is None:
                return None
            version = tournament.log_version
            _snapshot_write(tournament=tournament, version=version)
            return version


_SNAPSHOT_COLUMNS = (
    "tournament_id",
    "entry_id",
    "rank",
    "total",
    "tiebreaks",
    "log_version",
    "round_number",
    "withdrawn",
    "deal_points",
    "penalty_points",
    "hands_played",
    "landlord_hands",
    "landlord_wins",
    "matchpoints",
    "matchpoint_top",
    "boards_scored",
    "tops",
    "mp_percentage",
    "computed_at",
)


def _snapshot_rows(
    tournament_id: int, version: int, round_number: int, standings: list[Standing]
) -> Iterator[tuple[object, ...]]:
    now = timezone.now()
    for s in standings:
        yield (
            tournament_id,
            s.entry_id,
            s.rank,
            s.total,
            s.tiebreaks,
            version,
            round_number,
            s.withdrawn,
            s.deal_points,
            s.penalty_points,
            s.hands_played,
            s.landlord_hands,
            s.landlord_wins,
            s.matchpoints,
            s.matchpoint_top,
            s.boards_scored,
            s.tops,
            round(float(s.mp_percentage), 6),
            now,
        )


def _snapshot_insert(rows: Iterator[tuple[object, ...]]) -> None:
    """Insert the snapshot rows.  On PostgreSQL with COPY: for 30,000 entries it is ten
    times quicker than INSERT batches, and the snapshot is most of a recompute's writes."""
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(StandingSnapshot._meta.db_table)
        with connection.cursor() as cursor:
            copy_sql = f"COPY {table} ({', '.join(_SNAPSHOT_COLUMNS)}) FROM STDIN"
            with cursor.cursor.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row((*row[:4], json.dumps(row[4]), *row[5:]))
        return
    StandingSnapshot.objects.bulk_create(
        (StandingSnapshot(**dict(zip(_SNAPSHOT_COLUMNS, row, strict=True))) for row in rows),
        batch_size=500,
    )


def _snapshot_stored(tournament_id: int, version: int) -> set[tuple[object, ...]]:
    """The rows stored at ``version``, as ``_snapshot_rows`` gives them (less the time)."""
    columns = _SNAPSHOT_COLUMNS[:-1]
    return {
        _comparable(row)
        for row in StandingSnapshot.objects.filter(
            tournament_id=tournament_id, log_version=version
        ).values_list(*columns)
    }


def _comparable(row: tuple[object, ...]) -> tuple[object, ...]:
    return (*row[:4], json.dumps(row[4], sort_keys=True), *row[5:18])


def _snapshot_write(*, tournament: Tournament, version: int) -> None:
    started = time.perf_counter()
    standings = standings_compute(tournament=tournament)
    round_number = standings_round_number(tournament_id=tournament.pk)
    rows = list(_snapshot_rows(tournament.pk, version, round_number, standings))
    if standings_snapshot_exists(tournament_id=tournament.pk, log_version=version):
        if _snapshot_stored(tournament.pk, version) == {_comparable(row) for row in rows}:
            return
        # Not what the computation gives (rows written around it): replaced, never kept.
        logger.warning("standings of tournament %s at v%s replaced", tournament.pk, version)
        StandingSnapshot.objects.filter(tournament=tournament, log_version=version).delete()
    # Keep the history per round: this version replaces older ones of the same round.
    StandingSnapshot.objects.filter(
        tournament=tournament, round_number=round_number, log_version__lt=version
    ).delete()
    _snapshot_insert(iter(rows))
    logger.info(
        "standings of tournament %s at v%s: %s entries in %.0f ms",
        tournament.pk,
        version,
        len(standings),
        1000 * (time.perf_counter() - started),
    )


def standings_sweep() -> list[int]:
    """Request a recompute of every tournament whose log version is ahead of its latest
    snapshot (a lost message, a worker that died for good); return their ids.  A flag
    set long ago is taken for a lost message and cleared first."""
    stale_ids = standings_stale_tournament_ids()
    StandingsState.objects.filter(
        tournament_id__in=stale_ids, queued_at__lt=timezone.now() - QUEUED_STALE_AFTER
    ).update(queued_at=None)
    return [t for t in stale_ids if standings_request(tournament_id=t)]
