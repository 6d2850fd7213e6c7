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
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


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
