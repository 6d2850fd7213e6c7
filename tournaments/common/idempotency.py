"""How long an API write's idempotency record (``IdempotencyRecord``) is kept.

A record is the answer to one write, kept so that a retry gets it again; it is removed
``IDEMPOTENCY_RECORD_DAYS`` after the write by a beat task.  A retry after that is refused
with ``idempotency_key_expired`` wherever the write can still be recognised: a hand write
(the hand's log keeps every key) and a penalty (the penalty keeps its user's key).
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext

from tournaments.common.errors import ApplicationError
from tournaments.models import IdempotencyRecord

#: Records removed per statement, so the delete never holds many row locks for long.
EXPIRE_BATCH = 1000


def idempotency_cutoff() -> datetime:
    """Writes recorded before this have no idempotency record any more."""
    return timezone.now() - timedelta(days=settings.IDEMPOTENCY_RECORD_DAYS)


def idempotency_retry_check(*, recorded_at: datetime) -> None:
    """Refuse a retry of a write recorded at ``recorded_at`` whose answer has expired."""
    if recorded_at < idempotency_cutoff():
        raise key_expired_refusal()


def key_expired_refusal() -> ApplicationError:
    """The refusal of a retry whose key's answer is no longer kept."""
    return ApplicationError(
        "idempotency_key_expired",
        ngettext(
            "This Idempotency-Key was used for a write more than %(days)s day ago, which "
            "was recorded once; its answer is no longer kept. Read the current state "
            "instead, or use a new key for a new write.",
            "This Idempotency-Key was used for a write more than %(days)s days ago, which "
            "was recorded once; its answer is no longer kept. Read the current state "
            "instead, or use a new key for a new write.",
            settings.IDEMPOTENCY_RECORD_DAYS,
        )
        % {"days": settings.IDEMPOTENCY_RECORD_DAYS},
    )


def idempotency_records_expire(*, batch: int = EXPIRE_BATCH) -> int:
    """Remove every record older than the cutoff, ``batch`` rows per transaction; return
    how many were removed."""
    cutoff = idempotency_cutoff()
    removed = 0
    while True:
        with transaction.atomic():
            ids = list(
                IdempotencyRecord.objects.filter(created_at__lt=cutoff)
                .order_by("pk")
                .values_list("pk", flat=True)[:batch]
            )
            if not ids:
                return removed
            removed += IdempotencyRecord.objects.filter(pk__in=ids).delete()[0]
