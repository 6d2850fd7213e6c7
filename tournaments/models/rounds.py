from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournaments import Entry, Tournament

SEAT_POSITIONS = (0, 1, 2)


class SeatPosition(models.IntegerChoices):
    SEAT_0 = 0, _("Seat 0")
    SEAT_1 = 1, _("Seat 1")
    SEAT_2 = 2, _("Seat 2")


def seat_position_check(field: str, name: str) -> models.CheckConstraint:
    """A check that ``field`` is a seat position 0–2 (NULL passes, as in SQL)."""
    return models.CheckConstraint(condition=Q(**{f"{field}__range": (0, 2)}), name=name)


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
    number = models.IntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=RoundStatus.choices, default=RoundStatus.DRAFT
    )

    class Meta:
        ordering = ("tournament", "number")
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = (
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=RoundStatus.values), name="round_status_known"
            ),
        )

    def __str__(self) -> str:
        return f"{self.tournament} – R{self.number}"


class Table(models.Model):
    """A table (桌) of three players in one round."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.IntegerField(_("number"))

    class Meta:
        ordering = ("round", "number")
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = (
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gt=0), name="table_number_positive"),
        )

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class Seat(models.Model):
    """An entry sitting at position 0–2 of a table (座位).

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
