"""Small hand-checkable tournaments for the standings tests, built through the services."""

from typing import Any

from tests import factories
from tournaments.hands.write import hand_create, hand_record_passed_out, hand_record_result
from tournaments.models import Board, Entry, Hand, Round, Seat, Table, Tournament


def tournament_with_entries(n: int, **fields: Any) -> tuple[Tournament, list[Entry]]:
    tournament = factories.TournamentFactory(**fields)
    entries = [
        factories.EntryFactory(tournament=tournament, registration_order=i + 1) for i in range(n)
    ]
    return tournament, entries


def table_of(tournament: Tournament, round_number: int, number: int, seated: list[Entry]) -> Table:
    """Table ``number`` of round ``round_number`` with ``seated`` at positions 0, 1, 2."""
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=round_number)
    table = Table.objects.create(round=round_, number=number)
    for position, entry in enumerate(seated):
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return table


def board(tournament: Tournament, number: int) -> Board:
    return factories.BoardFactory(tournament=tournament, number=number, seed=7000 + number)


def finish(
    table: Table, *, landlord: int, bid: int, winner: str, board: Board | None = None, **result: Any
) -> Hand:
    """Play a hand at ``table`` to the given result (scores from the rules library)."""
    hand = hand_create(table=table, board=board).hand
    return hand_record_result(hand=hand, landlord=landlord, bid=bid, winner=winner, **result).hand


def pass_out(table: Table, *, board: Board | None = None) -> Hand:
    return hand_record_passed_out(hand=hand_create(table=table, board=board).hand).hand
