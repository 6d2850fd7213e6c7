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


class _JsonElement(Func):
    """Something about element ``index`` of the JSON array column ``field`` (subclasses say
    what, in SQLite's and PostgreSQL's SQL: ``_sqlite`` and ``_postgresql`` of the column's
    SQL and the element's path or index)."""

    def __init__(self, field: str, index: int) -> None:
        super().__init__(F(field))
        self.index = index

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        text, uses = self._sqlite(sql, f"'$[{int(self.index)}]'")
        return text, tuple(params) * uses

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        sql, params = compiler.compile(self.source_expressions[0])
        text, uses = self._postgresql(sql, int(self.index))
        return text, tuple(params) * uses

    def _sqlite(self, sql: str, path: str) -> tuple[str, int]:
        raise NotImplementedError

    def _postgresql(self, sql: str, index: int) -> tuple[str, int]:
        raise NotImplementedError


class JsonIntElement(_JsonElement):
    """Element ``index`` of the JSON array column ``field`` when it is a JSON integer, else NULL
    (missing, a fraction such as 12.5, a string such as "-6", a boolean, an array, an object):
    so a check that the element is not NULL is a check that it is an integer. SQLite and
    PostgreSQL only, as the service."""

    output_field = IntegerField()

    def _sqlite(self, sql: str, path: str) -> tuple[str, int]:
        return (
            f"(CASE WHEN json_type({sql}, {path}) = 'integer'"
            f" THEN json_extract({sql}, {path}) END)",
            2,
        )

    def _postgresql(self, sql: str, index: int) -> tuple[str, int]:
        # jsonb has one number type: the text of an integer is digits alone (12.0 is not).
        return (
            f"(CASE WHEN jsonb_typeof(({sql}) -> {index}) = 'number'"
            f" AND (({sql}) ->> {index}) ~ '^-?[0-9]+$'"
            f" THEN (({sql}) ->> {index})::integer END)",
            3,
        )


def json_int_element(field: str, index: int) -> JsonIntElement:
    """Element ``index`` of the JSON array ``field`` as an integer (NULL when missing or not a
    JSON integer)."""
    return JsonIntElement(field, index)


class JsonBoolElement(_JsonElement):
    """Whether element ``index`` of the JSON array column ``field`` is a JSON boolean (true or
    false; false when missing or of another type: 0, "true", null)."""

    output_field = BooleanField()

    def _sqlite(self, sql: str, path: str) -> tuple[str, int]:
        return f"(COALESCE(json_type({sql}, {path}) IN ('true', 'false'), 0))", 1

    def _postgresql(self, sql: str, index: int) -> tuple[str, int]:
        return f"(COALESCE(jsonb_typeof(({sql}) -> {index}) = 'boolean', false))", 1


def json_bool_element(field: str, index: int) -> JsonBoolElement:
    """Whether element ``index`` of the JSON array ``field`` is a JSON boolean."""
    return JsonBoolElement(field, index)
