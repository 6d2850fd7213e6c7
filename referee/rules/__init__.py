"""The rules of Dou Dizhu (斗地主 / 竞技二打一扑克), pure Python, no Django.

Usable on its own, like python-chess::

    >>> from referee.rules import HandState, Deal, classify, legal_plays, get_profile
    >>> classify("666777AA").kind.value
    'airplane_singles'

Profile ``comp2016`` (the 2016 national competitive rules) is the default; ``classic`` is the
English-language rules. The numbered rules are in ``docs/rules/SPEC.md``, the rules tool's
protocol in ``docs/rules/PROTOCOL.md`` and the conformance vectors in ``docs/rules/vectors/``.

The variants of SPEC §11 (``docs/rules/variants/``): ``four_p``, four seats with two packs
(``FourHandState``, ``classify_four``, ``legal_plays_four``), and ``laizi``, a wild rank
(``LaiziHandState``, ``WildPlay``, ``legal_plays_wild``). Big Three (大三 / 挖坑, SPEC §12,
``docs/rules/games/``): ``big3`` and ``big3_one_round`` (``Big3HandState``, ``classify_big3``,
``legal_plays_big3``). Six players (六人斗地主, SPEC §13): ``six_p`` and ``six_p_no_kitty``
(``SixHandState`` with its secret partner and ``public_view``, ``SixDeal``, ``Call``,
``classify_six``, ``legal_plays_six``); five players (五人斗地主, SPEC §14): ``five_p``
(``FiveHandState``, ``FiveDeal``).

One design: every game's hand state is a ``HandState`` whose seats, pack, hand sizes, kitty,
auction, doubling phase, first lead and trick end come from its profile, with a few hooks
overridden (see ``hand``); every hand is scored by one entry point, ``score_hand``, which
dispatches by profile (``score_result``, ``score_four``, ``score_laizi``, ``score_big3`` are
the rules it dispatches to).
"""

from referee.rules.actions import (
    Action,
    Bid,
    DeclaredPlay,
    Double,
    Pass,
    PlayCards,
    Redouble,
    action_from_json,
    wild_action_from_json,
)
from referee.rules.big3_combos import beats_big3, classify_big3, legal_plays_big3
from referee.rules.big3_hand import Big3Deal, Big3HandState
from referee.rules.big3_scoring import Big3Result, score_big3
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
from referee.rules.five_hand import FiveDeal, FiveHandState
from referee.rules.four_combos import beats_four, classify_four, legal_plays_four
from referee.rules.four_hand import FourDeal, FourHandState
from referee.rules.four_scoring import FourResult, score_four, stake_breakdown_four
from referee.rules.hand import Announcement, HandState, Phase
from referee.rules.laizi import (
    InvalidSubstitution,
    WildPlay,
    beats_wild,
    legal_plays_wild,
    read_wild_play,
)
from referee.rules.laizi_hand import LaiziHandState
from referee.rules.laizi_scoring import LaiziResult, score_laizi, stake_breakdown_laizi
from referee.rules.moves import legal_plays
from referee.rules.physical import IMPOSSIBLE_CHECKS, PhysicalHandState, check_deal
from referee.rules.profiles import (
    BIG3,
    BIG3_ONE_ROUND,
    CLASSIC,
    COMP2016,
    FIVE_P,
    FOUR_P,
    GAME_PROFILES,
    LAIZI,
    PROFILES,
    SIX_P,
    SIX_P_NO_KITTY,
    VARIANT_PROFILES,
    RuleProfile,
    get_profile,
)
from referee.rules.protocol import handle_line, handle_request
from referee.rules.scoring import (
    DealResult,
    DefenderStake,
    StakeFactor,
    result_from_json,
    score_hand,
    score_result,
    stake_breakdown,
)
from referee.rules.six_combos import beats_six, classify_six, legal_plays_six
from referee.rules.six_five_scoring import FiveResult, SixResult, score_five, score_six
from referee.rules.six_hand import Call, SixDeal, SixHandState

__all__ = [
    "BIG3",
    "BIG3_ONE_ROUND",
    "CLASSIC",
    "COMP2016",
    "FIVE_P",
    "FOUR_P",
    "GAME_PROFILES",
    "IMPOSSIBLE_CHECKS",
    "LAIZI",
    "PROFILES",
    "SIX_P",
    "SIX_P_NO_KITTY",
    "VARIANT_PROFILES",
    "Action",
    "Announcement",
    "BadResult",
    "Bid",
    "Big3Deal",
    "Big3HandState",
    "Big3Result",
    "Call",
    "Card",
    "Deal",
    "DealResult",
    "DeclaredPlay",
    "DefenderStake",
    "Double",
    "FiveDeal",
    "FiveHandState",
    "FiveResult",
    "FourDeal",
    "FourHandState",
    "FourResult",
    "HandState",
    "IllegalAction",
    "InvalidDeal",
    "InvalidResult",
    "InvalidSubstitution",
    "Kind",
    "LaiziHandState",
    "LaiziResult",
    "NotationError",
    "Pass",
    "Phase",
    "PhysicalHandState",
    "Play",
    "PlayCards",
    "Redouble",
    "RuleProfile",
    "RulesError",
    "SixDeal",
    "SixHandState",
    "SixResult",
    "StakeFactor",
    "UnknownProfile",
    "WildPlay",
    "action_from_json",
    "beats",
    "beats_big3",
    "beats_four",
    "beats_six",
    "beats_wild",
    "check_deal",
    "classify",
    "classify_big3",
    "classify_four",
    "classify_six",
    "counts_of",
    "deal_from_seed",
    "format_cards",
    "format_ranks",
    "get_profile",
    "handle_line",
    "handle_request",
    "legal_plays",
    "legal_plays_big3",
    "legal_plays_four",
    "legal_plays_six",
    "legal_plays_wild",
    "parse_cards",
    "parse_ranks",
    "read_wild_play",
    "readings",
    "result_from_json",
    "score_big3",
    "score_five",
    "score_four",
    "score_hand",
    "score_laizi",
    "score_result",
    "score_six",
    "stake_breakdown",
    "stake_breakdown_four",
    "stake_breakdown_laizi",
    "wild_action_from_json",
]
