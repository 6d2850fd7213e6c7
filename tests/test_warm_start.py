"""Warm start: the web process and the Celery worker build the rules tables when they start.

Each check runs in a fresh interpreter (the tables are per process and ``gc.freeze`` is
process-wide). The real worker start uses the in-memory transport of the default settings, so
it needs no broker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CELERY = Path(sys.executable).parent / "celery"
#: Printed by the child: how many profiles have their tables built, and the gc freeze count.
REPORT = (
    "from referee.rules import PROFILES; from referee.rules.table import play_table; import gc; "
    "print(play_table.cache_info().currsize, len(PROFILES), gc.get_freeze_count())"
)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CELERY_")}
    return {**env, "DJANGO_SETTINGS_MODULE": "config.settings", "LOG_LEVEL": "INFO"}


def _python(code: str) -> tuple[list[int], str]:
    proc = subprocess.run(
        [sys.executable, "-c", code + "\n" + REPORT],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return [int(n) for n in proc.stdout.split()[-3:]], proc.stderr


@pytest.mark.parametrize("module", ["config.wsgi", "config.asgi"])
def test_loading_the_web_application_builds_every_profiles_tables(module: str) -> None:
    (built, profiles, frozen), log = _python(f"import {module}")
    assert built == profiles >= 2
    assert frozen > 0, "warm_up moves the tables out of the garbage collector's way"
    assert "rules tables ready in the web process" in log


def test_django_setup_alone_does_not_build_them() -> None:
    """Management commands and the test suite set Django up without paying for the tables."""
    (built, _, frozen), _ = _python("import django; django.setup()")
    assert (built, frozen) == (0, 0)


def test_the_worker_init_signal_builds_every_profiles_tables() -> None:
    code = "from config.celery import app; from celery.signals import worker_init"
    (built, _, _), _ = _python(code)
    assert built == 0
    (built, profiles, frozen), _ = _python(code + "; worker_init.send(sender=app)")
    assert built == profiles and frozen > 0


def test_a_starting_celery_worker_builds_the_tables_before_it_is_ready() -> None:
    worker = subprocess.Popen(
        [str(CELERY), "-A", "config", "worker", "--pool=solo", "--without-heartbeat",
         "--without-gossip", "--without-mingle", "--loglevel=INFO"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert worker.stdout is not None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            line = worker.stdout.readline()
            if not line and worker.poll() is not None:
                break
            lines.append(line)
            if " ready." in line:
                break
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)
        if worker.stdout:
            worker.stdout.close()
    output = "".join(lines)
    warmed = [i for i, line in enumerate(lines) if "rules tables ready in the worker" in line]
    ready = [i for i, line in enumerate(lines) if " ready." in line]
    assert warmed and ready and warmed[0] < ready[0], output
