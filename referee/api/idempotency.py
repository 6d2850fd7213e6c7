"""Exactly-once API writes: the ``Idempotency-Key`` header and ``If-Match`` versions.

A write runs in one transaction with the insert of its ``IdempotencyRecord``
(``caller_transaction``: a hand service joins it without a savepoint); a retry with
the same key and request gets the recorded status and body back and writes nothing. Two
concurrent requests with one key: the hand row lock (or the record's unique constraint)
lets one win; the other rolls back and answers the winner's record.

A write the state or the rules refuse (``KEPT_REFUSAL_STATUSES``) keeps its refusal under
the key in the same way, once the write has rolled back: the key's answer is its first,
so a retry is answered the refusal even after the state has changed (an out-of-turn bid
stays refused under its key once it is that seat's turn: a new attempt takes a new key).
"""

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.request import Request
from rest_framework.response import Response

from referee.api.exception_handlers import application_error_answer
from tournaments.common.errors import ApplicationError
from tournaments.common.idempotency import key_expired_refusal
from tournaments.common.rows import Columns, Insert, column, fetch_one, table_name
from tournaments.common.transactions import caller_transaction
from tournaments.models import IdempotencyRecord

KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
DEVICE_PATTERN = re.compile(r"[\x20-\x7e]{0,64}")
VERSION_PATTERN = re.compile(r'(?:W/)?"?(\d{1,9})"?')
REPLAYED_HEADER = "Idempotent-Replayed"
#: The refusals a key keeps as its answer, as it keeps an accepted write's: the request was
#: read and allowed, and the state (409: ``hand_closed``, ``hand_in_progress``,
#: ``version_conflict``…) or the rules (422: ``out_of_turn``…) refused it. Not kept, so that
#: the key stays free for the same request: a refusal before the write runs (400 malformed,
#: 401/403 sign-in and permission, which the console resends with the same key after the
#: referee signs in, 404, 413, 415, 429, 503) and the key's own refusals
#: (``_KEY_REFUSALS``: the key has an answer already, or had one).
KEPT_REFUSAL_STATUSES = frozenset({409, 422})
_KEY_REFUSALS = frozenset({"idempotency_conflict", "idempotency_key_expired"})


_RECORD = Columns(IdempotencyRecord, "i")
#: ``_record_of``'s statement (one record at most: the user's key is unique), built once:
#: 330–550 µs a call against 1,030–3,790 µs for the ORM's ``filter().first()``, saving
#: 700–3,230 µs (``bench/write_sql_bench.py``, two runs on the shared 2-core machine).
_RECORD_SQL = (
    f"SELECT {_RECORD.sql} FROM {table_name(IdempotencyRecord)} i"
    f" WHERE i.{column(IdempotencyRecord, 'user')} = %s"
    f" AND i.{column(IdempotencyRecord, 'key')} = %s"
)


def _record_of(user_id: Any, key: str) -> IdempotencyRecord | None:
    """The record of a user's key (a write other than a hand's looks it up first)."""
    row = fetch_one(_RECORD_SQL, [user_id, key])
    return None if row is None else _RECORD.instance(row)


class NotKept(Exception):
    """A refusal that ``idempotent_write``'s ``perform`` raises and the key does not keep,
    whatever its status: the request was not allowed (its permission check, run in the
    write's transaction to read the hand once), so the key stays free, as for a refusal
    before the write runs."""

    def __init__(self, refusal: ApplicationError) -> None:
        super().__init__(refusal.code)
        self.refusal = refusal


class KeyAnswered(Exception):
    """Raised by ``idempotent_write``'s ``perform`` when its service found, under its row
    lock, the write of the request's key already done (a retry; it wrote nothing): the
    key's record is the answer. Nothing is built for an answer and the record's insert is not
    tried, which would fail on the key's unique constraint (and leave an ``ERROR`` in
    PostgreSQL's log for every retry at a table)."""


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


