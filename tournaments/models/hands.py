from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Now
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from tournaments.common.json_arrays import FlagsSound, JsonArrayLength, ScoresSound
from tournaments.common.row_checks import trigger_checks
from tournaments.common.seats import (
    DEFAULT_SEATS,
    SEAT_COUNTS,
    SIX_PLAYER_PROFILES,
    no_doubles,
    seat_count,
)
from tournaments.models.boards import Board
from tournaments.models.rounds import Table, seat_position_check
from tournaments.models.tournaments import RuleProfileKey, stake_cap_checks


class HandStatus(models.TextChoices):
    BIDDING = "bidding", _("Bidding (叫分)")
    DOUBLING = "doubling", _("Doubling (加倍)")
    PLAYING = "playing", _("Playing (出牌)")
    FINISHED = "finished", _("Finished")
    PASSED_OUT = "passed_out", _("Passed out (流局)")
    VOIDED = "voided", _("Voided")


class Confirmation(models.TextChoices):
    """Whether a closed hand counts when the tournament asks for a second person's check."""

    NOT_REQUIRED = "not_required", _("Not required")
    PENDING = "pending", _("Awaiting confirmation")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


class Winner(models.TextChoices):
    LANDLORD = "landlord", _("Landlord (地主)")
    DEFENDERS = "defenders", _("Defenders (农民)")


COUNTED_STATUSES = frozenset({HandStatus.FINISHED, HandStatus.PASSED_OUT})
#: Being played: a table has at most one such hand (constraint ``hand_one_live_per_table``).
#: A closed hand awaiting confirmation is not live.
LIVE_HAND_STATUSES = (HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING)
COUNTED_CONFIRMATIONS = frozenset({Confirmation.NOT_REQUIRED, Confirmation.CONFIRMED})


def per_seat_checks() -> list[models.BaseConstraint]:
    """The checks that tie a hand's per-seat columns to its seat count: the seat count is its
    rule profile's, the seats named are at the table, one ``doubled`` flag (a JSON boolean) a
    seat, and the scores, when set, one integer a seat, summing to zero (R8.1)."""
    profiles_of: dict[int, list[str]] = {n: [] for n in SEAT_COUNTS}
    for key in RuleProfileKey.values:
        profiles_of[seat_count(key)].append(key)
    return [
        models.CheckConstraint(
            condition=Q(
                *(Q(seats=n, rule_profile__in=keys) for n, keys in profiles_of.items() if keys),
                _connector=Q.OR,
            ),
            name="hand_seats_of_profile",
        ),
        models.CheckConstraint(
            condition=Q(landlord_seat__lt=F("seats")), name="hand_landlord_at_table"
        ),
        models.CheckConstraint(
            condition=Q(first_bidder__lt=F("seats")), name="hand_first_bidder_at_table"
        ),
        models.CheckConstraint(
            condition=Q(Exact(JsonArrayLength("doubled"), F("seats"))),
            name="hand_doubled_one_a_seat",
        ),
        models.CheckConstraint(
            condition=Q(FlagsSound("doubled")), name="hand_doubled_flags_boolean"
        ),
        models.CheckConstraint(
            condition=Q(scores__isnull=True) | Q(ScoresSound("scores")),
            name="hand_scores_one_a_seat_zero_sum",
        ),
    ]


