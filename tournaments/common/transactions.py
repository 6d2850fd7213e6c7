"""The transaction of a hand write, and one that a caller wraps around it.

A hand service runs in ``transaction.atomic``; nested in a caller's block, that is a
savepoint, so the caller can go on after a refusal. The referee API cannot: it rolls back
everything when the service refuses, and writes its idempotency record in the same
transaction when it does not. Inside ``caller_transaction`` a hand service therefore joins
the caller's transaction without a savepoint (two round trips fewer per referee action).

A write that changes what the standings count locks the tournament's row until its commit
(the row's mark and log version: ``hands.results``), and every table of the tournament
takes its turn there. Inside ``caller_transaction`` that part waits (``before_commit``)
until the caller has done its own writes (the referee API's answer and idempotency
record), so the row is held for those statements only, not for the answer's building too.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import transaction

P = ParamSpec("P")
R = TypeVar("R")

_JOINED: ContextVar[bool] = ContextVar("hand_write_joins_caller", default=False)
#: What ``before_commit`` put off in the current ``caller_transaction`` (None: outside one).
_LAST: ContextVar[list[Callable[[], None]] | None] = ContextVar("hand_write_last", default=None)


def hand_write_atomic(func: Callable[P, R]) -> Callable[P, R]:
    """``transaction.atomic`` for a hand service: no savepoint inside
    ``caller_transaction`` (a refusal there rolls the caller's whole transaction back)."""

    @wraps(func)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        with transaction.atomic(savepoint=not _JOINED.get()):
            return func(*args, **kwargs)

    return inner


@contextmanager
def caller_transaction() -> Iterator[None]:
    """One transaction around a hand service call and the caller's own writes; any error
    inside rolls all of it back."""
    with transaction.atomic():
        token = _JOINED.set(True)
        last = _LAST.set([])
        try:
            yield
            before_commit_run()
        finally:
            _LAST.reset(last)
            _JOINED.reset(token)


def before_commit(write: Callable[[], None]) -> None:
    """Run ``write`` last in the ``caller_transaction`` (after the caller's own writes, just
    before the commit), or now outside one. For the statements that lock a row every table
    shares (the tournament's), so that they hold it for as short a time as they can.

    Until then the database has not seen ``write``: a read of what it writes, in the same
    transaction, runs ``before_commit_run`` first (a hand write does, and the answer's
    release of a duplicate board)."""
    waiting = _LAST.get()
    if waiting is None:
        write()
    else:
        waiting.append(write)


def before_commit_run() -> None:
    """Run now, in order, what ``before_commit`` put off."""
    waiting = _LAST.get()
    while waiting:
        waiting.pop(0)()
