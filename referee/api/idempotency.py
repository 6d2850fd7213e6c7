"""Exactly-once API writes: the ``Idempotency-Key`` header and ``If-Match`` versions.

A write runs in one transaction with the insert of its ``IdempotencyRecord``
(``caller_transaction``: a hand service joins it without a savepoint); a retry with
the same key and request gets the recorded status and body back and writes nothing. Two
concurrent requests with one key: the hand row lock (or the record's unique constraint)
lets one win; the other rolls back and answers the winner's record.
"""

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.common.errors import ApplicationError
from tournaments.common.rows import Columns, Insert, column, fetch_one, table_name
from tournaments.common.transactions import caller_transaction
from tournaments.models import IdempotencyRecord

KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
DEVICE_PATTERN = re.compile(r"[\x20-\x7e]{0,64}")
VERSION_PATTERN = re.compile(r'(?:W/)?"?(\d{1,9})"?')
REPLAYED_HEADER = "Idempotent-Replayed"


_RECORD = Columns(IdempotencyRecord, "i")
#: ``_record_of``'s statement (one record at most: the user's key is unique), built once.
_RECORD_SQL = (
    f"SELECT {_RECORD.sql} FROM {table_name(IdempotencyRecord)} i"
    f" WHERE i.{column(IdempotencyRecord, 'user')} = %s"
    f" AND i.{column(IdempotencyRecord, 'key')} = %s"
)


def _record_of(user_id: Any, key: str) -> IdempotencyRecord | None:
    """The record of a user's key (a write other than a hand's looks it up first)."""
    row = fetch_one(_RECORD_SQL, [user_id, key])
    return None if row is None else _RECORD.instance(row)


def idempotency_key(request: Request) -> str:
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise ApplicationError(
            "idempotency_key_required", _("Every write needs an Idempotency-Key header.")
        )
    if not KEY_PATTERN.fullmatch(key):
        raise ApplicationError(
            "validation",
            _("An Idempotency-Key is 1 to 128 letters, digits or the characters _ . : -"),
        )
    return key


def expected_version(request: Request) -> int | None:
    """The hand version the client saw (``If-Match: "7"``), if it sent one."""
    value = request.headers.get("If-Match")
    if value is None or value.strip() == "*":
        return None
    found = VERSION_PATTERN.fullmatch(value.strip())
    if found is None:
        raise ApplicationError("validation", _('If-Match is the hand\'s version, e.g. "7".'))
    return int(found.group(1))


def device_id(request: Request) -> str:
    value = request.headers.get("X-Device-Id", "")
    if not DEVICE_PATTERN.fullmatch(value):
        raise ApplicationError("validation", _("X-Device-Id is up to 64 printable characters."))
    return value


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, ensure_ascii=True, default=str)
    text = f"{request.method} {request.path}\n{body}"
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(record: IdempotencyRecord, fingerprint: str) -> Response:
    if record.request_hash != fingerprint:
        raise ApplicationError(
            "idempotency_conflict",
            _("This idempotency key was already used for a different request."),
        )
    body = json.loads(record.body)
    return Response(body, status=record.status_code, headers={REPLAYED_HEADER: "true"})


#: The record's insert, built once (one per write: ``tournaments.common.rows``).
_RECORD_INSERT = Insert(
    IdempotencyRecord, ["user_id", "key", "request_hash", "status_code", "body", "created_at"]
)


def idempotent_write(
    request: Request,
    key: str,
    perform: Callable[[], tuple[int, dict[str, Any]]],
    *,
    perform_finds_retries: bool = False,
) -> Response:
    """Run ``perform`` (returning status and body) once per user and key.

    ``perform_finds_retries``: the write's service recognises a retry itself, under its
    row lock, and writes nothing for it (a hand's log holds the key of every write to the
    hand), so the record is not looked up first: a retry then fails to insert the record
    again, rolls back, and answers the recorded original.
    """
    fingerprint = _fingerprint(request)
    user: Any = request.user
    if not perform_finds_retries:
        record = _record_of(user.pk, key)
        if record is not None:
            return _replay(record, fingerprint)
    try:
        with caller_transaction():
            status, body = perform()
            _RECORD_INSERT.save(
                user_id=user.pk,
                key=key,
                request_hash=fingerprint,
                status_code=status,
                body=json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False),
                created_at=timezone.now(),
            )
    except (IntegrityError, ApplicationError):
        # A concurrent request with the same key committed first: its insert of the record
        # won, or its write made this one a refusal (a hand it started is now live at the
        # table: ``hand_in_progress``). Either way the answer is the original's.
        record = _record_of(user.pk, key)
        if record is None:
            raise
        return _replay(record, fingerprint)
    return Response(body, status=status)
