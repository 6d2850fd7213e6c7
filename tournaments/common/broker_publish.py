"""Publishing Celery messages off the request's path.

A write that changed scores claims the standings flag in the database and hands the
tournament id to this module; one publisher thread per process sends the message with a
short connect and socket timeout and no retries. A broker that is down, or that accepts
connections and never answers, therefore costs a request nothing: the referee's answer
never waits for Redis. The queue in between is bounded (``BROKER_PUBLISH_QUEUE``); a
message that cannot be queued or sent releases its flag, and beat's ``standings_sweep``
sends what was lost (the database stays the one source of truth: this queue holds ids to
send, never state).
"""

import atexit
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Message:
    send: Callable[[Any], object]  # called with a kombu connection of short timeouts
    failed: Callable[[], None]  # releases what the sender claimed; may use the database


_queue: "queue.Queue[_Message] | None" = None
_start_lock = threading.Lock()  # guards only the thread's start, never any state


def broker_connection() -> Any:
    """A write connection to the broker that gives up after ``BROKER_PUBLISH_TIMEOUT``
    seconds: one connect attempt, short socket timeouts (kombu retries are off)."""
    from config import celery_app

    timeout = settings.BROKER_PUBLISH_TIMEOUT
    return celery_app.connection_for_write(
        connect_timeout=timeout,
        transport_options={
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "max_retries": 1,
            "interval_start": 0,
            "interval_step": 0,
            "interval_max": 0,
        },
    )


def _publish(message: _Message) -> None:
    try:
        with broker_connection() as conn:
            message.send(conn)
    except Exception as exc:
        logger.warning("broker publish failed (%r); the sweep will send it", exc)
        try:
            message.failed()
        except Exception:
            logger.exception("could not release a failed publish (the sweep clears it)")
        finally:
            connection.close()  # this thread's database connection, if the release opened one


def _run(messages: "queue.Queue[_Message]") -> None:
    while True:
        _publish(messages.get())
        messages.task_done()


def _messages() -> "queue.Queue[_Message]":
    global _queue
    with _start_lock:
        if _queue is None:
            _queue = queue.Queue(maxsize=settings.BROKER_PUBLISH_QUEUE)
            threading.Thread(
                target=_run, args=(_queue,), name="broker-publish", daemon=True
            ).start()
            # A short-lived process (a management command) sends what it queued before
            # it exits, waiting a few publish timeouts at most.
            atexit.register(broker_publish_drain, timeout=3 * settings.BROKER_PUBLISH_TIMEOUT)
        return _queue


def broker_publish_soon(*, send: Callable[[Any], object], failed: Callable[[], None]) -> bool:
    """Queue ``send`` for the publisher thread; never blocks. False (and nothing queued)
    when the queue is full: the caller releases what it claimed."""
    try:
        _messages().put_nowait(_Message(send=send, failed=failed))
    except queue.Full:
        logger.warning("broker publish queue full; the sweep will send it")
        return False
    return True


def broker_publish_drain(timeout: float = 10.0) -> bool:
    """Wait until every queued message was sent or given up (tests); True when drained."""
    messages = _queue
    if messages is None:
        return True
    done = threading.Event()

    def wait() -> None:
        messages.join()
        done.set()

    threading.Thread(target=wait, daemon=True).start()
    return done.wait(timeout)
