import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.common.limits import (
    HANDS_PER_ROUND_MAX,
    REGISTRATION_ORDER_MAX,
    ROUNDS_PLANNED_MAX,
    STAKE_CAP_MAX,
)
from tournaments.common.seats import CAP_PROFILES, OFFERED_PROFILES
from tournaments.models.players import Player
from tournaments.standings.ranking import CRITERIA


def validate_tiebreak_names(value: object) -> None:
    """A tie-break chain is a list of known criteria (tournaments.standings.ranking.CRITERIA)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(_("The tie-break chain is a list of criterion names."))
    unknown = [v for v in value if v not in CRITERIA]
    if unknown:
        raise ValidationError(
            _("Unknown tie-break %(names)s; known: %(known)s."),
            params={"names": ", ".join(unknown), "known": ", ".join(CRITERIA)},
        )


def stake_cap_checks(model: str) -> list[models.CheckConstraint]:
    """A stake cap, when set, is 1 … ``STAKE_CAP_MAX`` and of a game whose events cap (R13.9,
    R14.7); a tournament's and a hand's alike."""
    return [
        models.CheckConstraint(
            condition=Q(stake_cap__range=(1, STAKE_CAP_MAX)), name=f"{model}_stake_cap_range"
        ),
        models.CheckConstraint(
            condition=Q(stake_cap__isnull=True) | Q(rule_profile__in=CAP_PROFILES),
            name=f"{model}_stake_cap_of_game",
        ),
    ]


class RuleProfileKey(models.TextChoices):
    """Keys of the rule profiles in ``referee.rules.profiles``."""

    COMP2016 = "comp2016", _("Competition rules 2016 (竞技二打一扑克)")
    CLASSIC = "classic", _("Classic rules (斗地主)")
    FOUR_P = "four_p", _("Four players, two packs (四人斗地主)")
    LAIZI = "laizi", _("Wild cards (癞子斗地主)")
    BIG3 = "big3", _("Big Three (大三 / 挖坑)")
    BIG3_ONE_ROUND = "big3_one_round", _("Big Three, one round of bids (大三 / 挖坑, 烂挖)")
    FIVE_P = "five_p", _("Five players, two packs (五人斗地主)")
    SIX_P = "six_p", _("Six players, three packs (六人斗地主)")
    SIX_P_NO_KITTY = "six_p_no_kitty", _("Six players, three packs, 27 each and no kitty")


def offered_rule_profiles() -> list[tuple[str, Any]]:
    """The rule profiles a director may choose, with their names: ``RuleProfileKey``'s
    choices of ``seats.OFFERED_PROFILES``."""
    return [(k, name) for k, name in RuleProfileKey.choices if k in OFFERED_PROFILES]


class TournamentFormat(models.TextChoices):
    TABLE = "table", _("Table (random deals)")
    SWISS = "swiss", _("Swiss")
    DUPLICATE = "duplicate", _("Duplicate (复式赛)")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class ConfirmedBy(models.TextChoices):
    """Who confirms a hand awaiting confirmation (SPEC R10.8.1)."""

    OFFICIAL = "official", _("A second official (referee or director)")
    PLAYERS = "players", _("The players: one of each side enters their PIN")


#: How many digits an entry's confirmation PIN has.
PIN_DIGITS = 4


def entry_pin_new() -> str:
    """A fresh confirmation PIN: a low-value secret printed on the entry's table card."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


