"""The browser infrastructure itself: the system Chromium renders the live server's pages
in both languages."""

from typing import Any

import pytest

from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_in_english_and_chinese(page_en: Any, page_zh: Any, screenshot: Any) -> None:
    factories.TournamentFactory(name="Harbin Open", status="running")

    page_en.goto("/")
    assert page_en.locator("h1").inner_text() == "Tournaments"
    assert "Harbin Open" in page_en.content()
    screenshot(page_en, "home-en")

    page_zh.goto("/")
    assert page_zh.locator("html").get_attribute("lang") == "zh-hans"
    assert page_zh.locator("h1").inner_text() == "比赛"
    screenshot(page_zh, "home-zh")
