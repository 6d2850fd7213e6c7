"""Rounds and their life (draft → seated → playing → closed, and reopened), tables,
seats and referee assignments.  Seating itself is in ``tournaments.seating``."""

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.common.limits import ROUND_NUMBER_MAX, TABLE_NUMBER_MAX
from tournaments.common.model_validation import model_validate
from tournaments.common.roles import user_is_director
from tournaments.common.seats import seat_count
from tournaments.common.validation import at_most_check, bool_check, invalid, reason_check
from tournaments.hands.exclusions import exclusion_write
from tournaments.hands.gate import results_incomplete_error, round_gate
from tournaments.hands.results import results_final_error, tournament_scores_changed
from tournaments.models import (
    Entry,
    Hand,
    RefereeAssignment,
    Round,
    RoundBye,
    RoundLog,
    RoundLogKind,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentLogKind,
    TournamentStatus,
)
from tournaments.rounds.referees import referee_account_check
from tournaments.tournament import selectors
from tournaments.tournament.log import tournament_log_append


def round_log_append(
    *, round: Round, kind: str, recorded_by: Any, reason: str = "", payload: dict[str, Any]
) -> RoundLog:
    """Record a director's action on ``round`` in the caller's transaction."""
    return RoundLog.objects.create(
        round=round,
        kind=kind,
        reason=reason,
        payload=payload,
        recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
    )


def round_lock(*, round: Round) -> Round:
    """The round's row, locked until the end of the transaction."""
    return Round.objects.select_for_update().get(pk=round.pk)


@transaction.atomic
def round_create(
    *, tournament: Tournament, number: int | None = None, status: str = RoundStatus.DRAFT
) -> Round:
    """Add round ``number`` (default: the next one) to a tournament that has not finished."""
    at_most_check("number", number, maximum=ROUND_NUMBER_MAX)
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == TournamentStatus.FINISHED:
        raise ApplicationError("tournament_finished", _("The tournament has finished."))
    if number is None:
        last = Round.objects.filter(tournament=locked).aggregate(last=Max("number"))["last"]
        number = (last or 0) + 1
        at_most_check("number", number, maximum=ROUND_NUMBER_MAX)
    round_ = Round(tournament=locked, number=number, status=status)
    model_validate(round_)
    round_.save()
    referees_carry_forward(round=round_)
    return round_


@transaction.atomic
def round_start(*, round: Round, recorded_by: Any = None, referees_required: bool = False) -> Round:
    """Start a seated round: every table full, no other round of the tournament playing.
    With ``referees_required`` (the director's screen, until they confirm), a table that no
    referee covers is refused (``tables_without_referee``): its hands would show on no
    referee's phone."""
    locked = round_lock(round=round)
    if locked.status != RoundStatus.SEATED:
        raise ApplicationError(
            "round_not_seated",
            _("Only a seated round can start; this one is %(status)s.")
            % {"status": locked.get_status_display()},
        )
    tournament = Tournament.objects.select_for_update().get(pk=locked.tournament_id)
    playing = (
        Round.objects.filter(tournament=tournament, status=RoundStatus.PLAYING)
        .exclude(pk=locked.pk)
        .first()
    )
    if playing is not None:
        raise ApplicationError(
            "round_in_progress",
            _("Round %(number)s is still being played: close it first.")
            % {"number": playing.number},
        )
    tables = list(selectors.round_tables_incomplete(round=locked))
    if tables:
        raise ApplicationError(
            "table_incomplete",
            _("Tables with an empty seat: %(tables)s.")
            % {"tables": ", ".join(str(t.number) for t in tables)},
        )
    if not Table.objects.filter(round=locked).exists():
        raise ApplicationError("round_has_no_tables", _("The round has no tables."))
    bool_check(referees_required=referees_required)
    unrefereed = round_tables_unrefereed(round=locked) if referees_required else []
    if unrefereed:
        raise ApplicationError(
            "tables_without_referee",
            _(
                "No referee covers tables %(tables)s: their hands will show on no referee's "
                "phone. Assign referees, or confirm that the round starts without them."
            )
            % {"tables": ", ".join(str(n) for n in unrefereed)},
            extra={"tables": unrefereed},
        )
    locked.status = RoundStatus.PLAYING
    locked.save(update_fields=["status"])
    if tournament.status == TournamentStatus.DRAFT:
        # Written to the tournament log first: the database lets the status change only to
        # what its newest log row says (migration 0024).
        tournament_log_append(
            tournament_id=tournament.pk,
            kind=TournamentLogKind.SETTINGS_CHANGED,
            changes={"status": [TournamentStatus.DRAFT.value, TournamentStatus.RUNNING.value]},
            recorded_by=recorded_by,
        )
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    round_log_append(round=locked, kind=RoundLogKind.STARTED, recorded_by=recorded_by, payload={})
    return locked


