"""Hot ORM reads compiled to SQL once per database connection.

Every referee action reads its hand (with table, round, tournament and board) and then locks
the row. Django compiles a queryset to SQL on every execution, and for these two queries that
compilation cost more CPU than the database spent answering them (about half of a write's
ORM time, measured with bench/api_write_profile.py). ``CompiledGet`` lets the ORM compile the
query once per connection (so the SQL always follows the models), then runs that SQL with
each new primary key and builds the instances with the ORM's own converters and related
populators, exactly as ``QuerySet.first()`` would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

#: A primary key no row has: its position among the compiled query's parameters is where
#: each call's key goes.
_SENTINEL = -7_340_031


class CompiledGet:
    """``make(pk).first()``, where ``make`` filters a queryset by primary key only."""

    def __init__(self, name: str, make: Callable[[Any], QuerySet[Any]]) -> None:
        self.name = name
        self.make = make

    def _compiled(self, using: str) -> tuple[Any, str, list[Any], int]:
        connection = connections[using]
        # Per connection object (so per thread): a compiler holds its connection.
        cache: dict[str, Any] = connection.__dict__.setdefault("_compiled_gets", {})
        entry = cache.get(self.name)
        if entry is None:
            query = self.make(_SENTINEL).query
            compiler = query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            params = list(params)
            # The key as the query holds it (an integer, or its text for a text key).
            found = [i for i, p in enumerate(params) if str(p) == str(_SENTINEL)]
            if len(found) != 1:
                raise ValueError(f"{self.name}: the query must filter by primary key only")
            entry = cache[self.name] = (compiler, sql, params, found[0])
        return entry

    def __call__(self, pk: Any, *, using: str = "default") -> Any:
        compiler, sql, params, index = self._compiled(using)
        params = [*params]
        params[index] = pk
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if not rows:
            return None
        return _instance(compiler, rows[0], using)


def _instance(compiler: Any, row: Any, using: str) -> Model:
    """The model instance of one row, as ``ModelIterable`` builds it."""
    select, klass_info = compiler.select, compiler.klass_info
    (row,) = compiler.results_iter(results=[[row]])
    model_cls = klass_info["model"]
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    names = [f[0].target.attname for f in select[start:end]]
    obj: Model = model_cls.from_db(using, names, row[start:end])
    for populator in get_related_populators(klass_info, select, using):  # type: ignore[call-arg]
        populator.populate(row, obj)
    for name, position in (compiler.annotation_col_map or {}).items():
        setattr(obj, name, row[position])
    return obj
