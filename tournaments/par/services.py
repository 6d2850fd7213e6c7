"""The writes of par analysis: queue a released board, run its analysis (the task's one
service), a director's re-run and cancel.

Exactly once: a board has one ``BoardPar`` row (unique); each request bumps its ``run``; a
task claims its run with one conditional UPDATE (queued → running) and stores its answer only
under a lock of the row while that run is still the row's and still running. A cancel or a
re-run while a task computes therefore makes that task's answer stale: it is dropped.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common.board_release import board_released_q, boards_released
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    Hand,
    HandPar,
    HandStatus,
    LostOutcome,
    Tournament,
)
from tournaments.par.analysis import (
    PAR_PROFILES,
    Budget,
    Cancelled,
    Effort,
    HandLost,
    deal_of,
    hand_lost,
    par_auction,
    par_table,
)

logger = logging.getLogger(__name__)

#: What a ``BoardPar`` row holds of an answer: cleared when a new run is queued.
_CLEARED = {
    "table": None,
    "outcome": "",
    "landlord": None,
    "bid": None,
    "scores": None,
    "nodes": 0,
    "ms": 0,
    "started_at": None,
    "finished_at": None,
}


def par_budget() -> Budget:
    """The budget of one query, from the settings (``PAR_QUERY_*``)."""
    return Budget(
        ms=settings.PAR_QUERY_MS, nodes=settings.PAR_QUERY_NODES, entries=settings.PAR_QUERY_ENTRIES
    )


def _send(board_par: BoardPar) -> None:
    """Run the task now (no broker: eagerly, as the tests and a fresh checkout do) or hand
    it to the publisher thread (``broker_publish``); a message lost there is sent again by
    beat's ``par_sweep`` (the row stays queued)."""
    from tournaments.common.broker_publish import broker_publish_soon
    from tournaments.tasks import par_analyse  # the task module imports this one

    board_id, run = board_par.board_id, board_par.run
    if par_analyse.app.conf.task_always_eager:
        par_analyse.delay(board_id, run)
        return
    queue = settings.PAR_QUEUE  # the analyses' own worker (settings.py)
    broker_publish_soon(
        send=lambda conn: par_analyse.apply_async(
            (board_id, run),
            queue=queue,
            connection=conn,  # type: ignore[call-arg]  # passed on to send_task
            retry=False,
            ignore_result=True,
        ),
        failed=lambda: None,
    )


def _boards_to_queue(tournament_id: int) -> list[int]:
    """The tournament's released boards with no analysis, or whose finished hands are not
    all analysed at their current version (a board played again, a corrected hand)."""
    current = HandPar.objects.filter(hand_id=OuterRef("pk"), hand_version=OuterRef("version"))
    unanalysed = Hand.objects.filter(board_id=OuterRef("pk"), status=HandStatus.FINISHED).exclude(
        Exists(current)
    )
    released = Board.objects.filter(tournament_id=tournament_id).filter(
        board_released_q(OuterRef("pk"))
    )
    new = released.filter(par__isnull=True)
    stale = released.filter(par__status=AnalysisStatus.DONE).filter(Exists(unanalysed))
    return sorted(set(new.values_list("pk", flat=True)) | set(stale.values_list("pk", flat=True)))


def par_request(*, tournament_id: int) -> list[int]:
    """Queue the analysis of the tournament's boards that need one (``_boards_to_queue``);
    the board ids queued. Nothing when ``PAR_ANALYSIS_AUTO`` is off or the tournament's
    profile is not analysed. Called after the commit of every change of results (a hand
    closed, a round closed: what releases a board) and by beat's sweep."""
    if not settings.PAR_ANALYSIS_AUTO:
        return []
    profile = Tournament.objects.filter(pk=tournament_id).values_list("rule_profile", flat=True)
    if profile.first() not in PAR_PROFILES:
        return []
    queued = []
    for board_id in _boards_to_queue(tournament_id):
        row = _queue(board_id=board_id, user=None, only_new_or_done=True)
        if row is not None:
            queued.append(board_id)
            _send(row)
    return queued


def _queue(*, board_id: int, user: Any, only_new_or_done: bool) -> BoardPar | None:
    """Create the board's row queued, or queue it again (a new run, the answer cleared);
    None when another request got there first (``only_new_or_done``: a row already queued,
    running or cancelled is left)."""
    try:
        with transaction.atomic():
            row, created = BoardPar.objects.get_or_create(
                board_id=board_id, defaults={"requested_by": user}
            )
    except IntegrityError:  # a concurrent request created it
        return None
    if created:
        return row
    rows = BoardPar.objects.filter(pk=row.pk, run=row.run)
    if only_new_or_done:
        rows = rows.filter(status=AnalysisStatus.DONE)
    return _new_run(row, rows, user)


