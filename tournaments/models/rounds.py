from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _

from tournaments.common.limits import ROUND_NUMBER_MAX, TABLE_NUMBER_MAX
from tournaments.common.seats import MAX_SEATS
from tournaments.models.tournaments import Entry, Tournament


class SeatPosition(models.IntegerChoices):
    SEAT_0 = 0, _("Seat 0")
    SEAT_1 = 1, _("Seat 1")
    SEAT_2 = 2, _("Seat 2")
    SEAT_3 = 3, _("Seat 3")
    SEAT_4 = 4, _("Seat 4")
    SEAT_5 = 5, _("Seat 5")


def seat_position_check(field: str, name: str) -> models.CheckConstraint:
    """A check that ``field`` is a seat position of some table, 0 … ``MAX_SEATS`` − 1 (NULL
    passes, as in SQL); the services keep it within its own table's seats."""
    return models.CheckConstraint(condition=Q(**{f"{field}__range": (0, MAX_SEATS - 1)}), name=name)


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    SEATED = "seated", _("Seated")
    PLAYING = "playing", _("Playing")
    CLOSED = "closed", _("Closed")


class Round(models.Model):
    """A round (轮) of a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.IntegerField(_("number"), validators=[MaxValueValidator(ROUND_NUMBER_MAX)])
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )
    seed = models.BigIntegerField(
        _("seating seed"),
        null=True,
        blank=True,
        help_text=_("The seed the seating engine drew this round's seats with."),
    )
    seating_explanation = models.TextField(_("how the round was seated"), blank=True)

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(number__lte=ROUND_NUMBER_MAX), name="round_number_at_most_max"
            ),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_known"
            ),
            models.CheckConstraint(condition=Q(seed__gte=0), name="round_seed_non_negative"),
        )

    def __str__(self) -> str:
        return f"{self.tournament} – R{self.number}"


class Table(models.Model):
    """A table (桌) of three players in one round."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.IntegerField(_("number"), validators=[MaxValueValidator(TABLE_NUMBER_MAX)])
    section = models.SmallIntegerField(
        _("section"),
        default=1,
        help_text=_("Duplicate: every table of a section plays the same boards (复式)."),
    )
    first_bidder = models.SmallIntegerField(
        _("first bidder of hand 1"),
        null=True,
        blank=True,
        help_text=_(
            "Seat that bids first in the table's first hand; it moves one seat each "
            "hand.  Empty when boards decide (duplicate)."
        ),
    )

    class Meta:
        ordering = ("round", "number")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(number__lte=TABLE_NUMBER_MAX), name="table_number_at_most_max"
            ),
            models.CheckConstraint(condition=Q(section__gt=0), name="table_section_positive"),
            seat_position_check("first_bidder", "table_first_bidder_range"),
        )

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Seat(models.Model):
    """An entry sitting at a position of a table (座位): 0, 1, 2 (, 3 at a four-seat table).

    ``round`` duplicates ``table.round`` so the database can enforce one seat
    per entry per round; on PostgreSQL a trigger keeps the two consistent.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    position = models.SmallIntegerField(_("position"), choices=SeatPosition.choices)
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seats", verbose_name=_("entry")
    )

    class Meta:
        ordering = ("table", "position")
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = (
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            seat_position_check("position", "seat_position_range"),
        )

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.entry}"


class RefereeAssignment(models.Model):
    """A referee (裁判) assigned to a whole round, or to one table of it."""

    round = models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        related_name="referee_assignments",
        verbose_name=_("round"),
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="referee_assignments",
        verbose_name=_("table"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="referee_assignments",
        verbose_name=_("referee"),
    )

    class Meta:
        ordering = ("round", "table", "user")
        verbose_name = _("referee assignment")
        verbose_name_plural = _("referee assignments")
        constraints = (
            models.UniqueConstraint(
                fields=["round", "user"],
                condition=Q(table__isnull=True),
                name="referee_assignment_round_unique",
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(table__isnull=False),
                name="referee_assignment_table_unique",
            ),
        )

    def __str__(self) -> str:
        return f"{self.user} @ {self.table or self.round}"


class RoundBye(models.Model):
    """An active entry that sat out a round (轮空).  A bye scores nothing (SPEC R10.8.6);
    the seating engine reads these to spread byes."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="byes", verbose_name=_("entry")
    )

    class Meta:
        ordering = ("round", "entry")
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = (
            models.UniqueConstraint(fields=["round", "entry"], name="round_bye_once_per_entry"),
        )

    def __str__(self) -> str:
        return f"{self.round}: bye {self.entry}"


class RoundLogKind(models.TextChoices):
    SEATED = "seated", _("Seated")
    STARTED = "started", _("Started")
    CLOSED = "closed", _("Closed")
    FORCED_CLOSE = "forced_close", _("Closed with unfinished hands")
    REOPENED = "reopened", _("Reopened")
    SEAT_OVERRIDE = "seat_override", _("Seat override")
    SEAT_CORRECTION = "seat_correction", _("Seat correction")
    HAND_ADDED = "hand_added", _("Hand added beyond the round's hands")


class RoundLog(models.Model):
    """What a director did to a round, when and why (seatings, overrides, corrections,
    forced closes).  Rows are only ever added: the database refuses UPDATE and DELETE
    (migration 0011)."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="log", verbose_name=_("round")
    )
    kind = models.CharField(_("kind"), max_length=20, choices=RoundLogKind.choices)
    reason = models.TextField(_("reason"), blank=True)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
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
        ordering = ("round", "recorded_at", "id")
        verbose_name = _("round log entry")
        verbose_name_plural = _("round log")
        constraints = (
            models.CheckConstraint(
                condition=Q(kind__in=RoundLogKind.values), name="round_log_kind_known"
            ),
        )

    def __str__(self) -> str:
        return f"{self.round}: {self.kind}"
