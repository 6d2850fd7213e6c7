"""No two accounts whose names differ only in case (``BOSS`` beside ``boss``): a unique
index on ``UPPER(username)`` of Django's user table (tournaments/common/usernames.py).

The same statement on SQLite and PostgreSQL, each folding case as it does for Django's
``iexact``. Names that already collide stop the migration, listed, before anything changes:
rename or remove all but one of each (the admin's user page), then migrate again.
"""

from typing import Any

from django.db import migrations

INDEX = "auth_user_username_upper_uniq"


def refuse_names_that_collide(apps: Any, schema_editor: Any) -> None:
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT UPPER(username) FROM auth_user GROUP BY UPPER(username)"
            " HAVING COUNT(*) > 1 ORDER BY 1"
        )
        folded = [row[0] for row in cursor.fetchall()]
        if not folded:
            return
        marks = ", ".join(["%s"] * len(folded))
        cursor.execute(
            f"SELECT username FROM auth_user WHERE UPPER(username) IN ({marks})"
            " ORDER BY UPPER(username), username",
            folded,
        )
        names = [row[0] for row in cursor.fetchall()]
    raise RuntimeError(
        "These accounts' names differ only in upper and lower case, which is no longer "
        f"allowed: {', '.join(names)}. Rename or remove all but one of each (the admin's "
        "user page), then run migrate again."
    )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tournaments", "0023_doubled_flags_boolean"),
    ]

    operations = [
        migrations.RunPython(refuse_names_that_collide, migrations.RunPython.noop),
        migrations.RunSQL(
            f"CREATE UNIQUE INDEX {INDEX} ON auth_user (UPPER(username))",
            f"DROP INDEX {INDEX}",
        ),
    ]
