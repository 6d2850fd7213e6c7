from typing import Any

import pytest
import yaml
from django.core.exceptions import ValidationError
from rest_framework import exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient, APIRequestFactory

from referee.api.exception_handlers import api_exception_handler, server_error
from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.models import Table
from tournaments.rounds.services import referee_assign

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_anonymous_is_refused_with_code_and_message(api: APIClient) -> None:
    response = api.get(ME)
    assert response.status_code in (401, 403)
    assert set(response.json()) == {"code", "message", "details"}


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
    [("invalid_result", 422), ("validation", 400), ("version_conflict", 409), ("not_found", 404)],
)
def test_application_errors_map_to_4xx(code: str, status: int) -> None:
    response = api_exception_handler(ApplicationError(code, "Nope."), {})
    assert response is not None
    assert response.status_code == status
    assert response.data == {"code": code, "message": "Nope.", "details": {}}


def test_validation_errors_keep_the_same_shape() -> None:
    response = api_exception_handler(ValidationError({"bid": ["Too high."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data["code"] == "validation"
    assert response.data["details"] == {"fields": {"bid": ["Too high."]}}
    response = api_exception_handler(exceptions.NotFound(), {})
    assert response is not None and response.status_code == 404
    assert response.data["code"] == "not_found"


BAD_REQUESTS = [
    pytest.param("get", ME, {"HTTP_AUTHORIZATION": "Token nope"}, id="unknown-token"),
    pytest.param("get", ME, {"HTTP_AUTHORIZATION": "Token a b"}, id="token-with-space"),
    pytest.param("get", ME, {"HTTP_AUTHORIZATION": "Token \u00e9"}, id="token-non-ascii"),
    pytest.param("get", ME + "?format=xml", {}, id="unknown-format"),
    pytest.param("get", ME, {"HTTP_ACCEPT": "text/csv"}, id="unacceptable"),
    pytest.param("post", ME, {}, id="wrong-method"),
    pytest.param("delete", ME, {}, id="delete"),
    pytest.param("get", ME + "extra/", {}, id="unknown-path"),
    pytest.param("get", "/api/nothing-here", {}, id="unknown-api"),
    pytest.param("get", "/api/schema/?format=nope", {}, id="schema-unknown-format"),
    pytest.param("post", "/api/schema/", {}, id="schema-wrong-method"),
]


@pytest.mark.parametrize("method, url, headers", BAD_REQUESTS)
def test_bad_requests_get_a_4xx_with_a_code(
    api: APIClient, referee: Any, method: str, url: str, headers: dict[str, str]
) -> None:
    token = Token.objects.create(user=referee)
    authorised = {"HTTP_AUTHORIZATION": f"Token {token.key}", "HTTP_ACCEPT": "application/json"}
    response = getattr(api, method)(url, **{**authorised, **headers})
    assert 400 <= response.status_code < 500
    body = yaml.safe_load(response.content)  # JSON, or YAML from the schema view
    assert isinstance(body["code"], str) and body["message"]


def test_unknown_api_path_is_json_404(api: APIClient) -> None:
    response = api.get("/api/v1/nope/")
    assert response.status_code == 404
    assert response.json() == {
        "code": "not_found",
        "message": "No such API endpoint.",
        "details": {},
    }


def test_api_server_error_is_json() -> None:
    response = server_error(APIRequestFactory().get(ME))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
