"""Print the URL of a new, empty PostgreSQL database beside the one DATABASE_URL names.

    python .ci/fresh_database.py SUFFIX

The database ``<name>_<SUFFIX>`` is dropped (if a former run left it) and created on the
same server, owned by the URL's role, so a run starts from nothing whatever earlier runs
wrote. The database in DATABASE_URL itself is left alone.
"""

import os
import sys
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql


def main() -> None:
    suffix = sys.argv[1]
    parts = urlsplit(os.environ["DATABASE_URL"])
    name = f"{parts.path.lstrip('/')}_{suffix}"
    admin = urlunsplit((parts.scheme, parts.netloc, "/postgres", "", ""))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    print(urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, "")))


if __name__ == "__main__":
    main()
