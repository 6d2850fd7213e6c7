"""Par of duplicate boards and where each hand left it (issue 33, ``docs/solver.md``).

Written only by ``tournaments.par.services`` (the task ``tournaments.tasks.par_analyse``),
read through ``tournaments.par.selectors``, which show nothing of a board that is not
released (``tournaments.common.board_release``): the par of a board is as secret as its
cards.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _

from tournaments.common.json_arrays import JsonArrayLength
from tournaments.models.boards import Board
from tournaments.models.hands import Hand
from tournaments.models.rounds import seat_position_check

#: The seats of the profiles the solver takes (comp2016, classic): three.
PAR_SEATS = 3


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    CANCELLED = "cancelled", _("Cancelled")


class ParOutcome(models.TextChoices):
    """The par result: the auction's outcome when every seat knows the par table."""

    LANDLORD = "landlord", _("A landlord wins")
    PASSED_OUT = "passed_out", _("Passed out (流局)")
    UNSOLVED = "unsolved", _("Unsolved")


class LostOutcome(models.TextChoices):
    """What "where it was lost" found in a hand."""

    #: no position of the hand was decided within the budget
    UNSOLVED = "unsolved", _("Unsolved")
    #: the open-hand value never turned from the first decided position on
    HELD = "held", _("Par held")
    #: an action turned the value against the side that made it
    TURNED = "turned", _("Par lost")
    #: decided at the start, a later position not: nothing is said beyond it
    OPEN = "open", _("Unsolved from a later position")
    #: no play was recorded (a result entered directly): nothing to analyse
    NO_PLAY = "no_play", _("No play recorded")


class BoardPar(models.Model):
    """A board's par table and par result, one row a board. ``run`` counts the analyses
    asked for: a task stores its answer only while its run is the row's and the row is
    running (a director's cancel or re-run makes an older task's answer stale)."""

    board = models.OneToOneField(
        Board, on_delete=models.CASCADE, related_name="par", verbose_name=_("board")
    )
    status = models.CharField(
        _("status"), max_length=16, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED
    )
    run = models.IntegerField(_("run"), default=1)
    #: For each seat as landlord (with the kitty, leading): true wins, false loses, null
    #: unsolved within the budget. NULL until done.
    table = models.JSONField(_("par table"), null=True, blank=True)
    outcome = models.CharField(
        _("par result"), max_length=16, choices=ParOutcome.choices, blank=True
    )
    landlord = models.SmallIntegerField(_("par landlord"), null=True, blank=True)
    bid = models.SmallIntegerField(_("par bid"), null=True, blank=True)
    #: The par result's score, by seat (zero-sum); 0 each when passed out.
    scores = models.JSONField(_("par scores, by seat"), null=True, blank=True)
    nodes = models.BigIntegerField(_("nodes searched"), default=0)
    ms = models.IntegerField(_("milliseconds"), default=0)
    #: The budget the answer was found within: per query ms, nodes, table entries.
    budget = models.JSONField(_("budget"), default=dict, blank=True)
    requested_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    #: When a task claimed the current run (beat's sweep queues again a run left running
    #: longer than ``PAR_TASK_SECONDS`` allows: its worker died).
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )

    class Meta:
        verbose_name = _("board par")
        verbose_name_plural = _("board pars")
        constraints = (
            models.CheckConstraint(
                condition=Q(status__in=AnalysisStatus.values), name="board_par_status_known"
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=["", *ParOutcome.values]), name="board_par_outcome_known"
            ),
            models.CheckConstraint(condition=Q(run__gt=0), name="board_par_run_positive"),
            models.CheckConstraint(
                condition=Q(nodes__gte=0, ms__gte=0), name="board_par_effort_non_negative"
            ),
            seat_position_check("landlord", "board_par_landlord_range"),
            models.CheckConstraint(condition=Q(bid__range=(1, 3)), name="board_par_bid_range"),
            models.CheckConstraint(
                condition=Q(table__isnull=True) | Q(Exact(JsonArrayLength("table"), PAR_SEATS)),
                name="board_par_table_one_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(scores__isnull=True) | Q(Exact(JsonArrayLength("scores"), PAR_SEATS)),
                name="board_par_scores_one_a_seat",
            ),
            # done: a table and an outcome; not done: neither
            models.CheckConstraint(
                condition=Q(status=AnalysisStatus.DONE, table__isnull=False) & ~Q(outcome="")
                | ~Q(status=AnalysisStatus.DONE) & Q(table__isnull=True, outcome=""),
                name="board_par_done_has_result",
            ),
            # a landlord's outcome names the landlord, the bid and the scores; no other does
            models.CheckConstraint(
                condition=Q(
                    outcome=ParOutcome.LANDLORD,
                    landlord__isnull=False,
                    bid__isnull=False,
                    scores__isnull=False,
                )
                | ~Q(outcome=ParOutcome.LANDLORD) & Q(landlord__isnull=True, bid__isnull=True),
                name="board_par_landlord_outcome_complete",
            ),
            models.CheckConstraint(
                condition=~Q(outcome=ParOutcome.UNSOLVED) | Q(scores__isnull=True),
                name="board_par_unsolved_has_no_score",
            ),
        )

    def __str__(self) -> str:
        return f"{self.board} par ({self.status})"

    def table_text(self) -> str:
        """The par table in a stable machine form (the CSV exports): ``W`` wins, ``L``
        loses, ``?`` unsolved, a seat; "" while not done."""
        if self.status != AnalysisStatus.DONE or self.table is None:
            return ""
        return "".join("?" if v is None else ("W" if v else "L") for v in self.table)

    def result_text(self) -> str:
        """The par result in a stable machine form: ``<landlord seat>:<bid>`` (e.g. ``1:3``),
        ``passed_out`` or ``unsolved``; "" while not done."""
        if self.status != AnalysisStatus.DONE:
            return ""
        if self.outcome == ParOutcome.LANDLORD:
            return f"{self.landlord}:{self.bid}"
        return str(self.outcome)


