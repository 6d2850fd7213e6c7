"""Warm start: the rules tables are built when a long-running process starts, not on the first
request or task that needs them (SPEC-sized tables take a few hundred milliseconds per profile).

Called by ``config.wsgi`` / ``config.asgi`` (each gunicorn worker loads the application before it
accepts a request) and by the Celery worker's ``worker_init`` signal (``config.celery``), which
fires in the worker's main process before the prefork pool forks its children: they inherit the
tables, and ``gc.freeze`` (inside ``warm_up``) keeps the inherited pages shared. Not called by
``django.setup()`` itself, so management commands and the test suite do not pay for it.
"""

from __future__ import annotations

import logging
import time

from referee.rules import PROFILES
from referee.rules.table import warm_up

logger = logging.getLogger(__name__)


def warm_rules_tables(process: str) -> float:
    """Build the tables of every rule profile; returns (and logs) the milliseconds it took."""
    start = time.perf_counter()
    warm_up(PROFILES.values())
    elapsed = (time.perf_counter() - start) * 1e3
    logger.info(
        "rules tables ready in the %s process (profiles %s) in %.0f ms",
        process,
        ", ".join(PROFILES),
        elapsed,
    )
    return elapsed
