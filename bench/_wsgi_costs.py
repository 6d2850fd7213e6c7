"""The web application with what each request cost, for bench/event_load.py --costs.

Each request's CPU time (its thread's, so time spent waiting for PostgreSQL, the cache or
another thread is not counted) and wall time are summed by kind of request and written to
``$BENCH_COSTS_DIR/<pid>.json`` every 50 requests and when the worker exits. Only the
benchmark serves this module (``start_gunicorn(..., app=...)``); production serves
``config.wsgi``.
"""

from __future__ import annotations

import atexit
import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from config.wsgi import application as _application

_lock = threading.Lock()
_costs: dict[str, list[float]] = {}  # kind → [count, CPU seconds, wall seconds]
_requests = 0


def request_kind(method: str, path: str, query: str, status: str) -> str:
    """A request's kind as the report names it: "write: start", "page: live poll 200" …"""
    if path.startswith("/api/"):
        return f"{method} {'start' if path.endswith('/hands/') else 'action'} {status[:3]}"
    for page in ("live", "standings"):
        if path.endswith(f"/{page}/"):
            poll = " poll" if "fragment" in query else ""
            return f"page {page}{poll} {status[:3]}"
    return f"other {status[:3]}"


def _write() -> None:
    folder = os.environ.get("BENCH_COSTS_DIR")
    if folder:
        with _lock:
            text = json.dumps(_costs)
        Path(folder, f"{os.getpid()}.json").write_text(text)


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    global _requests
    cpu, wall = time.thread_time(), time.perf_counter()
    status = ["000"]

    def answer(code: str, headers: Any, *rest: Any) -> Any:
        status[0] = code
        return start_response(code, headers, *rest)

    try:
        return _application(environ, answer)  # Django's response: rendered by now
    finally:
        kind = request_kind(
            environ.get("REQUEST_METHOD", ""),
            environ.get("PATH_INFO", ""),
            environ.get("QUERY_STRING", ""),
            status[0],
        )
        with _lock:
            row = _costs.setdefault(kind, [0, 0.0, 0.0])
            row[0] += 1
            row[1] += time.thread_time() - cpu
            row[2] += time.perf_counter() - wall
            _requests += 1
            due = _requests % 50 == 0
        if due:
            _write()


atexit.register(_write)
