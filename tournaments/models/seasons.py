"""A club's season (赛季): tournaments grouped, players merged, a rating ladder and season
points.  The ladder rows are a projection of the counted tournaments' hands
(``tournaments.season.services.season_recompute``), rebuilt whole, never edited."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from tournaments.models.players import Player
from tournaments.models.tournaments import Tournament


class SeasonStatus(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Season(models.Model):
    """Tournaments of one club (or federation) counted together.  What counts: the chosen
    tournaments, of the chosen rule profiles and formats (an empty list: any)."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=SeasonStatus.choices, default=SeasonStatus.OPEN
    )
    is_public = models.BooleanField(_("public"), default=True)
    profiles = models.JSONField(_("rule profiles counted"), default=list, blank=True)
    formats = models.JSONField(_("formats counted"), default=list, blank=True)
    tournaments = models.ManyToManyField(
        Tournament, blank=True, related_name="seasons", verbose_name=_("tournaments")
    )
    #: The log versions of the counted tournaments the stored ladder was computed from
    #: (``{tournament id: log version}``); ``None`` before the first computation.
    computed_from = models.JSONField(_("computed from"), null=True, blank=True, editable=False)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "id")
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = (
            models.CheckConstraint(
                condition=Q(status__in=SeasonStatus.values), name="season_status_known"
            ),
        )

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """A director merged ``merged`` (a duplicate registration) into ``kept``: the entries
    listed in ``entries`` moved.  Undone by ``undone_at`` (the entries moved back), allowed
    while no closed season counts any of those entries' tournaments."""

    kept = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("kept player")
    )
    merged = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("merged player")
    )
    entries = models.JSONField(_("entries moved"), default=list)
    reason = models.TextField(_("reason"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), db_default=Now())
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("undone by"),
    )

    class Meta:
        ordering = ("-recorded_at", "-id")
        verbose_name = _("player merge")
        verbose_name_plural = _("player merges")
        constraints = (
            models.CheckConstraint(condition=~Q(kept=models.F("merged")), name="merge_two_players"),
            models.UniqueConstraint(
                fields=["merged"], condition=Q(undone_at=None), name="merge_once_while_in_force"
            ),
        )

    def __str__(self) -> str:
        return f"{self.merged} → {self.kept}"


class SeasonRating(models.Model):
    """One player's place on a season's ladder, as last computed."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("season")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    rank = models.IntegerField(_("rank"))
    mu = models.FloatField(_("rating (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    ordinal = models.FloatField(_("ladder rating (μ − 3σ)"))
    points = models.IntegerField(_("season points"))
    events = models.IntegerField(_("events played"))
    hands = models.IntegerField(_("hands played"))
    #: The change of ``ordinal`` over the player's last event (0 after their first).
    trend = models.FloatField(_("trend"), default=0.0)

    class Meta:
        ordering = ("season", "rank", "player")
        verbose_name = _("season rating")
        verbose_name_plural = _("season ratings")
        constraints = (
            models.UniqueConstraint(fields=["season", "player"], name="season_rating_once"),
        )

    def __str__(self) -> str:
        return f"{self.season}: #{self.rank} {self.player}"


class SeasonStep(models.Model):
    """A player's rating, rank and points after one counted tournament of the season (the
    points of their chart)."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="steps", verbose_name=_("season")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="+", verbose_name=_("tournament")
    )
    order = models.IntegerField(_("event number"))
    placing = models.IntegerField(_("placing"), null=True, blank=True)
    field = models.IntegerField(_("players in the event"), default=0)
    mu = models.FloatField(_("rating (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    ordinal = models.FloatField(_("ladder rating (μ − 3σ)"))
    rank = models.IntegerField(_("ladder rank"))
    points = models.IntegerField(_("points of the event"))
    hands = models.IntegerField(_("hands played"), default=0)

    class Meta:
        ordering = ("season", "player", "order")
        verbose_name = _("season step")
        verbose_name_plural = _("season steps")
        constraints = (
            models.UniqueConstraint(
                fields=["season", "player", "tournament"], name="season_step_once"
            ),
        )
        indexes = (models.Index(fields=["season", "tournament"], name="season_step_by_event"),)

    def __str__(self) -> str:
        return f"{self.season}: {self.player} after {self.tournament}"
