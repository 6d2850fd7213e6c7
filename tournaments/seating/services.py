"""Seating a round with the engine (``tournaments.seating.engine``), and changing a seat later.

* ``round_seat_preview`` shows what the engine would do, writing nothing;
  ``round_seat`` writes it with its seed recorded (same seed, same seating).
* ``seat_override`` changes who sits where before the table has hands, with a reason.
* ``seat_correct`` does it after: the seat is frozen, so the change is a ``seat_correction``
  event on every affected hand and the per-seat results (hence the standings) follow.
"""

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common import phrases
from tournaments.common.errors import ApplicationError
from tournaments.common.seat_names import seat_name
from tournaments.common.seats import seat_count
from tournaments.hands.boards import board_create, boards_not_replayed_check
from tournaments.hands.results import hand_results_sync
from tournaments.hands.writing import Decide, NewEvent, hand_write
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEventKind,
    Round,
    RoundBoard,
    RoundBye,
    RoundLogKind,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentFormat,
)
from tournaments.rounds.services import (
    reason_check,
    referees_carry_forward,
    round_lock,
    round_log_append,
    seat_check,
    seat_create,
)
from tournaments.seating.engine import (
    BAD_TABLE_SIZE,
    ENTRY_TWICE,
    TABLE_SIZES,
    TOO_FEW_ENTRIES,
    Seating,
    SeatingError,
    SeatingOptions,
    seat,
)
from tournaments.tournament import selectors

SEED_LIMIT = 2**53


def _seating_options(tournament: Tournament, round: Round) -> SeatingOptions:
    swiss = tournament.format == TournamentFormat.SWISS and round.number > 1
    duplicate = tournament.format == TournamentFormat.DUPLICATE
    return SeatingOptions(
        method="swiss" if swiss else "random",
        separate_clubs=tournament.separate_clubs,
        hands_per_round=0 if duplicate else tournament.hands_per_round,
        table_size=seat_count(tournament.rule_profile),
        translate=_,
        translate_plural=ngettext,
        seat_name=seat_name,
    )


def _seed_check(seed: Any) -> None:
    """None (a new seed) or a whole number below SEED_LIMIT."""
    if seed is None:
        return
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < SEED_LIMIT:
        raise ApplicationError(
            "invalid_seed",
            _("The seed must be a whole number between 0 and %(last)s.") % {"last": SEED_LIMIT - 1},
        )


def _seating_compute(*, round: Round, seed: int) -> Seating:
    _seed_check(seed)
    tournament = round.tournament
    options = _seating_options(tournament, round)
    if options.method == "swiss":
        open_round = (
            Round.objects.filter(tournament=tournament, number__lt=round.number)
            .exclude(status=RoundStatus.CLOSED)
            .order_by("number")
            .first()
        )
        if open_round is not None:
            raise ApplicationError(
                "previous_round_open",
                _("Swiss seats by standing: close round %(number)s first.")
                % {"number": open_round.number},
            )
    try:
        return seat(
            entries=selectors.seating_entries(tournament=tournament),
            seed=seed,
            history=selectors.seating_history(round=round),
            standing=(
                selectors.entry_order_for_seating(tournament=tournament)
                if options.method == "swiss"
                else ()
            ),
            options=options,
        )
    except SeatingError as exc:
        size = options.table_size
        messages = {
            ENTRY_TWICE: _("An entry is given twice."),
            TOO_FEW_ENTRIES % size: ngettext(
                "At least %(size)s entry is needed to seat a round.",
                "At least %(size)s entries are needed to seat a round.",
                size,
            )
            % {"size": size},
            BAD_TABLE_SIZE: _("A table has %(fewest)s to %(most)s seats.")
            % {"fewest": TABLE_SIZES[0], "most": TABLE_SIZES[-1]},
        }
        raise ApplicationError("cannot_seat", messages.get(str(exc), str(exc))) from exc


def _round_seatable_check(round: Round) -> None:
    if round.status not in (RoundStatus.DRAFT, RoundStatus.SEATED):
        raise ApplicationError(
            "round_not_seatable",
            _("Only a draft or seated round can be (re)seated; this one is %(status)s.")
            % {"status": round.get_status_display()},
        )
    if Hand.objects.filter(table__round=round).exists():
        raise ApplicationError("round_has_hands", _("The round has hands: its seats are frozen."))


