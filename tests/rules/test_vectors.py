"""Conformance vectors (``docs/rules/vectors/*.jsonl``, see its README.md), those of the
variant profiles ``four_p`` and ``laizi`` (``docs/rules/variants/vectors/*.jsonl``) and those of
Big Three, six and five players (``docs/rules/games/vectors/big3.jsonl``, ``six_p.jsonl``,
``six_p_no_kitty.jsonl``, ``five_p.jsonl``: the games the engine plays, games/README.md).

Every line is sent through ``handle_request``; every key of ``expect`` must match exactly
(``plays`` as a set, with no extra play). Score answers and finished replays must be zero-sum
(SPEC R8.1, SV-15), with as many scores as the profile has seats. The whole set also goes once
through the CLI batch mode. The three-player lines are also checked against an independent
reading of the SPEC (``reference.py``, three players only).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from referee.rules import get_profile, handle_request, parse_ranks
from tests.rules.helpers import REPO_ROOT, VECTORS_DIR
from tests.rules.reference import (
    RANKS,
    counts_from_text,
    reading_text,
    ref_beats,
    ref_readings,
    ref_score,
    sub_multisets,
    text_from_counts,
)

VECTOR_FILES = ("classify.jsonl", "legal_plays.jsonl", "score.jsonl", "replay.jsonl")
VARIANT_VECTORS_DIR = VECTORS_DIR.parent / "variants" / "vectors"
#: Lines per variant file (docs/rules/variants/README.md): none may go missing unnoticed.
VARIANT_FILES = {"four_p.jsonl": 111, "laizi.jsonl": 100}
GAMES_VECTORS_DIR = VECTORS_DIR.parent / "games" / "vectors"
#: The games of ``docs/rules/games`` the engine plays, with their lines (games/README.md).
GAME_FILES = {
    "big3.jsonl": 122,
    "six_p.jsonl": 104,
    "six_p_no_kitty.jsonl": 15,
    "five_p.jsonl": 69,
}
#: Seats of each profile that has other than three (R11.1.1, R13.2, R14.2).
SEATS = {"four_p": 4, "five_p": 5, "six_p": 6, "six_p_no_kitty": 6}


def _load(directory: Path = VECTORS_DIR, names: Iterable[str] = ()) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    if not directory.is_dir():
        return lines
    paths = [directory / name for name in names] or sorted(directory.glob("*.jsonl"))
    for path in paths:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if line.strip():
                vector = json.loads(line)
                vector["_where"] = f"{path.name}:{number}"
                lines.append(vector)
    return lines


VECTORS = _load()
VARIANT_VECTORS = _load(VARIANT_VECTORS_DIR)
GAME_VECTORS = _load(GAMES_VECTORS_DIR, GAME_FILES)
ALL_VECTORS = VECTORS + VARIANT_VECTORS + GAME_VECTORS
# A missing vectors directory must fail, not skip (an empty parameter set would be skipped).
PARAMS = [pytest.param(v, id=v["id"]) for v in ALL_VECTORS] or [
    pytest.param(None, id="vectors-missing")
]


def _require(vector: dict[str, Any] | None) -> dict[str, Any]:
    if vector is None:
        pytest.fail(f"conformance vectors not found at {VECTORS_DIR.resolve()}")
    return vector


def _check_expect(answer: dict[str, Any], expect: dict[str, Any]) -> None:
    for key, want in expect.items():
        assert key in answer, f"answer lacks {key!r}: {answer}"
        got = answer[key]
        if key == "plays":
            assert isinstance(got, list)
            assert len(got) == len(set(got)), f"a play is listed twice: {got}"
            assert set(got) == set(want), (
                f"missing {sorted(set(want) - set(got))}, extra {sorted(set(got) - set(want))}"
            )
        else:
            assert got == want and type(got) is type(want), f"{key}: got {got!r}, want {want!r}"


def test_vector_files_present() -> None:
    assert VECTORS_DIR.is_dir(), f"conformance vectors not found at {VECTORS_DIR.resolve()}"
    for name in VECTOR_FILES:
        path = VECTORS_DIR / name
        assert path.is_file(), path
        assert path.read_text("utf-8").strip(), f"{path} is empty"
    ids = [v["id"] for v in VECTORS]
    assert len(ids) == len(set(ids)), "vector ids must be unique"


@pytest.mark.parametrize(
    ("vectors", "files"), [(VARIANT_VECTORS, VARIANT_FILES), (GAME_VECTORS, GAME_FILES)]
)
def test_variant_and_game_vector_files_present(
    vectors: list[dict[str, Any]], files: dict[str, int]
) -> None:
    counts: dict[str, int] = {}
    for vector in vectors:
        name = vector["_where"].split(":")[0]
        counts[name] = counts.get(name, 0) + 1
    assert counts == files
    ids = [v["id"] for v in ALL_VECTORS]
    assert len(ids) == len(set(ids)), "vector ids must be unique"


@pytest.mark.parametrize("vector", PARAMS)
def test_vector(vector: dict[str, Any] | None) -> None:
    vector = _require(vector)
    answer = handle_request(vector["request"])
    assert isinstance(answer, dict)
    _check_expect(answer, vector["expect"])
    op = vector["request"].get("op")
    seats = SEATS.get(vector["request"].get("profile"), 3)
    if op == "score" and "scores" in answer:
        assert sum(answer["scores"]) == 0, "R8.1: every deal is zero-sum"
        assert len(answer["scores"]) == seats
    if op == "replay" and answer.get("phase") in ("finished", "passed_out"):
        assert answer["scores"] is not None and sum(answer["scores"]) == 0, "R8.1 / R2.4"
        assert len(answer["scores"]) == seats
    if op == "replay" and answer.get("phase") == "passed_out":
        assert answer["scores"] == [0] * seats


def test_vectors_through_cli_batch_in_one_process() -> None:
    """PROTOCOL: one answer line per request line, in order, ids echoed, exit status 0."""
    _require(ALL_VECTORS or None)
    requests = [{**v["request"], "id": v["id"]} for v in ALL_VECTORS]
    stdin = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    proc = subprocess.run(
        [sys.executable, "-m", "referee.rules"],
        input=stdin.encode("utf-8"),
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    out_lines = proc.stdout.decode("utf-8").splitlines()
    assert len(out_lines) == len(requests)
    for request, vector, line in zip(requests, ALL_VECTORS, out_lines, strict=True):
        answer = json.loads(line)
        assert answer["id"] == vector["id"]
        assert answer == handle_request(request), vector["id"]
        _check_expect(answer, vector["expect"])


# --- the vectors themselves against an independent reading of the SPEC -----------------------


def _of_op(op: str) -> list[Any]:
    chosen = [pytest.param(v, id=v["id"]) for v in VECTORS if v["request"].get("op") == op]
    return chosen or [pytest.param(None, id="vectors-missing")]


def _counts(text: str) -> list[int]:
    return counts_from_text("".join(RANKS[r] for r in parse_ranks(text)))


@pytest.mark.parametrize("vector", _of_op("classify"))
def test_classify_vector_agrees_with_reference_reading_of_spec(
    vector: dict[str, Any] | None,
) -> None:
    vector = _require(vector)
    request, expect = vector["request"], vector["expect"]
    if "error" in expect:
        return
    profile = get_profile(request.get("profile", "comp2016"))
    found = ref_readings(_counts(request["cards"]), profile)
    assert expect["legal"] == bool(found)
    if found:
        assert (expect["kind"], expect["rank"], expect["length"]) in {
            reading_text(r) for r in found
        }
    if "beats" in expect:
        previous = ref_readings(_counts(request["previous"]), profile)
        assert previous, "a vector's previous play must be a combination"
        assert expect["beats"] == any(ref_beats(a, b) for a in found for b in previous)


@pytest.mark.parametrize("vector", _of_op("legal_plays"))
def test_legal_plays_vector_agrees_with_brute_force_over_sub_multisets(
    vector: dict[str, Any] | None,
) -> None:
    vector = _require(vector)
    request, expect = vector["request"], vector["expect"]
    if "error" in expect:
        return
    profile = get_profile(request.get("profile", "comp2016"))
    previous_text = request.get("previous") or ""
    previous = ref_readings(_counts(previous_text), profile) if previous_text.strip() else None
    wanted = set()
    for sub in sub_multisets(_counts(request["hand"])):
        found = ref_readings(sub, profile)
        if found and (previous is None or any(ref_beats(a, b) for a in found for b in previous)):
            wanted.add(text_from_counts(sub))
    assert set(expect["plays"]) == wanted


@pytest.mark.parametrize("vector", _of_op("score"))
def test_score_vector_agrees_with_the_r8_1_formula(vector: dict[str, Any] | None) -> None:
    vector = _require(vector)
    request, expect = vector["request"], vector["expect"]
    if "scores" not in expect:
        return
    profile = get_profile(request.get("profile", "comp2016"))
    fields = {
        k: request[k]
        for k in (
            "landlord",
            "bid",
            "doubled",
            "redoubled",
            "bombs",
            "rockets",
            "spring",
            "anti_spring",
            "winner",
        )
    }
    assert expect["scores"] == ref_score(**fields, doubling=profile.has_doubling)
