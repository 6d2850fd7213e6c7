"""SQL over JSON arrays, for the checks on per-seat columns (a hand's scores and doubles, a
board's hands): the same expressions on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, F, Func, IntegerField


class JsonArrayLength(Func):
    """The number of elements of a JSON array column (an error on anything but an array)."""

    function = "json_array_length"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="jsonb_array_length", **extra)


class JsonIntElement(Func):
    """Element ``index`` of the JSON array column ``field`` when it is a JSON integer, else NULL
    (missing, a fraction such as 12.5, a string such as "-6", a boolean, an array, an object):
    so a check that the element is not NULL is a check that it is an integer. SQLite and
    PostgreSQL only, as the service."""

    output_field = IntegerField()

    def __init__(self, field: str, index: int) -> None:
        super().__init__(F(field))
        self.index = index

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        path = f"'$[{int(self.index)}]'"
        return (
            f"(CASE WHEN json_type({sql}, {path}) = 'integer'"
            f" THEN json_extract({sql}, {path}) END)",
            (*params, *params),
        )

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        i = int(self.index)
        # jsonb has one number type: the text of an integer is digits alone (12.0 is not).
        return (
            f"(CASE WHEN jsonb_typeof(({sql}) -> {i}) = 'number'"
            f" AND (({sql}) ->> {i}) ~ '^-?[0-9]+$'"
            f" THEN (({sql}) ->> {i})::integer END)",
            (*params, *params, *params),
        )


def json_int_element(field: str, index: int) -> JsonIntElement:
    """Element ``index`` of the JSON array ``field`` as an integer (NULL when missing or not a
    JSON integer)."""
    return JsonIntElement(field, index)


class JsonBoolElement(Func):
    """Whether element ``index`` of the JSON array column ``field`` is a JSON boolean (true or
    false; false when missing or of another type: 0, "true", null)."""

    output_field = BooleanField()

    def __init__(self, field: str, index: int) -> None:
        super().__init__(F(field))
        self.index = index

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        path = f"'$[{int(self.index)}]'"
        return f"(COALESCE(json_type({sql}, {path}) IN ('true', 'false'), 0))", params

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        return f"(COALESCE(jsonb_typeof(({sql}) -> {int(self.index)}) = 'boolean', false))", params


def json_bool_element(field: str, index: int) -> JsonBoolElement:
    """Whether element ``index`` of the JSON array ``field`` is a JSON boolean."""
    return JsonBoolElement(field, index)
