"""The Celery application ``config``.

Broker and result backend come from Django settings (``CELERY_*``); the delivery
contract below is fixed here because the tasks are written for it: a task is
acknowledged only after it ran, a worker that dies re-queues its task, a worker
holds one message at a time, and only JSON travels over the wire. A starting worker
builds the rules tables before it takes a task (``config.warm``).  Beat sweeps the
standings every ``STANDINGS_SWEEP_SECONDS`` (default 60), sends the worker heartbeat
every ``WORKER_HEARTBEAT_SECONDS`` (default 30) and removes expired idempotency records
every ``IDEMPOTENCY_EXPIRE_SECONDS`` (default 3600).  ``CELERY_VISIBILITY_TIMEOUT``
(seconds, default one hour) is how long Redis waits before handing an unacknowledged
message of a dead worker to another one.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_accept_content=["json"],
    task_time_limit=60,
    task_soft_time_limit=45,
    broker_connection_retry_on_startup=True,
    worker_prefetch_multiplier=1,
    broker_transport_options={
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
        # How often a worker looks for such messages (Redis scans every interval × throttle
        # seconds; kombu's defaults are 10 and 10).
        "unacked_restore_interval": int(os.environ.get("CELERY_UNACKED_RESTORE_INTERVAL", "10")),
        "unacked_restore_throttle": int(os.environ.get("CELERY_UNACKED_RESTORE_THROTTLE", "10")),
    },
    beat_schedule={
        "standings-sweep": {
            "task": "tournaments.tasks.standings_sweep",
            "schedule": float(os.environ.get("STANDINGS_SWEEP_SECONDS", "60")),
        },
        # Only a live worker runs it: /healthz reads the heartbeat's age.
        "worker-heartbeat": {
            "task": "tournaments.tasks.worker_heartbeat",
            "schedule": float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "30")),
            # A heartbeat that waited longer than its period in the queue says nothing new.
            "options": {"expires": float(os.environ.get("WORKER_HEARTBEAT_SECONDS", "30"))},
        },
        "par-sweep": {
            "task": "tournaments.tasks.par_sweep",
            "schedule": float(os.environ.get("PAR_SWEEP_SECONDS", "300")),
        },
        "idempotency-records-expire": {
            "task": "tournaments.tasks.idempotency_records_expire",
            "schedule": float(os.environ.get("IDEMPOTENCY_EXPIRE_SECONDS", "3600")),
        },
    },
)
app.autodiscover_tasks()


@worker_init.connect
def warm_rules_tables_at_worker_start(**_: Any) -> None:
    """In the worker's main process, before the pool forks: the children inherit the tables."""
    from config.warm import warm_rules_tables  # the rules library loads with the worker only

    warm_rules_tables("worker")
