"""Issue 28, point 3: API tokens end. A token lasts REFEREE_SESSION_HOURS (401
``token_expired`` after, and the token endpoint issues a new one); it is replaced when the
account's password is set, changed or reset by any path, when the account is deactivated
or leaves the referee group, and when a director revokes it.

Reproduction from the issue: an old token still read ``/api/v1/me/`` and reached a write
after a password reset and after its referee was taken out of the referee group. Each
refusal below is asserted on both: the read and a write (a hand's start, nothing written).
"""

import io
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests import factories
from tests.api.helpers import assign, playing_table, referee_user
from tests.at_once import at_once
from tournaments.common.api_tokens import api_token_issue
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP
from tournaments.models import Hand, RefereeAssignment, Table
from tournaments.rounds.referees import referee_tokens_revoke

pytestmark = pytest.mark.django_db

PASSWORD = "a long referee passphrase 1"
NEW_PASSWORD = "another long passphrase 2"
TOKEN_URL = "/api/v1/auth/token/"
ME = "/api/v1/me/"


@pytest.fixture
def table() -> Table:
    return playing_table()


@pytest.fixture
def ref(table: Table) -> Any:
    user = referee_user("token-ref")
    user.set_password(PASSWORD)
    user.save()
    assign(user, table)
    return user


def _sign_in(username: str, password: str) -> Any:
    return APIClient().post(TOKEN_URL, {"username": username, "password": password})


def _token(user: Any, password: str = PASSWORD) -> str:
    response = _sign_in(user.username, password)
    assert response.status_code == 200, response.content
    return str(response.json()["token"])


def _me(key: str) -> Any:
    return APIClient().get(ME, HTTP_AUTHORIZATION=f"Token {key}")


def _start(key: str, table: Table, idem: str = "start-1") -> Any:
    return APIClient().post(
        f"/api/v1/tables/{table.pk}/hands/",
        {"deal": "random"},
        format="json",
        HTTP_AUTHORIZATION=f"Token {key}",
        HTTP_IDEMPOTENCY_KEY=idem,
    )


def _assert_refused(key: str, table: Table, code: str = "authentication_failed") -> None:
    """The read and the write both refused 401 with ``code``; nothing written."""
    before = Hand.objects.count()
    for response in (_me(key), _start(key, table)):
        assert response.status_code == 401, response.content
        assert response.json()["code"] == code
        assert response["WWW-Authenticate"] == "Token"
    assert Hand.objects.count() == before


def test_the_token_endpoint_says_when_its_token_expires(ref: Any, settings: Any) -> None:
    settings.REFEREE_SESSION_HOURS = 6
    response = _sign_in(ref.username, PASSWORD)
    assert response.status_code == 200
    body = response.json()
    token = Token.objects.get(user=ref)
    assert body["token"] == token.key
    expires = timezone.datetime.fromisoformat(body["expires"])
    assert expires == token.created + timedelta(hours=6)
    # A second sign-in before then answers the same live token.
    assert _sign_in(ref.username, PASSWORD).json() == body


def test_a_live_token_reads_and_writes(ref: Any, table: Table) -> None:
    key = _token(ref)
    assert _me(key).status_code == 200
    assert _start(key, table).status_code == 201
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("hours", [1, 12, 72])
def test_a_token_expires_with_the_referee_sessions_hours(
    ref: Any, table: Table, settings: Any, hours: int
) -> None:
    settings.REFEREE_SESSION_HOURS = hours
    key = _token(ref)
    just_inside = timezone.now() - timedelta(hours=hours) + timedelta(minutes=1)
    Token.objects.filter(key=key).update(created=just_inside)
    assert _me(key).status_code == 200

    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(hours=hours))
    _assert_refused(key, table, code="token_expired")
    body = _me(key).json()
    assert "expired" in body["message"] and "/api/v1/auth/token/" in body["message"]

    # Signing in again issues a fresh token (the expired one is gone) that works.
    fresh = _token(ref)
    assert fresh != key
    assert not Token.objects.filter(key=key).exists()
    assert _me(fresh).status_code == 200
    assert _start(fresh, table).status_code == 201


