"""SQL over JSON arrays, for the checks on per-seat columns (a hand's scores and doubles, a
board's hands): the same expressions on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from django.db.models import Func, IntegerField
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast


class JsonArrayLength(Func):
    """The number of elements of a JSON array column (an error on anything but an array)."""

    function = "json_array_length"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="jsonb_array_length", **extra)


def json_int_element(field: str, index: int) -> Cast:
    """Element ``index`` of the JSON array ``field`` as an integer (NULL when missing)."""
    return Cast(KeyTextTransform(str(index), field), IntegerField())
