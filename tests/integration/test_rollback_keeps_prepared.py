"""A rollback keeps the connection's prepared statements (``config/postgresql/base.py``):
psycopg's own rollback forgets them and sends ``DEALLOCATE ALL``, so every refused or retried
referee write made the next writes parse and plan their statements again.

Each test opens a connection of its own to the test database (the test's own connection
runs inside the test's transaction), registered under an alias so that
``transaction.atomic`` rolls it back as it rolls back a request's write.
"""

from __future__ import annotations

import copy
import select
import time
from collections.abc import Iterator

import pytest
from django.db import DatabaseError, OperationalError, connection, connections, transaction

from config.postgresql.base import DatabaseWrapper

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]

ALIAS = "rollback_kept"
#: A statement that the connection prepares (``DATABASE_PREPARE_THRESHOLD``: its 2nd run on).
COUNT_SQL = "SELECT count(*) FROM auth_group WHERE name = %s"
GROUP = "rollback-keeps-prepared"


@pytest.fixture
def own() -> Iterator[DatabaseWrapper]:
    settings = copy.deepcopy(connection.settings_dict)
    wrapper = DatabaseWrapper(settings, alias=ALIAS)
    connections[ALIAS] = wrapper
    try:
        yield wrapper
    finally:
        wrapper.close()
        del connections[ALIAS]


def groups_named(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute(COUNT_SQL, [GROUP])
        return int(cursor.fetchone()[0])


def prepared(wrapper: DatabaseWrapper) -> dict[str, str]:
    """The session's prepared statements on the server: name -> statement."""
    wrapper.ensure_connection()
    rows = wrapper.connection.execute(
        "SELECT name, statement FROM pg_prepared_statements", prepare=False
    ).fetchall()
    return {name: statement for name, statement in rows}


def count_prepared(wrapper: DatabaseWrapper) -> dict[str, str]:
    for _ in range(3):
        assert groups_named(wrapper) == 0
    kept = prepared(wrapper)
    assert any("auth_group" in statement for statement in kept.values())
    return kept


class Refused(Exception):
    pass


def test_a_rolled_back_write_keeps_the_prepared_statements(own: DatabaseWrapper) -> None:
    before = count_prepared(own)
    with pytest.raises(Refused), transaction.atomic(using=ALIAS):
        with own.cursor() as cursor:
            cursor.execute("INSERT INTO auth_group (name) VALUES (%s)", [GROUP])
        assert groups_named(own) == 1
        raise Refused
    assert groups_named(own) == 0  # rolled back
    assert prepared(own) == before  # nothing deallocated, nothing prepared again


def test_a_statement_prepared_in_the_rolled_back_transaction_stays_prepared(
    own: DatabaseWrapper,
) -> None:
    """Statements are not transactional on the server: one that the transaction prepared is
    still there after the rollback, where the client's cache says it is."""
    assert prepared(own) == {}
    with pytest.raises(Refused), transaction.atomic(using=ALIAS):
        kept = count_prepared(own)
        raise Refused
    assert prepared(own) == kept
    assert groups_named(own) == 0
    assert prepared(own) == kept  # run as prepared, not prepared again


def test_a_statement_that_failed_is_rolled_back_and_the_statements_still_run(
    own: DatabaseWrapper,
) -> None:
    before = count_prepared(own)
    with pytest.raises(DatabaseError), transaction.atomic(using=ALIAS), own.cursor() as cursor:
        cursor.execute("SELECT 1 / 0")
    assert groups_named(own) == 0  # the prepared statement runs: the client's cache agrees
    assert prepared(own) == before


def test_a_rollback_outside_a_transaction_does_nothing(own: DatabaseWrapper) -> None:
    before = count_prepared(own)
    own.rollback()
    assert prepared(own) == before


def test_a_rollback_on_a_connection_the_server_ended_drops_it(own: DatabaseWrapper) -> None:
    """The ``ROLLBACK`` fails as Django's would: ``atomic`` drops the connection and raises
    the block's own error; the next query runs on a new connection."""
    own.ensure_connection()
    assert own.connection is not None
    with own.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        first = cursor.fetchone()[0]
    with pytest.raises(Refused), transaction.atomic(using=ALIAS):
        with own.cursor() as cursor:
            cursor.execute("SET LOCAL idle_in_transaction_session_timeout = 200")  # ms
        socket = own.connection.fileno()
        deadline = time.monotonic() + 10
        while not select.select([socket], [], [], 0.1)[0]:  # the server's FATAL, then close
            assert time.monotonic() < deadline, "the server did not end the connection"
        raise Refused
    with own.cursor() as cursor:  # atomic's end opened the new one
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != first


def test_a_failed_rollback_is_a_django_error(own: DatabaseWrapper) -> None:
    own.set_autocommit(False)
    with own.cursor() as cursor:
        cursor.execute("SET LOCAL idle_in_transaction_session_timeout = 200")  # ms
    socket = own.connection.fileno()
    deadline = time.monotonic() + 10
    while not select.select([socket], [], [], 0.1)[0]:
        assert time.monotonic() < deadline, "the server did not end the connection"
    with pytest.raises(OperationalError, match="server closed the connection"):
        own.rollback()
    with pytest.raises(OperationalError, match="the connection is closed"):
        own.rollback()
