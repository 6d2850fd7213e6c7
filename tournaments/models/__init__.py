"""Tournament data model.  Invariants are database constraints; writes go
through the services of each concern (``tournaments.hands.write``…), reads through its
selectors (``tournaments.tournament.selectors``…).

May import: Django, the limits (``tournaments.common.limits``), the seat counts and the SQL of
the per-seat arrays (``tournaments.common.seats``, ``json_arrays``), and the ranking criteria
(``tournaments.standings.ranking``)."""

from tournaments.models.boards import Board, RoundBoard
from tournaments.models.hands import (
    ACTION_KINDS,
    Confirmation,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
    Winner,
)
from tournaments.models.health import WorkerHeartbeat
from tournaments.models.idempotency import IdempotencyRecord
from tournaments.models.par import AnalysisStatus, BoardPar, HandPar, LostOutcome, ParOutcome
from tournaments.models.players import Player
from tournaments.models.results import ExcludedState, HandExclusion, HandSeatResult, Penalty
from tournaments.models.rounds import (
    RefereeAssignment,
    Round,
    RoundBye,
    RoundLog,
    RoundLogKind,
    RoundStatus,
    Seat,
    SeatPosition,
    Table,
)
from tournaments.models.seasons import (
    PlayerMerge,
    Season,
    SeasonRating,
    SeasonStatus,
    SeasonStep,
)
from tournaments.models.standings import StandingSnapshot, StandingsState
from tournaments.models.tournament_log import TournamentLog, TournamentLogKind
from tournaments.models.tournaments import (
    ConfirmedBy,
    Entry,
    RuleProfileKey,
    Tournament,
    TournamentFormat,
    TournamentStatus,
    offered_rule_profiles,
)

__all__ = [
    "ACTION_KINDS",
    "AnalysisStatus",
    "Board",
    "BoardPar",
    "Confirmation",
    "ConfirmedBy",
    "Entry",
    "ExcludedState",
    "Hand",
    "HandEvent",
    "HandEventKind",
    "HandExclusion",
    "HandPar",
    "HandSeatResult",
    "HandStatus",
    "IdempotencyRecord",
    "LostOutcome",
    "ParOutcome",
    "Penalty",
    "Player",
    "PlayerMerge",
    "RefereeAssignment",
    "Round",
    "RoundBoard",
    "RoundBye",
    "RoundLog",
    "RoundLogKind",
    "RoundStatus",
    "RuleProfileKey",
    "Season",
    "SeasonRating",
    "SeasonStatus",
    "SeasonStep",
    "Seat",
    "SeatPosition",
    "StandingSnapshot",
    "StandingsState",
    "Table",
    "Tournament",
    "TournamentFormat",
    "TournamentLog",
    "TournamentLogKind",
    "TournamentStatus",
    "Winner",
    "WorkerHeartbeat",
    "offered_rule_profiles",
]