class Hand(models.Model):
    """One deal played at a table (一副牌): the result summary and per-seat scores.

    ``version`` counts the events appended to the hand; scores come only from
    ``referee.rules.scoring`` through the services of ``tournaments.hands.write``.  The database
    keeps it so (migration 0010): scores are zero-sum whenever set and only on a finished
    or passed-out hand; a closed hand's result, scores and status change only together
    with a new event; a hand never moves to another table.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="hands", verbose_name=_("table")
    )
    board = models.ForeignKey(
        Board,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hands",
        verbose_name=_("board"),
    )
    deal = models.JSONField(
        _("ad-hoc deal"),
        null=True,
        blank=True,
        help_text=_("Cards of a deal that is not a board: hands, kitty, first bidder."),
    )
    number = models.IntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=HandStatus.choices, default=HandStatus.BIDDING
    )
    rule_profile = models.CharField(
        _("rule profile"), max_length=32, choices=RuleProfileKey.choices
    )
    rule_profile_hash = models.CharField(_("rule profile content hash"), max_length=128, blank=True)
    #: The tournament's stake cap when the hand started (R13.9, R14.7): with ``rule_profile``
    #: the rules the hand is scored by (``tournaments.common.seats.hand_profile``).
    stake_cap = models.PositiveIntegerField(_("stake cap (封顶)"), null=True, blank=True)
    landlord_seat = models.SmallIntegerField(_("landlord seat (地主)"), null=True, blank=True)
    #: ``six_p``: the landlord's secret partner (暗地主), once public: from the play that
    #: reveals him, or the end of the hand (R13.8, R13.11); NULL before, and when the landlord
    #: plays alone (R13.5). Only public values, so no reader of the row can show him early.
    partner_seat = models.SmallIntegerField(_("partner seat (暗地主)"), null=True, blank=True)
    bid = models.SmallIntegerField(_("bid (叫分)"), null=True, blank=True)
    winner = models.CharField(_("winner"), max_length=16, choices=Winner.choices, blank=True)
    seats = models.SmallIntegerField(
        _("seats"), default=DEFAULT_SEATS, help_text=_("Seats at the table: the rule profile's.")
    )
    #: Whether each seat doubled (加倍), by seat position: one boolean a seat.
    doubled = models.JSONField(_("doubled, by seat"), default=no_doubles)
    redoubled = models.BooleanField(_("redoubled"), default=False)
    bombs = models.SmallIntegerField(_("bombs (炸弹)"), default=0)
    rockets = models.SmallIntegerField(_("rockets (火箭)"), default=0)
    spring = models.BooleanField(_("spring (春天)"), default=False)
    anti_spring = models.BooleanField(_("anti-spring (反春)"), default=False)
    #: Each seat's score, by seat position; NULL until the hand is finished or passed out.
    scores = models.JSONField(_("scores, by seat"), null=True, blank=True)
    confirmation = models.CharField(
        _("confirmation"),
        max_length=16,
        choices=Confirmation.choices,
        default=Confirmation.NOT_REQUIRED,
    )
    physical_cards = models.BooleanField(
        _("physical cards"),
        default=False,
        help_text=_("Actions are entered from the cards played at the table; the deal is unknown."),
    )
    first_bidder = models.SmallIntegerField(
        _("first bidder (首叫)"),
        null=True,
        blank=True,
        help_text=_("Physical-cards mode: the seat that bids first."),
    )
    seed = models.BigIntegerField(
        _("deal seed"), null=True, blank=True, help_text=_("The random seed the server dealt from.")
    )
    version = models.IntegerField(_("version"), default=0)
    #: The log folded at ``version`` (``tournaments.hands.replay``: the actions in force and
    #: the events the summary depends on), written by each write with its event: a write
    #: rebuilds its state from it instead of reading the log. NULL: not written yet (the next
    #: write folds the log).
    state = models.JSONField(_("log snapshot"), null=True, blank=True, editable=False)
    pin_failures = models.SmallIntegerField(
        _("wrong PINs"),
        default=0,
        help_text=_("Wrong confirmation PINs entered for this hand; at the limit it is locked."),
    )

    class Meta:
        ordering = ("table", "number")
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        constraints = (
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=LIVE_HAND_STATUSES),
                name="hand_one_live_per_table",
            ),
            # The version is written with the snapshot at every action: its check stays a
            # CHECK, and the others, which read neither, run in a trigger that such an
            # UPDATE does not fire (``row_checks``).
            models.CheckConstraint(condition=Q(version__gte=0), name="hand_version_non_negative"),
            *trigger_checks(
                models.CheckConstraint(condition=Q(number__gt=0), name="hand_number_positive"),
                models.CheckConstraint(
                    condition=Q(status__in=HandStatus.values), name="hand_status_known"
                ),
                models.CheckConstraint(
                    condition=Q(rule_profile__in=RuleProfileKey.values),
                    name="hand_rule_profile_known",
                ),
                models.CheckConstraint(
                    condition=Q(winner__in=["", *Winner.values]), name="hand_winner_known"
                ),
                models.CheckConstraint(
                    condition=Q(board__isnull=True) | Q(deal__isnull=True),
                    name="hand_board_or_adhoc_deal",
                ),
                seat_position_check("landlord_seat", "hand_landlord_seat_range"),
                seat_position_check("partner_seat", "hand_partner_seat_range"),
                models.CheckConstraint(
                    condition=Q(partner_seat__isnull=True)
                    | Q(rule_profile__in=SIX_PLAYER_PROFILES, landlord_seat__isnull=False)
                    & ~Q(partner_seat=F("landlord_seat")),
                    name="hand_partner_of_six_p_not_the_landlord",
                ),
                *stake_cap_checks("hand"),
                models.CheckConstraint(condition=Q(bid__range=(1, 3)), name="hand_bid_range"),
                models.CheckConstraint(condition=Q(bombs__gte=0), name="hand_bombs_non_negative"),
                models.CheckConstraint(
                    condition=Q(rockets__range=(0, 1)), name="hand_rockets_range"
                ),
                models.CheckConstraint(
                    condition=~Q(spring=True, anti_spring=True),
                    name="hand_not_spring_and_anti_spring",
                ),
                models.CheckConstraint(
                    condition=Q(pin_failures__gte=0), name="hand_pin_failures_non_negative"
                ),
                seat_position_check("first_bidder", "hand_first_bidder_range"),
                models.CheckConstraint(
                    condition=Q(physical_cards=False)
                    | Q(board__isnull=True, first_bidder__isnull=False),
                    name="hand_physical_cards_has_first_bidder",
                ),
                models.CheckConstraint(
                    condition=Q(confirmation__in=Confirmation.values),
                    name="hand_confirmation_known",
                ),
                models.CheckConstraint(
                    condition=~Q(status=HandStatus.FINISHED)
                    | Q(landlord_seat__isnull=False, bid__isnull=False, scores__isnull=False)
                    & ~Q(winner=""),
                    name="hand_finished_is_complete",
                ),
                models.CheckConstraint(
                    condition=Q(status__in=[HandStatus.FINISHED, HandStatus.PASSED_OUT])
                    | Q(scores__isnull=True),
                    name="hand_scores_only_when_finished_or_passed_out",
                ),
                *per_seat_checks(),
            ),
        )

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"

    @property
    def counts(self) -> bool:
        """True when the hand's result enters the standings."""
        return self.status in COUNTED_STATUSES and self.confirmation in COUNTED_CONFIRMATIONS

    def score_of(self, position: int) -> int | None:
        """Seat ``position``'s score, or None while the hand has none."""
        return None if self.scores is None else self.scores[position]