def _new_run(row: BoardPar, rows: Any, user: Any) -> BoardPar | None:
    """The row queued again as a new run, its answer cleared, if ``rows`` (the row at its
    current run, and in the state the caller requires) still matches: one conditional
    UPDATE, as every change of a run; None when another request got there first."""
    changed = rows.update(
        status=AnalysisStatus.QUEUED,
        run=F("run") + 1,
        requested_by=user,
        requested_at=timezone.now(),
        **_CLEARED,
    )
    if not changed:
        return None
    row.refresh_from_db()
    return row


def par_sweep() -> list[int]:
    """Beat: queue what each analysed tournament needs, send again the runs queued for a
    while (a message lost on the way), and queue again, as a new run, a run left running
    longer than a task may run (``PAR_TASK_SECONDS``: its worker died); the board ids sent."""
    if not settings.PAR_ANALYSIS_AUTO:
        return []
    sent = []
    for tournament_id in Tournament.objects.filter(rule_profile__in=PAR_PROFILES).values_list(
        "pk", flat=True
    ):
        sent += par_request(tournament_id=tournament_id)
    now = timezone.now()
    old = now - timedelta(minutes=5)
    for row in BoardPar.objects.filter(status=AnalysisStatus.QUEUED, requested_at__lt=old):
        _send(row)
        sent.append(row.board_id)
    dead = now - timedelta(seconds=settings.PAR_TASK_SECONDS + 300)
    for row in BoardPar.objects.filter(status=AnalysisStatus.RUNNING, started_at__lt=dead):
        again = _requeue_dead(row)
        if again is not None:
            _send(again)
            sent.append(again.board_id)
    return sent


def _requeue_dead(row: BoardPar) -> BoardPar | None:
    """A new run of a row whose task has run too long to be alive; None when it moved on
    meanwhile."""
    dead = row.run
    running = BoardPar.objects.filter(pk=row.pk, run=dead, status=AnalysisStatus.RUNNING)
    again = _new_run(row, running, None)
    if again is not None:
        logger.warning("par: board %s run %s left running, queued again", row.board_id, dead)
    return again


# --- a director's actions ---------------------------------------------------------------


def _director_check(user: Any) -> None:
    if not user_is_director(user):
        raise ApplicationError(
            "permission_denied", _("Only a director may run or cancel analysis.")
        )


def par_rerun(*, board: Board, user: Any) -> BoardPar:
    """A director's (re-)run of a board's analysis: a new run, queued and sent. Refused for
    anybody else (``permission_denied``), a profile the solver does not take
    (``analysis_not_available``) and a board not released (``board_not_released``: its par
    is as secret as its cards)."""
    _director_check(user)
    if board.tournament.rule_profile not in PAR_PROFILES:
        raise ApplicationError(
            "analysis_not_available",
            _("Boards of this rule profile are not analysed (comp2016 and classic only)."),
        )
    if board.pk not in boards_released(board_ids=[board.pk]):
        raise ApplicationError(
            "board_not_released",
            _(
                "Board %(number)s is not released yet: it is analysed once every table has "
                "played it."
            )
            % {"number": board.number},
        )
    row = _queue(board_id=board.pk, user=user, only_new_or_done=False)
    if row is None:  # a concurrent request queued it: that run stands
        return BoardPar.objects.get(board=board)
    transaction.on_commit(lambda: _send(row))
    return row


def par_cancel(*, board: Board, user: Any) -> BoardPar:
    """A director's cancel of a queued or running analysis: the running task stops before
    its next query and stores nothing. Refused (``analysis_not_running``) when none is."""
    _director_check(user)
    changed = BoardPar.objects.filter(
        board=board, status__in=[AnalysisStatus.QUEUED, AnalysisStatus.RUNNING]
    ).update(status=AnalysisStatus.CANCELLED, requested_by=user, **_CLEARED)
    if not changed:
        raise ApplicationError(
            "analysis_not_running",
            _("No analysis of board %(number)s is queued or running.") % {"number": board.number},
        )
    return BoardPar.objects.get(board=board)


