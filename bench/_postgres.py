"""PostgreSQL for the benchmarks that measure the service as it runs in production.

Such a benchmark says so with a line ``# bench: needs PostgreSQL`` (``make bench`` reads it)
and calls ``postgres_required()`` first: it runs only against the PostgreSQL server that
``DATABASE_URL`` names, explicitly — never a guessed default — and creates its own database
there (named by an option or an environment variable), leaving the one in the URL alone.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit, urlunsplit

SCHEMES = ("postgres", "postgresql")


def postgres_required(script: str) -> str:
    """``DATABASE_URL`` when it names a PostgreSQL server; otherwise say what is needed and
    exit with status 2."""
    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme not in SCHEMES:
        print(
            f"{script} measures the service on PostgreSQL: set DATABASE_URL to a server it may "
            "create a database on, e.g.\n"
            f"  DATABASE_URL=postgres://doudizhu@127.0.0.1:5432/postgres python bench/{script}",
            file=sys.stderr,
        )
        sys.exit(2)
    return url


def database_url(server_url: str, name: str) -> str:
    """``server_url`` pointing at database ``name``."""
    parts = urlsplit(server_url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, "", ""))
