"""Issue 17.6 in a real browser: the standings' Total stays on a phone's screen, and the
director's hand page reads its log in words in 简体中文 (photographed under
tests/browser/artefacts/)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests import factories
from tests.hand_stories import story
from tests.public_data import hand_played, tournament_with_tables
from tournaments.models import Player, Round
from tournaments.standings.snapshots import standings_snapshot_update

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_standings_total_stays_on_a_phones_screen(
    new_page: Any, screenshot: Any, language: str
) -> None:
    tournament, tables = tournament_with_tables(
        tables=3, format="duplicate", tiebreaks=["opponents_outscored", "tops"]
    )
    Player.objects.filter(entries__tournament=tournament, entries__registration_order=1).update(
        name="Maximilian Alexander Featherstonehaugh-Wolfeschlegel",
        chinese_name="欧阳长孙司马",
        club="Chengdu Dou Dizhu Association of Retired Railway Engineers",
    )
    board = factories.BoardFactory(tournament=tournament, number=1)
    for table in tables:
        hand_played(table, seed=0, board=board)
    standings_snapshot_update(tournament_id=tournament.pk)

    phone = new_page(language, viewport=PHONE, is_mobile=True)
    phone.goto(reverse("public:standings", args=[tournament.slug]))
    rows = phone.locator("table.standings tbody tr")
    assert rows.count() == 9
    wide = phone.evaluate(  # what sticks out of the page, should anything
        "[...document.querySelectorAll('body > * *')]"
        ".filter(e => !e.closest('.table-scroll') && e.getBoundingClientRect().right > 390)"
        ".map(e => e.tagName + '.' + e.className)"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide
    header = phone.locator("table.standings th.total").bounding_box()
    assert header is not None and header["x"] >= 0
    assert header["x"] + header["width"] <= PHONE["width"]
    for n in range(rows.count()):
        row = rows.nth(n)
        for cell in ("td.rank", "td.player", "td.total"):
            box = row.locator(cell).bounding_box()
            assert box is not None, (n, cell)
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (n, cell, box)
    assert re.fullmatch(r"-?\d+", rows.first.locator("td.total").inner_text())
    screenshot(phone, f"standings-phone-{language}")


def test_the_directors_hand_page_reads_its_log_in_words_in_chinese(
    new_page: Any, screenshot: Any
) -> None:
    table = factories.seated_table(requires_confirmation=True, status="running")
    Round.objects.filter(pk=table.round_id).update(status="playing")
    told = story(table)
    get_user_model().objects.create_user("td-zh", password="td-zh-password", is_staff=True)
    page = new_page("zh")
    page.goto(reverse("admin:login") + "?next=/director/")
    page.fill("#id_username", "td-zh")
    page.fill("#id_password", "td-zh-password")
    page.click("input[type=submit]")
    page.wait_for_url("**/director/")
    slug = table.round.tournament.slug
    page.goto(reverse("director:hand", args=[slug, told.logged.pk]))
    log = page.locator("#hand-log ol.log")
    text = log.inner_text()
    for words in (
        "叫 3 分",
        "加倍",
        "不要",
        "撤销",
        "未报牌",
        "报牌：剩",
        "裁判长推翻记录",
        "有异议",
    ):
        assert words in text, words
    assert "{'" not in text and "payload" not in text and "action" not in text
    assert page.locator("#hand-override li[data-field=winner]").inner_text().startswith("胜方")
    log.scroll_into_view_if_needed()
    screenshot(page, "director-hand-log-zh")
