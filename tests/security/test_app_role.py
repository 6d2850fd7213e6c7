"""The application's PostgreSQL role owns nothing and cannot rewrite the hand log.

Reproduction from the issue: the application's user owned the tables, so it could DISABLE
TRIGGER, set session_replication_role = replica, or TRUNCATE the append-only log. Here the
test database gets the production grants (tournaments/common/sql/app_role_grants.sql, through
``manage.py db_app_role``, as the owner), then the test connects AS THE APPLICATION ROLE and
tries each statement. The role (DATABASE_APP_ROLE) is created by .ci/run.
"""

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from psycopg import errors

from tests import factories
from tournaments.models import HandEvent

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

ROLE = settings.DATABASE_APP_ROLE
WHERE = ("host", "port", "dbname")


@pytest.fixture
def event() -> HandEvent:
    return factories.HandEventFactory(payload={"text": "original"})


@pytest.fixture
def app_role() -> Iterator[psycopg.Connection[Any]]:
    """A connection to the test database as the application role, after the grants."""
    call_command("db_app_role", stdout=None)
    where = {k: v for k, v in connection.get_connection_params().items() if k in WHERE}
    with psycopg.connect(**where, user=ROLE, autocommit=True) as conn:
        yield conn


def refused(conn: psycopg.Connection[Any], statement: str) -> bool:
    try:
        conn.execute(statement)
    except errors.InsufficientPrivilege:
        return True
    return False


def test_the_application_role_owns_nothing_and_is_no_superuser(
    app_role: psycopg.Connection[Any],
) -> None:
    row = app_role.execute(
        "SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls FROM pg_roles"
        " WHERE rolname = current_user"
    ).fetchone()
    assert row == (False, False, False, False)
    owned = app_role.execute(
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) = current_user"
    ).fetchone()
    assert owned == (0,)


def test_the_application_role_reads_and_appends_the_hand_log(
    app_role: psycopg.Connection[Any], event: HandEvent
) -> None:
    (payload,) = app_role.execute(
        "SELECT payload FROM tournaments_handevent WHERE id = %s", [event.pk]
    ).fetchone() or (None,)
    assert payload == {"text": "original"}
    app_role.execute(
        "INSERT INTO tournaments_handevent (hand_id, seq, kind, payload, recorded_at, device_id)"
        " VALUES (%s, %s, 'note', '{}'::jsonb, now(), '')",
        [event.hand_id, event.seq + 1],
    )
    assert HandEvent.objects.filter(hand_id=event.hand_id).count() == 2
    # Ordinary rows stay writable: the services update hands, seats and rounds.
    app_role.execute("UPDATE tournaments_hand SET version = version WHERE id = %s", [event.hand_id])


@pytest.mark.parametrize(
    "statement",
    [
        'UPDATE tournaments_handevent SET payload = \'{"text": "forged"}\'',
        "DELETE FROM tournaments_handevent",
        "TRUNCATE tournaments_handevent",
        "TRUNCATE tournaments_handevent CASCADE",
        "ALTER TABLE tournaments_handevent DISABLE TRIGGER ALL",
        "ALTER TABLE tournaments_handevent DISABLE TRIGGER tournaments_handevent_append_only",
        "DROP TRIGGER tournaments_handevent_append_only ON tournaments_handevent",
        "DROP TABLE tournaments_handevent",
        "SET session_replication_role = replica",
        "SET SESSION AUTHORIZATION DEFAULT; SET session_replication_role = replica",
        "TRUNCATE tournaments_hand CASCADE",
        "CREATE TABLE tournaments_evil (id int)",
        "DELETE FROM django_migrations",
        "CREATE OR REPLACE FUNCTION tournaments_hand_event_append_only() RETURNS trigger"
        " AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
    ],
)
def test_the_application_role_is_refused(
    app_role: psycopg.Connection[Any], event: HandEvent, statement: str
) -> None:
    assert refused(app_role, statement)
    assert HandEvent.objects.get(pk=event.pk).payload == {"text": "original"}
    (mode,) = app_role.execute("SHOW session_replication_role").fetchone() or (None,)
    assert mode == "origin"
