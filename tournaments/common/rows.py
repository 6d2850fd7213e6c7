"""Model instances from the rows of hand-written statements (the hottest reads).

The hottest reads of a hand write (the token with its user, the hand with its table,
round, tournament and board, and the row lock) are one SQL statement each, written once
at import from the models' ``db_table`` and ``column`` names (parameters always bound):
the ORM would build their SQL again on every call. A row becomes instances through the public
``Model.from_db``, its values converted as the ORM would (JSON text, SQLite's 0 / 1 and
datetime text).
"""

import json
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, models
from django.db.models import DEFERRED
from django.utils.dateparse import parse_datetime


def _json(field: models.JSONField) -> Callable[[Any], Any]:
    return lambda value: json.loads(value, cls=field.decoder) if isinstance(value, str) else value


def _bool(value: Any) -> Any:
    return value if value is None else bool(value)


def _datetime(value: Any) -> Any:
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and settings.USE_TZ and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value


def _converter(field: "models.Field[Any, Any]") -> Callable[[Any], Any] | None:
    if isinstance(field, models.JSONField):
        return _json(field)  # Django has psycopg hand over jsonb as text, as SQLite does
    if isinstance(field, models.BooleanField):
        return _bool if connection.vendor == "sqlite" else None  # psycopg gives a bool
    if isinstance(field, models.DateTimeField):
        return _datetime if connection.vendor == "sqlite" else None  # and an aware datetime
    if isinstance(field, (models.DateField, models.TimeField, models.DecimalField)):
        raise TypeError(f"{field}: no converter for its type")  # none on the hot reads yet
    return None


class Columns:
    """A model's concrete columns under a table alias, and its instance from a row."""

    def __init__(self, model: type[models.Model], alias: str, *, defer: Sequence[str] = ()) -> None:
        """``defer``: fields not read (loaded on access, as ``QuerySet.defer`` does)."""
        self.model = model
        every = model._meta.concrete_fields
        fields = [field for field in every if field.name not in defer]
        self.sql = ", ".join(f'{alias}."{field.column}"' for field in fields)
        self.width = len(fields)
        #: Every concrete field's attname, and where the row's values go among them (the
        #: deferred ones stay ``DEFERRED``): ``from_db`` then takes its fast path.
        self.attnames = [field.attname for field in every]
        self.positions = [i for i, field in enumerate(every) if field.name not in defer]
        self.deferred = len(fields) < len(every)
        self.converters = [
            (index, converter)
            for index, converter in enumerate(_converter(field) for field in fields)
            if converter is not None
        ]

    def instance(self, row: Sequence[Any], start: int = 0) -> Any:
        """The instance of ``row[start:start + width]`` (None when its primary key is NULL:
        a LEFT JOIN that found nothing)."""
        values = list(row[start : start + self.width])
        if values[0] is None:
            return None
        for index, converter in self.converters:
            values[index] = converter(values[index])
        if self.deferred:
            every: list[Any] = [DEFERRED] * len(self.attnames)
            for position, value in zip(self.positions, values, strict=True):
                every[position] = value
            values = every
        return self.model.from_db(DEFAULT_DB_ALIAS, self.attnames, values)


class Insert:
    """``INSERT`` of ``fields`` of ``model`` returning the primary key and the columns
    the database fills (``db_default``), and the instance written (``Model.from_db``)."""

    def __init__(self, model: type[models.Model], fields: Sequence[str]) -> None:
        self.model = model
        meta = model._meta
        self.fields = [meta.get_field(name) for name in fields]
        self.returned = [
            field
            for field in meta.concrete_fields
            if field.primary_key or (field.db_default is not models.NOT_PROVIDED)
        ]
        self.sql = (
            f"INSERT INTO {table_name(model)}"
            f" ({', '.join(column(model, name) for name in fields)})"
            f" VALUES ({', '.join(['%s'] * len(fields))})"
            f" RETURNING {', '.join(quoted(field.column) for field in self.returned)}"
        )
        self.converters = [_converter(field) for field in self.returned]
        self.attnames = [field.attname for field in meta.concrete_fields]

    def save(self, **values: Any) -> Any:
        params = [
            field.get_db_prep_save(values[field.attname], connection)  # type: ignore[union-attr]
            for field in self.fields
        ]
        row = fetch_one(self.sql, params)
        assert row is not None
        for field, converter, value in zip(self.returned, self.converters, row, strict=True):
            values[field.attname] = converter(value) if converter is not None else value
        return self.model.from_db(
            DEFAULT_DB_ALIAS, self.attnames, [values[name] for name in self.attnames]
        )


def update(instance: models.Model, fields: Sequence[str]) -> None:
    """``instance.save(update_fields=fields)`` in a statement built per call from the
    fields' columns (``Field.get_db_prep_save``), without the ORM's compiler."""
    model = type(instance)
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    sql = (
        f"UPDATE {table_name(model)}"
        f" SET {', '.join(f'{quoted(field.column)} = %s' for field in columns)}"  # type: ignore[union-attr]
        f" WHERE {column(model, 'pk' if meta.pk is None else meta.pk.name)} = %s"
    )
    params = [
        field.get_db_prep_save(getattr(instance, field.attname), connection)  # type: ignore[union-attr]
        for field in columns
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, instance.pk])


def quoted(name: Any) -> str:
    return f'"{name}"'


def table_name(model: type[models.Model]) -> str:
    return quoted(model._meta.db_table)


def column(model: type[models.Model], name: str) -> str:
    return quoted(model._meta.get_field(name).column)  # type: ignore[union-attr]


def fetch_one(sql: str, params: Sequence[Any]) -> Sequence[Any] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


__all__ = ["Columns", "Insert", "column", "fetch_one", "table_name", "update"]
