"""A Django connection to PostgreSQL whose network goes silent, in a network of its own.

Run by ``tests/test_database_timeouts.py`` as ``python -m tests.integration.partitioned_client
HOST PORT`` (as root: it needs CAP_SYS_ADMIN and CAP_NET_ADMIN). It opens its connections to
the server at HOST:PORT first, then moves itself into a new network namespace (its own
loopback, nobody else's), where a relay on 127.0.0.1 forwards each client connection to one of
those upstream sockets. ``tc qdisc add dev lo root blackhole`` then drops every packet on that
private loopback: the client's connection stays open and nothing it sends is acknowledged or
answered, as in a network partition, while the relay's leg to the server (opened in the
machine's namespace) is untouched. Only loopback addresses are used.

It prints one JSON line: for each case, the seconds until the query failed (or that it was
still waiting), and whether ``config.unavailable`` counts the error as the database being
unreachable (the 503).
"""

import contextlib
import ctypes
import json
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any

CLONE_NEWNET = 0x40000000
RELAY_PORT = 15432
#: One upstream socket per client connection the cases open (sent, waiting, control).
CONNECTIONS = 3


def pump(source: socket.socket, target: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            target.sendall(data)


def relay(listener: socket.socket, upstreams: list[socket.socket]) -> None:
    for upstream in upstreams:
        client, _ = listener.accept()
        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pump, args=(upstream, client), daemon=True).start()


def ip(*args: str) -> None:
    subprocess.run(args, check=True, timeout=10)


def black_hole(on: bool) -> None:
    if on:
        ip("tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:", "blackhole")
    else:
        ip("tc", "qdisc", "del", "dev", "lo", "root", "handle", "1:")


def timed_failure(run: Any, wait: float) -> dict[str, Any]:
    """Runs ``run`` in a thread: the seconds until it raised, or that it ran on past ``wait``."""
    from config.unavailable import database_unreachable

    outcome: dict[str, Any] = {}

    def target() -> None:
        started = time.monotonic()
        try:
            run()
        except Exception as error:
            outcome["error"] = error
        outcome["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(wait)
    if thread.is_alive():
        return {"failed": False, "still_waiting_after": wait}
    error = outcome.get("error")
    return {
        "failed": error is not None,
        "seconds": round(outcome["seconds"], 2),
        "error": type(error).__name__,
        "message": str(error)[:200],
        "unreachable": database_unreachable(error),
    }


def main(host: str, port: int) -> None:
    upstreams = [socket.create_connection((host, port), timeout=10) for _ in range(CONNECTIONS)]
    for upstream in upstreams:
        upstream.settimeout(None)
    if ctypes.CDLL(None, use_errno=True).unshare(CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNET)")
    ip("ip", "link", "set", "lo", "up")
    listener = socket.create_server(("127.0.0.1", RELAY_PORT))
    threading.Thread(target=relay, args=(listener, upstreams), daemon=True).start()

    # The settings read DATABASE_URL (and the timeouts) from the environment the test gave.
    os.environ["DATABASE_URL"] = os.environ["DATABASE_URL"].replace(
        f"@{host}:{port}/", f"@127.0.0.1:{RELAY_PORT}/"
    )
    import django

    django.setup()
    from django.db import connection
    from django.db.backends.postgresql.base import DatabaseWrapper

    def opened(alias: str, options: dict[str, Any]) -> Any:
        """A connection of these settings, open and used once; a query thread may use it."""
        wrapper = DatabaseWrapper({**connection.settings_dict, "OPTIONS": options}, alias=alias)
        query(wrapper, "SELECT 1")
        wrapper.inc_thread_sharing()
        return wrapper

    def query(wrapper: Any, sql: str) -> None:
        with wrapper.cursor() as cursor:
            cursor.execute(sql)
            cursor.fetchall()

    options = dict(connection.settings_dict["OPTIONS"])
    report: dict[str, Any] = {"options": options}

    # 1. A statement sent into the silence: never acknowledged (tcp_user_timeout).
    sent = opened("sent", options)
    black_hole(True)
    report["sent"] = timed_failure(lambda: query(sent, "SELECT 1"), wait=30)
    black_hole(False)

    # 2. A statement already sent and acknowledged, its answer awaited when the network
    #    goes silent (keepalive probes, bounded by the user timeout).
    waiting = opened("waiting", options)
    threading.Timer(1.0, black_hole, args=(True,)).start()
    report["waiting"] = timed_failure(lambda: query(waiting, "SELECT pg_sleep(3)"), wait=30)
    black_hole(False)

    # 3. Control: the same connection without keepalives or a user timeout waits on.
    bound = float(os.environ["DATABASE_TCP_USER_TIMEOUT"])
    plain = {
        name: value
        for name, value in options.items()
        if not name.startswith(("keepalives", "tcp_user_timeout"))
    }
    control = opened("control", plain)
    black_hole(True)
    report["control"] = timed_failure(lambda: query(control, "SELECT 1"), wait=3 * bound)

    print(json.dumps(report), flush=True)
    os._exit(0)  # the control's thread is still blocked in the kernel: leave it


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
