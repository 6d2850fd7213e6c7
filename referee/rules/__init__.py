"""The rules of Dou Dizhu (斗地主 / 竞技二打一扑克), pure Python, no Django.

Usable on its own, like python-chess::

    >>> from referee.rules import HandState, Deal, classify, legal_plays, get_profile
    >>> classify("666777AA").kind.value
    'airplane_singles'

Profile ``comp2016`` (the 2016 national competitive rules) is the default; ``classic`` is the
English-language rules. The numbered rules are in ``docs/rules/SPEC.md``, the rules tool's
protocol in ``docs/rules/PROTOCOL.md`` and the conformance vectors in ``docs/rules/vectors/``.
"""

from referee.rules.actions import Action, Bid, Double, Pass, PlayCards, Redouble, action_from_json
from referee.rules.cards import (
    Card,
    Deal,
    counts_of,
    deal_from_seed,
    format_cards,
    format_ranks,
    parse_cards,
    parse_ranks,
)
from referee.rules.combos import Kind, Play, beats, classify, readings
from referee.rules.errors import (
    BadResult,
    IllegalAction,
    InvalidDeal,
    InvalidResult,
    NotationError,
    RulesError,
    UnknownProfile,
)
from referee.rules.hand import Announcement, HandState, Phase
from referee.rules.moves import legal_plays
from referee.rules.physical import IMPOSSIBLE_CHECKS, PhysicalHandState, check_deal
from referee.rules.profiles import CLASSIC, COMP2016, PROFILES, RuleProfile, get_profile
from referee.rules.protocol import handle_line, handle_request
from referee.rules.scoring import (
    DealResult,
    DefenderStake,
    StakeFactor,
    score_result,
    stake_breakdown,
)

__all__ = [
    "CLASSIC",
    "COMP2016",
    "IMPOSSIBLE_CHECKS",
    "PROFILES",
    "Action",
    "Announcement",
    "BadResult",
    "Bid",
    "Card",
    "Deal",
    "DealResult",
    "DefenderStake",
    "Double",
    "HandState",
    "IllegalAction",
    "InvalidDeal",
    "InvalidResult",
    "Kind",
    "NotationError",
    "Pass",
    "Phase",
    "PhysicalHandState",
    "Play",
    "PlayCards",
    "Redouble",
    "RuleProfile",
    "RulesError",
    "StakeFactor",
    "UnknownProfile",
    "action_from_json",
    "beats",
    "check_deal",
    "classify",
    "counts_of",
    "deal_from_seed",
    "format_cards",
    "format_ranks",
    "get_profile",
    "handle_line",
    "handle_request",
    "legal_plays",
    "parse_cards",
    "parse_ranks",
    "readings",
    "score_result",
    "stake_breakdown",
]
