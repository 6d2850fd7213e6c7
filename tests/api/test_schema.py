"""The OpenAPI schema describes every endpoint, header, body and error, without warnings."""

import functools
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from django.core.management import call_command
from django.urls import get_resolver
from hypothesis import given, settings
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


# --- the correction body: what the served schema allows is what the server accepts -------------
#
# schemathesis reported ``{"details": {}, …}`` in a correction as schema-valid yet refused
# ("Unknown field."). The served schema never allowed it (additionalProperties: false): a
# schema-valid correction without its result was answered 422 with DRF-style field errors
# under ``details.fields``, which schemathesis's error feedback reads as required *body*
# fields and adds to its copy of the schema (``details`` → ``fields`` → ``landlord``). The
# schema now says that a correction names its result unless it is passed out (``anyOf``),
# and the server refuses a correction without one as a form error (400), as it says.

_CORRECTION = "/api/v1/hands/{hand_id}/correction/"


@pytest.fixture
def served(client: Any) -> dict[str, Any]:
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    loaded: dict[str, Any] = response.json()
    return loaded


def correction_validator(served: dict[str, Any]) -> Any:
    body = served["paths"][_CORRECTION]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == {"$ref": "#/components/schemas/CorrectionInput"}
    return jsonschema_rs.validator_for({**body["schema"], "components": served["components"]})


def test_the_served_correction_schema_refuses_what_the_server_refuses(served: Any) -> None:
    schema = served["components"]["schemas"]["CorrectionInput"]
    assert schema["additionalProperties"] is False and schema["required"] == ["reason"]
    assert schema["anyOf"] == [
        {"title": "result", "required": ["landlord", "winner"]},
        {
            "title": "passed out",
            "properties": {"passed_out": {"enum": [True]}},
            "required": ["passed_out"],
        },
    ]
    validator = correction_validator(served)
    result = {"landlord": 0, "bid": 1, "winner": "landlord", "reason": "0"}
    assert validator.is_valid(result)
    assert validator.is_valid({"passed_out": True, "reason": "nobody bid"})
    assert not validator.is_valid({**result, "details": {}})
    assert not validator.is_valid({"reason": "no result"})
    assert not validator.is_valid({"landlord": 0, "bid": 1, "passed_out": False, "reason": "x"})


@functools.cache
def served_correction_validator() -> Any:
    from django.test import Client

    return correction_validator(Client().get("/api/schema/", {"format": "json"}).json())


_CORRECTION_VALUES: dict[str, Any] = {
    "landlord": st.sampled_from([0, 2, 3, -1, None, "0"]),
    "bid": st.sampled_from([1, 3, 0, 4, True]),
    "winner": st.sampled_from(["landlord", "defenders", "farmers", ""]),
    "doubled": st.sampled_from([[False, True, False], [False, False], []]),
    "redoubled": st.booleans(),
    "bombs": st.sampled_from([0, 13, 14]),
    "rockets": st.sampled_from([0, 1, 2]),
    "spring": st.booleans(),
    "anti_spring": st.booleans(),
    "passed_out": st.booleans(),
    "override": st.booleans(),
    "reason": st.sampled_from(["bid was 3", " ", "", "x" * 2001]),
    "details": st.sampled_from([{}, {"fields": {}}]),
    "extra": st.just(1),
}


@settings(deadline=None)  # the first example generates the schema
@given(
    st.dictionaries(
        st.sampled_from(sorted(_CORRECTION_VALUES)), st.none(), max_size=len(_CORRECTION_VALUES)
    ).flatmap(lambda keys: st.fixed_dictionaries({k: _CORRECTION_VALUES[k] for k in keys}))
)
def test_a_correction_the_schema_allows_is_one_the_server_accepts_and_back(body: Any) -> None:
    """ST202 (and its negative twin) for the correction body, without a server: the served
    schema's verdict and the serializer's agree on every body (the rules' own refusals of a
    result come after, as 422)."""
    schema_accepts = served_correction_validator().is_valid(body)
    assert schema_accepts == serializers.CorrectionInput(data=body).is_valid(), body


