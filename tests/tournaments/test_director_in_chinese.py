"""Every director screen in 简体中文 (issue 17.6): rendered with the director's language set
to zh-hans, no text of the catalogue is left in English and no English word remains but
what the users typed (names, reasons) and a short list of shared terms (CSV, JSON, PIN …)."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tests.hand_stories import Story, story
from tests.tournaments.test_translations import catalogue
from tournaments.hands.exclusions import hand_exclude
from tournaments.hands.gate import round_gate
from tournaments.models import Entry, Penalty, Round, RoundStatus, Season
from tournaments.rounds.services import round_create
from tournaments.seating.services import round_seat
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.penalties import penalty_revoke
from tournaments.tournament.services import tournament_update
from tournaments.tournament.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

#: Words that read the same in both languages on these screens.
SHARED = {
    "CSV", "JSON", "PIN", "QR", "Idempotency", "Key", "R10", "English", "ID", "URL", "API",
    "comp2016", "classic", "Dou", "Dizhu",
    # the import's CSV columns, typed as they are in the file's first line
    "name", "chinese", "club", "external", "id",
}  # fmt: skip
#: A tie-break's key is what a director types into the chain field: shown as code.
CODE = re.compile(r"<code>.*?</code>", re.S)
HIDDEN = re.compile(r"<(script|style|svg)\b.*?</\1>|<!--.*?-->", re.S)
TAG = re.compile(r"<[^>]+>")
#: Attributes a reader sees: placeholders, tooltips, what a screen reader says.
SHOWN_ATTRIBUTES = re.compile(r'(?:placeholder|title|aria-label)="([^"]*)"')


def _visible_text(page: str) -> str:
    """The page's title, body text and the attributes a reader sees."""
    title = re.findall(r"<title>(.*?)</title>", page, re.S)
    body = re.split(r"<body[^>]*>", page, maxsplit=1)[-1]
    body = CODE.sub(" ", HIDDEN.sub(" ", body))
    shown = SHOWN_ATTRIBUTES.findall(body)
    return " ".join(html.unescape(" ".join([*title, TAG.sub(" ", body), *shown])).split())


def _english(msgstr_differs: bool = True) -> set[str]:
    """The catalogue's English texts of more than a word (translated into something
    else), their placeholders taken out."""
    return {
        re.sub(r"%\(\w+\)[sd]", "", msgid)
        for _, msgid, _, msgstr in catalogue()
        if (msgstr != msgid or not msgstr_differs) and re.search(r"[a-z]{3} [a-z]{2}", msgid)
    }


def _left(text: str, english: set[str], typed: set[str]) -> list[str]:
    """The catalogue's texts and the English words still in ``text``."""
    untranslated = [msgid for msgid in english if max(msgid.split("  "), key=len) in text]
    words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in typed]
    return sorted(set(untranslated) | set(words))


@pytest.fixture
def told(db: Any) -> Story:
    table = factories.seated_table(
        requires_confirmation=True, status="running", name="Spring Open", slug="spring-open"
    )
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    table.refresh_from_db()
    told = story(table)
    tournament = table.round.tournament
    for order in range(4, 8):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    director = factories.UserFactory(username="story-director", is_staff=True)
    entry_withdraw(
        entry=Entry.objects.get(tournament=tournament, registration_order=7),
        reason="went home",
        recorded_by=director,
    )
    penalty_revoke(penalty=Penalty.objects.get(), reason="wrong entry", recorded_by=director)
    tournament_update(
        tournament=tournament,
        tiebreaks=["registration"],
        is_public=False,
        reason="as announced",
        recorded_by=director,
    )
    # a hand the table never played, excluded with a reason (issue 29): the gate lists it
    owed = next(u for u in round_gate(round=table.round).unsettled if u.state == "missing")
    hand_exclude(table=table, number=owed.number, reason="table left early", recorded_by=director)
    second = round_create(tournament=tournament)
    round_seat(round=second, seed=3)  # seated in English: read in Chinese
    factories.RefereeAssignmentFactory(round=second, user=factories.UserFactory(username="ref2"))
    standings_snapshot_update(tournament_id=tournament.pk)
    return told


