"""Round trip through a REAL Celery worker, Redis broker and Redis result backend.

Marked ``broker``: deselected (not skipped) when CELERY_BROKER_URL is unset.
"""

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from config import celery_app
from tournaments.common.health import health_cache_clear
from tournaments.common.heartbeat import worker_heartbeat_record
from tournaments.tasks import ping

REPO = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
READY_TIMEOUT = 60


def wait_until_ready(worker: subprocess.Popen[str], nodename: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            output = worker.stdout.read() if worker.stdout else ""
            pytest.fail(f"worker exited with {worker.returncode}:\n{output}")
        if celery_app.control.ping(destination=[nodename], timeout=0.5):
            return
    pytest.fail(f"worker {nodename} not ready after {READY_TIMEOUT}s")


@pytest.mark.broker
def test_ping_round_trip_through_a_real_worker() -> None:
    queue = f"pytest-{uuid.uuid4().hex[:12]}"
    nodename = f"{queue}@{socket.gethostname()}"
    worker = subprocess.Popen(
        [
            str(CELERY),
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "-c",
            "1",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-Q",
            queue,
            "-n",
            nodename,
            "--loglevel=INFO",
        ],
        cwd=REPO,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_until_ready(worker, nodename)
        result = ping.apply_async(queue=queue)
        assert result.get(timeout=30) == {"pong": True}
        assert result.successful()
        assert celery_app.backend.__class__.__name__ == "RedisBackend"
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)
        if worker.stdout:
            worker.stdout.close()
        with celery_app.connection_for_write() as connection:
            connection.default_channel.queue_delete(queue)


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)  # on PostgreSQL the probe reads committed rows
def test_healthz_reports_the_redis_broker(client: object) -> None:
    worker_heartbeat_record()  # as a live worker does (test_standings_worker proves it)
    health_cache_clear()
    response = client.get("/healthz")  # type: ignore[attr-defined]
    health_cache_clear()
    assert response.status_code == 200, response.json()  # type: ignore[attr-defined]
    assert response.json()["broker"]["mode"] == "redis"
    assert response.json()["broker"]["ok"] is True
