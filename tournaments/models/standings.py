from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Entry, Tournament


class StandingSnapshot(models.Model):
    """An entry's rank and total (排名) as computed from the log at ``log_version``."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings", verbose_name=_("tournament")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="standings", verbose_name=_("entry")
    )
    rank = models.IntegerField(_("rank"))
    total = models.IntegerField(_("total"))
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    log_version = models.IntegerField(_("log version"))
    computed_at = models.DateTimeField(_("computed at"), default=timezone.now)

    class Meta:
        ordering = ("tournament", "-log_version", "rank")
        verbose_name = _("standing snapshot")
        verbose_name_plural = _("standing snapshots")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "entry", "log_version"], name="standing_snapshot_unique"
            ),
            models.CheckConstraint(condition=Q(rank__gt=0), name="standing_rank_positive"),
            models.CheckConstraint(
                condition=Q(log_version__gte=0), name="standing_log_version_non_negative"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament} v{self.log_version} #{self.rank} {self.entry}"
