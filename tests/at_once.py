"""Run one service call from several threads at once (each with its own connection), as
several devices would: on PostgreSQL for real; elsewhere (SQLite allows one writer at a
time anyway) one call after the other."""

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection, connections


def at_once(call: Callable[[], Any], times: int) -> list[Any]:
    """What each call returned, or the exception it raised."""
    outcomes: list[Any] = []
    if connection.vendor != "postgresql":
        for _ in range(times):
            try:
                outcomes.append(call())
            except Exception as exc:  # pragma: no cover - reported by the caller's assertions
                outcomes.append(exc)
        return outcomes
    barrier = threading.Barrier(times)

    def run() -> None:
        try:
            barrier.wait(timeout=10)
            outcomes.append(call())
        except Exception as exc:  # pragma: no cover - reported by the caller's assertions
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes
