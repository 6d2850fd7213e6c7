"""Every wait on PostgreSQL is bounded: connect, statement, lock and idle-in-transaction
timeouts come from the environment (config/settings.py), with sane defaults."""

import json

import pytest
from django.conf import settings
from django.db import connection

from tests.test_settings import run

OPTIONS = """
import json
from django.conf import settings
print(json.dumps(settings.DATABASES["default"].get("OPTIONS", {})))
"""


def options_with(**env: str) -> dict[str, object]:
    result = run(["-c", OPTIONS], **env)
    assert result.returncode == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def test_postgresql_gets_every_timeout_by_default() -> None:
    options = options_with(DATABASE_URL="postgres://u:p@db.example:5432/scores")
    assert options["connect_timeout"] == 5
    assert options["options"] == (
        "-c statement_timeout=30000 -c lock_timeout=10000"
        " -c idle_in_transaction_session_timeout=60000"
    )


def test_each_timeout_is_read_from_the_environment_and_zero_turns_it_off() -> None:
    options = options_with(
        DATABASE_URL="postgres://u:p@db.example:5432/scores",
        DATABASE_CONNECT_TIMEOUT="0",
        DATABASE_STATEMENT_TIMEOUT="0",
        DATABASE_LOCK_TIMEOUT="2.5",
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT="90",
    )
    assert "connect_timeout" not in options
    assert options["options"] == (
        "-c statement_timeout=0 -c lock_timeout=2500 -c idle_in_transaction_session_timeout=90000"
    )


def test_sqlite_gets_no_postgresql_options() -> None:
    assert options_with(DATABASE_URL="sqlite:///:memory:") == {}


@pytest.mark.postgresql
@pytest.mark.django_db
def test_the_server_applies_the_timeouts_to_the_application_connection() -> None:
    expected = {
        "statement_timeout": settings.DATABASE_STATEMENT_TIMEOUT,
        "lock_timeout": settings.DATABASE_LOCK_TIMEOUT,
        "idle_in_transaction_session_timeout": settings.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT,
    }
    with connection.cursor() as cursor:
        for name, seconds in expected.items():
            cursor.execute("SELECT setting::bigint FROM pg_settings WHERE name = %s", [name])
            assert cursor.fetchone()[0] == int(seconds * 1000), name
