from typing import Any

import pytest
from django.core.exceptions import ValidationError
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from referee.api.exception_handlers import api_exception_handler
from tests import factories
from tournaments.errors import ApplicationError
from tournaments.models import Table
from tournaments.services.rounds import referee_assign

pytestmark = pytest.mark.django_db

ME = "/api/referee/me/"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_anonymous_is_refused_with_code_and_message(api: APIClient) -> None:
    response = api.get(ME)
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"code", "message"}


def test_referee_with_token_sees_assignments(
    api: APIClient, referee: Any, seated_table: Table
) -> None:
    referee_assign(round=seated_table.round, user=referee, table=seated_table)
    token = Token.objects.create(user=referee)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")

    response = api.get(ME)

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == referee.username
    assert (body["is_referee"], body["is_director"]) == (True, False)
    assert body["assignments"] == [
        {
            "tournament": seated_table.round.tournament.slug,
            "round": seated_table.round.number,
            "table": seated_table.number,
        }
    ]


def test_director_with_session_is_allowed(api: APIClient, director: Any) -> None:
    api.force_login(director)
    response = api.get(ME)
    assert response.status_code == 200
    assert response.json()["is_director"] is True


def test_player_account_is_forbidden(api: APIClient) -> None:
    api.force_authenticate(factories.UserFactory())
    response = api.get(ME)
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


@pytest.mark.parametrize(
    "code, status",
    [("invalid_result", 400), ("version_conflict", 409), ("not_found", 404)],
)
def test_application_errors_map_to_4xx(code: str, status: int) -> None:
    response = api_exception_handler(ApplicationError(code, "Nope."), {})
    assert response is not None
    assert response.status_code == status
    assert response.data == {"code": code, "message": "Nope."}


def test_validation_errors_keep_the_same_shape() -> None:
    response = api_exception_handler(ValidationError({"bid": ["Too high."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data["code"] == "invalid"
    assert response.data["fields"] == {"bid": ["Too high."]}
    response = api_exception_handler(exceptions.NotFound(), {})
    assert response is not None and response.status_code == 404
    assert response.data["code"] == "not_found"
