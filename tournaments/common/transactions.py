"""The transaction of a hand write, and one that a caller wraps around it.

A hand service runs in ``transaction.atomic``; nested in a caller's block, that is a
savepoint, so the caller can go on after a refusal. The referee API cannot: it rolls back
everything when the service refuses, and writes its idempotency record in the same
transaction when it does not. Inside ``caller_transaction`` a hand service therefore joins
the caller's transaction without a savepoint (two round trips fewer per referee action).
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
        try:
            yield
        finally:
            _JOINED.reset(token)