def round_seat_preview(*, round: Round, seed: int | None = None) -> Seating:
    """What ``round_seat`` would write with ``seed`` (a new one when None); writes nothing."""
    _seed_check(seed)
    _round_seatable_check(round)
    return _seating_compute(
        round=round, seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed
    )


@transaction.atomic
def round_seat(*, round: Round, seed: int | None = None, recorded_by: Any = None) -> Seating:
    """Seat ``round`` with the engine and record the seed and the explanation.

    A seated round without hands can be seated again: its tables, seats, byes and
    boards are replaced (table referee assignments go with their tables). The referees of
    the round before are carried forward (``referees_carry_forward``).
    """
    _seed_check(seed)
    locked = round_lock(round=round)
    _round_seatable_check(locked)
    seating = _seating_compute(
        round=locked, seed=secrets.randbelow(SEED_LIMIT) if seed is None else seed
    )
    Table.objects.filter(round=locked).delete()
    RoundBye.objects.filter(round=locked).delete()
    RoundBoard.objects.filter(round=locked).delete()
    tables = Table.objects.bulk_create(
        Table(round=locked, number=t.number, first_bidder=t.first_bidder) for t in seating.tables
    )
    Seat.objects.bulk_create(
        Seat(table=table, round=locked, position=position, entry_id=entry_id)
        for table, planned in zip(tables, seating.tables, strict=True)
        for position, entry_id in enumerate(planned.entries)
    )
    RoundBye.objects.bulk_create(RoundBye(round=locked, entry_id=e) for e in seating.byes)
    if locked.tournament.format == TournamentFormat.DUPLICATE:
        _round_boards_assign(round=locked, seed=seating.seed)
        boards_not_replayed_check(
            entry_ids=[e for planned in seating.tables for e in planned.entries],
            board_ids=list(
                RoundBoard.objects.filter(round=locked).values_list("board_id", flat=True)
            ),
        )
    locked.seed = seating.seed
    # kept as phrases: each reader reads it in their own language (seating_explanation_text)
    locked.seating_explanation = phrases.to_json(seating.explanation_phrases)
    locked.status = RoundStatus.SEATED
    locked.save(update_fields=["seed", "seating_explanation", "status"])
    # the tables' referees of the round before, where this round has the same table
    referees_carry_forward(round=locked)
    round_log_append(
        round=locked,
        kind=RoundLogKind.SEATED,
        recorded_by=recorded_by,
        payload={
            "seed": seating.seed,
            "method": seating.method,
            "tables": len(seating.tables),
            "byes": list(seating.byes),
            "repeat_meetings": seating.repeat_meetings,
        },
    )
    return seating


def _round_boards_assign(*, round: Round, seed: int) -> None:
    """Duplicate (复式): hand k of every table plays board ``(round - 1) * H + k``, the same
    cards at every table of the section (SPEC R10.4.1).  Missing boards are dealt from
    seeds drawn from the round's seed, so the round's seed reproduces them."""
    tournament = round.tournament
    hands = tournament.hands_per_round
    rng = random.Random(seed)
    first = (round.number - 1) * hands + 1
    existing = {
        board.number: board
        for board in Board.objects.filter(tournament=tournament, number__gte=first)
    }
    rows = []
    for k in range(1, hands + 1):
        number = first + k - 1
        board_seed = rng.randrange(SEED_LIMIT)
        board = existing.get(number) or board_create(
            tournament=tournament, number=number, seed=board_seed
        )
        rows.append(RoundBoard(round=round, section=1, hand_number=k, board=board))
    RoundBoard.objects.bulk_create(rows)


# --- one seat changed --------------------------------------------------------------------


@dataclass
class _SeatChange:
    """Who sits at the seat's place now, who sits there after, and the swapped seat."""

    seat: Seat
    other: Seat | None  # the new entry's seat in the same round, swapped with ``seat``
    bye: RoundBye | None  # the new entry's bye in this round, given to the old entry


def _seat_change_plan(*, seat: Seat, entry: Entry) -> _SeatChange:
    seat_check(table=seat.table, entry=entry)
    other = (
        Seat.objects.select_for_update()
        .select_related("table")
        .filter(round_id=seat.round_id, entry=entry)
        .first()
    )
    bye = RoundBye.objects.filter(round_id=seat.round_id, entry=entry).first()
    return _SeatChange(seat=seat, other=other, bye=bye)


