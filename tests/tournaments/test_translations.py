"""The 简体中文 catalogue is complete and compiled, and the services refuse in the user's
language (directors and referees read these messages on their screens)."""

import ast
import gettext
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.director.selectors import seating_explanation_text
from tournaments.models import RoundStatus
from tournaments.rounds.services import round_close, round_start
from tournaments.seating.services import round_seat, round_seat_preview

LOCALE = Path(__file__).resolve().parents[2] / "tournaments" / "locale" / "zh_Hans" / "LC_MESSAGES"
CJK = re.compile(r"[\u4e00-\u9fff]")


def catalogue() -> list[tuple[str, str, str, str]]:
    """(flags, msgid, msgid_plural, msgstr) of every entry of django.po but the header
    (of a plural entry, its one form: Chinese has no plural)."""
    entries = []
    for block in (LOCALE / "django.po").read_text(encoding="utf-8").split("\n\n"):
        lines = block.splitlines()
        flags = " ".join(line for line in lines if line.startswith("#,"))
        parts: dict[str, str] = {}
        key = ""
        for line in lines:
            if line.startswith(("msgctxt", "msgid", "msgstr")):
                key, _, line = line.partition(" ")
                key = key.removesuffix("[0]")
                parts[key] = ""
            if line.startswith('"') and key:
                parts[key] += ast.literal_eval(line)
        if parts.get("msgid"):
            # a message with a context is keyed as gettext keys it: "context\x04message"
            context = parts["msgctxt"] + "\x04" if "msgctxt" in parts else ""
            entries.append(
                (
                    flags,
                    context + parts["msgid"],
                    parts.get("msgid_plural", ""),
                    parts.get("msgstr", ""),
                )
            )
    return entries


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    entries = catalogue()
    assert len(entries) > 300
    untranslated = [msgid for _, msgid, _, msgstr in entries if not msgstr]
    fuzzy = [msgid for flags, msgid, _, _ in entries if "fuzzy" in flags]
    assert untranslated == []
    assert fuzzy == []


def test_the_compiled_catalogue_is_the_source_one() -> None:
    """django.mo is committed (users need no gettext tools): it must match django.po."""
    with (LOCALE / "django.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = [
        msgid
        for _, msgid, plural, msgstr in catalogue()
        if (compiled.ngettext(msgid, plural, 1) if plural else compiled.gettext(msgid)) != msgstr
    ]
    assert stale == [], "run `make messages`"


def refusal(call: Any) -> str:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value.message


@pytest.mark.django_db
def test_round_refusals_are_in_the_users_language(seated_table: Any) -> None:
    round_ = seated_table.round
    with translation.override("zh-hans"):
        assert CJK.search(refusal(lambda: round_start(round=round_)))  # a draft round
        assert CJK.search(refusal(lambda: round_close(round=round_)))
    with translation.override("en"):
        assert refusal(lambda: round_start(round=round_)).startswith("Only a seated round")


@pytest.mark.django_db
def test_the_seating_explanation_is_in_the_directors_language() -> None:
    tournament = factories.TournamentFactory()
    for _ in range(7):
        factories.EntryFactory(tournament=tournament)
    round_ = factories.RoundFactory(tournament=tournament, status=RoundStatus.DRAFT)
    with translation.override("zh-hans"):
        chinese = round_seat_preview(round=round_, seed=5).explanation
    with translation.override("en"):
        english = round_seat_preview(round=round_, seed=5).explanation
    assert "随机抽签" in chinese and "第 1 桌" in chinese and "轮空" in chinese
    assert "random draw" in english and "Table 1" in english
    assert len(chinese.splitlines()) == len(english.splitlines())


@pytest.mark.django_db
def test_a_round_seated_in_english_explains_itself_in_the_readers_language() -> None:
    """The round keeps its explanation as phrases (tournaments.common.phrases): a director who
    reads Chinese reads it in Chinese, whoever seated the round."""
    tournament = factories.TournamentFactory()
    for _ in range(7):
        factories.EntryFactory(tournament=tournament)
    round_ = factories.RoundFactory(tournament=tournament, status=RoundStatus.DRAFT)
    with translation.override("en"):
        preview = round_seat_preview(round=round_, seed=5).explanation
        round_seat(round=round_, seed=5)
    round_.refresh_from_db()
    with translation.override("zh-hans"):
        chinese = seating_explanation_text(round=round_)
    with translation.override("en"):
        english = seating_explanation_text(round=round_)
    assert english == preview
    assert "East (东) · seat 0: #" in english
    assert "随机抽签" in chinese and "东 · 0 号座：#" in chinese and "轮空" in chinese
    assert not re.search(r"random|Table|seat|bye", chinese)


@pytest.mark.django_db
def test_an_explanation_kept_as_words_is_shown_as_it_is() -> None:
    """A round seated before the phrases (or imported from such an archive) keeps its
    text."""
    round_ = factories.RoundFactory(seating_explanation="random draw; seed 5.")
    assert seating_explanation_text(round=round_) == "random draw; seed 5."
