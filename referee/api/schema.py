"""OpenAPI post-processing: the schema says exactly what the API refuses with 400.

Input bodies accept no unknown field (``additionalProperties: false``) and an action is
one of four shapes (a seat and exactly one of bid, double, redouble, play).
"""

from typing import Any

_SEAT = {"type": "integer", "minimum": 0, "maximum": 2}
_ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "bid": {"type": "integer", "minimum": -1000, "maximum": 1000, "description": "0 passes"},
    "double": {"type": "boolean"},
    "redouble": {"type": "boolean"},
    "play": {
        "type": "string",
        "minLength": 1,
        "maxLength": 200,
        "pattern": r"^[^\x00]*$",
        "description": 'Cards in SPEC notation ("33", "♠3 ♥3") or "pass".',
    },
}


def _action_schema() -> dict[str, Any]:
    shapes = [
        {
            "type": "object",
            "title": name,
            "properties": {"seat": _SEAT, name: field},
            "required": ["seat", name],
            "additionalProperties": False,
        }
        for name, field in _ACTION_FIELDS.items()
    ]
    return {
        "description": "A seat and exactly one of bid, double, redouble or play.",
        "oneOf": shapes,
    }


def strict_inputs(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS)."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        if name.endswith("Input") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    if "ActionInput" in schemas:
        schemas["ActionInput"] = _action_schema()
    return result
