"""The CPU seconds of a benchmark's processes, read from ``/proc`` (Linux; 0 elsewhere): a
process with its children (a gunicorn master and its workers, a Celery worker and its
pool), this machine's PostgreSQL server, this process. A difference of two readings is what
each did meanwhile; ``cpu_line`` prints it a request."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path


def _stat_ticks(pid: str | int, fields_at: tuple[int, ...]) -> int:
    """The sum of some clock-tick fields of ``/proc/<pid>/stat`` (after the command's
    parenthesis: 11 utime, 12 stime, 13 cutime, 14 cstime); 0 if the process is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return sum(int(fields[i]) for i in fields_at)


def cpu_seconds(pid: str | int) -> float:
    """A process's user and system CPU seconds (0 if it is gone)."""
    return _stat_ticks(pid, (11, 12)) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def tree_cpu(pid: int) -> float:
    """The CPU seconds of ``pid``, of its children gone (``cutime``/``cstime``: a worker
    that exited, once reaped) and of its descendants alive."""
    own = _stat_ticks(pid, (11, 12, 13, 14)) / os.sysconf("SC_CLK_TCK")
    return own + sum(tree_cpu(child) for child in children(pid))


def postgres_cpu() -> float:
    """The CPU seconds of this machine's PostgreSQL server so far: the postmaster's own and
    those of its children gone (``cutime``/``cstime``: a backend closed during a run, as
    CONN_MAX_AGE closes each one a minute after it opened, leaves its seconds there) and
    of those alive. Every database's, so a difference of two readings is what the server
    did meanwhile (0 when the server runs elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            with contextlib.suppress(OSError):
                text = (proc / "stat").read_text()
                if text.split("(", 1)[1].startswith("postgres)"):
                    stats[int(proc.name)] = text.rsplit(")", 1)[1].split()
    total = 0
    for fields in stats.values():
        parent = int(fields[1])
        total += int(fields[11]) + int(fields[12])  # utime, stime
        if parent not in stats:  # the postmaster: its children gone are in cutime, cstime
            total += int(fields[13]) + int(fields[14])
    return total / ticks


def cpu_reading(trees: dict[str, int]) -> dict[str, float]:
    """CPU seconds so far of each named process tree, of PostgreSQL and of this process (the
    benchmark's client)."""
    reading = {name: tree_cpu(pid) for name, pid in trees.items()}
    reading["postgres"] = postgres_cpu()
    reading["this client"] = time.process_time()
    return reading


def cpu_line(before: dict[str, float], after: dict[str, float], requests: int, wall: float) -> str:
    """What each part spent between two readings: milliseconds a request and cores."""
    parts = []
    for name in before:
        spent = after[name] - before[name]
        parts.append(f"{name} {spent / max(requests, 1) * 1000:.2f} ms ({spent / wall:.2f} cores)")
    return f"    CPU a request ({requests} requests): " + ", ".join(parts)