def _screens(told: Story) -> dict[str, str]:
    slug = told.table.round.tournament.slug
    first = told.table.round.number
    second = first + 1
    screens = {
        "dashboard": reverse("director:dashboard"),
        "new tournament": reverse("director:tournament-create"),
        "tournament": reverse("director:tournament", args=[slug]),
        "entries": reverse("director:entries", args=[slug]),
        "round": reverse("director:round", args=[slug, first]),
        "round preview": reverse("director:round", args=[slug, second]) + "?preview=1&seed=3",
        "print": reverse("director:print", args=[slug, first]),
        "results desk": reverse("director:results", args=[slug, first]),
        "standings": reverse("director:standings", args=[slug]),
    }
    for name in ("logged", "result", "passed_out", "irregular"):
        screens[f"hand {name}"] = reverse("director:hand", args=[slug, getattr(told, name).pk])
    # the season screens (issue 34)
    season, _ = Season.objects.get_or_create(slug="story-season", defaults={"name": "Story season"})
    season.tournaments.add(told.table.round.tournament)
    screens["players"] = reverse("director:players")
    screens["seasons"] = reverse("director:seasons")
    screens["season"] = reverse("director:season", args=[season.slug])
    screens["par analysis"] = reverse("director:par", args=[slug])  # issue 33
    return screens


def _typed(told: Story) -> set[str]:
    """Words the users typed (names, clubs, reasons, user names): left as typed."""
    tournament = told.table.round.tournament
    texts = [
        tournament.name,
        "Story season",
        "story-referee",
        "story-director",
        "director-test",
        "ref2",
    ]
    for entry in Entry.objects.filter(tournament=tournament).select_related("player"):
        texts += [entry.player.name, entry.player.club]
    texts += [
        "wrong card tapped", "the score looks wrong", "the table agreed", "misdeal",
        "the deal was written in wrongly", "late 报牌", "wrong entry", "went home",
        "as announced", "table left early",
    ]  # fmt: skip
    return {word for text in texts for word in re.findall(r"[A-Za-z]+", text)}


def _walk(director_client: Any, told: Story, language: str) -> dict[str, str]:
    """Every director screen's visible text in ``language``, the import preview too."""
    texts = {}
    headers = {"accept-language": language}
    for name, url in _screens(told).items():
        response = director_client.get(url, headers=headers)
        assert response.status_code == 200, name
        page = response.content.decode()
        assert f'<html lang="{language}"' in page, name
        texts[name] = _visible_text(page)
    slug = told.table.round.tournament.slug
    preview = director_client.post(
        reverse("director:import", args=[slug]),
        {"text": "name,club\nAnn Lee,North\n,NoName\n", "preview": "1"},
        headers=headers,
    )
    texts["import preview"] = _visible_text(preview.content.decode())
    return texts


def test_every_director_screen_reads_in_chinese(director_client: Any, told: Story) -> None:
    english, typed = _english(), _typed(told) | SHARED | {"Ann", "Lee", "North", "NoName"}
    left = {
        name: words
        for name, text in _walk(director_client, told, "zh-hans").items()
        if (words := _left(text, english, typed))
    }
    print(left, file=sys.stderr)
    assert left == {}


def test_the_walk_finds_english_where_it_is(director_client: Any, told: Story) -> None:
    """The walk's own check: the same screens in English are full of the catalogue's
    texts and English words."""
    english, typed = _english(), _typed(told) | SHARED
    for name, text in _walk(director_client, told, "en").items():
        assert len(_left(text, english, typed)) >= 3, name


def test_the_walk_covers_every_director_template() -> None:
    """A new director screen joins the walk above."""
    templates = Path(__file__).resolve().parents[2] / "templates" / "director"
    walked = {
        "base", "dashboard", "tournament_form", "tournament", "entries", "round",
        "round_print", "results", "_desk", "_hand_state", "standings", "hand",
        "entries_import", "_gate", "players", "seasons", "season", "par",
        "login",  # signed out: tests/security/test_sign_in_throttling.py, in Chinese too
    }  # fmt: skip
    assert {p.stem for p in templates.glob("*.html")} == walked