@transaction.atomic
def round_close(
    *, round: Round, recorded_by: Any = None, force: bool = False, reason: str = ""
) -> Round:
    """Close a round being played. Refused with ``results_incomplete`` (its details list the
    hands) while a hand of the round does not count yet (live, awaiting confirmation,
    disputed, irregular) or a table has not played the round's hands, unless each is
    excluded (``tournaments.hands.exclusions``). A director may force the close with a
    reason: every hand listed is then excluded with it, each its own exclusion (SPEC R10.8.1:
    they count nowhere, and the public standings say so)."""
    bool_check(force=force)
    locked = round_lock(round=round)
    if locked.status != RoundStatus.PLAYING:
        raise ApplicationError(
            "round_not_playing",
            _("Only a round being played can close; this one is %(status)s.")
            % {"status": locked.get_status_display()},
        )
    unsettled = round_gate(round=locked).unsettled
    kind = RoundLogKind.CLOSED
    if unsettled and not force:
        raise results_incomplete_error(unsettled)
    if unsettled:
        reason = reason_check(reason)
        if not user_is_director(recorded_by):
            raise ApplicationError(
                "director_required",
                _("Only a director can close a round with hands that do not count yet."),
            )
        for hand in unsettled:
            exclusion_write(unsettled=hand, reason=reason, recorded_by=recorded_by)
        kind = RoundLogKind.FORCED_CLOSE
    locked.status = RoundStatus.CLOSED
    locked.save(update_fields=["status"])
    round_log_append(
        round=locked,
        kind=kind,
        recorded_by=recorded_by,
        reason=reason,
        payload={"excluded": [hand.as_json() for hand in unsettled]},
    )
    _boards_release_changed(round=locked)
    return locked


def _boards_release_changed(*, round: Round) -> None:
    """Closing or reopening a duplicate round may release its boards or hide them again
    (``tournaments.common.board_release``); the standings count a board's results only once
    it is released, so they are recomputed."""
    if Hand.objects.filter(table__round=round, board__isnull=False).exists():
        tournament_scores_changed(tournament_id=round.tournament_id)


@transaction.atomic
def round_reopen(*, round: Round, reason: str, recorded_by: Any = None) -> Round:
    """Play a closed round again (a late result, a correction), with a reason; refused
    once a later round has started."""
    reason = reason_check(reason)
    locked = round_lock(round=round)
    # The tournament row is read after the round's lock (the order every writer takes).
    if Tournament.objects.filter(
        pk=locked.tournament_id, status=TournamentStatus.FINISHED
    ).exists():
        raise results_final_error()
    if locked.status != RoundStatus.CLOSED:
        raise ApplicationError(
            "round_not_closed",
            _("Only a closed round can reopen; this one is %(status)s.")
            % {"status": locked.get_status_display()},
        )
    later = (
        Round.objects.filter(
            tournament_id=locked.tournament_id,
            number__gt=locked.number,
            status__in=(RoundStatus.PLAYING, RoundStatus.CLOSED),
        )
        .order_by("number")
        .first()
    )
    if later is not None:
        raise ApplicationError(
            "later_round_started",
            _("Round %(number)s has already started.") % {"number": later.number},
        )
    locked.status = RoundStatus.PLAYING
    locked.save(update_fields=["status"])
    round_log_append(
        round=locked, kind=RoundLogKind.REOPENED, recorded_by=recorded_by, reason=reason, payload={}
    )
    _boards_release_changed(round=locked)
    return locked


@transaction.atomic
def table_hand_add(*, table: Table, reason: str, recorded_by: Any = None) -> RoundLog:
    """Allow one more hand at ``table`` than the round's hands (a misdeal replayed, a hand
    the director orders), recorded in the round log with the reason; ``hand_create`` counts
    these entries. Only a director, and not in a closed round."""
    reason = reason_check(reason)
    if not user_is_director(recorded_by):
        raise ApplicationError(
            "director_required", _("Only a director can add a hand beyond the round's hands.")
        )
    locked = round_lock(round=table.round)
    if locked.status == RoundStatus.CLOSED:
        raise ApplicationError(
            "round_not_playing", _("The round is closed: reopen it before adding a hand.")
        )
    return round_log_append(
        round=locked,
        kind=RoundLogKind.HAND_ADDED,
        recorded_by=recorded_by,
        reason=reason,
        payload={"table": table.pk, "table_number": table.number},
    )


@transaction.atomic
def table_create(*, round: Round, number: int) -> Table:
    at_most_check("number", number, maximum=TABLE_NUMBER_MAX)
    table = Table(round=round, number=number)
    model_validate(table)
    table.save()
    return table


def table_move_check(*, table: Table, round: Round) -> None:
    """Refuse moving a table to a round of another tournament, or a table that has hands
    or seats (its players were seated for its round; also used by the admin)."""
    if round.pk == table.round_id:
        return
    if round.tournament_id != table.round.tournament_id:
        raise ApplicationError(
            "round_not_in_tournament", _("The round belongs to another tournament.")
        )
    if Hand.objects.filter(table=table).exists():
        raise ApplicationError(
            "table_has_hands",
            _(
                "A table with hands cannot move to another round: "
                "its hands were played in this one."
            ),
        )
    if Seat.objects.filter(table=table).exists():
        raise ApplicationError(
            "table_has_seats",
            _(
                "A table with seated players cannot move to another round: seat the other "
                "round instead, or remove this table's seats first."
            ),
        )