class HandEventKind(models.TextChoices):
    BID = "bid", _("Bid")
    DOUBLE = "double", _("Double")
    REDOUBLE = "redouble", _("Redouble")
    PLAY = "play", _("Play")
    RESULT = "result", _("Result")
    PASS_OUT = "pass_out", _("Passed out")
    VOID = "void", _("Void")
    CORRECTION = "correction", _("Correction")
    NOTE = "note", _("Note")
    UNDO = "undo", _("Undo")
    ANNOUNCE = "announce", _("Announcement (报牌)")
    ANNOUNCE_MISSING = "announce_missing", _("Missing announcement")
    DEAL = "deal", _("Deal written in")
    CONFIRM = "confirm", _("Confirmed")
    DISPUTE = "dispute", _("Disputed")
    SEAT_CORRECTION = "seat_correction", _("Seat correction")
    WILD = "wild", _("Wild rank drawn")
    CALL = "call", _("Partner card called (叫牌)")
    PARTNER = "partner", _("Partner shown at the end (暗地主)")


#: Events that are the rules library's actions (their payload is the action's JSON form).
ACTION_KINDS = frozenset(
    {
        HandEventKind.BID,
        HandEventKind.DOUBLE,
        HandEventKind.REDOUBLE,
        HandEventKind.PLAY,
        HandEventKind.CALL,
        HandEventKind.PARTNER,
    }
)


class HandEvent(models.Model):
    """Append-only log entry of a hand (牌局记录).  Never updated or deleted;
    on PostgreSQL a trigger rejects UPDATE and DELETE."""

    #: No index of its own: ``hand_event_seq_unique`` (hand, seq) leads with it. One index
    #: fewer to insert into at every hand write.
    hand = models.ForeignKey(
        Hand,
        on_delete=models.PROTECT,
        related_name="events",
        verbose_name=_("hand"),
        db_index=False,
    )
    seq = models.IntegerField(_("sequence number"))
    kind = models.CharField(_("kind"), max_length=16, choices=HandEventKind.choices)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    actor_seat = models.SmallIntegerField(_("actor seat"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), db_default=Now())
    # NULL, not "", means "no key": only real keys take part in the uniqueness.
    idempotency_key = models.CharField(  # noqa: DJ001
        _("idempotency key"), max_length=128, null=True, blank=True
    )
    device_id = models.CharField(_("device"), max_length=64, blank=True, default="")

    class Meta:
        ordering = ("hand", "seq")
        verbose_name = _("hand event")
        verbose_name_plural = _("hand events")
        constraints = (
            models.UniqueConstraint(fields=["hand", "seq"], name="hand_event_seq_unique"),
            models.UniqueConstraint(
                fields=["hand", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="hand_event_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=Q(seq__gt=0), name="hand_event_seq_positive"),
            models.CheckConstraint(
                condition=Q(kind__in=HandEventKind.values), name="hand_event_kind_known"
            ),
            seat_position_check("actor_seat", "hand_event_actor_seat_range"),
        )

    def __str__(self) -> str:
        return f"{self.hand} #{self.seq} {self.kind}"