def test_an_unknown_field_and_a_missing_result_are_refused_400_with_their_fields(
    director: Any,
) -> None:
    """The two bodies of the finding over HTTP: schema-invalid, so 400 ``validation``."""
    from tests.api.helpers import client_for, playing_table, post, start_hand

    staff = client_for(director)
    hand = start_hand(staff, playing_table(), deal="none").json()
    url = _CORRECTION.format(hand_id=hand["id"])
    post(
        staff, url.replace("correction", "result"), {"landlord": 0, "bid": 2, "winner": "landlord"}
    )
    schemathesis_body = {
        "anti_spring": False,
        "bid": 1,
        "bombs": 0,
        "details": {},
        "doubled": [False, False, False],
        "landlord": 0,
        "override": False,
        "passed_out": False,
        "reason": "0",
        "redoubled": False,
        "rockets": 0,
        "spring": False,
        "winner": "landlord",
    }

    unknown = post(staff, url, schemathesis_body)
    missing = post(staff, url, {"reason": "bid was 3", "bid": 3})
    passed_out = post(staff, url, {"reason": "nobody bid", "passed_out": True})

    assert unknown.status_code == 400
    assert unknown.json()["code"] == "validation"
    assert unknown.json()["details"] == {"fields": {"details": ["Unknown field."]}}
    assert missing.status_code == 400
    assert missing.json()["code"] == "validation"
    assert missing.json()["details"] == {
        "fields": {
            "landlord": ["This field is required."],
            "winner": ["This field is required."],
        }
    }
    assert passed_out.status_code == 200
    assert passed_out.json()["status"] == "passed_out"
    assert passed_out.json()["version"] == 2


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("result", {"landlord": "0", "bid": 2, "winner": "landlord"}, "landlord", "a number"),
        ("result", {"landlord": 0, "bid": 2, "winner": "landlord", "spring": 1}, "spring", "true"),
        (
            "result",
            {"landlord": 0, "bid": 2, "winner": "landlord", "doubled": ["true", False, False]},
            "doubled",
            "true",
        ),
        ("actions", {"seat": 0, "double": "yes"}, "double", "true"),
        ("actions", {"seat": 0, "bid": "1"}, "bid", "a number"),
    ],
)
def test_a_value_of_another_json_type_than_the_schema_says_is_refused_400(
    director: Any, path: str, body: dict[str, Any], field: str, message: str
) -> None:
    """DRF alone would read "0" as seat 0, "1" as a bid of 1 and "yes", 1 or "true" as true;
    the schema says integer and boolean, so the server refuses them as the schema does, and
    nothing is recorded."""
    from tests.api.helpers import client_for, playing_table, post, start_hand

    staff = client_for(director)
    deal = "none" if path == "result" else "random"
    hand = start_hand(staff, playing_table(), deal=deal).json()

    refused = post(staff, f"/api/v1/hands/{hand['id']}/{path}/", body)

    assert refused.status_code == 400, refused.json()
    assert refused.json()["code"] == "validation"
    assert list(refused.json()["details"]["fields"]) == [field]
    assert message in refused.json()["details"]["fields"][field][0]
    after = staff.get(f"/api/v1/hands/{hand['id']}/").json()
    assert after["version"] == hand["version"] and after["status"] == hand["status"]


def test_no_input_refuses_a_blank_string_that_its_schema_allows(served: Any) -> None:
    """ST202 of the deal body's ``face_up`` (schemathesis, CI): a text field that DRF refuses
    blank must say ``minLength`` in the served schema, for every input body and list item."""
    from rest_framework import serializers as drf

    checked: set[tuple[str, str]] = set()
    for name, schema in served["components"]["schemas"].items():
        body = getattr(serializers, name, None)
        if not name.endswith("Input") or body is None:
            continue
        fields = body().fields
        for prop, spec in schema.get("properties", {}).items():
            field = fields.get(prop)
            pairs = [(spec, field)]
            if isinstance(field, drf.ListField):
                pairs.append((spec.get("items", {}), field.child))
            for part, declared in pairs:
                if part.get("type") == "string" and isinstance(declared, drf.CharField):
                    checked.add((name, prop))
                    pattern = part.get("pattern")
                    refused = part.get("minLength", 0) >= 1 or (
                        pattern is not None and re.search(pattern, "") is None
                    )
                    assert declared.allow_blank or refused, (name, prop)
                    if declared.trim_whitespace and not declared.allow_blank:
                        # DRF trims "\r" to blank: the pattern must refuse it too
                        for space in (" ", "\r", "\u3000"):
                            assert pattern is not None and re.search(pattern, space) is None, (
                                name,
                                prop,
                                space,
                            )
    assert {
        ("DealInput", "face_up"),
        ("DealInput", "hands"),
        ("CorrectionInput", "reason"),
    } <= checked
