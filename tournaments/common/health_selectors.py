"""Reads for /healthz: the worker's heartbeat age and the standings lag."""

from django.db.models import Case, F, Max, OuterRef, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from tournaments.models import StandingSnapshot, Tournament, WorkerHeartbeat

#: The heartbeat row the Celery worker writes (``tournaments.tasks.worker_heartbeat``).
WORKER_HEARTBEAT_NAME = "celery"


def worker_heartbeat_age() -> float | None:
    """Seconds since a worker last ran the heartbeat task; None if none ever did."""
    beat_at = (
        WorkerHeartbeat.objects.filter(name=WORKER_HEARTBEAT_NAME)
        .values_list("beat_at", flat=True)
        .first()
    )
    if beat_at is None:
        return None
    return max((timezone.now() - beat_at).total_seconds(), 0.0)


def standings_lag() -> int:
    """The largest log version minus latest snapshot version over the tournaments with
    entries (0 when every snapshot is current): how many score changes the published
    standings are behind.  The version is the database's (it moves only with a change it
    marked, migration 0024), and a snapshot ahead of it does not count."""
    # Only snapshots not ahead of the log count (a row ahead is refused by the database,
    # migration 0024, and would otherwise hide the lag).
    latest = (
        StandingSnapshot.objects.filter(
            tournament=OuterRef("pk"), log_version__lte=OuterRef("log_version")
        )
        .order_by("-log_version")
        .values("log_version")[:1]
    )
    lag = (
        Tournament.objects.filter(entries__isnull=False)
        .annotate(
            # A change the database marked and no service versioned yet counts as one.
            lag=F("log_version")
            + Case(When(inputs_changed=True, then=Value(1)), default=Value(0))
            - Coalesce(Subquery(latest), Value(0))
        )
        .aggregate(worst=Max("lag"))["worst"]
    )
    return max(int(lag or 0), 0)
