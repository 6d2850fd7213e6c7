"""Tournament data model.  Invariants are database constraints; writes go
through ``tournaments.services``, reads through ``tournaments.selectors``."""

from tournaments.models.boards import Board
from tournaments.models.hands import Hand, HandEvent, HandEventKind, HandStatus, Winner
from tournaments.models.players import Player
from tournaments.models.rounds import (
    SEAT_POSITIONS,
    RefereeAssignment,
    Round,
    RoundStatus,
    Seat,
    SeatPosition,
    Table,
)
from tournaments.models.standings import StandingSnapshot
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
    "Entry",
    "Hand",
    "HandEvent",
    "HandEventKind",
    "HandStatus",
    "Player",
    "RefereeAssignment",
    "Round",
    "RoundStatus",
    "RuleProfileKey",
    "Seat",
    "SeatPosition",
    "StandingSnapshot",
    "Table",
    "Tournament",
    "TournamentFormat",
    "TournamentStatus",
    "Winner",
]