def _seat_changes(change: _SeatChange, entry: Entry) -> list[tuple[Seat, int, int]]:
    """(seat, old entry id, new entry id) per seat the change rewrites."""
    changed = [(change.seat, change.seat.entry_id, entry.pk)]
    if change.other is not None:
        changed.append((change.other, entry.pk, change.seat.entry_id))
    return changed


def _seat_change_apply(change: _SeatChange, entry: Entry) -> list[tuple[Seat, int, int]]:
    """Rewrite the seats; return (seat, old entry id, new entry id) per changed seat.

    The seats are deleted and written again so the one-seat-per-entry and
    one-entry-per-position constraints hold after every statement."""
    seat, other = change.seat, change.other
    old_entry_id = seat.entry_id
    changed = _seat_changes(change, entry)
    Seat.objects.filter(pk__in=[s.pk for s, _, _ in changed]).delete()
    Seat.objects.bulk_create(
        Seat(table_id=s.table_id, round_id=s.round_id, position=s.position, entry_id=new)
        for s, _, new in changed
    )
    if other is None:
        # The displaced entry sits this round out; the newcomer's bye is used up.
        if change.bye is not None:
            change.bye.delete()
        RoundBye.objects.get_or_create(round_id=seat.round_id, entry_id=old_entry_id)
    return changed


def _seat_lock(seat: Seat) -> tuple[Round, Seat]:
    """Lock the round, then the seat (always in that order).

    A seat is found by its place (table, position), not its id: a change writes the
    seat rows again, so a retried request still finds its seat."""
    round_ = round_lock(round=seat.round)
    try:
        locked = (
            Seat.objects.select_for_update()
            .select_related("table")
            .get(table_id=seat.table_id, position=seat.position)
        )
    except Seat.DoesNotExist as exc:
        raise ApplicationError("seat_empty", _("Nobody sits there any more.")) from exc
    return round_, locked


def _payload(changed: Sequence[tuple[Seat, int, int | None]]) -> list[dict[str, int | None]]:
    return [
        {"table": s.table.number, "position": s.position, "old_entry": old, "new_entry": new}
        for s, old, new in changed
    ]


@transaction.atomic
def seat_override(*, seat: Seat, entry: Entry, reason: str, recorded_by: Any = None) -> Seat:
    """Put ``entry`` in ``seat`` before its table has hands (a director's override).

    If ``entry`` sits elsewhere in the round, the two swap (this is also how two
    positions of one table are exchanged); if it had a bye, the displaced entry takes
    the bye; otherwise the displaced entry sits the round out with a bye.
    """
    reason = reason_check(reason)
    round_, locked = _seat_lock(seat)
    if locked.entry_id == entry.pk:
        return locked  # already so (a repeated request): nothing to do
    if round_.status == RoundStatus.CLOSED:
        raise ApplicationError("round_closed", _("The round is closed: reopen it first."))
    change = _seat_change_plan(seat=locked, entry=entry)
    tables = {locked.table_id} | ({change.other.table_id} if change.other else set())
    if Hand.objects.filter(table_id__in=tables).exists():
        raise ApplicationError(
            "seat_has_hands",
            _(
                "Hands have been played at this table: the seat is frozen; correct it instead "
                "(a correction with a reason that the hands and the standings follow)."
            ),
        )
    changed = _seat_change_apply(change, entry)
    round_log_append(
        round=round_,
        kind=RoundLogKind.SEAT_OVERRIDE,
        recorded_by=recorded_by,
        reason=reason,
        payload={"seats": _payload(changed)},
    )
    return Seat.objects.get(table_id=locked.table_id, position=locked.position)


def _seat_correction_events(
    hand: Hand,
    seats: list[dict[str, int | None]],
    changed: Sequence[tuple[Seat, int, int | None]],
    reason: str,
) -> Decide:
    """``hand_write``'s decision for ``hand``: a ``seat_correction`` event per seat of its
    table in ``seats`` (``_payload(changed)``)."""
    at_table = [
        item for item, (c, _, _) in zip(seats, changed, strict=True) if c.table_id == hand.table_id
    ]
    events = [
        NewEvent(HandEventKind.SEAT_CORRECTION, {**item, "reason": reason}) for item in at_table
    ]
    return lambda locked, replay: events


