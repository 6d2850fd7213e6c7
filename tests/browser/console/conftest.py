"""Fixtures of the console and director browser tests, on top of tests/browser/conftest.py
(the session's Chromium, the SQLite flush, DJANGO_ALLOW_ASYNC_UNSAFE)."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import ARTEFACTS, LANGUAGES, patient

PHONE = {"width": 390, "height": 844}


def phone_context(browser: Browser, live_server: Any, language: str) -> BrowserContext:
    """A phone (390×844) whose browser speaks ``language`` ("en" or "zh"), on the live server."""
    locale, accept = LANGUAGES[language]
    context = browser.new_context(
        viewport=PHONE,
        locale=locale,
        base_url=live_server.url,
        extra_http_headers={"Accept-Language": accept},
    )
    return patient(context)


@pytest.fixture
def console_browser(browser: Browser) -> Browser:
    """The session's Chromium (tests/browser/conftest.py)."""
    return browser


@pytest.fixture
def http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies must not be Secure-only."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


#: The console's home heading, by the browser's language.
TABLES_HEADING = {"en": "My tables now", "zh": "我的当前牌桌"}


def console_sign_in(page: Page, username: str, password: str, language: str | None = "en") -> None:
    """Sign ``username`` in on the console's own page; with a ``language``, wait for the home
    screen's heading in it (None: the caller waits for what its test is about)."""
    page.goto("/referee/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    if language is not None:
        expect(page.locator("#app h1")).to_have_text(TABLES_HEADING[language])


def console_open_table(
    page: Page, username: str, password: str, language: str | None = "en"
) -> None:
    """Sign in (as ``console_sign_in``), open the first table and wait for its hand."""
    console_sign_in(page, username, password, language)
    page.click("button.table-open")
    expect(page.locator("section.hand")).to_be_visible()