def test_an_expired_token_is_refused_in_chinese_too(ref: Any, table: Table) -> None:
    key = _token(ref)
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(days=4))
    response = APIClient().get(
        ME, HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    assert response.status_code == 401
    assert response.json()["code"] == "token_expired"
    assert "过期" in response.json()["message"]


# --- A password set, changed or reset, by every path --------------------------------------


def _by_model(user: Any) -> None:
    user.set_password(NEW_PASSWORD)
    user.save()


def _by_model_update_fields(user: Any) -> None:
    user.set_password(NEW_PASSWORD)
    user.save(update_fields=["password"])


def _by_reset_form(user: Any) -> None:
    """What Django's password reset confirm view saves (and the user's own change form)."""
    form = SetPasswordForm(user, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert form.is_valid(), form.errors
    form.save()


def _by_admin(user: Any) -> None:
    superuser = factories.UserFactory(username="root", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(superuser)
    response = client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )
    assert response.status_code == 302, response.content


def _by_director_screen(user: Any) -> None:
    director = factories.UserFactory(username="director-pw", is_staff=True)
    client = Client()
    client.force_login(director)
    round_ = RefereeAssignment.objects.get(user=user).round
    args = (round_.tournament.slug, round_.number, "referee_password")
    url = reverse("director:round-action", args=args)
    response = client.post(
        url,
        {
            "username": user.username,
            "password": NEW_PASSWORD,
            "password_again": NEW_PASSWORD,
            "confirm": "on",
        },
    )
    assert response.status_code == 302


def _by_command(user: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # manage.py changepassword asks twice on the terminal
    monkeypatch.setattr("getpass.getpass", lambda prompt="": NEW_PASSWORD)
    call_command("changepassword", user.username, stdout=io.StringIO())


def _unusable(user: Any) -> None:
    user.set_unusable_password()
    user.save()


PASSWORD_PATHS = {
    "model-save": _by_model,
    "model-save-update-fields": _by_model_update_fields,
    "reset-form": _by_reset_form,
    "admin": _by_admin,
    "director-screen": _by_director_screen,
    "changepassword-command": _by_command,
    "unusable-password": _unusable,
}


@pytest.mark.parametrize("path", list(PASSWORD_PATHS))
def test_a_token_is_refused_after_its_password_changes(
    ref: Any, table: Table, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = _token(ref)
    change = PASSWORD_PATHS[path]
    if path == "changepassword-command":
        change(ref, monkeypatch)  # type: ignore[call-arg]
    else:
        change(ref)  # type: ignore[call-arg]
    ref.refresh_from_db()
    _assert_refused(key, table)
    assert not Token.objects.filter(user=ref).exists()
    # the old password signs in no more; the new one gets a new token
    assert _sign_in(ref.username, PASSWORD).status_code == 401
    if path != "unusable-password":
        fresh = _token(ref, NEW_PASSWORD)
        assert fresh != key and _me(fresh).status_code == 200


def test_saves_that_leave_the_password_alone_keep_the_token(ref: Any) -> None:
    key = _token(ref)
    ref.first_name = "Wang"
    ref.save()  # every field
    ref.last_login = timezone.now()
    ref.save(update_fields=["last_login"])  # a sign-in
    signed_in = Client().post("/referee/login/", {"username": ref.username, "password": PASSWORD})
    assert signed_in.status_code == 302  # a sign-in at the console saves last_login
    assert _me(key).status_code == 200


def test_a_token_issued_for_a_password_that_changed_meanwhile_is_refused(ref: Any) -> None:
    """The password is checked, then changed by somebody else, then the token is issued:
    the account's row (locked) no longer has the hash that was checked."""
    request = RequestFactory().post(TOKEN_URL)
    checked = authenticate(request, username=ref.username, password=PASSWORD)
    assert checked is not None
    _by_model(get_user_model().objects.get(pk=ref.pk))
    with pytest.raises(ApplicationError) as refused:
        api_token_issue(user=checked)
    assert refused.value.code == "invalid_credentials"
    assert not Token.objects.filter(user=ref).exists()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_sign_ins_at_once_share_one_token() -> None:
    user = referee_user("at-once-ref")
    user.set_password(PASSWORD)
    user.save()
    Token.objects.create(user=user)
    Token.objects.filter(user=user).update(created=timezone.now() - timedelta(days=5))
    outcomes = at_once(lambda: api_token_issue(user=user).key, 6)
    assert all(isinstance(key, str) for key in outcomes), outcomes
    assert len(set(outcomes)) == 1
    assert Token.objects.filter(user=user).count() == 1


# --- Leaving the referee group, deactivation ------------------------------------------------


def _group() -> Group:
    return Group.objects.get(name=REFEREE_GROUP)


LEAVES = {
    "user.groups.remove": lambda user: user.groups.remove(_group()),
    "user.groups.clear": lambda user: user.groups.clear(),
    "user.groups.set": lambda user: user.groups.set([]),
    "group.user_set.remove": lambda user: _group().user_set.remove(user),
    "group.user_set.clear": lambda user: _group().user_set.clear(),
    "group.delete": lambda user: _group().delete(),
}


@pytest.mark.parametrize("leave", list(LEAVES))
def test_a_token_is_refused_after_its_referee_leaves_the_group(
    ref: Any, table: Table, leave: str
) -> None:
    key = _token(ref)
    LEAVES[leave](ref)
    _assert_refused(key, table)
    # Back in the group, the old token stays dead.
    Group.objects.get_or_create(name=REFEREE_GROUP)[0].user_set.add(ref)
    _assert_refused(key, table)


def test_joining_or_leaving_another_group_keeps_the_token(ref: Any) -> None:
    key = _token(ref)
    other = Group.objects.create(name="scorers")
    ref.groups.add(other)
    ref.groups.remove(other)
    other.user_set.clear()
    assert _me(key).status_code == 200


def test_a_token_is_refused_after_its_account_is_deactivated(ref: Any, table: Table) -> None:
    key = _token(ref)
    ref.is_active = False
    ref.save(update_fields=["is_active"])
    assert not Token.objects.filter(user=ref).exists()
    ref.is_active = True
    ref.save()
    _assert_refused(key, table)


# --- A director revokes -------------------------------------------------------------------


def _revoke_url(table: Table) -> str:
    round_ = table.round
    return reverse(
        "director:round-action", args=(round_.tournament.slug, round_.number, "referee_tokens")
    )


def test_a_director_revokes_a_referees_tokens_on_the_round_page(ref: Any, table: Table) -> None:
    key = _token(ref)
    director = factories.UserFactory(username="director-revokes", is_staff=True)
    client = Client()
    client.force_login(director)
    page = client.get(
        reverse("director:round", args=(table.round.tournament.slug, table.round.number))
    )
    assert b'id="referee-tokens"' in page.content

    # without the confirmation box: refused, the token lives
    response = client.post(_revoke_url(table), {"username": ref.username}, follow=True)
    assert "confirmation_required" in [m.tags.split()[0] for m in response.context["messages"]]
    assert _me(key).status_code == 200

    response = client.post(_revoke_url(table), {"username": ref.username, "confirm": "on"})
    assert response.status_code == 302
    _assert_refused(key, table)
    fresh = _token(ref)  # the referee signs in again
    assert _me(fresh).status_code == 200


def test_a_director_cannot_revoke_a_privileged_accounts_tokens(table: Table) -> None:
    director = factories.UserFactory(username="director-revokes", is_staff=True)
    other = factories.UserFactory(username="other-director", is_staff=True)
    other.groups.add(_group())
    key = Token.objects.create(user=other).key
    client = Client()
    client.force_login(director)
    response = client.post(
        _revoke_url(table), {"username": other.username, "confirm": "on"}, follow=True
    )
    tags = [m.tags.split()[0] for m in response.context["messages"]]
    assert tags == ["privileged_account"]
    assert Token.objects.filter(key=key).exists()


def test_only_a_director_revokes(ref: Any, table: Table) -> None:
    key = _token(ref)
    other = referee_user("other-ref")
    with pytest.raises(ApplicationError) as refused:
        referee_tokens_revoke(username=ref.username, recorded_by=other)
    assert refused.value.code == "director_required"
    with pytest.raises(ApplicationError) as missing:
        referee_tokens_revoke(
            username="nobody", recorded_by=factories.UserFactory(username="d", is_staff=True)
        )
    assert missing.value.code == "not_found"
    # over HTTP a referee never reaches the director's screen
    client = Client()
    client.force_login(other)
    response = client.post(_revoke_url(table), {"username": ref.username, "confirm": "on"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert _me(key).status_code == 200
