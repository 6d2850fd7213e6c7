"""Sign-in throttling (django-axes): the admin and director sign-in and the API token endpoint.

Reproduction from the issue: 50 wrong admin passwords in 15 s, then the right one worked.
"""

from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from tests import factories

pytestmark = pytest.mark.django_db

PASSWORD = "a long director passphrase 7"
ADMIN_LOGIN = "/admin/login/?next=/admin/"
TOKEN_URL = "/api/v1/auth/token/"


@pytest.fixture
def staff_user(db: Any) -> Any:
    user = factories.UserFactory(username="chief", is_staff=True)
    user.set_password(PASSWORD)
    user.save()
    return user


def admin_sign_in(client: Any, password: str, *, username: str = "chief", addr: str = "10.0.0.1"):
    return client.post(
        ADMIN_LOGIN,
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=addr,
    )


def signed_in(client: Any) -> bool:
    return "_auth_user_id" in client.session


def test_fifty_wrong_admin_passwords_then_the_right_one_is_refused(
    client: Any, staff_user: Any
) -> None:
    for _ in range(50):
        response = admin_sign_in(client, "wrong")
        assert response.status_code in (200, 429)
        assert not signed_in(client)
    response = admin_sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-in attempts" in response.content.decode()
    assert not signed_in(client)


def test_the_lock_starts_at_the_failure_limit(client: Any, staff_user: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert admin_sign_in(client, "wrong").status_code == 200
    assert admin_sign_in(client, PASSWORD).status_code == 302
    assert signed_in(client)


def test_a_success_restarts_the_count(client: Any, staff_user: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        admin_sign_in(client, "wrong")
    assert admin_sign_in(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        admin_sign_in(client, "wrong")
    assert admin_sign_in(client, PASSWORD).status_code == 302


def test_the_lock_is_per_username_and_address(client: Any, staff_user: Any) -> None:
    """Typos at one table do not lock the venue (one NAT address) or the account elsewhere."""
    other = factories.UserFactory(username="deputy", is_staff=True)
    other.set_password(PASSWORD)
    other.save()
    for _ in range(settings.AXES_FAILURE_LIMIT + 2):
        admin_sign_in(client, "wrong")
    assert admin_sign_in(client, PASSWORD, username="deputy").status_code == 302
    client.logout()
    assert admin_sign_in(client, PASSWORD, addr="10.0.0.2").status_code == 302


def test_a_director_can_unlock_an_account(client: Any, staff_user: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        admin_sign_in(client, "wrong")
    assert admin_sign_in(client, PASSWORD).status_code == 429
    call_command("axes_reset_username", "chief", stdout=None)
    assert admin_sign_in(client, PASSWORD).status_code == 302


def test_director_screens_sign_in_through_the_throttled_form(client: Any) -> None:
    response = client.get("/director/")
    assert response.status_code == 302
    assert response["Location"] == "/director/login/?next=/director/"


def director_sign_in(
    client: Any, password: str, *, username: str = "chief", addr: str = "10.0.0.1"
):
    return client.post(
        "/director/login/?next=/director/",
        {"username": username, "password": password, "next": "/director/"},
        REMOTE_ADDR=addr,
    )


def test_director_sign_in_page_signs_a_director_in(client: Any, staff_user: Any) -> None:
    page = client.get("/director/login/?next=/director/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Director sign-in" in text and "Django administration" not in text
    response = director_sign_in(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/director/"
    assert signed_in(client)
    # signed in, the page sends the director on
    assert client.get("/director/login/").status_code == 302


def test_director_sign_in_page_in_chinese(client: Any) -> None:
    page = client.get("/director/login/", headers={"accept-language": "zh-hans"})
    assert "裁判长登录" in page.content.decode()


def test_director_sign_in_refuses_a_referee_account(client: Any, referee: Any) -> None:
    referee.set_password(PASSWORD)
    referee.save()
    response = director_sign_in(client, PASSWORD, username=referee.username)
    assert response.status_code == 200 and not signed_in(client)
    assert "staff account" in response.content.decode()
    # a signed-in referee sees the form (no redirect loop through /director/)
    client.force_login(referee)
    assert client.get("/director/login/?next=/director/").status_code == 200


def test_director_sign_in_is_locked_by_axes_and_shares_the_rate(
    client: Any, staff_user: Any, settings: Any
) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert director_sign_in(client, "wrong").status_code == 200
    assert director_sign_in(client, "wrong").status_code == 429
    assert director_sign_in(client, PASSWORD).status_code == 429
    assert not signed_in(client)
    call_command("axes_reset_username", "chief", stdout=None)
    settings.SIGN_IN_RATE = "1/min"
    settings.SIGN_IN_BURST = 1
    assert admin_sign_in(client, "wrong", addr="10.0.0.9").status_code == 200
    # the same address, another form: the one allowance is spent
    refused = director_sign_in(client, PASSWORD, addr="10.0.0.9")
    assert refused.status_code == 429 and refused.has_header("Retry-After")
    assert not signed_in(client)


def test_api_token_endpoint_is_throttled(client: Any, staff_user: Any) -> None:
    wrong = {"username": "chief", "password": "wrong"}
    right = {"username": "chief", "password": PASSWORD}
    first = client.post(TOKEN_URL, right, REMOTE_ADDR="10.0.0.9")
    assert first.status_code == 200
    assert first.json()["token"] == Token.objects.get(user=staff_user).key

    for _ in range(50):
        response = client.post(TOKEN_URL, wrong, REMOTE_ADDR="10.0.0.9")
        assert response.status_code in (401, 429)
        assert "token" not in response.json()
    response = client.post(TOKEN_URL, right, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 429
    assert response.json()["code"] == "locked_out"
    assert "token" not in response.json()


def test_api_token_wrong_password_is_a_401_with_a_code(client: Any, staff_user: Any) -> None:
    response = client.post(TOKEN_URL, {"username": "chief", "password": "wrong"})
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"
    assert response.json()["details"] == {}


def test_api_token_unknown_user_is_the_same_401(client: Any, staff_user: Any) -> None:
    response = client.post(TOKEN_URL, {"username": "nobody", "password": "wrong"})
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"


def test_api_token_missing_password_is_a_400(client: Any, staff_user: Any) -> None:
    response = client.post(TOKEN_URL, {"username": "chief"})
    assert response.status_code == 400
    assert response.json()["code"] == "validation"
    assert "password" in response.json()["details"]["fields"]


def test_api_lockout_answers_the_error_shape(client: Any, staff_user: Any) -> None:
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(TOKEN_URL, {"username": "chief", "password": "wrong"})
    body = client.post(TOKEN_URL, {"username": "chief", "password": PASSWORD}).json()
    assert body["code"] == "locked_out"
    assert body["details"] == {"minutes": settings.AXES_COOLOFF_TIME.total_seconds() // 60}


@pytest.mark.parametrize(
    "fields",
    [
        {"username": "x" * 300, "password": "wrong"},
        {"username": "chief", "password": "wrong\x00"},
        {"username": "   ", "password": "wrong"},
    ],
    ids=["username-longer-than-a-user-can-have", "nul-in-password", "blank-username"],
)
def test_api_token_impossible_credentials_are_a_400_that_records_nothing(
    client: Any, staff_user: Any, fields: dict[str, str]
) -> None:
    """A 300-character name reached django-axes, whose varchar(255) answered 500 on
    PostgreSQL (schemathesis); such input is refused before any sign-in is tried."""
    from axes.models import AccessAttempt

    response = client.post(TOKEN_URL, fields)
    assert response.status_code == 400
    assert response.json()["code"] == "validation"
    assert not AccessAttempt.objects.exists()
