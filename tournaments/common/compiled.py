"""Hot ORM reads compiled to SQL once per database connection.

Every referee action reads its hand (with table, round, tournament and board), checks the
referee's assignment and the idempotency key, and then locks the row. Django compiles a
queryset to SQL on every execution, and for these queries that compilation cost more CPU
than the database spent answering them (about half of a write's ORM time, measured with
bench/api_write_profile.py). ``CompiledGet`` and ``CompiledExists`` let the ORM compile the
query once per connection (so the SQL always follows the models), then run that SQL with
each call's values and build the instances with the ORM's own converters and related
populators, exactly as ``QuerySet.first()`` (or ``.exists()``) would.

``make`` builds the queryset from its arguments; it is called once, with placeholder
integers, and each argument must end up exactly once among the query's parameters (a
filter on a column, not inside an expression that transforms it).

The writes of every action get the same treatment: ``row_insert`` (``Model.objects.create``)
and ``row_update`` (``save(update_fields=…)``) build their SQL once per connection from the
model's fields and prepare each value with the field's own ``pre_save`` and
``get_db_prep_save``, as the ORM does. They send no ``pre_save``/``post_save`` signals
(nothing in this project listens to the models they write).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, cast

from django.db import DatabaseError, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

#: Values no row has: their positions among the compiled query's parameters are where
#: each call's arguments go (a text column receives the same number as text). Within a
#: smallint's range: the ORM turns a lookup beyond a column's range into "no rows".
_PLACEHOLDERS = tuple(-31_001 - i for i in range(8))


class _Compiled:
    """A queryset of ``make(*args)`` compiled once per connection."""

    def __init__(self, name: str, make: Callable[..., QuerySet[Any]]) -> None:
        self.name = name
        self.make = make
        self.arity = len(inspect.signature(make).parameters)

    def _query(self, queryset: QuerySet[Any]) -> Any:
        return queryset.query

    def _compiled(self, using: str) -> tuple[Any, str, list[Any], list[int]]:
        connection = connections[using]
        # Per connection object (so per thread): a compiler holds its connection.
        cache: dict[str, Any] = connection.__dict__.setdefault("_compiled_gets", {})
        entry = cache.get(self.name)
        if entry is None:
            placeholders = _PLACEHOLDERS[: self.arity]
            compiler = self._query(self.make(*placeholders)).get_compiler(using=using)
            sql, params = compiler.as_sql()
            params = list(params)
            positions = []
            for placeholder in placeholders:
                found = [i for i, p in enumerate(params) if str(p) == str(placeholder)]
                if len(found) != 1:
                    raise ValueError(f"{self.name}: each argument must be one query parameter")
                positions.append(found[0])
            reader = self._reader(compiler, using)
            entry = cache[self.name] = (reader, sql, params, positions)
        return entry

    def _reader(self, compiler: Any, using: str) -> Any:
        return None

    def _rows(self, args: tuple[Any, ...], using: str) -> tuple[Any, list[Any]]:
        if len(args) != self.arity:
            raise TypeError(f"{self.name} takes {self.arity} arguments")
        reader, sql, params, positions = self._compiled(using)
        params = [*params]
        for position, value in zip(positions, args, strict=True):
            params[position] = value
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            return reader, cursor.fetchall()


class CompiledGet(_Compiled):
    """``make(*args).first()``."""

    def _reader(self, compiler: Any, using: str) -> Any:
        return _InstanceReader(compiler, using)

    def __call__(self, *args: Any, using: str = "default") -> Any:
        reader, rows = self._rows(args, using)
        if not rows:
            return None
        return reader(rows[0])


class CompiledExists(_Compiled):
    """``make(*args).exists()``."""

    def _query(self, queryset: QuerySet[Any]) -> Any:
        return queryset.query.exists()

    def __call__(self, *args: Any, using: str = "default") -> bool:
        return bool(self._rows(args, using)[1])


class _InstanceReader:
    """Builds the model instance of one row as ``ModelIterable`` does, with the
    converters and related populators worked out once (the ORM redoes that per query)."""

    def __init__(self, compiler: Any, using: str) -> None:
        select, klass_info = compiler.select, compiler.klass_info
        self.compiler = compiler
        self.using = using
        self.converters = compiler.get_converters([s[0] for s in select[: compiler.col_count]])
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.names = [f[0].target.attname for f in select[self.start : self.end]]
        self.populators = get_related_populators(klass_info, select, using)  # type: ignore[call-arg]
        self.annotations = list((compiler.annotation_col_map or {}).items())

    def __call__(self, row: Any) -> Model:
        if self.converters:
            (row,) = self.compiler.apply_converters([row], self.converters)
        obj: Model = self.model.from_db(self.using, self.names, row[self.start : self.end])
        for populator in self.populators:
            populator.populate(row, obj)
        for name, position in self.annotations:
            setattr(obj, name, row[position])
        return obj


# --------------------------------------------------------------------------- writes
def _quote(connection: Any, name: Any) -> str:
    quoted: str = connection.ops.quote_name(name)
    return quoted


def row_insert(instance: Model, *, using: str = "default") -> Model:
    """Insert the new ``instance`` (as ``save()`` would: ``pre_save`` and
    ``get_db_prep_save`` of each field) and set its primary key.  Fields with a
    ``db_default`` (a ``recorded_at`` from the database's clock) are left to the database
    and read back."""
    model, connection = type(instance), cast(Any, connections[using])
    cache: dict[Any, Any] = connection.__dict__.setdefault("_compiled_inserts", {})
    entry = cache.get(model)
    if entry is None:
        meta = model._meta
        fields = [f for f in meta.concrete_fields if not f.primary_key and not f.has_db_default()]
        defaulted = [f for f in meta.concrete_fields if f.has_db_default()]
        sql = "INSERT INTO {} ({}) VALUES ({})".format(
            _quote(connection, meta.db_table),
            ", ".join(_quote(connection, f.column) for f in fields),
            ", ".join(["%s"] * len(fields)),
        )
        if not connection.features.can_return_columns_from_insert:
            raise NotImplementedError("row_insert needs INSERT ... RETURNING")
        clause, _ = connection.ops.return_insert_columns([meta.pk, *defaulted])
        sql = f"{sql} {clause}"
        converters = [
            [
                *connection.ops.get_db_converters(f.get_col(meta.db_table)),
                *f.get_db_converters(connection),
            ]
            for f in defaulted
        ]
        entry = cache[model] = (fields, sql, list(zip(defaulted, converters, strict=True)))
    fields, sql, read_back = entry
    params = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    instance.pk = row[0]
    for (field, converters), value in zip(read_back, row[1:], strict=True):
        for converter in converters:
            value = converter(value, field.get_col(model._meta.db_table), connection)
        setattr(instance, field.attname, value)
    instance._state.adding = False
    instance._state.db = using
    return instance


def row_update(instance: Model, field_names: list[str], *, using: str = "default") -> None:
    """``instance.save(update_fields=field_names)`` of a saved row."""
    model, connection = type(instance), cast(Any, connections[using])
    cache: dict[Any, Any] = connection.__dict__.setdefault("_compiled_updates", {})
    key = (model, tuple(field_names))
    entry = cache.get(key)
    if entry is None:
        meta = model._meta
        fields: list[Any] = [meta.get_field(name) for name in field_names]
        sql = "UPDATE {} SET {} WHERE {} = %s".format(
            _quote(connection, meta.db_table),
            ", ".join(f"{_quote(connection, f.column)} = %s" for f in fields),
            _quote(connection, meta.pk.column),
        )
        entry = cache[key] = (fields, sql)
    fields, sql = entry
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    params.append(instance._meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
