"""Read operations.  Views, templates and the API read through these."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Count, Exists, Max, OuterRef, Prefetch, Q, QuerySet

from tournaments.common.roles import REFEREE_GROUP
from tournaments.common.rows import Columns, column, fetch_one, table_name
from tournaments.common.seats import seat_count
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    RefereeAssignment,
    Round,
    RoundBoard,
    RoundBye,
    RoundLog,
    RoundLogKind,
    RoundStatus,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)
from tournaments.seating.engine import History, PastTable, SeatingEntry, first_bidder_turns
from tournaments.standings.queries import standings_compute


def _entry_counts() -> dict[str, Count]:
    """A tournament's players: ``entry_count`` the active entries, ``withdrawn_count`` the
    withdrawn ones apart (退赛: still listed, no longer playing)."""
    return {
        "entry_count": Count("entries", filter=Q(entries__withdrawn=False), distinct=True),
        "withdrawn_count": Count("entries", filter=Q(entries__withdrawn=True), distinct=True),
    }


def tournament_list_public() -> QuerySet[Tournament]:
    return Tournament.objects.filter(is_public=True).annotate(**_entry_counts())


def tournament_list_for_director() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        **_entry_counts(), round_count=Count("rounds", distinct=True)
    )


def tournament_entry_counts(*, tournament: Tournament) -> tuple[int, int]:
    """(active entries, withdrawn entries) of ``tournament``. One query."""
    counts = tournament.entries.aggregate(
        active=Count("pk", filter=Q(withdrawn=False)),
        withdrawn=Count("pk", filter=Q(withdrawn=True)),
    )
    return counts["active"], counts["withdrawn"]


def tournament_get_public(*, slug: str) -> Tournament | None:
    return Tournament.objects.filter(is_public=True, slug=slug).first()


def tournament_has_hands(*, tournament: Tournament) -> bool:
    """True once any hand exists: from then on the rule profile is frozen."""
    return Hand.objects.filter(table__round__tournament=tournament).exists()


def tournament_has_seated_round(*, tournament: Tournament) -> bool:
    """True once a round has been seated (seated, playing or closed): from then on the
    settings the seating and the scores depend on are frozen."""
    return Round.objects.filter(tournament=tournament).exclude(status=RoundStatus.DRAFT).exists()


def entry_next_registration_order(*, tournament: Tournament) -> int:
    last = Entry.objects.filter(tournament=tournament).aggregate(last=Max("registration_order"))
    return (last["last"] or 0) + 1


def entry_list(*, tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player")


def round_list_with_tables(*, tournament: Tournament) -> QuerySet[Round]:
    """Rounds with tables, seated players and hands, for one page render."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    hands = Hand.objects.select_related("board").order_by("number")
    tables = Table.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=seats), Prefetch("hands", queryset=hands)
    )
    return (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )


def hand_event_list(*, hand: Hand) -> QuerySet[HandEvent]:
    return HandEvent.objects.filter(hand=hand).order_by("seq")


def referee_assignment_list(*, user: Any) -> QuerySet[RefereeAssignment]:
    return RefereeAssignment.objects.filter(user=user).select_related("round__tournament", "table")


def user_list_assignable() -> QuerySet[Any]:
    """Plain referee accounts (``rounds.referees.referee_account_check``): the users a
    round or table can be assigned to. Staff, superusers and holders of any permission
    are never offered."""
    held = Permission.objects.filter(Q(user=OuterRef("pk")) | Q(group__user=OuterRef("pk")))
    return (
        get_user_model()
        .objects.filter(
            is_active=True, is_staff=False, is_superuser=False, groups__name=REFEREE_GROUP
        )
        .exclude(Exists(held))
        .distinct()
        .order_by("username")
    )


# --- seating ---------------------------------------------------------------------------


def entry_order_for_seating(*, tournament: Tournament) -> list[int]:
    """Active entry ids by current standing, best first: what a Swiss round (瑞士移位)
    seats by.

    The standings themselves, with the tournament's tie-break chain (SPEC R10.8.5): the
    latest snapshot when it is current (its log version is the tournament's and it ranks
    every active entry), else computed now (``standings_compute``).  Withdrawn entries are
    not seated (R10.8.7).
    """
    (log_version,) = Tournament.objects.filter(pk=tournament.pk).values_list(
        "log_version", flat=True
    )
    active = set(
        Entry.objects.filter(tournament=tournament, withdrawn=False).values_list("pk", flat=True)
    )
    snapshot = list(
        StandingSnapshot.objects.filter(tournament=tournament, log_version=log_version)
        .order_by("rank", "entry__registration_order")
        .values_list("entry_id", flat=True)
    )
    if active <= set(snapshot):
        ranked = snapshot
    else:
        standings = standings_compute(tournament=tournament)
        ranked = [
            s.entry_id for s in sorted(standings, key=lambda s: (s.rank, s.registration_order))
        ]
    return [pk for pk in ranked if pk in active]


def seating_entries(*, tournament: Tournament) -> list[SeatingEntry]:
    """The active entries the engine seats, with their clubs."""
    rows = Entry.objects.filter(tournament=tournament, withdrawn=False).values_list(
        "pk", "registration_order", "player__club"
    )
    return [SeatingEntry(id=pk, registration_order=order, club=club) for pk, order, club in rows]


