"""Django's PostgreSQL backend, with a kept connection's health check that asks the server
nothing unless the server has spoken.

Django checks a kept connection (``CONN_MAX_AGE``, ``CONN_HEALTH_CHECKS``) at the first query
of every request by sending ``SELECT 1``: one more round trip on every page, poll and referee
write. A server that ends a connection (a restart, ``pg_terminate_backend``, an idle timeout,
a crash) says so on the socket: it sends its FATAL error and closes, and the kernel marks the
socket readable. An idle connection of this service is otherwise silent (it never LISTENs).
So the check polls the socket without waiting: nothing to read, the connection is kept with no
query; anything to read (or a connection not idle), Django's own ``SELECT 1`` decides, as
before. A network that drops packets without closing is caught by neither way of checking; the
TCP timeouts of ``config/settings.py`` bound that wait.

Measured (2026-12-04, 2 cores, back to back, 200 tables, think 0, 3 gunicorn processes x 4
threads): ``bench/api_floor.py``'s DRF endpoint 658 -> 942 requests/s and its bare write 377 ->
536 writes/s; ``bench/api_load.py``'s referee API 151 -> 155 accepted actions/s (its cost is
the service's Python, not the round trips).

A rollback keeps the connection's prepared statements. psycopg forgets them at every
``ROLLBACK`` and sends ``DEALLOCATE ALL`` (in case the transaction had created what they
name); every refused or retried referee write ends in a rollback, so the statements of the
write path were parsed again and, for their next five runs, planned again at each bind
(PostgreSQL's custom plans before it settles on a generic one): the hand's lock alone, a
five-table join, cost 0.55 ms a bind then against 0.17 ms. A request of this service never
changes the schema (``migrate`` runs in a process of its own, and psycopg still forgets its
statements after a ``DROP`` or ``ALTER``), and PostgreSQL plans a kept statement again
itself when a table it reads changes, so nothing is lost by keeping them.

Measured (2026-12-07, 2 cores, ``bench/api_load.py``, one table, think 0, one gunicorn
thread, two runs each, alternated): PostgreSQL's CPU a request 3.01 and 2.97 -> 2.21 and 2.02
ms, gunicorn's 6.31 and 6.20 -> 5.85 and 5.08 ms, accepted actions/s 91.2 and 92.5 -> 104.3
and 119.9.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from django.db.backends.utils import debug_transaction
from psycopg import errors, pq


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's own (BaseDatabaseWrapper.__init__), which its type stubs leave out.
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if self.connection is None or not self.health_check_enabled or self.health_check_done:
            return
        if not self.connection_quiet() and not self.is_usable():
            self.close()
        self.health_check_done = True

    def connection_quiet(self) -> bool:
        """Whether the kept connection is open, idle, and nothing from the server waits to be
        read: sound without a round trip."""
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        if connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        readable, _, _ = select.select([connection.fileno()], [], [], 0)
        return not readable

    def _rollback(self) -> None:
        """Django's rollback, without psycopg's ``DEALLOCATE ALL`` (the module's docstring):
        ``ROLLBACK`` sent on the connection itself, under the connection's lock, as psycopg
        sends it; no-op outside a transaction, as psycopg's."""
        connection = self.connection
        if connection is None:
            return
        with debug_transaction(self, "ROLLBACK"), self.wrap_database_errors, connection.lock:
            pgconn = connection.pgconn
            if pgconn.status == pq.ConnStatus.BAD:
                raise errors.OperationalError("the connection is closed")
            if pgconn.transaction_status == pq.TransactionStatus.IDLE:
                return
            result = pgconn.exec_(b"ROLLBACK")
            if result.status == pq.ExecStatus.COMMAND_OK:
                return
            if pgconn.status == pq.ConnStatus.BAD:  # the server had gone: psycopg's error
                raise errors.OperationalError(pq.error_message(result))
            raise errors.error_from_result(result, encoding=connection.info.encoding)