#: The record's insert, built once (one per write: ``tournaments.common.rows``): 220–1,570 µs
#: a call against 330–2,740 µs for ``IdempotencyRecord.objects.create``, saving 110–1,170 µs
#: on every write (``bench/write_sql_bench.py``, two runs on the shared 2-core machine).
_RECORD_INSERT = Insert(
    IdempotencyRecord, ["user_id", "key", "request_hash", "status_code", "body", "created_at"]
)


def idempotent_write(
    request: Request,
    key: str,
    perform: Callable[[], tuple[int, dict[str, Any]]],
    *,
    perform_finds_retries: bool = False,
) -> HttpResponse:
    """Run ``perform`` (returning status and body) once per user and key; a refusal it
    raises that the key keeps (``KEPT_REFUSAL_STATUSES``) is recorded as its answer.

    ``perform_finds_retries``: the write's service recognises a retry itself, under its
    row lock, and writes nothing for it (a hand's log holds the key of every write to the
    hand), so the record is not looked up first: ``perform`` raises ``KeyAnswered`` for a
    retry, which rolls back and answers the recorded original. The retry of a refused write
    (whose key has no event) fails to insert the record again, or, refused again, answers
    the recorded refusal.
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
            text = _record_save(user.pk, key, fingerprint, status, body)
    except KeyAnswered:
        record = _record_of(user.pk, key)
        if record is None:  # removed as expired since the service's check of the event's age
            raise key_expired_refusal() from None
        return _replay(record, fingerprint)
    except IntegrityError:
        # A concurrent request with the same key committed first: its insert of the record
        # won. The answer is the original's.
        record = _record_of(user.pk, key)
        if record is None:
            raise
        return _replay(record, fingerprint)
    except NotKept as not_kept:
        raise not_kept.refusal from None
    except ApplicationError as refusal:
        return refusal_answer(request, key, refusal, fingerprint=fingerprint)
    # The record's text is the answer: encoded once, not again by DRF's renderer (the API
    # renders JSON only; a replay's answer is the same JSON, decoded and rendered again).
    return HttpResponse(text, status=status, content_type="application/json")


def refusal_answer(
    request: Request, key: str, refusal: ApplicationError, *, fingerprint: str | None = None
) -> Response:
    """The answer to a write under ``key`` that ``refusal`` refused, the write rolled back:
    the key's recorded answer when it has one (a concurrent request with the key committed
    first, whose write made this one a refusal: a hand it started is now live at the
    table, ``hand_in_progress``), else the refusal, recorded under the key when the key
    keeps it (``KEPT_REFUSAL_STATUSES``; raised when not)."""
    fingerprint = fingerprint or _fingerprint(request)
    user: Any = request.user
    record = _record_of(user.pk, key)
    if record is not None:
        return _replay(record, fingerprint)
    status, body = application_error_answer(refusal)
    if status not in KEPT_REFUSAL_STATUSES or refusal.code in _KEY_REFUSALS:
        raise refusal
    try:
        with transaction.atomic():
            _record_save(user.pk, key, fingerprint, status, body)
    except IntegrityError:  # a concurrent request with the key recorded its answer first
        record = _record_of(user.pk, key)
        if record is None:
            raise
        return _replay(record, fingerprint)
    return Response(body, status=status)


def recorded_answer(request: Request, key: str) -> Response | None:
    """The answer recorded under ``key`` (a replay, or ``idempotency_conflict`` for another
    request), if any: for a write whose service keeps no record of its own answer."""
    record = _record_of(getattr(request.user, "pk", None), key)
    return None if record is None else _replay(record, _fingerprint(request))


def _record_save(user_id: Any, key: str, fingerprint: str, status: int, body: Any) -> str:
    """Keep ``body`` under the user's key; returns its JSON, as DRF's renderer writes it
    (compact, not ASCII-escaped)."""
    text = json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":"))
    _RECORD_INSERT.save(
        user_id=user_id,
        key=key,
        request_hash=fingerprint,
        status_code=status,
        body=text,
        created_at=timezone.now(),
    )
    return text