# --- the task's service -----------------------------------------------------------------


def par_analyse(*, board_id: int, run: int) -> str:
    """Analyse the board for run ``run``: the par table, the par result and each finished
    hand's "where it was lost". Returns what happened: "done", "stale" (another run, or
    cancelled, or done already), "not_released" (the board is secret again: its row is
    removed, and its release queues it anew), "cancelled" (while computing), "timed_out"
    (``PAR_TASK_SECONDS`` spent: the run is cancelled, a director may run it again)."""
    claimed = BoardPar.objects.filter(
        board_id=board_id, run=run, status=AnalysisStatus.QUEUED
    ).update(status=AnalysisStatus.RUNNING, started_at=timezone.now())
    if not claimed:
        return "stale"
    deadline = time.monotonic() + settings.PAR_TASK_SECONDS
    board = Board.objects.select_related("tournament").get(pk=board_id)
    if board_id not in boards_released(board_ids=[board_id]):
        BoardPar.objects.filter(board_id=board_id, run=run).delete()
        return "not_released"
    from referee.rules.profiles import get_profile

    profile = get_profile(board.tournament.rule_profile)
    budget = par_budget()
    effort = Effort()
    current = BoardPar.objects.filter(board_id=board_id, run=run, status=AnalysisStatus.RUNNING)

    def should_stop() -> bool:
        return time.monotonic() > deadline or not current.exists()

    deal = deal_of(
        {"hands": board.seat_cards, "kitty": board.kitty, "first_bidder": board.first_bidder}
    )
    try:
        table = par_table(deal, profile, budget, effort, should_stop)
        result = par_auction(deal, profile, table)
        hands = _hands_lost(board, deal, profile, budget, effort, should_stop)
    except Cancelled:
        if time.monotonic() > deadline and current.update(status=AnalysisStatus.CANCELLED):
            logger.warning(
                "par: board %s run %s stopped after PAR_TASK_SECONDS (%s s)",
                board_id,
                run,
                settings.PAR_TASK_SECONDS,
            )
            return "timed_out"
        return "cancelled"
    return _store(board_id, run, table, result, hands, budget, effort)


def _hands_lost(
    board: Board, deal: Any, profile: Any, budget: Budget, effort: Effort, should_stop: Any
) -> list[tuple[Hand, HandLost, int, float]]:
    from tournaments.hands.replay import hand_replay

    found = []
    for hand in Hand.objects.filter(board=board, status=HandStatus.FINISHED).order_by("pk"):
        replay = hand_replay(hand=hand)
        actions = [event.payload["action"] for event in replay.actions]
        before = (effort.nodes, effort.ms)
        if not any("play" in action for action in actions):
            lost = HandLost(LostOutcome.NO_PLAY.value)
        else:
            lost = hand_lost(
                deal,
                profile,
                actions,
                budget,
                effort,
                max_queries=settings.PAR_HAND_QUERIES,
                should_stop=should_stop,
            )
        found.append((hand, lost, effort.nodes - before[0], effort.ms - before[1]))
    return found


@transaction.atomic
def _store(
    board_id: int,
    run: int,
    table: list[bool | None],
    result: Any,
    hands: list[tuple[Hand, HandLost, int, float]],
    budget: Budget,
    effort: Effort,
) -> str:
    row = (
        BoardPar.objects.select_for_update()
        .filter(board_id=board_id, run=run, status=AnalysisStatus.RUNNING)
        .first()
    )
    if row is None:
        return "stale"
    row.status = AnalysisStatus.DONE
    row.table = table
    row.outcome = result.outcome
    row.landlord = result.landlord
    row.bid = result.bid
    row.scores = None if result.scores is None else list(result.scores)
    row.nodes = effort.nodes
    row.ms = round(effort.ms)
    row.budget = budget.to_json()
    row.finished_at = timezone.now()
    row.save()
    HandPar.objects.filter(board_par=row).delete()
    HandPar.objects.bulk_create(
        [
            HandPar(
                hand=hand,
                board_par=row,
                hand_version=hand.version,
                outcome=lost.outcome,
                start_action=lost.start_action,
                start_landlord_wins=lost.start_landlord_wins,
                turn_action=lost.turn_action,
                turn_seat=lost.turn_seat,
                kept_play=lost.kept_play,
                open_action=lost.open_action,
                nodes=nodes,
                ms=round(ms),
            )
            for hand, lost, nodes, ms in hands
        ]
    )
    return "done"
