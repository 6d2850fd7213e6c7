"""Tournament data model.  Invariants are database constraints; writes go
through ``tournaments.services``, reads through ``tournaments.selectors``."""

from tournaments.models.boards import Board
from tournaments.models.hands import (
    Confirmation,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
    Winner,
)
from tournaments.models.players import Player
from tournaments.models.results import HandSeatResult, Penalty
from tournaments.models.rounds import (
    SEAT_POSITIONS,
    RefereeAssignment,
    Round,
    RoundStatus,
    Seat,
    SeatPosition,
    Table,
)
from tournaments.models.standings import StandingSnapshot, StandingsState
from tournaments.models.tournaments import (
    Entry,
    RuleProfileKey,
    Tournament,
    TournamentFormat,
    TournamentStatus,
)

__all__ = [
    "SEAT_POSITIONS",
    "Board",
    "Confirmation",
    "Entry",
    "Hand",
    "HandEvent",
    "HandEventKind",
    "HandSeatResult",
    "HandStatus",
    "Penalty",
    "Player",
    "RefereeAssignment",
    "Round",
    "RoundStatus",
    "RuleProfileKey",
    "Seat",
    "SeatPosition",
    "StandingSnapshot",
    "StandingsState",
    "Table",
    "Tournament",
    "TournamentFormat",
    "TournamentStatus",
    "Winner",
]
