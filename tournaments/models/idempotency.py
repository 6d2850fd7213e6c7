from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class IdempotencyRecord(models.Model):
    """The answer to one API write, kept under the client's ``Idempotency-Key``: the
    write's, or the refusal of the state (409) or the rules (422) that stopped it.

    A retry with the same key and the same request gets this answer again and writes
    nothing; the same key with another request is refused.  The row of an accepted write
    is written in the write's own transaction, so it exists exactly when the write does;
    a refusal's once the write has rolled back (``referee.api.idempotency``).  Records older than
    ``IDEMPOTENCY_RECORD_DAYS`` are removed by a beat task (``idempotency_records_expire``).
    """

    #: No index of its own: ``idempotency_key_once_per_user`` (user, key) leads with it.
    #: One index fewer to insert into at every write.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
        db_index=False,
    )
    key = models.CharField(_("idempotency key"), max_length=128)
    request_hash = models.CharField(_("request hash"), max_length=64)
    status_code = models.SmallIntegerField(_("status code"))
    # Text, not JSON: PostgreSQL's jsonb reorders keys, and a retry gets the same bytes back.
    body = models.TextField(_("response body (JSON)"))
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("idempotency record")
        verbose_name_plural = _("idempotency records")
        constraints = (
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user"),
        )
        indexes = (models.Index(fields=["created_at"], name="idempotency_record_by_age"),)

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"
