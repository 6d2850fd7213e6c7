from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerHeartbeat(models.Model):
    """When a Celery worker last ran the ``worker_heartbeat`` task (one row per name).

    Beat sends the task every ``WORKER_HEARTBEAT_SECONDS`` and only a live worker runs it,
    so the row's age tells any web process, with one cheap read, whether tasks are being
    run at all (``/healthz``).
    """

    name = models.CharField(_("name"), max_length=64, primary_key=True)
    beat_at = models.DateTimeField(_("last heartbeat"))

    class Meta:
        verbose_name = _("worker heartbeat")
        verbose_name_plural = _("worker heartbeats")

    def __str__(self) -> str:
        return f"{self.name} at {self.beat_at}"
