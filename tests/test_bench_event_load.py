"""bench/event_load.py's verdict on a level of its step-up: writes and pages under the p99
aim, with no failure."""

from __future__ import annotations

from bench.event_load import Stats, lag_sample, level_holds, minute_p99


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


def test_the_standings_lag_counts_from_the_first_finished_hand_not_from_the_start() -> None:
    first_seen: dict[int, float] = {}
    assert lag_sample(first_seen, 0, None, now=0.0) == (0.0, None)  # nothing finished
    assert lag_sample(first_seen, 0, None, now=20.0) == (0.0, None)
    # the first hand finishes at 20 s: behind from then, not from the run's start
    assert lag_sample(first_seen, 1, None, now=20.5) == (0.0, 1)
    assert lag_sample(first_seen, 1, None, now=21.5) == (1.0, 1)
    assert lag_sample(first_seen, 2, 1, now=22.0) == (0.0, 2)
    assert lag_sample(first_seen, 3, 1, now=23.0) == (1.0, 2)  # v2 is the oldest not shown
    assert lag_sample(first_seen, 3, 3, now=24.0) == (0.0, None)


def test_the_writes_p99_is_printed_minute_by_minute_from_the_start() -> None:
    start = 1000.0
    first = [(start + i * 0.5, 0.010) for i in range(100)]  # minute 0 (0-49.5 s): 10 ms
    third = [(start + 125 + i * 0.1, 0.400) for i in range(10)]  # minute 2: 400 ms
    assert minute_p99(first + third, start) == [10.0, None, 400.0]  # minute 1: no write
    assert minute_p99([], start) == []
