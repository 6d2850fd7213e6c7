"""A number before a noun takes the noun's plural form (issue 17.6: "did not announce 1
cards left"): every such text goes through ngettext / blocktranslate count, and 简体中文
has its one form of each."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests import factories
from tournaments.common.phrases import ngettext_lazy, render
from tournaments.hands.words import action_words
from tournaments.models import RoundStatus
from tournaments.seating.services import round_seat_preview

ROOT = Path(__file__).resolve().parents[2]
#: Nouns that follow a count somewhere on the site's pages and messages.
NOUNS = (
    "card|cards|hand|hands|point|points|table|tables|player|players|round|rounds|entry|entries|"
    "bye|byes|second|seconds|minute|minutes|hour|hours|day|days|try|tries|row|rows|level|"
    "levels|character|characters|pass|passes|bomb|bombs|meeting|meetings"
)
# "{{ n }} cards" in a template text, "%(n)s cards" / "%(n)d hands" in a Python text
TEMPLATE_COUNT = re.compile(rf"\{{\{{ ?[\w.|:]+ ?\}}\}} (?:repeat )?(?:{NOUNS})\b")
#: (a seat's name is no count: "%(seat)s passes")
PYTHON_COUNT = re.compile(rf"%\((?!seat\b)\w+\)[sd] (?:repeat )?(?:{NOUNS})\b")
NOT_MINE: set[str] = set()


def _sources(pattern: str) -> list[Path]:
    return [
        p
        for p in ROOT.glob(pattern)
        if "console" not in p.name and str(p.relative_to(ROOT)) not in NOT_MINE
    ]


def test_no_template_puts_a_count_before_a_noun_without_a_plural() -> None:
    found = []
    for path in _sources("templates/**/*.html"):
        text = path.read_text(encoding="utf-8")
        blocks = re.findall(r"\{% blocktranslate(.*?)%\}(.*?)\{% endblocktranslate %\}", text, re.S)
        for head, body in blocks:
            if " count " not in f" {head} " and TEMPLATE_COUNT.search(body):
                found.append(f"{path.relative_to(ROOT)}: {body[:60]}")
    assert found == []


def test_no_python_text_puts_a_count_before_a_noun_without_a_plural() -> None:
    found = []
    for path in [*_sources("tournaments/**/*.py"), *_sources("referee/api/*.py"),
                 *_sources("config/*.py")]:  # fmt: skip
        text = path.read_text(encoding="utf-8")
        # the texts of gettext calls (``_("…")``, possibly over several lines): not ngettext
        for call in re.finditer(
            r"(?<![\w.])(_|gettext|gettext_lazy|gettext_noop)\(\s*((?:\"[^\"]*\"\s*)+)\)", text
        ):
            words = "".join(re.findall(r"\"([^\"]*)\"", call.group(2)))
            if PYTHON_COUNT.search(words):
                found.append(f"{path.relative_to(ROOT)}: {words[:60]}")
    assert found == []


def test_one_card_is_singular_in_the_replay_words() -> None:
    with translation.override("en"):
        assert action_words("announce_missing", 1) == "did not announce 1 card left"
        assert action_words("announce_missing", 2) == "did not announce 2 cards left"
        assert action_words("announce", 1) == "announces 1 card left (报牌)"
    with translation.override("zh-hans"):
        assert action_words("announce_missing", 1) == "剩 1 张时未报牌"


def test_plural_phrases_choose_their_form_when_rendered() -> None:
    lines = ((ngettext_lazy("%(n)s table", "%(n)s tables", 1), ", ",
              ngettext_lazy("%(n)s bye", "%(n)s byes", 2)),)  # fmt: skip
    assert render(lines) == "1 table, 2 byes"


@pytest.mark.django_db
def test_the_seating_explanation_counts_in_the_right_form(**_: Any) -> None:
    tournament = factories.TournamentFactory()
    for _index in range(4):
        factories.EntryFactory(tournament=tournament)
    round_ = factories.RoundFactory(tournament=tournament, status=RoundStatus.DRAFT)
    with translation.override("en"):
        first = round_seat_preview(round=round_, seed=5).explanation.splitlines()[0]
    assert first == "random draw; seed 5; 4 entries, 1 table, 1 bye."
    with translation.override("zh-hans"):
        first = round_seat_preview(round=round_, seed=5).explanation.splitlines()[0]
    assert first == "随机抽签；种子 5；4 名参赛者，1 桌，1 人轮空。"
