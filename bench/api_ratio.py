"""The referee write's throughput against the framework floor, measured in turns.

Issue 30's ratio is ``api_load.py``'s accepted actions a second over ``api_floor.py``'s
``write`` rows a second, both saturated (200 tables, think 0). On this shared 2-core
machine either rate moves by up to 40 % between two runs minutes apart (the machine's, not
the code's: the same build's CPU a request moves with it), so one API run set against one
floor run says more about the minute than about the code. This script runs the two in
turns, floor first and last (``--pairs`` API runs, each between two floor runs), and prints
each API run against the mean of the floor runs either side of it, then the median of those
ratios: the number to compare before and after a change.

    DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/api_ratio.py

Options: --pairs 4  --tables 200  --api-budget 60  --floor-budget 20 (seconds per run)
"""

# bench: needs PostgreSQL

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402

#: ``api_floor.py``'s write row and ``api_load.py``'s saturated row: the rate is the third
#: and the fourth column.
_FLOOR_ROW = re.compile(r"^\s*write\s+[\d.]+\s+([\d.]+)\s", re.MULTILINE)
_API_ROW = re.compile(r"^\s*\d+\s+[\d.]+\s+\d+\s+([\d.]+)\s", re.MULTILINE)
_CPU_ROW = re.compile(r"CPU a request.*?gunicorn ([\d.]+) ms.*?postgres ([\d.]+) ms")


def _run(script: str, *args: str) -> tuple[float, str]:
    """Run one bench script; its rate and its CPU line."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    row = (_FLOOR_ROW if script == "api_floor.py" else _API_ROW).search(done.stdout)
    if done.returncode != 0 or row is None:
        sys.exit(
            f"{script} failed ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    cpu = _CPU_ROW.search(done.stdout)
    where = f"gunicorn {cpu.group(1)} ms, postgres {cpu.group(2)} ms" if cpu else ""
    return float(row.group(1)), where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--api-budget", type=float, default=60.0)
    parser.add_argument("--floor-budget", type=float, default=20.0)
    args = parser.parse_args()
    _postgres.postgres_required("api_ratio.py")
    tables = str(args.tables)
    floor_args = ["--tables", tables, "--think", "0", "--budget", str(args.floor_budget)]
    floor_args += ["--endpoints", "write"]
    api_args = ["--tables", tables, "--think", "0", "--budget", str(args.api_budget)]

    def floor() -> float:
        rate, cpu = _run("api_floor.py", *floor_args)
        print(f"{time.strftime('%H:%M:%S')}  floor  {rate:7.1f} writes/s    ({cpu} a request)")
        return rate

    print(f"{args.tables} tables, think 0; API runs of {args.api_budget:.0f} s between floor")
    print(f"runs of {args.floor_budget:.0f} s, each in a fresh database and gunicorn")
    ratios: list[float] = []
    before = floor()
    for _ in range(args.pairs):
        rate, cpu = _run("api_load.py", *api_args)
        print(f"{time.strftime('%H:%M:%S')}  API    {rate:7.1f} accepted/s  ({cpu} a request)")
        after = floor()
        ratio = rate / ((before + after) / 2)
        ratios.append(ratio)
        print(
            f"          ratio {ratio:.3f} (against {before:.1f} / {after:.1f}: "
            f"{rate / before:.3f} / {rate / after:.3f})"
        )
        before = after
    print(
        f"ratio over {len(ratios)} turns: median {statistics.median(ratios):.3f}, "
        f"range {min(ratios):.3f}-{max(ratios):.3f}"
    )


if __name__ == "__main__":
    main()
