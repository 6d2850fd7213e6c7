"""Fixtures of the console and director browser tests, on top of tests/browser/conftest.py
(the session's Chromium, the SQLite flush, DJANGO_ALLOW_ASYNC_UNSAFE)."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext

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
