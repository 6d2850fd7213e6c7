"""The OpenAPI schema describes every endpoint, header, body and error, without warnings."""

from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from django.urls import get_resolver

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "schema.yml"
    # --fail-on-warn: any drf-spectacular warning or error fails the test
    call_command("spectacular", "--fail-on-warn", "--validate", "--file", str(out))
    loaded: dict[str, Any] = yaml.safe_load(out.read_text())
    return loaded


def test_every_v1_endpoint_is_described(schema: dict[str, Any]) -> None:
    resolver = get_resolver()
    v1 = next(p for p in resolver.url_patterns if str(p.pattern) == "api/v1/")
    routes = {
        "/api/v1/" + str(p.pattern).replace("<int:", "{").replace("<slug:", "{").replace(">", "}")
        for p in v1.url_patterns  # type: ignore[attr-defined]
    }
    assert routes <= set(schema["paths"])


def test_every_write_declares_its_headers_and_errors(schema: dict[str, Any]) -> None:
    # The token sign-in is no write a retry could repeat: it answers the same token again.
    writes = [
        (path, op["post"])
        for path, op in schema["paths"].items()
        if "post" in op and path != "/api/v1/auth/token/"
    ]
    assert len(writes) >= 12
    for path, operation in writes:
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert headers["Idempotency-Key"]["required"] is True, path
        assert {"400", "401", "403", "404", "409"} <= set(operation["responses"]), path
        error = operation["responses"]["409"]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/Error"}, path
    action = schema["paths"]["/api/v1/hands/{hand_id}/actions/"]["post"]
    assert "If-Match" in {p["name"] for p in action["parameters"]}
    assert "422" in action["responses"]


def test_browsable_docs_are_served(client: Any) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