def seating_history(*, round: Round) -> History:
    """Every other round's tables (by seat position), first-bidder turns and byes.

    First bidders come from each hand's board (duplicate) or from the table's rotation
    (``Table.first_bidder``, one seat per hand), counted in the database per table.
    """
    others = Round.objects.filter(tournament_id=round.tournament_id).exclude(pk=round.pk)
    size = seat_count(round.tournament.rule_profile)
    seats = Seat.objects.filter(round__in=others).values_list("table_id", "position", "entry_id")
    by_table: dict[int, list[int | None]] = {}
    for table_id, position, entry_id in seats:
        by_table.setdefault(table_id, [None] * size)[position] = entry_id
    rotating = dict(
        Table.objects.filter(round__in=others, first_bidder__isnull=False).values_list(
            "pk", "first_bidder"
        )
    )
    turns: dict[int, list[int]] = {}
    hand_counts = (
        Hand.objects.filter(table__round__in=others)
        .values("table_id", "board__first_bidder")
        .annotate(count=Count("pk"))
    )
    for row in hand_counts:
        table_turns = turns.setdefault(row["table_id"], [0] * size)
        if row["board__first_bidder"] is not None:
            table_turns[row["board__first_bidder"]] += row["count"]
        elif row["table_id"] in rotating:
            rotation = first_bidder_turns(rotating[row["table_id"]], row["count"], size)
            for position in range(size):
                table_turns[position] += rotation[position]
    tables = tuple(
        PastTable(
            entries=tuple(e for e in entries if e is not None),
            first_bidder_turns=tuple(turns.get(table_id, [0] * size)),
        )
        for table_id, entries in sorted(by_table.items())
        if None not in entries
    )
    byes = tuple(RoundBye.objects.filter(round__in=others).values_list("entry_id", flat=True))
    return History(tables=tables, byes=byes)


def table_first_bidder(*, table: Table, hand_number: int) -> int | None:
    """The seat that bids first in hand ``hand_number`` at ``table``: the board's in
    duplicate, else the table's rotation (one seat per hand); None when neither is set."""
    board = round_board(table=table, hand_number=hand_number)
    if board is not None:
        return board.first_bidder
    if table.first_bidder is None:
        return None
    return (table.first_bidder + hand_number - 1) % seat_count(table.round.tournament.rule_profile)


_BOARD = Columns(Board, "b")
#: ``round_board``'s statement (read at every hand start), built once.
_ROUND_BOARD_SQL = (
    f"SELECT {_BOARD.sql} FROM {table_name(RoundBoard)} rb"
    f" JOIN {table_name(Board)} b ON b.{column(Board, 'id')} = rb.{column(RoundBoard, 'board')}"
    f" WHERE rb.{column(RoundBoard, 'round')} = %s AND rb.{column(RoundBoard, 'section')} = %s"
    f" AND rb.{column(RoundBoard, 'hand_number')} = %s"
)


def round_board(*, table: Table, hand_number: int) -> Board | None:
    """The board every table of ``table``'s section plays as hand ``hand_number``
    (one at most: ``round_board_hand_unique``)."""
    row = fetch_one(_ROUND_BOARD_SQL, [table.round_id, table.section, hand_number])
    return None if row is None else _BOARD.instance(row)


def boards_played_by(*, entry_ids: list[int], board_ids: list[int]) -> list[tuple[int, int]]:
    """(registration number, board number) for each of ``entry_ids`` that sat at a table
    where a hand on one of ``board_ids`` was started (voided ones too: its cards were seen)."""
    if not entry_ids or not board_ids:
        return []
    return list(
        Seat.objects.filter(entry_id__in=entry_ids, table__hands__board_id__in=board_ids)
        .values_list("entry__registration_order", "table__hands__board__number")
        .distinct()
        .order_by("entry__registration_order", "table__hands__board__number")
    )


def round_tables_incomplete(*, round: Round) -> QuerySet[Table]:
    """Tables of ``round`` with fewer seats than its rule profile's tables have."""
    return (
        Table.objects.filter(round=round)
        .annotate(seated=Count("seats"))
        .filter(seated__lt=seat_count(round.tournament.rule_profile))
        .order_by("number")
    )


def table_hands_added(*, tables: Sequence[Table]) -> dict[int, int]:
    """Per table (pk): the hands a director added to its round's (``table_hand_add``, one
    ``hand_added`` entry of the round log each); one query for all of ``tables``."""
    added: dict[int, int] = {}
    logs = RoundLog.objects.filter(
        round_id__in={table.round_id for table in tables}, kind=RoundLogKind.HAND_ADDED
    ).values_list("payload", flat=True)
    for payload in logs:
        table_pk = payload.get("table") if isinstance(payload, dict) else None
        if isinstance(table_pk, int):
            added[table_pk] = added.get(table_pk, 0) + 1
    return added


def round_byes(*, round: Round) -> list[Entry]:
    """The entries that sit out ``round`` (轮空, a bye: no table, no score), by registration."""
    return list(
        Entry.objects.filter(byes__round=round)
        .select_related("player")
        .order_by("registration_order")
    )


def entry_bye_rounds(*, entry: Entry, public: bool = False) -> list[int]:
    """The numbers of the rounds ``entry`` sat out; ``public``: of rounds past their draft."""
    byes = RoundBye.objects.filter(entry=entry)
    if public:
        byes = byes.exclude(round__status=RoundStatus.DRAFT)
    return list(byes.order_by("round__number").values_list("round__number", flat=True))


def rounds_made(*, tournament: Tournament) -> int:
    """How many rounds the tournament has (of its ``rounds_planned``)."""
    return Round.objects.filter(tournament=tournament).count()
