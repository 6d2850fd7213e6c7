"""A kept PostgreSQL connection is checked at each request's first query without a round trip
(``config/postgresql/base.py``): a quiet one is kept as it is, one that the server ended is
replaced before the request's query, and one that is not idle is asked ``SELECT 1`` as
Django asks it.

Each test opens a connection of its own to the test database (the test's own connection
runs inside the test's transaction) and ends it for real: the server closes it on its own
timeout (``idle_session_timeout``), as a restart or ``pg_terminate_backend`` would.
"""

from __future__ import annotations

import copy
import select
import time
from collections.abc import Iterator

import pytest
from django.db import connection, connections

from config.postgresql.base import DatabaseWrapper

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]


@pytest.fixture
def kept() -> Iterator[DatabaseWrapper]:
    """A connection kept between requests, as ``CONN_MAX_AGE`` keeps one, its first request
    served."""
    settings = copy.deepcopy(connection.settings_dict)
    settings.update(CONN_MAX_AGE=60, CONN_HEALTH_CHECKS=True)
    wrapper = DatabaseWrapper(settings, alias="kept")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def backend_pid(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def next_request(wrapper: DatabaseWrapper) -> None:
    """What Django does between two requests (``close_old_connections``)."""
    wrapper.close_if_unusable_or_obsolete()


def count_selects(wrapper: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each ``SELECT 1`` health check the wrapper asks, and its answer."""
    asked: list[bool] = []
    is_usable = wrapper.is_usable

    def counted() -> bool:
        asked.append(is_usable())
        return asked[-1]

    monkeypatch.setattr(wrapper, "is_usable", counted)
    return asked


def test_a_quiet_connection_is_kept_without_asking_the_server(
    kept: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = backend_pid(kept)
    asked = count_selects(kept, monkeypatch)
    for _ in range(3):
        next_request(kept)
        assert backend_pid(kept) == first
    assert asked == []


def test_a_connection_the_server_ended_is_replaced_before_the_query(
    kept: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    with kept.cursor() as cursor:
        cursor.execute("SET idle_session_timeout = 200")  # milliseconds
    first = backend_pid(kept)
    deadline = time.monotonic() + 10
    socket = kept.connection.fileno()
    while not select.select([socket], [], [], 0.1)[0]:  # the server's FATAL, then its close
        assert time.monotonic() < deadline, "the server did not end the idle connection"
    asked = count_selects(kept, monkeypatch)
    next_request(kept)
    assert backend_pid(kept) != first  # no error: the request's query ran on a new one
    assert asked == [False]  # the server had spoken: Django's SELECT 1 found it gone


def test_a_connection_inside_a_transaction_is_asked(
    kept: DatabaseWrapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept.set_autocommit(False)
    with kept.cursor() as cursor:
        cursor.execute("SELECT 1")  # the transaction begins
    kept.health_check_done = False
    asked = count_selects(kept, monkeypatch)
    kept.close_if_health_check_failed()
    assert asked == [True]
    kept.rollback()
    kept.set_autocommit(True)


def test_settings_use_this_backend_for_postgresql() -> None:
    assert connection.settings_dict["ENGINE"] == "config.postgresql"
    assert isinstance(connections["default"], DatabaseWrapper)
