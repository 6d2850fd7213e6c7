"""The application's PostgreSQL role: it owns nothing and may not rewrite the hand log.

Migrations run as the owner role; ``manage.py db_app_role`` (run as the owner after each
``migrate``) creates the application role if needed and applies ``sql/app_role_grants.sql``.
"""

import re
from pathlib import Path
from typing import Any

from psycopg import sql

GRANTS_FILE = Path(__file__).resolve().parent / "sql" / "app_role_grants.sql"
_PSQL_IDENTIFIER = re.compile(r':"app_role"')


def app_role_grant_statements(*, role: str) -> list[str]:
    """The statements of the grants file with ``:"app_role"`` bound to ``role``."""
    quoted = sql.Identifier(role).as_string(None)
    lines = [
        line
        for line in GRANTS_FILE.read_text(encoding="utf-8").splitlines()
        if not line.lstrip().startswith("--")
    ]
    text = _PSQL_IDENTIFIER.sub(lambda _match: quoted, "\n".join(lines))
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def app_role_exists(*, cursor: Any, role: str) -> bool:
    cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
    return cursor.fetchone() is not None


def app_role_create(*, cursor: Any, role: str, password: str | None) -> bool:
    """Create the login role (no superuser, no CREATEDB, no CREATEROLE) unless it exists;
    set its password when one is given. True when it was created."""
    created = not app_role_exists(cursor=cursor, role=role)
    if created:
        cursor.execute(
            sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
            .format(sql.Identifier(role))
            .as_string(None)
        )
    if password:
        cursor.execute(
            sql.SQL("ALTER ROLE {} PASSWORD {}")
            .format(sql.Identifier(role), sql.Literal(password))
            .as_string(None)
        )
    return created


def app_role_grant(*, cursor: Any, role: str) -> None:
    """Apply the grants file to ``role`` in the connected database."""
    for statement in app_role_grant_statements(role=role):
        cursor.execute(statement)
