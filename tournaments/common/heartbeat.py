"""The worker's heartbeat write (run by the ``worker_heartbeat`` task, read by /healthz)."""

from django.utils import timezone

from tournaments.common.health_selectors import WORKER_HEARTBEAT_NAME
from tournaments.models import WorkerHeartbeat


def worker_heartbeat_record(*, name: str = WORKER_HEARTBEAT_NAME) -> None:
    """Set the heartbeat ``name`` to now (one upsert)."""
    WorkerHeartbeat.objects.bulk_create(
        [WorkerHeartbeat(name=name, beat_at=timezone.now())],
        update_conflicts=True,
        unique_fields=["name"],
        update_fields=["beat_at"],
    )
