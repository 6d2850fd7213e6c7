"""SQL over JSON arrays, for the checks on per-seat columns (a hand's scores and doubles, a
board's hands): the same expressions on SQLite and PostgreSQL, except a hand's whole-array
checks (``ScoresSound``, ``FlagsSound``), one function call each on PostgreSQL."""

from __future__ import annotations

from typing import Any

from django.db.models import BigIntegerField, BooleanField, F, Func, IntegerField, Q
from django.db.models.lookups import Exact, IsNull

from tournaments.common.seats import SEAT_COUNTS


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
    PostgreSQL only, as the service. 64 bits, as a score can be (six players are uncapped)."""

    output_field = BigIntegerField()
    sqlite = "(CASE WHEN json_type({sql}, {path}) = 'integer' THEN json_extract({sql}, {path}) END)"
    # jsonb has one number type: the text of an integer is digits alone (12.0 is not).
    postgresql = (
        "(CASE WHEN jsonb_typeof(({sql}) -> {index}) = 'number'"
        " AND (({sql}) ->> {index}) ~ '^-?[0-9]+$'"
        " THEN (({sql}) ->> {index})::bigint END)"
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


class _SeatArraySound(Func):
    """Whether the JSON array column ``field`` (``column``) holds what a hand's per-seat
    column must for the hand's seat count (column ``seats``).

    On PostgreSQL one call of the PL/pgSQL function ``function`` (migration 0034), whatever
    the seat count: PostgreSQL rebuilds a CHECK's expression tree for every statement that
    writes the row, and the unrolled form (one CASE a seat for each seat count) made the hand
    row's UPDATE of every hand write cost the server more: on a copy of the table 413 µs an
    UPDATE with it, 291 µs with the call; in ``bench/api_write_profile.py --pg-statements``
    (back to back, 2026-12-04) the write's UPDATE went from 2.95 to 2.27 times the cost of its
    hand read (0.68 to 0.42-0.52 ms). On SQLite, which compiles a check once with its
    statement, the unrolled form (``unrolled``)."""

    output_field = BooleanField()

    def __init__(self, field: str) -> None:
        super().__init__(F(field), F("seats"))
        self.column = field

    def unrolled(self) -> Q:
        raise NotImplementedError

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return compiler.compile(compiler.query.build_where(self.unrolled()))


class ScoresSound(_SeatArraySound):
    """The scores (a JSON array): one JSON integer a seat, summing to zero (R8.1)."""

    function = "hand_scores_sound"

    def unrolled(self) -> Q:
        zero_sum = Q()
        for n in SEAT_COUNTS:
            elements = [json_int_element(self.column, i) for i in range(n)]
            total = sum(elements[1:], start=elements[0])
            present = Q(*(IsNull(e, False) for e in elements))
            zero_sum |= Q(seats=n) & present & Q(Exact(total, 0))
        return Q(Exact(JsonArrayLength(self.column), F("seats"))) & zero_sum


class FlagsSound(_SeatArraySound):
    """The doubled flags (a JSON array): a JSON boolean for each seat."""

    function = "hand_flags_sound"

    def unrolled(self) -> Q:
        flags = Q()
        for n in SEAT_COUNTS:
            flags |= Q(*(Q(json_bool_element(self.column, i)) for i in range(n)), seats=n)
        return flags
