"""Shared fixtures.  Tests marked ``broker`` need a real Celery broker: without
CELERY_BROKER_URL they are deselected (reported as such), never skipped.  Tests marked
``postgresql`` (roles and privileges; real concurrency against a live server) run only when
DATABASE_URL is a PostgreSQL database: SQLite serialises every write and shares one in-memory
test database between threads, so it cannot host them."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group

from tests import factories
from tournaments.common.roles import REFEREE_GROUP

BROKER_CONFIGURED = bool(os.environ.get("CELERY_BROKER_URL"))
POSTGRESQL_CONFIGURED = os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql"))


def _needs_missing_service(item: pytest.Item) -> bool:
    return (not BROKER_CONFIGURED and item.get_closest_marker("broker") is not None) or (
        not POSTGRESQL_CONFIGURED and item.get_closest_marker("postgresql") is not None
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
def fast_password_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def generous_sign_in_rate(settings: Any) -> None:
    """Tests sign in many times from one address (127.0.0.1) and the count lives in a cache
    table that transactional tests do not empty: the per-address rate is tested with its own
    value in tests/security/test_sign_in_rate.py."""
    settings.SIGN_IN_RATE = "100000/min"


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
def empty_django_cache() -> Iterator[None]:
    """Each test leaves Django's cache (local memory in the tests) empty: the public standings
    table is cached under a key made of the tournament's id and snapshot, which come round
    again in a later test's rolled-back tournament (SQLite reuses ids)."""
    yield
    from django.core.cache import cache

    cache.clear()
