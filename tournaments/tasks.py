"""Celery tasks of the tournaments app: thin wrappers that load by id and call a service."""

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from tournaments.common.heartbeat import worker_heartbeat_record
from tournaments.common.idempotency import idempotency_records_expire
from tournaments.par.services import par_analyse as par_analyse_service
from tournaments.par.services import par_sweep
from tournaments.standings.snapshots import standings_snapshot_update, standings_sweep


@shared_task(name="tournaments.tasks.ping")
def ping() -> dict[str, bool]:
    """Health task: proves a worker picks up and answers a message.  No database."""
    return {"pong": True}


@shared_task(
    name="tournaments.tasks.standings_recompute",
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=8,
)
def standings_recompute(tournament_id: int) -> int | None:
    """Compute and store the tournament's standings at its current log version."""
    return standings_snapshot_update(tournament_id=tournament_id)


@shared_task(name="tournaments.tasks.standings_sweep")
def standings_sweep_task() -> list[int]:
    """Beat: recompute every tournament whose log version is ahead of its snapshot."""
    return standings_sweep()


@shared_task(name="tournaments.tasks.worker_heartbeat", ignore_result=True)
def worker_heartbeat() -> None:
    """Beat: record that a worker is alive and taking tasks (read by /healthz)."""
    worker_heartbeat_record()


@shared_task(name="tournaments.tasks.idempotency_records_expire")
def idempotency_records_expire_task() -> int:
    """Beat: remove the idempotency records older than ``IDEMPOTENCY_RECORD_DAYS``."""
    return idempotency_records_expire()


@shared_task(
    name="tournaments.tasks.par_analyse",
    acks_late=True,
    # The app's 45 s / 60 s limits are the standings'; an analysis stops itself after
    # PAR_TASK_SECONDS (the service's deadline), these limits only back that up.
    soft_time_limit=settings.PAR_TASK_SECONDS + 60,
    time_limit=settings.PAR_TASK_SECONDS + 120,
    autoretry_for=(DatabaseError,),
    retry_backoff=1,
    retry_backoff_max=30,
    max_retries=5,
)
def par_analyse(board_id: int, run: int) -> str:
    """Solve a released board (its par table and par result) and where each of its
    finished hands left par, for analysis run ``run`` (``tournaments.par.services``)."""
    return par_analyse_service(board_id=board_id, run=run)


@shared_task(name="tournaments.tasks.par_sweep")
def par_sweep_task() -> list[int]:
    """Beat: queue the released boards not analysed yet, send again the runs left queued."""
    return par_sweep()


@shared_task(
    name="tournaments.tasks.season_recompute",
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=1,
    retry_backoff_max=30,
    retry_jitter=True,
    max_retries=8,
)
def season_recompute_task(season_id: int) -> bool:
    """Recompute and store a season's ladder from its final tournaments' results."""
    from tournaments.season.services import season_recompute

    return season_recompute(season_id=season_id)
