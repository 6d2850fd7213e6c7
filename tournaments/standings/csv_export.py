"""Standings and per-hand results as CSV, UTF-8 with a byte-order mark so that spreadsheet
programs read Chinese names.

Every CSV the service writes goes through ``csv_writer``, which neutralises formula cells
as OWASP recommends ("CSV injection"): a text cell starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return gets a leading ``'`` so a spreadsheet shows it as text instead
of running it.  Numbers stay numbers: an ``int`` cell, or a text cell that is a plain
decimal number (``-3``, ``12.50``), is written as it is, so a score of −3 still sums.
"""

import csv
import re
from collections.abc import Iterable
from typing import IO, Any

from referee.rules.profiles import get_profile
from tournaments.common.seats import seat_count
from tournaments.models import Hand, Seat, Tournament
from tournaments.par.analysis import PAR_PROFILES
from tournaments.standings.public_table import percentage_text
from tournaments.standings.queries import standings_latest

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def csv_cell(value: Any) -> Any:
    """``value`` made safe for a spreadsheet (see the module docstring)."""
    formula = isinstance(value, str) and value.startswith(FORMULA_STARTS)
    return "'" + value if formula and not _PLAIN_NUMBER.fullmatch(value) else value


class csv_writer:  # a drop-in for csv.writer, named like it
    """``csv.writer(out)`` whose rows pass through ``csv_cell``."""

    def __init__(self, out: IO[str] | Any) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([csv_cell(value) for value in row])


STANDINGS_HEADER = [
    "rank",
    "registration",
    "name",
    "chinese_name",
    "club",
    "withdrawn",
    "total",
    "deal_points",
    "penalty_points",
    "hands_played",
    "landlord_hands",
    "landlord_wins",
    "matchpoints",
    "matchpoint_top",
    "mp_percentage",
    "boards_scored",
    "tops",
    "log_version",
]
HANDS_HEADER = [
    "round",
    "table",
    "hand",
    "board",
    "status",
    "confirmation",
    "landlord_seat",
    "bid",
    "winner",
    "doubled",
    "redoubled",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
]


#: Par of the hand's board and where the hand left it (issue 33; ``BoardPar``, ``HandPar``):
#: the par table (W/L/? a seat as landlord), the par result (``<seat>:<bid>``, passed_out or
#: unsolved), the hand's analysis (held, turned, open, unsolved, no_play), the action its
#: analysis starts at, the action that lost par and the move that kept it. Empty until the
#: board is analysed (once released).
PAR_HEADER = ("par_table", "par_result", "par_lost", "par_start", "par_turn", "par_kept")

#: Big Three's own words for the columns (SPEC §12: the digger 挖坑者 and his opponents);
#: it has no doubling, bomb, rocket or spring (R12.11.1), so those columns are left out.
BIG3_WORDS = {"landlord_seat": "digger_seat", "landlord_hands": "digger_hands",
              "landlord_wins": "digger_wins"}  # fmt: skip
BIG3_WINNER = {"landlord": "digger", "defenders": "opponents"}
_BIG3_LEFT_OUT = ("doubled", "redoubled", "bombs", "rockets", "spring", "anti_spring")


def _is_big3(profile_key: str | None) -> bool:
    return profile_key is not None and get_profile(profile_key).game == "big3"


def _columns(header: list[str], profile_key: str | None) -> list[str]:
    if not _is_big3(profile_key):
        return header
    return [BIG3_WORDS.get(name, name) for name in header if name not in _BIG3_LEFT_OUT]


def hands_header(seats: int, profile_key: str | None = None, *, par: bool = False) -> list[str]:
    """The hands file's header for tables of ``seats`` seats of the rule profile
    ``profile_key``: a name and a score a seat (Big Three's in its own words), then (``par``:
    a profile the solver takes) the par columns."""
    seat_columns = (f"{kind}_{p}" for p in range(seats) for kind in ("seat", "score"))
    return [*_columns(HANDS_HEADER, profile_key), *seat_columns, *(PAR_HEADER if par else ())]


def standings_header(profile_key: str | None = None) -> list[str]:
    """The standings file's header; Big Three's in its own words."""
    return _columns(STANDINGS_HEADER, profile_key)


def standings_csv_write(
    *, tournament: Tournament, out: IO[str], round_number: int | None = None
) -> int:
    """Write the latest standings (``round_number``: those kept after that round); return
    the number of rows."""
    writer = csv_writer(out)
    writer.writerow(standings_header(tournament.rule_profile))
    rows = 0
    for s in standings_latest(tournament=tournament, round_number=round_number):
        p = s.entry.player
        writer.writerow(
            [
                s.rank,
                s.entry.registration_order,
                p.name,
                p.chinese_name,
                p.club,
                int(s.withdrawn),
                s.total,
                s.deal_points,
                s.penalty_points,
                s.hands_played,
                s.landlord_hands,
                s.landlord_wins,
                s.matchpoints,
                s.matchpoint_top,
                percentage_text(s.mp_percentage),
                s.boards_scored,
                s.tops,
                s.log_version,
            ]
        )
        rows += 1
    return rows


def hands_csv_write(
    *, tournament: Tournament, out: IO[str], round_number: int | None = None
) -> int:
    """Write one row per hand (of round ``round_number`` if given) with its summary and who
    sat where; return the row count."""
    names = {
        (s.table_id, s.position): s.entry.player.chinese_name or s.entry.player.name
        for s in Seat.objects.filter(round__tournament=tournament).select_related("entry__player")
    }
    writer = csv_writer(out)
    size = seat_count(tournament.rule_profile)
    par = tournament.rule_profile in PAR_PROFILES
    big3 = _is_big3(tournament.rule_profile)
    writer.writerow(hands_header(size, tournament.rule_profile, par=par))
    hands = (
        Hand.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "board__par", "par")
        .order_by("table__round__number", "table__number", "number")
    )
    if round_number is not None:
        hands = hands.filter(table__round__number=round_number)
    rows = 0
    for h in hands:
        doubled = "".join(str(i) for i, d in enumerate(h.doubled) if d)
        seats = []
        for position in range(size):
            seats += [names.get((h.table_id, position), ""), h.score_of(position)]
        summary = [h.landlord_seat, h.bid, h.winner]
        if big3:
            summary[2] = BIG3_WINNER.get(h.winner, h.winner)
        else:
            summary += [doubled, int(h.redoubled), h.bombs, h.rockets]
            summary += [int(h.spring), int(h.anti_spring)]
        writer.writerow(
            [
                h.table.round.number,
                h.table.number,
                h.number,
                h.board.number if h.board else "",
                h.status,
                h.confirmation,
                *summary,
                *seats,
                *(_par_columns(h) if par else ()),
            ]
        )
        rows += 1
    return rows


def _par_columns(hand: Hand) -> list[object]:
    board_par = getattr(hand.board, "par", None) if hand.board else None
    if board_par is None:
        return ["" for _ in PAR_HEADER]
    lost = getattr(hand, "par", None)
    if lost is not None and (lost.hand_version != hand.version or board_par.status != "done"):
        lost = None
    return [
        board_par.table_text(),
        board_par.result_text(),
        lost.outcome if lost else "",
        "" if lost is None or lost.start_action is None else lost.start_action,
        "" if lost is None or lost.turn_action is None else lost.turn_action,
        lost.kept_play if lost else "",
    ]
