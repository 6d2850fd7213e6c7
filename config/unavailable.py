"""While the database cannot be reached, every page answers 503 with Retry-After, not a 500.

A database that is down (restarting, failing over, refusing connections, its file gone) is a
temporary state of the service, not a bug: the browser and any proxy in front should hear
"come back in a moment" (503 + Retry-After), and the error log should not fill with 500s.
Anything else the database refuses (a missing table, a lock or statement timeout, a
constraint) stays what it was: an error of this request.

``DatabaseUnavailableMiddleware`` answers for a failure in a view or while its template is
rendered; ``referee.api.exception_handlers.server_error`` (the 500 handler) answers for one
in a middleware (the session saved on the way out). The page is rendered without the request:
no context processor, session or user lookup, nothing that would need the database again.
The API answers its own ``503 database_unavailable`` (``api_exception_handler``).
"""

import sqlite3
from collections.abc import Callable

import psycopg
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

#: Seconds a client is asked to wait before it tries again (the API and the pages alike).
RETRY_AFTER_SECONDS = 2

#: PostgreSQL SQLSTATEs of a server that cannot take the connection: class 08 (connection
#: exception) by prefix, and the server shutting down, crashed, starting up or full.
_POSTGRES_UNREACHABLE = {"57P01", "57P02", "57P03", "53300"}
#: SQLite: the file cannot be opened (its directory is gone) or read.
_SQLITE_UNREACHABLE = {sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR}


def database_unreachable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (rather than refused a query)."""
    if isinstance(exc, InterfaceError):
        return True  # the connection is closed or unusable
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if isinstance(cause, sqlite3.OperationalError):
        errorcode = getattr(cause, "sqlite_errorcode", None)
        return errorcode is not None and (errorcode & 0xFF) in _SQLITE_UNREACHABLE
    if not isinstance(cause, psycopg.Error):
        return False
    # No SQLSTATE at all: the client lost (or never got) the connection.
    sqlstate = cause.sqlstate
    return sqlstate is None or sqlstate.startswith("08") or sqlstate in _POSTGRES_UNREACHABLE


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    """503 + Retry-After: JSON under /api/ (as the API answers it), the 503 page elsewhere."""
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.path_info.startswith("/api/"):
        body = {
            "code": "database_unavailable",
            "message": _("The database is unavailable; retry with the same idempotency key."),
            "details": {},
        }
        return JsonResponse(body, status=503, headers=headers)
    page = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
    return HttpResponse(page, status=503, headers=headers)


class DatabaseUnavailableMiddleware:
    """Turns a database that cannot be reached, in a view or its template, into the 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unreachable(exception):
            return None
        return database_unavailable_response(request)
