"""``referee.rules`` is a pure-Python library: it never imports Django."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import referee.rules
from tests.rules.helpers import REPO_ROOT

PACKAGE_DIR = Path(referee.rules.__file__).resolve().parent


def test_importing_the_rules_library_and_its_cli_loads_no_django() -> None:
    code = (
        "import sys, referee.rules, referee.rules.__main__; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "assert not bad, bad"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


def test_no_source_file_of_the_package_imports_django() -> None:
    sources = sorted(PACKAGE_DIR.rglob("*.py"))
    assert len(sources) >= 10, sources
    pattern = re.compile(r"^\s*(import\s+django\b|from\s+django\b)", re.MULTILINE)
    offenders = [str(p) for p in sources if pattern.search(p.read_text("utf-8"))]
    assert offenders == []
