"""Issue 16, point 5, reproduced AS THE APPLICATION ROLE on PostgreSQL: adding 100 to a
per-seat score, changing a penalty from -3 to -1000, deleting the round log, back-dating a
record or making oneself a superuser is refused (grants and migration 0011's triggers); the
statements the services run still pass.  Connection set-up as in test_app_role.py."""

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from psycopg import errors

from tests import factories
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import (
    Hand,
    HandEvent,
    HandSeatResult,
    Penalty,
    RoundLog,
    RoundLogKind,
    TournamentLog,
)
from tournaments.tournament.log import tournament_log_append
from tournaments.tournament.penalties import penalty_create

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

ROLE = settings.DATABASE_APP_ROLE
WHERE = ("host", "port", "dbname")


@pytest.fixture
def app_role() -> Iterator[psycopg.Connection[Any]]:
    call_command("db_app_role", stdout=None)
    where = {k: v for k, v in connection.get_connection_params().items() if k in WHERE}
    with psycopg.connect(**where, user=ROLE, autocommit=True) as conn:
        yield conn


@pytest.fixture
def trail(director: Any) -> dict[str, Any]:
    """A finished hand (6 / -3 / -3), a -3 penalty, a round log and a tournament log row."""
    table = factories.seated_table()
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=3, winner="landlord"
    ).hand
    entry = table.seats.get(position=0).entry
    penalty = penalty_create(entry=entry, points=-3, reason="slow play", recorded_by=director)
    RoundLog.objects.create(round=table.round, kind=RoundLogKind.SEATED, reason="draw")
    tournament_log_append(
        tournament_id=entry.tournament_id,
        kind="settings_changed",
        changes={"name": ["a", "b"]},
        recorded_by=director,
    )
    return {"hand": hand, "penalty": penalty, "round": table.round, "entry": entry}


def refused(conn: psycopg.Connection[Any], statement: str, params: list[Any] | None = None) -> bool:
    try:
        conn.execute(statement, params or [])
    except (errors.InsufficientPrivilege, errors.IntegrityError):
        return True
    return False


def untouched(trail: dict[str, Any]) -> None:
    hand = trail["hand"]
    scores = HandSeatResult.objects.filter(hand=hand).order_by("position")
    assert list(scores.values_list("score", flat=True)) == [6, -3, -3]
    penalty = Penalty.objects.get(pk=trail["penalty"].pk)
    assert (penalty.points, penalty.reason, penalty.revoked_at) == (-3, "slow play", None)
    assert RoundLog.objects.filter(round=trail["round"]).count() == 1
    assert TournamentLog.objects.count() == 1
    assert not get_user_model().objects.filter(is_superuser=True).exists()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE tournaments_handseatresult SET score = score + 100",
        "UPDATE tournaments_handseatresult SET won = true",
        "DELETE FROM tournaments_handseatresult",
        "UPDATE tournaments_penalty SET points = -1000",
        "UPDATE tournaments_penalty SET reason = 'nothing happened'",
        "UPDATE tournaments_penalty SET recorded_at = now() - interval '1 day'",
        "DELETE FROM tournaments_penalty",
        "UPDATE tournaments_penalty SET revoked_at = now()",  # no reason: refused
        "DELETE FROM tournaments_roundlog",
        "UPDATE tournaments_roundlog SET reason = 'forged'",
        "DELETE FROM tournaments_tournamentlog",
        "UPDATE tournaments_tournamentlog SET changes = '{}'",
        "UPDATE auth_user SET is_superuser = true",
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,"
        " is_staff, is_active, date_joined) VALUES ('!', true, 'mallory', '', '', '', true,"
        " true, now())",
        "ALTER TABLE tournaments_penalty DISABLE TRIGGER ALL",
        "DROP TRIGGER tournaments_penalty_revoke_once ON tournaments_penalty",
    ],
)
def test_each_forgery_is_refused(
    app_role: psycopg.Connection[Any], trail: dict[str, Any], statement: str
) -> None:
    assert refused(app_role, statement)
    untouched(trail)


def test_a_forged_seat_result_row_is_refused(
    app_role: psycopg.Connection[Any], trail: dict[str, Any]
) -> None:
    hand: Hand = trail["hand"]
    other = hand_create(table=hand.table).hand  # live: no rows may exist for it
    row = HandSeatResult.objects.get(hand=hand, position=1)
    assert refused(
        app_role,
        "INSERT INTO tournaments_handseatresult (hand_id, tournament_id, round_id, table_id,"
        " board_id, hand_number, position, entry_id, is_landlord, won, score, passed_out)"
        " VALUES (%s, %s, %s, %s, NULL, %s, 1, %s, false, true, 100, false)",
        [other.pk, row.tournament_id, row.round_id, row.table_id, other.number, row.entry_id],
    )
    assert not HandSeatResult.objects.filter(hand=other).exists()
    untouched(trail)


def test_the_application_role_still_does_what_the_services_do(
    app_role: psycopg.Connection[Any], trail: dict[str, Any], director: Any
) -> None:
    penalty: Penalty = trail["penalty"]
    # The revocation: the three set-once columns, once.
    app_role.execute(
        "UPDATE tournaments_penalty SET revoked_at = now(), revoked_by_id = %s,"
        " revoke_reason = 'appeal upheld' WHERE id = %s",
        [director.pk, penalty.pk],
    )
    assert refused(
        app_role,
        "UPDATE tournaments_penalty SET revoke_reason = 'changed my mind' WHERE id = %s",
        [penalty.pk],
    )
    assert Penalty.objects.get(pk=penalty.pk).revoke_reason == "appeal upheld"
    # Users: last login and password change; a non-superuser account is created.
    app_role.execute("UPDATE auth_user SET last_login = now() WHERE id = %s", [director.pk])
    app_role.execute(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, email,"
        " is_staff, is_active, date_joined) VALUES ('!', false, 'ref-2', '', '', '', false,"
        " true, now())"
    )
    assert get_user_model().objects.filter(username="ref-2", is_superuser=False).exists()


def test_recorded_at_is_the_database_clock_for_the_application_role(
    app_role: psycopg.Connection[Any], trail: dict[str, Any]
) -> None:
    hand: Hand = trail["hand"]
    before = timezone.now()
    app_role.execute(
        "INSERT INTO tournaments_handevent (hand_id, seq, kind, payload, recorded_at, device_id)"
        " VALUES (%s, %s, 'note', '{}'::jsonb, '2001-01-01T00:00:00Z', '')",
        [hand.pk, hand.version + 1],
    )
    app_role.execute(
        "INSERT INTO tournaments_roundlog (round_id, kind, reason, payload, recorded_at)"
        " VALUES (%s, 'seated', 'x', '{}'::jsonb, '2001-01-01T00:00:00Z')",
        [trail["round"].pk],
    )
    event = HandEvent.objects.get(hand=hand, seq=hand.version + 1)
    assert event.recorded_at >= before
    log = RoundLog.objects.filter(round=trail["round"]).order_by("-id").first()
    assert log is not None and log.recorded_at >= before
