"""Shared fixtures.  Tests marked ``broker`` need a real Celery broker: without
CELERY_BROKER_URL they are deselected (reported as such), never skipped.  Tests marked
``postgresql`` (roles and privileges; real concurrency against a live server) run only when
DATABASE_URL is a PostgreSQL database: SQLite serialises every write and shares one in-memory
test database between threads, so it cannot host them.  Tests marked ``proxy`` run the
shipped nginx configuration: without nginx (``NGINX``, else on PATH, else /usr/sbin/nginx)
and envsubst they are deselected the same way (``.ci/run`` installs both)."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.db.models.signals import post_migrate

from tests import factories
from tournaments.common.roles import REFEREE_GROUP

BROKER_CONFIGURED = bool(os.environ.get("CELERY_BROKER_URL"))
POSTGRESQL_CONFIGURED = os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql"))
NGINX = Path(os.environ.get("NGINX") or shutil.which("nginx") or "/usr/sbin/nginx")
PROXY_CONFIGURED = os.access(NGINX, os.X_OK) and shutil.which("envsubst") is not None
#: Each marker of tests that need a service, and whether this run has it.
_SERVICES = {
    "broker": BROKER_CONFIGURED,
    "postgresql": POSTGRESQL_CONFIGURED,
    "proxy": PROXY_CONFIGURED,
}


def _needs_missing_service(item: pytest.Item) -> bool:
    return any(
        not present and item.get_closest_marker(marker) is not None
        for marker, present in _SERVICES.items()
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    selected = [item for item in items if not _needs_missing_service(item)]
    deselected = [item for item in items if _needs_missing_service(item)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


@pytest.fixture(autouse=True)
def eager_tasks_unless_broker(request: pytest.FixtureRequest) -> Any:
    """Tasks queued by the services (the standings recompute) run in the test's process,
    except in ``broker`` tests, where a real worker takes them."""
    from config import celery_app

    if request.node.get_closest_marker("broker") is not None:
        yield
        return
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def par_analysis_off(settings: Any) -> None:
    """A released board is analysed only in the tests that ask for it (tests/par/): the
    solver's queries would otherwise run in every test that closes a duplicate round."""
    settings.PAR_ANALYSIS_AUTO = False


@pytest.fixture(autouse=True)
def fast_password_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def generous_sign_in_rate(settings: Any) -> None:
    """Tests sign in many times from one address (127.0.0.1) and the count lives in a cache
    table that transactional tests do not empty: the per-address rate is tested with its own
    value in tests/security/test_sign_in_rate.py."""
    settings.SIGN_IN_RATE = "100000/min"
    settings.SIGN_IN_BURST = 100000


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the whole session (the system's; tests/browser/conftest.py says how
    it is started): defined once here, for tests/browser/ and tests/security/ alike, because
    a second sync Playwright in the same thread fails."""
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def director(db: Any) -> Any:
    """A director: a staff user with no model permissions (and not a superuser)."""
    return factories.UserFactory(username="director-test", is_staff=True)


@pytest.fixture
def director_client(client: Any, director: Any) -> Any:
    client.force_login(director)
    return client


@pytest.fixture
def referee(db: Any) -> Any:
    user = factories.UserFactory(username="referee-test")
    user.groups.add(Group.objects.get(name=REFEREE_GROUP))
    return user


@pytest.fixture
def seated_table(db: Any) -> Any:
    """A table of a comp2016 tournament with three seated entries."""
    return factories.seated_table()


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Each test ends in the default language: a request in another one leaves it active in
    the test's thread (the test client runs LocaleMiddleware there), and a later test that
    reads a message would read it in that language."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def public_versions_read_afresh(settings: Any) -> None:
    """The public pages' versions are read on every request in the tests (production keeps
    them PUBLIC_BOARD_SECONDS, 1 s, in the shared cache: tournaments/public/page_cache.py),
    so that a test that changes a hand and reads its page again sees the change at once;
    the tests of that window set it themselves."""
    settings.PUBLIC_BOARD_SECONDS = 0


#: ``page_cache.PAGE_REFRESH_SECONDS`` in the tests: one bucket, whatever the clock.
ONE_REFRESH_BUCKET = 10**12


@pytest.fixture(autouse=True)
def one_page_refresh_bucket(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tournament's pages take a new version every ``PAGE_REFRESH_SECONDS`` (300 s, for
    what their fingerprint does not see): a test whose requests straddled the end of such
    a bucket saw a page rendered twice or a 200 for its 304 (a flake, one run in a few
    hundred). The tests keep one bucket; the refresh is tested with its own clock
    (tests/tournaments/test_public_cache.py)."""
    from tournaments.public import page_cache

    monkeypatch.setattr(page_cache, "PAGE_REFRESH_SECONDS", ONE_REFRESH_BUCKET)


@pytest.fixture(autouse=True)
def empty_django_cache() -> Iterator[None]:
    """Each test leaves Django's cache (local memory in the tests) empty: the public standings
    table is cached under a key made of the tournament's id and snapshot, which come round
    again in a later test's rolled-back tournament (SQLite reuses ids)."""
    yield
    from django.core.cache import cache

    cache.clear()


def _transactional(request: pytest.FixtureRequest) -> bool:
    """Whether the test's database is emptied by a flush afterwards (a live server, or
    ``django_db(transaction=True)``), not rolled back."""
    if {"transactional_db", "live_server"} & set(request.fixturenames):
        return True
    marker = request.node.get_closest_marker("django_db")
    return marker is not None and bool(marker.kwargs.get("transaction"))


@pytest.fixture(autouse=True)
def _emptied_after_a_committed_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a transactional test: the shared cache is emptied (below), and the database by
    ``flush``; on SQLite that is a DELETE, which the append-only triggers of the hand log
    refuse (PostgreSQL truncates, which they allow). Empty the tables here with the triggers
    lifted, then put them back, so the flush that follows finds nothing to delete."""
    if not _transactional(request):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    from django.conf import settings
    from django.core.cache import caches
    from django.core.management import call_command
    from django.db import connection

    # What the test committed to the shared cache (the database cache by default: a table
    # of its own, which the flush leaves alone) goes too, so that no later test is served a
    # page this one rendered (a rolled-back test's entries roll back with it).
    caches[settings.SHARED_CACHE].clear()
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        triggers = cursor.fetchall()
        for name, _ in triggers:
            cursor.execute(f'DROP TRIGGER "{name}"')
    try:
        call_command("flush", interactive=False, verbosity=0)
    finally:
        with connection.cursor() as cursor:
            for _, sql in triggers:
                cursor.execute(sql)


def _referee_group(**kwargs: Any) -> None:
    """A flush empties auth_group; the referee group comes from a data migration, so it is
    put back when the flush emits post_migrate (later tests expect it)."""
    Group.objects.using(kwargs.get("using", "default")).get_or_create(name=REFEREE_GROUP)


post_migrate.connect(_referee_group, dispatch_uid="tests.referee_group")
