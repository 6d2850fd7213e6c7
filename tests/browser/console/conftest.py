"""Fixtures of the console and director browser tests, on top of tests/browser/conftest.py
(the session's Chromium, the SQLite flush, DJANGO_ALLOW_ASYNC_UNSAFE)."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.browser.conftest import ARTEFACTS

PHONE = {"width": 390, "height": 844}


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
