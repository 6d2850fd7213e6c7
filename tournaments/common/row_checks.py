"""A table's CHECKs as one trigger on PostgreSQL that a write of its hot columns does not fire.

PostgreSQL evaluates every CHECK of a table at every UPDATE of a row, whatever columns the
UPDATE sets, and for every statement it rebuilds each check from its stored text (the
executor's ``ExecRelCheck``: parse the node text, plan, compile). A live hand's row is
updated at every referee action, to write its snapshot and version (``hands.writing``): its
checks, none of which reads either column, were about a third of that UPDATE's cost.

``TriggerCheck`` is a ``CheckConstraint`` that says so. On SQLite it is the same CHECK. On
PostgreSQL a table's trigger checks are one PL/pgSQL function, ``<table>_row_checks``, run by a
``BEFORE INSERT OR UPDATE OF`` trigger on exactly the columns they read: an UPDATE that sets
none of them runs no check, as none could fail; any other INSERT or UPDATE runs them all,
with the same refusal as the CHECK's (SQLSTATE 23514 ``check_violation``, the constraint's
name and PostgreSQL's own message), which Django raises as ``IntegrityError``. The function's
expressions are parsed and planned once a session (compiled once a transaction), not
rebuilt from text for each statement.
Django's model validation (``Model.validate_constraints``) reads the same conditions.

Measured (2026-12-07, PostgreSQL 15, backend CPU of one UPDATE with its commit on a copy of the
hand table, three runs of 3,000 each, alternated): setting a live hand's snapshot and version,
480-557 µs with the 27 CHECKs against 320-383 µs with the trigger (not fired; about 150 µs
saved on every referee action); setting its status too (the trigger fires), 507-523 µs against
370-447 µs.

Every adding or removing migration of a ``TriggerCheck`` writes the function and trigger again
from the table's trigger checks after it (``create_sql`` and ``remove_sql``), so Django's own
``AddConstraint`` and ``RemoveConstraint`` keep them; the trigger fires after the table's
other BEFORE triggers (its name sorts last), as CHECKs are evaluated after all of them.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.migrations.operations.base import Operation
from django.db.models.sql.query import Query


class TriggerCheck(models.CheckConstraint):
    """A CHECK that PostgreSQL runs in its table's checks trigger (module docstring)."""

    def constraint_sql(self, model: Any, schema_editor: Any) -> Any:
        if _postgresql(schema_editor):
            return None  # created with the table's trigger (``create_sql``)
        return super().constraint_sql(model, schema_editor)

    def create_sql(self, model: Any, schema_editor: Any) -> Any:
        if not _postgresql(schema_editor):
            return super().create_sql(model, schema_editor)
        checks = [c for c in trigger_checks_of(model) if c.name != self.name] + [self]
        return row_checks_sql(model, schema_editor, checks)

    def remove_sql(self, model: Any, schema_editor: Any) -> Any:
        if not _postgresql(schema_editor):
            return super().remove_sql(model, schema_editor)
        checks = [c for c in trigger_checks_of(model) if c.name != self.name]
        return row_checks_sql(model, schema_editor, checks)


def trigger_checks(*constraints: models.BaseConstraint) -> list[models.BaseConstraint]:
    """``constraints`` with each plain ``CheckConstraint`` made a ``TriggerCheck`` (the same
    name, condition and message)."""
    return [
        TriggerCheck(
            condition=c.condition,
            name=c.name,
            violation_error_code=c.violation_error_code,
            violation_error_message=c.violation_error_message,
        )
        if type(c) is models.CheckConstraint
        else c
        for c in constraints
    ]


def trigger_checks_of(model: Any) -> list[models.CheckConstraint]:
    """The trigger checks of ``model`` (of a migration's state too: any check that says it is
    one, whatever the class's module in that state)."""
    return [c for c in model._meta.constraints if type(c).__name__ == "TriggerCheck"]


def _postgresql(schema_editor: Any) -> bool:
    return bool(schema_editor.connection.vendor == "postgresql")


def check_sql(model: Any, schema_editor: Any, check: models.CheckConstraint) -> str:
    """The check's condition as SQL, its columns named ``"<table>"."<column>"``."""
    query = Query(model=model, alias_cols=True)
    where = query.build_where(check.condition)  # type: ignore[arg-type]
    compiler = query.get_compiler(connection=schema_editor.connection)
    sql, params = where.as_sql(compiler, schema_editor.connection)
    return str(sql % tuple(schema_editor.quote_value(p) for p in params))


