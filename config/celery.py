"""The Celery application ``config``.

Broker and result backend come from Django settings (``CELERY_*``); the delivery
contract below is fixed here because the tasks are written for it: a task is
acknowledged only after it ran, a worker that dies re-queues its task, a worker
holds one message at a time, and only JSON travels over the wire. A starting worker
builds the rules tables before it takes a task (``config.warm``).
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
)
app.autodiscover_tasks()


@worker_init.connect
def warm_rules_tables_at_worker_start(**_: Any) -> None:
    """In the worker's main process, before the pool forks: the children inherit the tables."""
    from config.warm import warm_rules_tables  # the rules library loads with the worker only

    warm_rules_tables("worker")
