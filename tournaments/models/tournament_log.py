from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Entry, Tournament


class TournamentLogKind(models.TextChoices):
    SETTINGS_CHANGED = "settings_changed", _("Settings changed")
    ENTRY_WITHDRAWN = "entry_withdrawn", _("Entry withdrawn")
    ENTRY_REINSTATED = "entry_reinstated", _("Entry reinstated")
    PENALTY_REVOKED = "penalty_revoked", _("Penalty revoked")
    FINAL_PUBLISHED = "final_published", _("Final standings published")
    RESULTS_REOPENED = "results_reopened", _("Final results reopened")


class TournamentLog(models.Model):
    """Who changed what about a tournament, when (the database's clock) and why: settings
    (old → new), withdrawals and reinstatements, revoked penalties, the final standings
    published and reopened.  Append-only: the
    database refuses UPDATE and DELETE (migration 0011).  The row comes first: the database
    lets a tournament's status, ranking settings or an entry's withdrawal change only to what
    the newest row naming them says (migration 0024)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="log", verbose_name=_("tournament")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=TournamentLogKind.choices)
    entry = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entry"),
    )
    reason = models.TextField(_("reason"), blank=True)
    #: ``{"field": [old, new], ...}`` for a settings change; ``{}`` otherwise.
    changes = models.JSONField(_("changes"), default=dict, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), db_default=Now())

    class Meta:
        ordering = ("tournament", "recorded_at", "id")
        verbose_name = _("tournament log entry")
        verbose_name_plural = _("tournament log")
        constraints = (
            models.CheckConstraint(
                condition=Q(kind__in=TournamentLogKind.values), name="tournament_log_kind_known"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament}: {self.kind}"
