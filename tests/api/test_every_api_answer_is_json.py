"""Every answer under ``/api/`` is JSON with ``{"code", "message", "details"}`` (issue 29:
schemathesis found an HTML 404 for ``/api/v1/tournaments/Y%0A/penalties/``): an address no
endpoint matches, whatever its characters (a newline, a carriage return, a NUL, Chinese,
broken UTF-8, trailing junk) and whatever the method; an unknown method on an endpoint;
Django's own 400 and 403 under /api/. With DEBUG on too, whose pages are HTML."""

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import HttpRequest
from django.test import Client
from django.test.client import RequestFactory
from django.urls import reverse

from referee.api.exception_handlers import bad_request, permission_denied

pytestmark = pytest.mark.django_db

ODD_PATHS = [
    pytest.param("/api/v1/tournaments/Y%0A/penalties/", id="newline-in-a-slug"),
    pytest.param("/api/v1/tournaments/Y%0D%0A/penalties/", id="crlf-in-a-slug"),
    pytest.param("/api/v1/tournaments/Y/penalties/%0A", id="trailing-newline"),
    pytest.param("/api/v1/me/%0A", id="newline-after-an-endpoint"),
    pytest.param("/api/%0A", id="newline-only"),
    pytest.param("/api/v1/hands/1%0A/", id="newline-after-an-id"),
    pytest.param("/api/v1/x%00y/", id="nul"),
    pytest.param("/api/v1/%E4%B8%AD%E6%96%87/", id="chinese"),
    pytest.param("/api/v1/%FF%FE/", id="broken-utf8"),
    pytest.param("/api/v1/me/junk", id="trailing-junk"),
    pytest.param("/api/v1/hands/1/actions/extra/", id="past-an-endpoint"),
    pytest.param("/api/v1/hands/99999999999999999999/", id="id-beyond-bigint"),
    pytest.param("/api/v1/hands/-1/", id="negative-id"),
    pytest.param("/api/v2/me/", id="unknown-version"),
    pytest.param("/api/", id="api-root"),
]
METHODS = ["GET", "POST", "DELETE", "OPTIONS", "BREW"]


def _is_json_refusal(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:200]
    assert response["Content-Type"] == "application/json", response.content[:200]
    body = response.json()
    assert set(body) == {"code", "message", "details"} and body["message"]
    return body


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("path", ODD_PATHS)
def test_an_unknown_api_address_is_a_json_404(
    client: Client, settings: Any, path: str, method: str, debug: bool
) -> None:
    settings.DEBUG = debug
    response = client.generic(method, path, "{}", content_type="application/json")
    assert _is_json_refusal(response, 404) == {
        "code": "not_found",
        "message": "No such API endpoint.",
        "details": {},
    }


@pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])
@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE", "BREW"])
def test_an_unknown_method_on_an_endpoint_is_a_json_405(
    client: Client, settings: Any, method: str, debug: bool
) -> None:
    settings.DEBUG = debug
    response = client.generic(method, "/api/v1/hands/1/actions/")
    assert _is_json_refusal(response, 405)["code"] == "method_not_allowed"


def test_the_404_is_in_the_requests_language(client: Client) -> None:
    response = client.get("/api/v1/tournaments/Y%0A/penalties/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert _is_json_refusal(response, 404)["message"] != "No such API endpoint."


def test_a_host_not_allowed_under_api_is_a_json_400(client: Client, settings: Any) -> None:
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["testserver"]
    response = client.get("/api/v1/me/", HTTP_HOST="evil.example")
    assert _is_json_refusal(response, 400)["code"] == "bad_request"
    page = client.get("/", HTTP_HOST="evil.example")  # elsewhere Django's own page
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def _request(path: str) -> HttpRequest:
    return RequestFactory().get(path)


def test_the_400_and_403_handlers_answer_json_under_api_only() -> None:
    refused = bad_request(_request("/api/v1/me/"), SuspiciousOperation("x"))
    assert (refused.status_code, refused["Content-Type"]) == (400, "application/json")
    denied = permission_denied(_request("/api/v1/me/"), PermissionDenied())
    assert (denied.status_code, denied["Content-Type"]) == (403, "application/json")
    assert b'"code": "permission_denied"' in denied.content
    page = permission_denied(_request("/director/"), PermissionDenied())
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


def test_every_address_still_reverses() -> None:
    """The catch-all's pattern is reversible: Django builds every reverse() from the whole
    URLconf, so a pattern it cannot reverse (an inline ``(?s)``) breaks every page."""
    assert reverse("api-unknown", kwargs={"rest": "v1/nope/"}) == "/api/v1/nope/"
    assert reverse("api-v1:me") == "/api/v1/me/"
    assert reverse("healthz") == "/healthz"
