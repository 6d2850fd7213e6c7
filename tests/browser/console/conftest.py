"""Playwright with the system Chromium for the console and director browser tests.

Never ``playwright install``: /usr/bin/chromium is used. pytest-django's ``live_server``
runs the site in a thread; Playwright's sync API runs an event loop in this one, hence
DJANGO_ALLOW_ASYNC_UNSAFE."""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models.signals import post_migrate
from playwright.sync_api import Browser, sync_playwright

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def console_browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies must not be Secure-only."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


@pytest.fixture
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS


def _referee_group(**kwargs: Any) -> None:
    """A flush empties auth_group; the referee group comes from a data migration, so
    it is put back when the flush emits post_migrate (later tests expect it)."""
    from django.contrib.auth.models import Group

    from tournaments.roles import REFEREE_GROUP

    Group.objects.using(kwargs.get("using", "default")).get_or_create(name=REFEREE_GROUP)


post_migrate.connect(_referee_group, dispatch_uid="tests.browser.console.referee_group")


@pytest.fixture(autouse=True)
def sqlite_flushable(transactional_db: Any) -> Iterator[None]:
    """SQLite's append-only triggers refuse the DELETEs of the flush that ends a
    live-server test (PostgreSQL's TRUNCATE does not fire them): flush here with the
    triggers lifted, then put them back."""
    yield
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        triggers = cursor.fetchall()
        for name, _ in triggers:
            cursor.execute(f'DROP TRIGGER "{name}"')
    try:
        call_command("flush", interactive=False, verbosity=0)
    finally:
        with connection.cursor() as cursor:
            for _, sql in triggers:
                cursor.execute(sql)
