"""Real-browser fixtures, shared by every test under tests/browser/.

Playwright drives the system Chromium (/usr/bin/chromium, installed by the system package
manager; never ``playwright install``) headless against pytest-django's ``live_server``.

- ``browser``: one Chromium for the whole session (``tests/conftest.py``: one for the
  browser tests and the security tests that need a phone alike, since Playwright's sync API
  runs one event loop a thread).
- ``new_page(language)``: a fresh context (own cookies, ``Accept-Language`` and locale) and
  page; closed after the test. ``page_en`` and ``page_zh`` are the two languages.
- ``screenshot(page, name)``: a full-page PNG under ``tests/browser/artefacts/`` (gitignored;
  ``BROWSER_ARTEFACTS`` moves it), kept as a test artefact.
- ``patient(context)``: every wait of a context (actions, navigations) up to ``TIMEOUT_MS``;
  ``expect`` waits as long (set here for every browser test). A test waits on a state the
  page reaches, never for a fixed time.

Playwright's sync API runs an event loop in the test's thread, so Django refuses ORM calls
there unless DJANGO_ALLOW_ASYNC_UNSAFE is set; the tests' own database work is ordinary
synchronous code, so it is safe here.
"""

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("BROWSER_EXECUTABLE", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = Path(os.environ.get("BROWSER_ARTEFACTS", Path(__file__).parent / "artefacts"))
LANGUAGES = {"en": ("en", "en-GB,en;q=0.9"), "zh": ("zh-CN", "zh-CN,zh-Hans;q=0.9,zh;q=0.8")}
#: How long any wait of a browser test may take (an action, a navigation, an ``expect``):
#: sized for a slow, loaded machine (2 cores shared by several test runs), where a page can
#: take seconds to reach a state it reaches at once on an idle one. A state that never comes
#: still fails, after this.
TIMEOUT_MS = 30_000
expect.set_options(timeout=TIMEOUT_MS)

NewPage = Callable[..., Any]


def patient(context: Any) -> Any:
    """``context`` with every wait up to ``TIMEOUT_MS`` (Playwright's own default for
    actions is 30 s, for ``expect`` 5 s): every context of the browser tests goes through
    here."""
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[NewPage]:
    """``new_page("zh", viewport=...)``: a page in a fresh context whose relative URLs go
    to the live server."""
    contexts: list[Any] = []

    def make(language: str = "en", **context_options: Any) -> Any:
        locale, accept = LANGUAGES[language]
        options: dict[str, Any] = {
            "base_url": live_server.url,
            "locale": locale,
            "extra_http_headers": {"Accept-Language": accept},
            "viewport": {"width": 1280, "height": 900},
            **context_options,
        }
        context = patient(browser.new_context(**options))
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page_en(new_page: NewPage) -> Any:
    return new_page("en")


@pytest.fixture
def page_zh(new_page: NewPage) -> Any:
    return new_page("zh")


@pytest.fixture(scope="session")
def screenshot() -> Callable[[Any, str], Path]:
    """Save a full-page screenshot named ``<name>.png`` and return its path."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = ARTEFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