@transaction.atomic
def seat_correct(*, seat: Seat, entry: Entry, reason: str, recorded_by: Any = None) -> Seat:
    """Correct who sat in ``seat`` after hands were played there.

    Every hand of each affected table gets a ``seat_correction`` event (reason, old and
    new entry) and its per-seat results are rewritten, so the scores move with the seat and
    the tournament's log version moves on (the standings follow).  A swap with the new
    entry's own seat in the round corrects both tables.
    """
    reason = reason_check(reason)
    round_, locked = _seat_lock(seat)
    if locked.entry_id == entry.pk:
        return locked  # already so (a repeated request): no second event
    change = _seat_change_plan(seat=locked, entry=entry)
    tables = sorted({locked.table_id} | ({change.other.table_id} if change.other else set()))
    hands = list(Hand.objects.select_for_update().filter(table_id__in=tables).order_by("pk"))
    if not hands:
        raise ApplicationError(
            "seat_has_no_hands", _("No hand has been played at this table: override the seat.")
        )
    changed = _seat_changes(change, entry)
    seats = _payload(changed)
    # The events come first: the database lets a seat of a table with hands change only
    # to what a seat_correction event, newest on every hand of the table, says (0010).
    # Each hand's through the one skeleton (``hand_write``: its row, log, snapshot and
    # version move together); no key, so never a retry.
    written = [
        hand_write(
            hand=hand,
            idempotency_key=None,
            expected_version=None,
            same_request=lambda event: False,
            decide=_seat_correction_events(hand, seats, changed, reason),
            recorded_by=recorded_by,
        ).hand
        for hand in hands
    ]
    _seat_change_apply(change, entry)
    for hand in written:  # the per-seat rows follow the seats now changed
        hand_results_sync(hand=hand)
    round_log_append(
        round=round_,
        kind=RoundLogKind.SEAT_CORRECTION,
        recorded_by=recorded_by,
        reason=reason,
        payload={"seats": seats, "hands": [h.pk for h in hands]},
    )
    return Seat.objects.get(table_id=locked.table_id, position=locked.position)


@transaction.atomic
def seat_remove(*, seat: Seat, reason: str, recorded_by: Any = None) -> None:
    """Empty ``seat`` before its table has hands; its entry sits the round out (a bye)."""
    reason = reason_check(reason)
    round_, locked = _seat_lock(seat)
    if round_.status == RoundStatus.CLOSED:
        raise ApplicationError("round_closed", _("The round is closed: reopen it first."))
    if Hand.objects.filter(table_id=locked.table_id).exists():
        raise ApplicationError(
            "seat_has_hands", _("Hands have been played at this table: its seats stay filled.")
        )
    locked.delete()
    if not Entry.objects.filter(pk=locked.entry_id, withdrawn=True).exists():
        RoundBye.objects.get_or_create(round_id=round_.pk, entry_id=locked.entry_id)
    round_log_append(
        round=round_,
        kind=RoundLogKind.SEAT_OVERRIDE,
        recorded_by=recorded_by,
        reason=reason,
        payload={"seats": _payload([(locked, locked.entry_id, None)])},
    )


@transaction.atomic
def table_seats_set(
    *,
    table: Table,
    seats: dict[int, Entry],
    reason: str = "",
    recorded_by: Any = None,
) -> None:
    """Make ``table``'s seats ``seats`` (position → entry) with the services above: new
    positions are seated, emptied positions removed, and changed ones overridden (no
    hands yet) or corrected (hands played), each with ``reason``.  What the admin calls."""
    size = seat_count(table.round.tournament.rule_profile)
    if not isinstance(seats, dict) or not all(
        type(position) is int and 0 <= position < size and isinstance(entry, Entry)
        for position, entry in seats.items()
    ):
        raise ApplicationError(
            "invalid",
            _("Seats are positions 0 to %(last)s, each given an entry.") % {"last": size - 1},
        )
    current = {s.position: s for s in Seat.objects.filter(table=table)}
    for position, vacated in sorted(current.items()):
        if position not in seats:
            seat_remove(seat=vacated, reason=reason, recorded_by=recorded_by)
    has_hands = Hand.objects.filter(table=table).exists()
    for position, entry in sorted(seats.items()):
        existing = Seat.objects.filter(table=table, position=position).first()
        if existing is None:
            seat_create(table=table, position=position, entry=entry)
        elif existing.entry_id != entry.pk:
            change = seat_correct if has_hands else seat_override
            change(seat=existing, entry=entry, reason=reason, recorded_by=recorded_by)
