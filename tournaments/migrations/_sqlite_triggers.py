"""Keep SQLite's triggers across table rebuilds.

SQLite rebuilds a table for most ALTER TABLE operations; the rebuild drops the table's
triggers, and a trigger that names a table being rebuilt fails the rename half-way.
``keeping_sqlite_triggers(ops)`` wraps a migration's operations: on SQLite it saves
every trigger's SQL and drops them first, and creates them again afterwards; on other
databases it adds nothing that runs.  (The leading underscore keeps Django's migration
loader from taking this module for a migration.)
"""

from django.db import migrations

_saved: list[str] = []


def _drop(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        triggers = cursor.fetchall()
    _saved[:] = [sql for _, sql in triggers]
    for name, _ in triggers:
        schema_editor.execute(f'DROP TRIGGER "{name}"', params=None)


def _restore(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for sql in _saved:
        schema_editor.execute(sql, params=None)
    _saved.clear()


def keeping_sqlite_triggers(operations: list) -> list:
    return [
        migrations.RunPython(_drop, _restore),
        *operations,
        migrations.RunPython(_restore, _drop),
    ]
