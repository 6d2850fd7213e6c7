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
    """Something about element ``index`` of the JSON array column ``field``, written by each
    subclass as SQL templates: ``sqlite`` (of ``{sql}``, the column, and ``{path}``, the
    element's JSON path) and ``postgresql`` (of ``{sql}`` and ``{index}``)."""

    sqlite: str
    postgresql: str

    def __init__(self, field: str, index: int) -> None:
        super().__init__(F(field))
        self.index = index

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self._filled(compiler, self.sqlite, path=f"'$[{int(self.index)}]'")

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self._filled(compiler, self.postgresql, index=int(self.index))

    def _filled(self, compiler: Any, template: str, **where: Any) -> tuple[str, tuple[Any, ...]]:
        sql, params = compiler.compile(self.source_expressions[0])
        return template.format(sql=sql, **where), tuple(params) * template.count("{sql}")


class JsonIntElement(_JsonElement):
    """Element ``index`` of the JSON array column ``field`` when it is a JSON integer, else NULL
    (missing, a fraction such as 12.5, a string such as "-6", a boolean, an array, an object):
    so a check that the element is not NULL is a check that it is an integer. SQLite and
    PostgreSQL only, as the service."""

    output_field = IntegerField()
    sqlite = "(CASE WHEN json_type({sql}, {path}) = 'integer' THEN json_extract({sql}, {path}) END)"
    # jsonb has one number type: the text of an integer is digits alone (12.0 is not).
    postgresql = (
        "(CASE WHEN jsonb_typeof(({sql}) -> {index}) = 'number'"
        " AND (({sql}) ->> {index}) ~ '^-?[0-9]+$'"
        " THEN (({sql}) ->> {index})::integer END)"
    )


def json_int_element(field: str, index: int) -> JsonIntElement:
    """Element ``index`` of the JSON array ``field`` as an integer (NULL when missing or not a
    JSON integer)."""
    return JsonIntElement(field, index)


class JsonBoolElement(_JsonElement):
    """Whether element ``index`` of the JSON array column ``field`` is a JSON boolean (true or
    false; false when missing or of another type: 0, "true", null)."""

    output_field = BooleanField()
    sqlite = "(COALESCE(json_type({sql}, {path}) IN ('true', 'false'), 0))"
    postgresql = "(COALESCE(jsonb_typeof(({sql}) -> {index}) = 'boolean', false))"


def json_bool_element(field: str, index: int) -> JsonBoolElement:
    """Whether element ``index`` of the JSON array ``field`` is a JSON boolean."""
    return JsonBoolElement(field, index)
