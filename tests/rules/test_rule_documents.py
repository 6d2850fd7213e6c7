"""The rules documents travel with the repository (``docs/rules/``) and stay the upstream's.

``docs/rules/`` is a byte-identical copy of the upstream ``../shared/rules/`` (SPEC.md,
PROTOCOL.md and the conformance vectors with their README and format checker), so a clone that
has only the repository can read the rules and run every test. Where the upstream sits beside
the clone (as in CI), the copies are compared with it byte for byte; ``make rules-docs``
refreshes them. Where it does not, there is nothing to compare, and the comparison finds no
difference: the copies are still checked to be complete and well formed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.rules.helpers import REPO_ROOT

DOCS = REPO_ROOT / "docs" / "rules"
UPSTREAM = REPO_ROOT / ".." / "shared" / "rules"
REFRESH = "make rules-docs"
REQUIRED = (
    "SPEC.md",
    "PROTOCOL.md",
    "vectors/README.md",
    "vectors/check_format.py",
    "vectors/classify.jsonl",
    "vectors/legal_plays.jsonl",
    "vectors/score.jsonl",
    "vectors/replay.jsonl",
    "vectors/variants.md",
)


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


def differences(copy: Path, upstream: Path) -> list[str]:
    """Each way ``copy`` differs from ``upstream``, one line per file; none without upstream."""
    if not upstream.is_dir():
        return []
    problems: list[str] = []
    theirs, ours = _files(upstream), _files(copy)
    for name in sorted(theirs | ours):
        if name not in ours:
            problems.append(f"{copy / name} is missing (upstream has {upstream / name})")
        elif name not in theirs:
            problems.append(f"{copy / name} is not in the upstream {upstream}")
        elif (copy / name).read_bytes() != (upstream / name).read_bytes():
            problems.append(f"{copy / name} differs from {upstream / name}")
    if problems:
        problems.append(f"refresh the copies from the upstream with: {REFRESH}")
    return problems


def test_the_rules_documents_are_in_the_repository() -> None:
    missing = [name for name in REQUIRED if not (DOCS / name).is_file()]
    assert missing == [], f"missing in {DOCS}: {missing}"
    for name in REQUIRED:
        assert (DOCS / name).read_text("utf-8").strip(), f"{DOCS / name} is empty"


def test_the_vectors_pass_their_own_format_checker() -> None:
    proc = subprocess.run(
        [sys.executable, str(DOCS / "vectors" / "check_format.py"), str(DOCS / "vectors")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("classify.jsonl", "legal_plays.jsonl", "score.jsonl", "replay.jsonl"):
        assert name in proc.stdout


def test_the_copies_are_byte_identical_to_the_upstream_when_it_is_beside_the_clone() -> None:
    problems = differences(DOCS, UPSTREAM)
    assert problems == [], "\n".join(problems)


# --- the comparison itself, on throwaway trees -------------------------------------------------


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_differences_finds_none_between_identical_trees(tmp_path: Path) -> None:
    files = {"SPEC.md": "R1.2 大王\n".encode(), "vectors/a.jsonl": b"{}\n"}
    assert differences(_tree(tmp_path / "a", files), _tree(tmp_path / "b", files)) == []


def test_differences_names_the_file_that_differs_and_how_to_refresh(tmp_path: Path) -> None:
    copy = _tree(tmp_path / "copy", {"SPEC.md": b"x\n", "vectors/a.jsonl": b"{}\n"})
    upstream = _tree(tmp_path / "up", {"SPEC.md": b"x\r\n", "vectors/a.jsonl": b"{}\n"})
    problems = differences(copy, upstream)
    assert problems == [
        f"{copy / 'SPEC.md'} differs from {upstream / 'SPEC.md'}",
        f"refresh the copies from the upstream with: {REFRESH}",
    ]


def test_differences_names_missing_and_extra_files(tmp_path: Path) -> None:
    copy = _tree(tmp_path / "copy", {"SPEC.md": b"x", "extra.md": b"y"})
    upstream = _tree(tmp_path / "up", {"SPEC.md": b"x", "vectors/new.jsonl": b"{}"})
    problems = differences(copy, upstream)
    assert problems[:2] == [
        f"{copy / 'extra.md'} is not in the upstream {upstream}",
        f"{copy / 'vectors/new.jsonl'} is missing (upstream has {upstream / 'vectors/new.jsonl'})",
    ]


def test_differences_without_an_upstream_has_nothing_to_compare(tmp_path: Path) -> None:
    copy = _tree(tmp_path / "copy", {"SPEC.md": b"x"})
    assert differences(copy, tmp_path / "no-such-upstream") == []


def test_make_rules_docs_refreshes_the_copies(tmp_path: Path) -> None:
    upstream = _tree(tmp_path / "up", {"SPEC.md": b"new\n", "vectors/a.jsonl": b"{}\n"})
    upstream.joinpath("vectors").chmod(0o555)  # the upstream is read-only
    copy = _tree(tmp_path / "copy", {"SPEC.md": b"old\n", "stale.md": b"gone\n"})
    make = shutil.which("make")
    assert make is not None, "make is needed to build this project"
    proc = subprocess.run(
        [make, "-s", "rules-docs", f"RULES_UPSTREAM={upstream}", f"RULES_COPY={copy}"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    upstream.joinpath("vectors").chmod(0o755)
    assert proc.returncode == 0, proc.stderr
    assert differences(copy, upstream) == []
    (copy / "SPEC.md").write_bytes(b"edited\n")  # the copies are writable again