class HandPar(models.Model):
    """Where a finished hand on a board left par: the first action after which the
    open-hand value turned against the side that made it, and a move that kept it.

    Action numbers are indexes into the hand's actions in force (bids included), as the
    replay lists them; ``start_action``: the first position decided within the budget (the
    position before that action). ``hand_version``: the hand's version analysed (a later
    correction makes the row stale; it is not shown)."""

    hand = models.OneToOneField(
        Hand, on_delete=models.CASCADE, related_name="par", verbose_name=_("hand")
    )
    board_par = models.ForeignKey(
        BoardPar, on_delete=models.CASCADE, related_name="hands", verbose_name=_("board par")
    )
    hand_version = models.IntegerField(_("hand version analysed"))
    outcome = models.CharField(_("outcome"), max_length=16, choices=LostOutcome.choices)
    start_action = models.IntegerField(_("analysis starts at action"), null=True, blank=True)
    #: The open-hand value at the start: whether the landlord wins.
    start_landlord_wins = models.BooleanField(_("landlord wins at the start"), null=True)
    turn_action = models.IntegerField(_("action that lost par"), null=True, blank=True)
    turn_seat = models.SmallIntegerField(_("seat that lost par"), null=True, blank=True)
    #: A move that would have kept par at ``turn_action`` (rank text, or "pass"); blank when
    #: none was found within the budget.
    kept_play = models.CharField(_("move that kept par"), max_length=64, blank=True)
    #: OPEN: the first position after the start that the budget did not decide.
    open_action = models.IntegerField(_("unsolved from action"), null=True, blank=True)
    nodes = models.BigIntegerField(_("nodes searched"), default=0)
    ms = models.IntegerField(_("milliseconds"), default=0)

    class Meta:
        verbose_name = _("hand par")
        verbose_name_plural = _("hand pars")
        constraints = (
            models.CheckConstraint(
                condition=Q(outcome__in=LostOutcome.values), name="hand_par_outcome_known"
            ),
            models.CheckConstraint(
                condition=Q(hand_version__gte=0, nodes__gte=0, ms__gte=0),
                name="hand_par_counts_non_negative",
            ),
            seat_position_check("turn_seat", "hand_par_turn_seat_range"),
            models.CheckConstraint(
                condition=Q(
                    outcome__in=[LostOutcome.UNSOLVED, LostOutcome.NO_PLAY],
                    start_action__isnull=True,
                )
                | ~Q(outcome__in=[LostOutcome.UNSOLVED, LostOutcome.NO_PLAY])
                & Q(start_action__gte=0, start_landlord_wins__isnull=False),
                name="hand_par_start_when_decided",
            ),
            models.CheckConstraint(
                condition=Q(
                    outcome=LostOutcome.TURNED, turn_action__isnull=False, turn_seat__isnull=False
                )
                & Q(turn_action__gte=F("start_action"))
                | ~Q(outcome=LostOutcome.TURNED) & Q(turn_action__isnull=True, kept_play=""),
                name="hand_par_turn_when_turned",
            ),
            models.CheckConstraint(
                condition=Q(outcome=LostOutcome.OPEN, open_action__gt=F("start_action"))
                | ~Q(outcome=LostOutcome.OPEN) & Q(open_action__isnull=True),
                name="hand_par_open_when_open",
            ),
        )

    def __str__(self) -> str:
        return f"{self.hand} par ({self.outcome})"
