"""bench/event_load.py's verdict on a level of its step-up: writes and pages under the p99
aim, with no failure."""

from __future__ import annotations

from bench.event_load import Stats, level_holds


def _stats(writes: list[float], pages: list[float], failed: int = 0) -> Stats:
    stats = Stats()
    stats.writes["play"].extend(writes)
    stats.pages["live poll"].extend(pages)
    stats.failed = failed
    return stats


def test_a_level_holds_when_writes_and_pages_stay_under_the_aim() -> None:
    fast = [0.010] * 99 + [0.200]
    assert level_holds(_stats(fast, fast), 250) is True


def test_a_slow_write_or_page_or_a_failure_breaks_the_level() -> None:
    fast = [0.010] * 100
    slow = [0.010] * 90 + [0.300] * 10
    assert level_holds(_stats(slow, fast), 250) is False
    assert level_holds(_stats(fast, slow), 250) is False
    assert level_holds(_stats(fast, fast, failed=1), 250) is False


def test_a_level_with_nothing_measured_does_not_hold() -> None:
    assert level_holds(_stats([], [0.010]), 250) is False
    assert level_holds(_stats([0.010], []), 250) is False
    assert level_holds(_stats([0.010], [0.010]), 250) is True  # one sample: every percentile