class Tournament(models.Model):
    """A competition (比赛).  Its rule profile is frozen once a hand exists."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    rule_profile = models.CharField(
        _("rule profile"),
        max_length=32,
        choices=RuleProfileKey.choices,
        default=RuleProfileKey.COMP2016,
    )
    format = models.CharField(
        _("format"), max_length=16, choices=TournamentFormat.choices, default=TournamentFormat.TABLE
    )
    status = models.CharField(
        _("status"), max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT
    )
    hands_per_round = models.IntegerField(
        _("hands per round"),
        default=6,
        validators=[MinValueValidator(1), MaxValueValidator(HANDS_PER_ROUND_MAX)],
    )
    rounds_planned = models.IntegerField(
        _("rounds planned"),
        default=0,
        validators=[MinValueValidator(0), MaxValueValidator(ROUNDS_PLANNED_MAX)],
        help_text=_("How many rounds the event has (shown as “round 2 of 5”); 0: not planned."),
    )
    is_public = models.BooleanField(_("public"), default=False)
    requires_confirmation = models.BooleanField(
        _("results need confirmation"),
        default=False,
        help_text=_("A finished hand counts only after a second person confirms it."),
    )
    confirmed_by = models.CharField(
        _("confirmed by"),
        max_length=16,
        choices=ConfirmedBy.choices,
        default=ConfirmedBy.OFFICIAL,
        help_text=_("Who confirms a hand when results need confirmation."),
    )
    separate_clubs = models.BooleanField(
        _("keep clubs apart"),
        default=False,
        help_text=_("The seating engine avoids seating players of the same club together."),
    )
    tiebreaks = models.JSONField(
        _("tie-break chain"),
        default=list,
        blank=True,
        validators=[validate_tiebreak_names],
        help_text=_(
            # xgettext:no-python-format
            "Criteria after the format's first one (total, or matchpoint % in duplicate); "
            "empty means the default of SPEC R10.8.5."
        ),
    )
    stake_cap = models.PositiveIntegerField(
        _("stake cap (封顶)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(STAKE_CAP_MAX)],
        help_text=_(
            "Five and six players: the largest multiplier a hand may reach (×2 a bomb and "
            "a spring, R13.9, R14.7); empty: no cap."
        ),
    )
    log_version = models.BigIntegerField(
        _("log version"),
        default=0,
        help_text=_("Bumped in the same transaction as every write that changes scores."),
    )
    #: Set by the database (migration 0024) when something the standings count changed;
    #: the bump of ``log_version`` clears it, and the database lets the version move only
    #: then, by one.  Never written by the application.
    inputs_changed = models.BooleanField(
        _("inputs changed"),
        default=False,
        db_default=False,
        editable=False,
        help_text=_(
            "Set by the database when something the standings count changed; "
            "cleared by the log version's bump."
        ),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ("-created_at", "id")
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = (
            models.CheckConstraint(
                condition=Q(hands_per_round__gt=0), name="tournament_hands_per_round_positive"
            ),
            models.CheckConstraint(
                condition=Q(hands_per_round__lte=HANDS_PER_ROUND_MAX),
                name="tournament_hands_per_round_at_most_max",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=0) & Q(rounds_planned__lte=ROUNDS_PLANNED_MAX),
                name="tournament_rounds_planned_in_range",
            ),
            models.CheckConstraint(
                condition=Q(rule_profile__in=RuleProfileKey.values),
                name="tournament_rule_profile_known",
            ),
            *stake_cap_checks("tournament"),
            models.CheckConstraint(
                condition=Q(format__in=TournamentFormat.values), name="tournament_format_known"
            ),
            models.CheckConstraint(
                condition=Q(status__in=TournamentStatus.values), name="tournament_status_known"
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__in=ConfirmedBy.values),
                name="tournament_confirmed_by_known",
            ),
            models.CheckConstraint(
                condition=Q(log_version__gte=0), name="tournament_log_version_non_negative"
            ),
        )

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's registration (报名) in one tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    registration_order = models.IntegerField(
        _("registration order"), validators=[MaxValueValidator(REGISTRATION_ORDER_MAX)]
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    pin = models.CharField(
        _("confirmation PIN"),
        max_length=PIN_DIGITS,
        default=entry_pin_new,
        help_text=_("Printed on the entry's table card; confirms hands when players confirm."),
    )

    class Meta:
        ordering = ("tournament", "registration_order")
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = (
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_player_once_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "registration_order"],
                name="entry_registration_order_unique",
            ),
            models.CheckConstraint(
                condition=Q(registration_order__gt=0), name="entry_registration_order_positive"
            ),
            models.CheckConstraint(
                condition=Q(registration_order__lte=REGISTRATION_ORDER_MAX),
                name="entry_registration_order_at_most_max",
            ),
        )

    def __str__(self) -> str:
        return f"#{self.registration_order} {self.player}"
