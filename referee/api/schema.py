"""OpenAPI post-processing: the schema says exactly what the API refuses with 400.

Input bodies accept no unknown field (``additionalProperties: false``), an action is one
of four shapes (a seat and exactly one of bid, double, redouble, play) and a correction
names the landlord, the bid and the winner unless it corrects the hand to passed out.
"""

from typing import Any

from tournaments.common.seats import MAX_SEATS

_SEAT = {
    "type": "integer",
    "minimum": 0,
    "maximum": MAX_SEATS - 1,
    "description": "A seat of the table: 0 … its seat count - 1.",
}
#: What a ``laizi`` play's wild cards stand for (R11.2.5), beside ``play``.
_AS = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "pattern": r"^[^\x00]*$",
    "description": 'laizi: the cards the play stands for ("777" for "77W"), its wild cards '
    "declared (R11.2.5).",
}
_ACTION_FIELDS: dict[str, dict[str, Any]] = {
    "bid": {"type": "integer", "minimum": -1000, "maximum": 1000, "description": "0 passes"},
    "double": {"type": "boolean"},
    "redouble": {"type": "boolean"},
    "play": {
        "type": "string",
        "minLength": 1,
        "maxLength": 400,
        "pattern": r"^[^\x00]*$",
        "description": 'Cards in SPEC notation ("33", "♠3 ♥3") or "pass".',
    },
    "call": {
        "type": "string",
        "minLength": 1,
        "maxLength": 16,
        "pattern": r"^[^\x00]*$",
        "description": 'six_p: the partner card called ("♠2") or "none" (R13.4).',
    },
    "partner": {
        "enum": [True],
        "description": "six_p, physical cards: the hand ended before the partner played the "
        "partner card; this seat shows its third copy (R13.8).",
    },
}


def _action_schema() -> dict[str, Any]:
    shapes = [
        {
            "type": "object",
            "title": name,
            "properties": {"seat": _SEAT, name: field, **({"as": _AS} if name == "play" else {})},
            "required": ["seat", name],
            "additionalProperties": False,
        }
        for name, field in _ACTION_FIELDS.items()
    ]
    return {
        "description": "A seat and exactly one of bid, double, redouble, play, call or partner.",
        "oneOf": shapes,
    }


#: A correction names these, unless it is passed out (``CorrectionInput.validate``).
#: (The bid too but in six players: the services ask for it, ``bid_required``.)
RESULT_FIELDS = ("landlord", "winner")


def _correction_shapes() -> list[dict[str, Any]]:
    """The result's fields, or ``passed_out: true`` (beside the body's properties)."""
    return [
        {"title": "result", "required": list(RESULT_FIELDS)},
        {
            "title": "passed out",
            "properties": {"passed_out": {"enum": [True]}},
            "required": ["passed_out"],
        },
    ]


def strict_inputs(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS)."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, schema in schemas.items():
        if name.endswith("Input") and schema.get("type") == "object":
            schema["additionalProperties"] = False
    if "ActionInput" in schemas:
        schemas["ActionInput"] = _action_schema()
    if "CorrectionInput" in schemas:
        schemas["CorrectionInput"]["anyOf"] = _correction_shapes()
    return result
