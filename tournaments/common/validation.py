"""Checks of a service's plain arguments, run before anything is read or written.

A bad argument (wrong type, out of range, too long, a NUL character that PostgreSQL cannot
store, a lone surrogate that no UTF-8 database can) becomes ``ApplicationError("invalid")``
with ``fields`` naming it, like ``model_validate``; never a raw TypeError, DataError or
UnicodeEncodeError from the database driver.
"""

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.errors import ApplicationError
from tournaments.common.seats import MAX_SEATS, SEAT_COUNTS

#: HandEvent.idempotency_key is a varchar(128).
IDEMPOTENCY_KEY_MAX_LENGTH = 128
#: PostgreSQL's bigint, the widest integer column (and every primary key).
BIGINT_MAX = 2**63 - 1
#: PostgreSQL's integer (int4) and smallint (int2).
INT4_MAX = 2**31 - 1
INT2_MAX = 2**15 - 1
#: A penalty or adjustment is at most this many points either way (SPEC §9); the API, the
#: director's forms, the service and a database CHECK agree.
PENALTY_POINTS_MAX = 10_000


def invalid(field: str, message: str) -> ApplicationError:
    return ApplicationError("invalid", f"{field}: {message}", extra={"fields": {field: [message]}})


#: A lone surrogate (no Unicode character: UTF-8, so PostgreSQL and SQLite, cannot hold it).
_SURROGATE = re.compile("[\ud800-\udfff]")


def text_flaw(value: str) -> str | None:
    """Why ``value`` cannot be stored as text, or None: a NUL character (PostgreSQL refuses
    it) or a lone surrogate (no character at all: UTF-8, so PostgreSQL and SQLite, cannot
    encode it). Characters beyond the Basic Multilingual Plane (emoji, CJK extension B,
    private use) are ordinary text."""
    if "\x00" in value:
        return _("must not contain NUL characters.")
    if not value.isascii() and _SURROGATE.search(value):
        return _("must not contain lone surrogates (U+D800 to U+DFFF).")
    return None


def text_check(field: str, value: Any, *, max_length: int, allow_none: bool = False) -> None:
    """A string of at most ``max_length`` characters (code points, as the database counts
    them) that can be stored (``text_flaw``), or None if allowed."""
    if value is None and allow_none:
        return
    if not isinstance(value, str):
        raise invalid(field, _("must be text."))
    flaw = text_flaw(value)
    if flaw is not None:
        raise invalid(field, flaw)
    if len(value) > max_length:
        raise invalid(
            field,
            ngettext(
                "must be at most %(count)s character.",
                "must be at most %(count)s characters.",
                max_length,
            )
            % {"count": max_length},
        )


#: A reason is free text (the API accepts up to this many characters).
REASON_MAX_LENGTH = 2000


def reason_check(reason: Any) -> str:
    """A reason for a correction, override, penalty or dispute: text with a visible
    character, without NUL, at most REASON_MAX_LENGTH characters; returned stripped."""
    if not isinstance(reason, str) or not reason.strip():
        raise ApplicationError("reason_required", _("Give a reason."))
    text_check("reason", reason, max_length=REASON_MAX_LENGTH)
    return reason.strip()


def idempotency_key_check(value: Any) -> None:
    """None, or 1-128 printable characters."""
    if value is None:
        return
    text_check("idempotency_key", value, max_length=IDEMPOTENCY_KEY_MAX_LENGTH)
    if not value or not value.isprintable():
        raise invalid("idempotency_key", _("must be 1 to 128 printable characters."))


def int_check(
    field: str,
    value: Any,
    *,
    minimum: int = -BIGINT_MAX,
    maximum: int = BIGINT_MAX,
    allow_none: bool = False,
) -> None:
    """An integer (not a bool) within ``minimum..maximum`` (or None if allowed)."""
    if value is None and allow_none:
        return
    if not isinstance(value, int) or isinstance(value, bool):
        raise invalid(field, _("must be a whole number."))
    if not minimum <= value <= maximum:
        raise invalid(
            field,
            _("must be between %(minimum)s and %(maximum)s.")
            % {"minimum": minimum, "maximum": maximum},
        )


def at_most_check(field: str, value: Any, *, maximum: int) -> None:
    """A whole number above ``maximum`` is refused with the code ``too_large`` (other
    values are left to the caller's checks)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > maximum:
        message = _("must be at most %(maximum)s.") % {"maximum": maximum}
        raise ApplicationError(
            "too_large", f"{field}: {message}", extra={"fields": {field: [message]}}
        )


def bool_check(**values: Any) -> None:
    """Each keyword's value is True or False."""
    for field, value in values.items():
        if not isinstance(value, bool):
            raise invalid(field, _("must be true or false."))


def bool_per_seat_check(field: str, value: Any, seats: int) -> None:
    """One boolean per seat of a table of ``seats`` seats (a tuple or a list). Refused: not
    booleans, or a count no table has (``invalid``); a count some other table has
    (``seat_not_at_table``: well-formed, but not this table's)."""
    message = _("must be %(seats)d booleans, one per seat.") % {"seats": seats}
    if not isinstance(value, tuple | list) or not all(isinstance(item, bool) for item in value):
        raise invalid(field, message)
    if len(value) != seats:
        if len(value) in SEAT_COUNTS:
            raise not_at_table(field, message)
        raise invalid(field, message)


def seat_check(field: str, value: Any, seats: int, *, allow_none: bool = False) -> None:
    """A seat of a table of ``seats`` seats: a whole number 0 … ``seats`` - 1. Refused: not
    a number, or no seat of any table (``invalid``); a seat of bigger tables only
    (``seat_not_at_table``)."""
    int_check(field, value, minimum=0, maximum=MAX_SEATS - 1, allow_none=allow_none)
    if value is not None and value >= seats:
        raise not_at_table(
            field, _("must be a seat of the table, 0 to %(last)s.") % {"last": seats - 1}
        )


def not_at_table(field: str, message: str) -> ApplicationError:
    """A well-formed value this hand's table cannot have (a fourth seat at a three-seat
    table): refused with the code ``seat_not_at_table``, ``details.fields`` as ``invalid``."""
    return ApplicationError(
        "seat_not_at_table", f"{field}: {message}", extra={"fields": {field: [message]}}
    )
