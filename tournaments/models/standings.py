from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Entry, Tournament


class StandingSnapshot(models.Model):
    """An entry's rank and the values it was ranked on (排名), as computed from the log
    at ``log_version``.

    One computation writes one row per entry with the same ``log_version``.  The latest
    computation of each ``round_number`` is kept, so the history holds the standings as
    they stood at the end of every round (rank progressions) and the newest ones.
    The database inserts a row only at the tournament's current ``log_version`` and only
    when its totals, counts and ``withdrawn`` are what the rows say, and never updates one
    (migration 0024).
    """

    # No index of its own: the unique constraint and the index below start with it.
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="standings",
        db_index=False,
        verbose_name=_("tournament"),
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="standings", verbose_name=_("entry")
    )
    rank = models.IntegerField(_("rank"))
    # Sums of scores (``HandSeatResult.score``), 64 bits as the scores (migration 0038).
    total = models.BigIntegerField(_("total"))
    tiebreaks = models.JSONField(_("tiebreaks"), default=list, blank=True)
    log_version = models.BigIntegerField(_("log version"))
    round_number = models.IntegerField(
        _("round"), default=0, help_text=_("The latest round with a counted hand.")
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    deal_points = models.BigIntegerField(_("deal points"), default=0)
    penalty_points = models.BigIntegerField(_("penalty points"), default=0)
    hands_played = models.IntegerField(_("hands played"), default=0)
    landlord_hands = models.IntegerField(_("hands as landlord (地主)"), default=0)
    landlord_wins = models.IntegerField(_("wins as landlord"), default=0)
    matchpoints = models.IntegerField(_("matchpoints (比赛分)"), default=0)
    matchpoint_top = models.IntegerField(_("matchpoint top"), default=0)
    boards_scored = models.IntegerField(_("boards scored"), default=0)
    tops = models.IntegerField(_("tops"), default=0)
    mp_percentage = models.FloatField(_("matchpoint %"), default=0.0)
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
        indexes = (
            models.Index(fields=["tournament", "log_version", "rank"], name="standing_by_version"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} v{self.log_version} #{self.rank} {self.entry}"


class StandingsState(models.Model):
    """The coalescing flag of a tournament's standings recompute.

    ``queued_at`` is set by the one request that sends a recompute task and cleared by
    that task when it starts, so a burst of finished hands sends at most one task while
    one is waiting, whatever process handles them (the database row holds the flag).
    At most one computation runs per tournament (``standings_snapshot_update``).
    """

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="standings_state",
        verbose_name=_("tournament"),
    )
    queued_at = models.DateTimeField(_("recompute queued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("standings state")
        verbose_name_plural = _("standings states")

    def __str__(self) -> str:
        return f"{self.tournament}: queued at {self.queued_at}"
