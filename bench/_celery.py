"""A real Celery worker for the benchmarks that measure the service as in production."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def worker_start(env: dict[str, str]) -> tuple[subprocess.Popen[str], str]:
    """Start ``celery -A config worker`` (solo pool) with ``env`` (which names the broker and
    the database); return it and its node name once it answers a ping. The calling process
    must have the same broker in its environment.

    BENCH_CELERY_LOG=<folder>: the worker logs at INFO level (each task, each retry and its
    reason) to ``<folder>/<node name>.log`` instead of nowhere."""
    from config import celery_app

    nodename = f"bench-{uuid.uuid4().hex[:8]}@localhost"
    log_folder = os.environ.get("BENCH_CELERY_LOG")
    logging = (
        ["--loglevel=INFO", f"--logfile={Path(log_folder) / nodename.split('@')[0]}.log"]
        if log_folder
        else ["--loglevel=WARNING"]
    )
    worker = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-n",
            nodename,
            *logging,
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not celery_app.control.ping(destination=[nodename], timeout=0.5):
        if time.monotonic() > deadline or worker.poll() is not None:
            raise SystemExit("the Celery worker did not start")
    return worker, nodename