def row_checks_sql(model: Any, schema_editor: Any, checks: list[models.CheckConstraint]) -> str:
    """The PostgreSQL function and trigger that run ``checks`` on ``model``'s table (dropped
    when there are none)."""
    quote = schema_editor.quote_name
    table = model._meta.db_table
    function = quote(f"{table}_row_checks")
    trigger = quote(f"{table}_z_row_checks")  # after the table's other BEFORE triggers
    if not checks:
        return (
            f"DROP TRIGGER IF EXISTS {trigger} ON {quote(table)};"
            f" DROP FUNCTION IF EXISTS {function}()"
        )
    tests = []
    read: set[str] = set()
    for check in sorted(checks, key=lambda c: c.name):
        sql = check_sql(model, schema_editor, check)
        read.update(
            field.column
            for field in model._meta.concrete_fields
            if f"{quote(table)}.{quote(field.column)}" in sql
        )
        message = f'new row for relation "{table}" violates check constraint "{check.name}"'
        tests.append(
            f"    IF ({sql}) IS FALSE THEN\n"
            f"        RAISE EXCEPTION USING ERRCODE = 'check_violation',"
            f" CONSTRAINT = {schema_editor.quote_value(check.name)},"
            f" TABLE = {schema_editor.quote_value(table)},"
            f" MESSAGE = {schema_editor.quote_value(message)};\n"
            f"    END IF;"
        )
    columns = ", ".join(quote(c) for c in sorted(read))
    body = "\n".join(tests)
    return (
        f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger"
        f" LANGUAGE plpgsql AS $row_checks$\n"
        f"DECLARE\n    {quote(table)} ALIAS FOR NEW;\nBEGIN\n{body}\n    RETURN NEW;\n"
        f"END $row_checks$;\n"
        f"CREATE OR REPLACE TRIGGER {trigger} BEFORE INSERT OR UPDATE OF {columns}"
        f" ON {quote(table)} FOR EACH ROW EXECUTE FUNCTION {function}()"
    )


class ChecksToTrigger(Operation):
    """The migration that makes CHECKs of ``model_name`` named ``names`` trigger checks: in
    the state, each becomes a ``TriggerCheck``; on PostgreSQL the CHECKs are dropped and the
    table's function and trigger written (on SQLite nothing changes)."""

    reduces_to_sql = False
    reversible = True

    def __init__(self, model_name: str, names: list[str]) -> None:
        self.model_name = model_name
        self.names = names

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return (
            self.__class__.__qualname__,
            [],
            {"model_name": self.model_name, "names": self.names},
        )

    def describe(self) -> str:
        return f"Make {len(self.names)} checks of {self.model_name} trigger checks"

    def state_forwards(self, app_label: str, state: Any) -> None:
        model = state.models[app_label, self.model_name.lower()]
        for check in [c for c in model.options["constraints"] if c.name in self.names]:
            state.remove_constraint(app_label, self.model_name.lower(), check.name)
            state.add_constraint(app_label, self.model_name.lower(), *trigger_checks(check))

    def database_forwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        self._trigger_written(app_label, schema_editor, to_state, drop=self.names)

    def database_backwards(
        self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any
    ) -> None:
        model = self._trigger_written(app_label, schema_editor, to_state, drop=[])
        for check in model._meta.constraints if model is not None else ():
            if check.name in self.names:
                schema_editor.add_constraint(model, check)

    def _trigger_written(
        self, app_label: str, schema_editor: Any, state: Any, *, drop: list[str]
    ) -> Any:
        """On PostgreSQL: drop the CHECKs named ``drop``, then write the table's trigger as
        ``state``'s model has its checks; the model (None elsewhere)."""
        if not _postgresql(schema_editor):
            return None
        model = state.apps.get_model(app_label, self.model_name)
        table = schema_editor.quote_name(model._meta.db_table)
        for name in drop:
            schema_editor.execute(
                f"ALTER TABLE {table} DROP CONSTRAINT {schema_editor.quote_name(name)}",
                params=None,
            )
        schema_editor.execute(
            row_checks_sql(model, schema_editor, trigger_checks_of(model)), params=None
        )
        return model


__all__ = [
    "ChecksToTrigger",
    "TriggerCheck",
    "check_sql",
    "row_checks_sql",
    "trigger_checks",
    "trigger_checks_of",
]
