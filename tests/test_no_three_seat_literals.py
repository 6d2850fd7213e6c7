"""A seat count comes from the rule profile, nowhere a literal 3 (issue 20, point 2): the
service's source (Python, templates, the console's scripts) is read line by line for the
shapes a three-seat assumption takes. The rules library (``referee/rules``) is the one place
that knows each profile's table, and the migrations are history: both are left out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = (
    "tournaments",
    "referee/api",
    "referee/console",
    "templates",
    "config",
)
SKIPPED_PARTS = ("migrations", "locale", "__pycache__")
SUFFIXES = (".py", ".html", ".js", ".txt", ".css", ".json")

#: name -> the pattern of a three-seat assumption.
ASSUMPTIONS = {
    "a three-seat column": re.compile(r"\b(score|doubled|hand)_[0-2]\b(?!\w)"),
    "three seats counted out": re.compile(
        r"\brange\((0,\s*)?3\)|[\[(]\s*0,\s*1,\s*2\s*,?\s*[\])]"
        r"|[\[({]\s*([\"'])0\2,\s*\2?1\2,\s*\2?2\2\s*,?\s*[\])}]"
    ),
    "three of something, multiplied out": re.compile(r"\[(False|None|0|17)\]\s*\*\s*3\b"),
    "a seat bound by three": re.compile(
        r"\b(seat|position|landlord|first_bidder)\w*\s*(<\s*3|<=\s*2|>=\s*3|>\s*2)\b"
    ),
    "a seat after another, by three": re.compile(r"%\s*3\b"),
    "three of something per seat": re.compile(
        r"\[(False|None|0|17), (False|None|0|17), (False|None|0|17)\]"
        r"|\((False|None|0), (False|None|0), (False|None|0)\)"
    ),
    "a length of three": re.compile(r"len\([^)]*\)\s*[!=<>]=?\s*3\b|[!=]=\s*3\b"),
    "a hand of 17 or 20 cards": re.compile(r"(==|!=)\s*(17|20)\b|\b(17|20)\s*(==|!=)"),
    "a three-seat template loop": re.compile(r'for \w+ in "012"'),
    "a seat named by its number in a template": re.compile(r"seat_label [0-9]"),
    "a row of three seats' cells": re.compile(r"(<td></td>){7,}"),
    "a seat bound at the third seat": re.compile(r"(max_value=|maximum\"?:?\s*=?\s*)2\b(?!\*)"),
    "exactly three per-seat values": re.compile(r"min_length=3,\s*max_length=3"),
    "three seats in a type": re.compile(r"tuple\[(bool|int \| None), \1, \1\]"),
    "a key of a board and a seat made with a seat count": re.compile(
        r"\*\s*[3-6]\s*\+\s*(\w+\.)?position\b"
    ),
}


def _sources() -> list[Path]:
    files = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in SUFFIXES and not any(p in path.parts for p in SKIPPED_PARTS):
                files.append(path)
    return files


def _hits(text: str) -> list[tuple[int, str, str]]:
    hits = []
    for number, line in enumerate(text.splitlines(), start=1):
        for name, pattern in ASSUMPTIONS.items():
            if pattern.search(line):
                hits.append((number, name, line.strip()))
    return hits


def test_the_scan_reads_the_service() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert "tournaments/hands/replay.py" in names
    assert "referee/console/static/referee/console/result.js" in names
    assert "templates/public/board.html" in names
    assert not any("referee/rules" in n or "/migrations/" in n for n in names)


@pytest.mark.parametrize(
    "line",
    [
        'doubled = (data.pop("doubled_0"), data.pop("doubled_1"), data.pop("doubled_2"))',
        "for seat in range(3):",
        "const farmers = [0, 1, 2].filter((s) => s !== h.landlord);",
        "turn = (seat + 1) % 3;",
        "doubled = [False, False, False]",
        "if not isinstance(scores, list) or len(scores) != 3:",
        "if landlord is not None and counts[landlord] == 17:",
        '{% for p in "012" %}<th>',
        "<th>{% seat_label 0 %}</th><th>{% seat_label 1 %}</th>",
        "<td>{{ n }}</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>",
        "return serializers.IntegerField(min_value=0, max_value=2, **kwargs)",
        "child=serializers.BooleanField(), min_length=3, max_length=3, required=False",
        '_SEAT = {"type": "integer", "minimum": 0, "maximum": 2}',
        "def doubled(self) -> tuple[bool, bool, bool]:",
        "score_0=-F('score_1') - F('score_2')",
        'if not value or any(key not in ("0", "1", "2") for key in value):',
        "seats = {'0', '1', '2'}",
        "for seat in range(0, 3):",
        "const order = [0,1,2];",
        "scores = [None] * 3",
        "if seat < 3:",
        "if position >= 3:",
        "assert 0 <= landlord_seat <= 2",
    ],
)
def test_each_assumption_is_caught(line: str) -> None:
    assert _hits(line), line


@pytest.mark.parametrize(
    "line",
    [
        "for seat in range(hand.seats):",
        "bid = serializers.IntegerField(min_value=1, max_value=3)",
        "turn = (seat + 1) % hand.doubled.length;",
        "BOARD_SEEDS = {1: 20160101, 2: 20160102, 3: 20160103}",
        "page_size = 30",
        "max_value=2**31 - 1",
        "kind = models.CharField(max_length=20)",
        "keys: dict[tuple[int, int, int], Hand] = {}",
        "if bid < 3:",
        "seats = [None] * hand.seats",
        'if seat < len(seat_positions(profile)) and key in ("0", "1", "2", "3"):',
        "for seat in range(0, hand.seats):",
    ],
)
def test_a_seat_count_from_the_profile_passes(line: str) -> None:
    assert not _hits(line), line


def test_no_three_seat_assumption_in_the_service() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {name}: {line}"
        for path in _sources()
        for number, name, line in _hits(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "\n".join(found)
