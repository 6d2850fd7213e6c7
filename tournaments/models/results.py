from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Now
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models.boards import Board
from tournaments.models.hands import Hand
from tournaments.models.rounds import Round, Table, seat_position_check
from tournaments.models.tournaments import Entry, Tournament


class HandSeatResult(models.Model):
    """One seat's score in one counted hand (每座得分): the rows standings aggregate.

    Written only by ``tournaments.hands.results.hand_results_sync``, from the
    hand's summary and its table's seats, so a hand that stops counting (voided,
    disputed, corrected) loses its rows in the same transaction.  The database checks each
    row against its hand and seat (migration 0011): never updated, inserted only when it
    says what the hand says, deleted only once it no longer does.  ``round``, ``table``
    and ``board`` (and the hand's number, which never changes) copy the hand's place so
    standings group without joins: totals by entry, meetings by (round, table), duplicate
    comparison groups by (board, position), the last deal by (round, hand number).
    """

    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="seat_results", verbose_name=_("hand")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="seat_results",
        verbose_name=_("tournament"),
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="+", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    board = models.ForeignKey(
        Board,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("board"),
    )
    hand_number = models.IntegerField(_("hand number"), default=0)
    position = models.SmallIntegerField(_("position"))
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="seat_results", verbose_name=_("entry")
    )
    is_landlord = models.BooleanField(_("landlord (地主)"))
    won = models.BooleanField(_("won"))
    # 64 bits: six players are uncapped (5 × 2^42 a hand, R13.9), a five-player landlord
    # pays 4 × 3 × 2^28 (R14.7): beyond PostgreSQL's integer (migration 0038).
    score = models.BigIntegerField(_("score"))
    passed_out = models.BooleanField(_("passed out (流局)"), default=False)

    class Meta:
        ordering = ("hand", "position")
        verbose_name = _("hand seat result")
        verbose_name_plural = _("hand seat results")
        constraints = (
            models.UniqueConstraint(fields=["hand", "position"], name="seat_result_once_per_seat"),
            models.UniqueConstraint(fields=["hand", "entry"], name="seat_result_once_per_entry"),
            seat_position_check("position", "seat_result_position_range"),
        )
        indexes = (
            models.Index(fields=["tournament", "entry"], name="seat_result_by_entry"),
            models.Index(
                fields=["tournament", "board", "position", "score"], name="seat_result_by_board"
            ),
        )

    def __str__(self) -> str:
        return f"{self.hand} seat {self.position}: {self.score:+d}"


class Penalty(models.Model):
    """A signed score adjustment on an entry (罚分, SPEC §9), with its reason.

    Never edited or deleted: a mistaken penalty is revoked (``revoked_at``, ``revoked_by``,
    ``revoke_reason``, each set once), which keeps the record.  The database enforces it
    (migration 0011).  An idempotency key belongs to the user who recorded the penalty, in
    its tournament.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("tournament")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.PROTECT, related_name="penalties", verbose_name=_("entry")
    )
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="penalties",
        verbose_name=_("hand"),
    )
    points = models.IntegerField(_("points"))
    reason = models.TextField(_("reason"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), db_default=Now())
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("revoked by"),
    )
    revoke_reason = models.TextField(_("revoke reason"), blank=True)
    # NULL, not "", means "no key": only real keys take part in the uniqueness.
    idempotency_key = models.CharField(  # noqa: DJ001
        _("idempotency key"), max_length=128, null=True, blank=True
    )

    class Meta:
        ordering = ("tournament", "recorded_at", "id")
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        constraints = (
            models.CheckConstraint(condition=~Q(points=0), name="penalty_points_non_zero"),
            # PENALTY_POINTS_MAX (tournaments/common/validation.py) either way.
            models.CheckConstraint(
                condition=Q(points__range=(-10_000, 10_000)), name="penalty_points_range"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="penalty_reason_given"),
            # Per tournament too: a copy of a tournament (an archive imported again) keeps
            # its penalties' keys (migration 0025).
            models.UniqueConstraint(
                fields=["tournament", "recorded_by", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="penalty_idempotency_key_once_per_tournament_and_user",
            ),
        )

    def __str__(self) -> str:
        return f"{self.entry} {self.points:+d}: {self.reason}"


class ExcludedState(models.TextChoices):
    """Why an excluded hand did not count when a director left it out (the results desk's
    states of a hand that does not count yet)."""

    PLAYING = "playing", _("Playing")
    AWAITING = "awaiting", _("Awaiting confirmation")
    DISPUTED = "disputed", _("Disputed")
    IRREGULAR = "irregular", _("Irregular: the deal does not fit the log")
    MISSING = "missing", pgettext_lazy("a hand not played", "Missing")


class HandExclusion(models.Model):
    """A hand a director left out of the results, with a reason (issue 29): one that does not
    count yet (live, awaiting confirmation, disputed, irregular) or one its table never
    played (``hand`` empty). Closing a round and publishing the final standings are refused
    while a hand of theirs does not count, unless it is excluded so; the public standings
    list the exclusions. Written only by ``tournaments.hands.exclusions``: once per table and
    hand number, never updated or deleted (migration 0024). An exclusion changes no score
    (the hand does not count either way); a hand that comes to count later counts, and its
    exclusion is no longer shown."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="exclusions", verbose_name=_("table")
    )
    number = models.IntegerField(_("hand number"))
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="exclusions",
        verbose_name=_("hand"),
    )
    state = models.CharField(_("state when excluded"), max_length=16, choices=ExcludedState.choices)
    reason = models.TextField(_("reason"))
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
        ordering = ("table", "number")
        verbose_name = _("hand exclusion")
        verbose_name_plural = _("hand exclusions")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="hand_exclusion_once"),
            models.CheckConstraint(
                condition=Q(number__gt=0), name="hand_exclusion_number_positive"
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="hand_exclusion_reason_given"),
            models.CheckConstraint(
                condition=Q(state__in=ExcludedState.values), name="hand_exclusion_state_known"
            ),
        )

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}: excluded"
