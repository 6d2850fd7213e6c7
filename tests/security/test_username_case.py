"""Account names that differ only in case are one name (issue 28): ``BOSS`` beside ``boss``
is refused wherever an account is made or renamed, the database refuses it too, and signing
in ignores case (tournaments/common/usernames.py, migration tournaments.0024)."""

import importlib
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.rounds.referees import (
    referee_account_assign,
    referee_account_create,
    referee_password_set,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "a long referee passphrase 9"
TOKEN_URL = "/api/v1/auth/token/"
migration = importlib.import_module("tournaments.migrations.0024_username_unique_in_any_case")


@pytest.fixture
def boss(db: Any) -> Any:
    user = factories.UserFactory(username="boss")
    user.set_password(PASSWORD)
    user.save()
    return user


def test_a_director_cannot_create_a_referee_named_boss_in_another_case(boss: Any) -> None:
    for name in ("BOSS", "Boss", " bOsS "):
        with pytest.raises(ApplicationError) as refused:
            referee_account_create(username=name)
        assert refused.value.code == "username_taken"
    assert list(User.objects.filter(username__iexact="boss")) == [boss]


def test_the_round_page_assigns_the_existing_account_whatever_the_case_typed(
    seated_table: Any,
) -> None:
    referee = referee_account_create(username="table-one")
    assignment, created = referee_account_assign(
        round=seated_table.round, username="TABLE-ONE", table=seated_table
    )
    assert not created and assignment.user == referee
    assert User.objects.filter(username__iexact="table-one").count() == 1


def test_a_director_sets_the_password_of_the_account_whatever_the_case_typed(
    director: Any,
) -> None:
    referee = referee_account_create(username="table-two")
    referee_password_set(
        username="Table-Two", password=PASSWORD, password_again=PASSWORD, recorded_by=director
    )
    referee.refresh_from_db()
    assert referee.check_password(PASSWORD)


def test_the_admin_refuses_to_add_or_rename_to_a_name_taken_in_another_case(
    admin_client: Any, boss: Any
) -> None:
    other = factories.UserFactory(username="other")
    added = admin_client.post(
        "/admin/auth/user/add/",
        {"username": "BOSS", "usable_password": "false"},
    )
    assert added.status_code == 200 and added.context["adminform"].form.errors["username"]
    renamed = admin_client.post(
        f"/admin/auth/user/{other.pk}/change/",
        {
            "username": "Boss",
            "is_active": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
        },
    )
    assert renamed.status_code == 200
    errors = renamed.context["adminform"].form.errors["username"]
    assert "differ by more than upper and lower case" in errors[0]
    other.refresh_from_db()
    assert other.username == "other"
    assert User.objects.filter(username__iexact="boss").count() == 1
    # Its own name in another case is a rename of the same account, not a collision.
    kept = admin_client.post(
        f"/admin/auth/user/{boss.pk}/change/",
        {
            "username": "Boss",
            "is_active": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
        },
    )
    assert kept.status_code == 302
    boss.refresh_from_db()
    assert boss.username == "Boss"


def test_the_database_refuses_a_name_taken_in_another_case(boss: Any) -> None:
    """Written around every check: the unique index on UPPER(username)."""
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="BOSS")
    with pytest.raises(IntegrityError), transaction.atomic():
        call_command("createsuperuser", interactive=False, username="Boss", email="b@example.org")
    assert User.objects.filter(username__iexact="boss").count() == 1


def test_the_migration_stops_on_names_that_already_collide(boss: Any) -> None:
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {migration.INDEX}")
        User.objects.create(username="BOSS")
        factories.UserFactory(username="carol")

        class Editor:
            pass

        editor = Editor()
        editor.connection = connection  # type: ignore[attr-defined]
        with pytest.raises(RuntimeError) as stopped:
            migration.refuse_names_that_collide(None, editor)
        transaction.set_rollback(True)
    assert "differ only in upper and lower case" in str(stopped.value)
    assert "BOSS, boss." in str(stopped.value)
    assert "carol" not in str(stopped.value)
    with pytest.raises(IntegrityError), transaction.atomic():  # the index is back
        User.objects.create(username="BOSS")


def test_sign_in_ignores_case(client: Any, boss: Any) -> None:
    for typed in ("boss", "Boss", "BOSS"):
        response = client.post(TOKEN_URL, {"username": typed, "password": PASSWORD})
        assert response.status_code == 200, typed
    assert client.post(TOKEN_URL, {"username": "Boss", "password": "wrong"}).status_code == 401
    response = client.post(
        "/referee/login/", {"username": "BOSS", "password": PASSWORD}, REMOTE_ADDR="10.5.0.1"
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(boss.pk)


def test_case_variants_share_one_lockout(client: Any, boss: Any, settings: Any) -> None:
    """Five wrong guesses under five spellings lock the one account: the case variants of a
    name are not each a fresh allowance of guesses."""
    settings.AXES_FAILURE_LIMIT = 5
    for typed in ("boss", "Boss", "BOSS", "bOSS"):
        assert client.post(TOKEN_URL, {"username": typed, "password": "wrong"}).status_code == 401
    fifth = client.post(TOKEN_URL, {"username": "BoSs", "password": "wrong"})
    assert fifth.status_code == 429  # the failure limit reached: locked
    locked = client.post(TOKEN_URL, {"username": "bosS", "password": PASSWORD})
    assert locked.status_code == 429 and locked.json()["code"] == "locked_out"
    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"boss"}