@transaction.atomic
def table_move(*, table: Table, round: Round) -> Table:
    """Move an empty table to another round of its tournament."""
    locked = Table.objects.select_for_update().get(pk=table.pk)
    table_move_check(table=locked, round=round)
    locked.round = round
    model_validate(locked)
    locked.save(update_fields=["round"])
    return locked


def seat_check(*, table: Table, entry: Entry) -> None:
    """Refuse an entry of another tournament or a withdrawn one (also used by the admin)."""
    if entry.tournament_id != table.round.tournament_id:
        raise ApplicationError(
            "entry_not_in_tournament", _("The entry belongs to another tournament.")
        )
    if entry.withdrawn:
        raise ApplicationError("entry_withdrawn", _("A withdrawn entry cannot be seated."))


@transaction.atomic
def seat_create(*, table: Table, position: int, entry: Entry) -> Seat:
    """Seat ``entry`` at ``position`` of ``table`` (one seat per entry per round) before the
    table has hands; a bye it had in the round is cancelled. ``position``: a seat of the
    table, 0 … its rule profile's seat count - 1."""
    size = seat_count(table.round.tournament.rule_profile)
    if type(position) is not int or not 0 <= position < size:
        raise invalid(
            "position", _("must be a seat of the table, 0 to %(last)s.") % {"last": size - 1}
        )
    seat_check(table=table, entry=entry)
    if Seat.objects.filter(round_id=table.round_id, entry=entry).exists():
        raise ApplicationError(
            "entry_already_seated", _("This entry already has a seat in this round.")
        )
    if table.round.status == RoundStatus.CLOSED:
        raise ApplicationError("round_closed", _("The round is closed: reopen it first."))
    if Hand.objects.filter(table=table).exists():
        raise ApplicationError(
            "seat_has_hands",
            _(
                "Hands have been played at this table: its seats are frozen (a wrong seat is "
                "corrected, with a reason)."
            ),
        )
    seat = Seat(table=table, round_id=table.round_id, position=position, entry=entry)
    model_validate(seat)
    seat.save()
    RoundBye.objects.filter(round_id=table.round_id, entry=entry).delete()
    return seat


def referee_assignment_check(*, round: Round, user: Any, table: Table | None = None) -> None:
    """Refuse any account but a plain referee account (``referee_account_check``), or a
    table of another round (also used by the admin)."""
    referee_account_check(user=user)
    if table is not None and table.round_id != round.pk:
        raise ApplicationError("table_not_in_round", _("The table belongs to another round."))


@transaction.atomic
def referee_assign(*, round: Round, user: Any, table: Table | None = None) -> RefereeAssignment:
    """Assign a plain referee account to a round, or to one of its tables. Assigning again
    what is already assigned (a retried form, an assignment carried forward from the last
    round) answers the existing assignment: the database's unique indexes keep one."""
    referee_assignment_check(round=round, user=user, table=table)
    with transaction.atomic():
        assignment, _created = RefereeAssignment.objects.get_or_create(
            round=round, table=table, user=user
        )
    return assignment


def round_previous(*, round: Round) -> Round | None:
    """The tournament's round before ``round`` (the highest number below it)."""
    return (
        Round.objects.filter(tournament_id=round.tournament_id, number__lt=round.number)
        .order_by("-number")
        .first()
    )


def referees_carry_forward(*, round: Round) -> list[RefereeAssignment]:
    """Give ``round`` the referees of the round before it, in the caller's transaction
    (which holds the round's or its tournament's lock): each whole-round assignment, and
    each table's assignment where ``round`` has a table of that number. An account that is
    no longer a plain referee account is left out (``referee_account_check``), and what
    ``round`` already has is kept as it is. Returns the assignments made.

    Called when a round is made (its whole-round referees) and seated (its tables'): a round
    started without them left its tables on nobody's phone (issue 29)."""
    previous = round_previous(round=round)
    if previous is None:
        return []
    tables = {t.number: t for t in Table.objects.filter(round=round)}
    have = set(RefereeAssignment.objects.filter(round=round).values_list("table_id", "user_id"))
    made = []
    earlier = (
        RefereeAssignment.objects.filter(round=previous)
        .select_related("user", "table")
        .order_by("table__number", "user_id")
    )
    for old in earlier:
        table = None if old.table is None else tables.get(old.table.number)
        if old.table is not None and table is None:
            continue
        if (None if table is None else table.pk, old.user_id) in have:
            continue
        try:
            referee_account_check(user=old.user)
        except ApplicationError:
            continue
        made.append(RefereeAssignment(round=round, table=table, user=old.user))
    return RefereeAssignment.objects.bulk_create(made)


def round_tables_unrefereed(*, round: Round) -> list[int]:
    """The numbers of ``round``'s tables that no referee covers (no whole-round referee and
    none of the table's own): their hands show on no referee's phone."""
    if RefereeAssignment.objects.filter(round=round, table__isnull=True).exists():
        return []
    return list(
        Table.objects.filter(round=round)
        .exclude(referee_assignments__isnull=False)
        .order_by("number")
        .values_list("number", flat=True)
    )
