"""Every wait on PostgreSQL is bounded: connect, statement, lock and idle-in-transaction
timeouts come from the environment (config/settings.py), with sane defaults; so do the
client's TCP keepalives and user timeout, which end a connection whose network goes silent."""

import json
import time

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
    assert options["tcp_user_timeout"] == 10_000  # libpq takes milliseconds
    assert options["keepalives"] == 1
    assert options["keepalives_idle"] == 10
    assert options["keepalives_interval"] == 5
    assert options["keepalives_count"] == 3
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
        DATABASE_TCP_USER_TIMEOUT="0",
        DATABASE_KEEPALIVES_IDLE="0",
    )
    assert "connect_timeout" not in options
    assert "tcp_user_timeout" not in options
    assert options["keepalives"] == 0
    assert not any(name.startswith("keepalives_") for name in options)
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


def test_the_client_tcp_limits_are_read_from_the_environment() -> None:
    options = options_with(
        DATABASE_URL="postgres://u:p@db.example:5432/scores",
        DATABASE_TCP_USER_TIMEOUT="2.5",
        DATABASE_KEEPALIVES_IDLE="7",
        DATABASE_KEEPALIVES_INTERVAL="2",
        DATABASE_KEEPALIVES_COUNT="4",
    )
    assert options["tcp_user_timeout"] == 2500
    assert (options["keepalives"], options["keepalives_idle"]) == (1, 7)
    assert (options["keepalives_interval"], options["keepalives_count"]) == (2, 4)


#: Small limits for the partition test: user timeout 2 s, probes after 1 s idle, 1 s apart.
PARTITION_LIMITS = {
    "DATABASE_TCP_USER_TIMEOUT": "2",
    "DATABASE_KEEPALIVES_IDLE": "1",
    "DATABASE_KEEPALIVES_INTERVAL": "1",
    "DATABASE_KEEPALIVES_COUNT": "2",
}


@pytest.mark.postgresql
@pytest.mark.django_db
def test_a_connection_whose_network_goes_silent_fails_within_the_bound() -> None:
    """A real connection, black-holed mid-session in a network namespace of its own
    (tests/integration/partitioned_client.py): nothing is closed, nothing answers. A query
    sent into the silence fails after about the user timeout, one already waiting for its
    answer after the keepalive probes go unanswered; both are the database being unreachable
    (the 503). The same connection without these options is still waiting at three times
    the bound: the limits are what ends it, not the black hole."""
    database = connection.settings_dict
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    result = run(
        ["-m", "tests.integration.partitioned_client", database["HOST"], str(database["PORT"])],
        DATABASE_URL=url,
        CELERY_BROKER_URL="",
        **PARTITION_LIMITS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    print(json.dumps(report, indent=1))
    assert report["options"]["tcp_user_timeout"] == 2000

    sent = report["sent"]
    assert sent["failed"] and sent["unreachable"], sent
    assert 1.5 <= sent["seconds"] < 6, sent  # the user timeout (2 s), not the kernel's ~15 min

    waiting = report["waiting"]
    assert waiting["failed"] and waiting["unreachable"], waiting
    assert waiting["seconds"] < 8, waiting  # 1 s of health, then idle 1 s + probes (≤ 2 s)

    assert report["control"] == {"failed": False, "still_waiting_after": 6.0}
    _wait_for_the_relayed_sessions_to_end()


def _wait_for_the_relayed_sessions_to_end() -> None:
    """The child's server sessions end when its relay closes; the test database is dropped
    at the end of the run, which they would hold up."""
    deadline = time.monotonic() + 15
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.2)
