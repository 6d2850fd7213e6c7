"""The OpenAPI schema describes every endpoint, header, body and error, without warnings."""

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from django.core.management import call_command
from django.urls import get_resolver
from hypothesis import given
from hypothesis import strategies as st

from referee.api import serializers

pytestmark = pytest.mark.django_db

#: POSTs that write nothing: the sign-in, and the preview of a result (a read with a body).
NOT_WRITES = ("/api/v1/auth/token/", "/api/v1/hands/{hand_id}/result/preview/")


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
        "/api/v1/" + str(p.pattern).replace("<id:", "{").replace("<slug:", "{").replace(">", "}")
        for p in v1.url_patterns  # type: ignore[attr-defined]
    }
    assert routes <= set(schema["paths"])


def test_every_write_declares_its_headers_and_errors(schema: dict[str, Any]) -> None:
    writes = [
        (path, op["post"])
        for path, op in schema["paths"].items()
        if "post" in op and path not in NOT_WRITES
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


def test_the_table_read_and_the_result_preview_are_described(schema: dict[str, Any]) -> None:
    table = schema["paths"]["/api/v1/tables/{table_id}/"]["get"]
    assert table["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TableOutput"
    }
    assert {"401", "403", "404"} <= set(table["responses"])
    state = schema["components"]["schemas"]["TableHandOutput"]["properties"]["state"]
    assert state["allOf"] == [{"$ref": "#/components/schemas/StateEnum"}]
    assert schema["components"]["schemas"]["StateEnum"]["enum"] == [
        "playing", "awaiting", "confirmed", "finished", "disputed", "irregular", "voided",
    ]  # fmt: skip
    preview = schema["paths"]["/api/v1/hands/{hand_id}/result/preview/"]["post"]
    assert preview["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ResultInput"
    }
    assert preview["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ResultPreviewOutput"
    }
    assert {"400", "401", "403", "404", "409", "422"} <= set(preview["responses"])
    # it writes nothing: no Idempotency-Key
    assert "Idempotency-Key" not in {p["name"] for p in preview.get("parameters", [])}


def test_browsable_docs_are_served(client: Any) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


# Characters where Python's and JSON Schema's ideas of whitespace differ, and NUL.
_EDGE_CHARACTERS = "\x00\x1c\x1f\x85\xa0\u2000\u200b\u3000\ufeff \t\na文"


@given(
    st.text(
        alphabet=st.sampled_from(_EDGE_CHARACTERS) | st.characters(exclude_categories=["Cs"]),
        max_size=8,
    )
)
def test_the_schema_and_the_api_agree_on_every_reason(text: str) -> None:
    """ST202 of schemathesis: a reason the schema allows is one the API accepts, and back.
    (Lone surrogates are left out: no JSON document of valid Unicode holds one, and DRF
    refuses them.)"""
    pattern = serializers.reason_field().validators[-1].regex.pattern  # type: ignore[attr-defined]
    schema_accepts = jsonschema_rs.validator_for({"type": "string", "pattern": pattern}).is_valid(
        text
    )
    api_accepts = serializers.ReasonInput(data={"reason": text}).is_valid()
    assert schema_accepts == api_accepts, repr(text)
