"""How many seats a table has, from its rule profile (``referee.rules.profiles``): three in the
competition and classic rules (R2.2) and in Big Three (R12.3), four in ``four_p`` (R11.1.1),
five in ``five_p`` (R14.2), six in ``six_p`` (R13.2).
The service never spells a seat count: it asks here.
"""

from __future__ import annotations

from functools import cache

from referee.rules.games import WILD_RANKS
from referee.rules.profiles import get_profile

#: The rule profiles a tournament may have (``RuleProfileKey`` names them; a test holds the
#: two equal): every game of the rules library.
SERVICE_PROFILES: tuple[str, ...] = (
    "comp2016",
    "classic",
    "four_p",
    "laizi",
    "big3",
    "big3_one_round",
    "five_p",
    "six_p",
    "six_p_no_kitty",
)
#: What a director may choose: every profile of the service.
OFFERED_PROFILES: tuple[str, ...] = SERVICE_PROFILES
#: The six-player profiles: a face-up card names the landlord, his call a secret partner.
SIX_PLAYER_PROFILES: tuple[str, ...] = tuple(
    k for k in SERVICE_PROFILES if get_profile(k).game == "six_p"
)
#: The offered profiles whose events may cap the multiplier *M* (R13.9, R14.7).
CAP_PROFILES: tuple[str, ...] = tuple(
    k for k in SERVICE_PROFILES if get_profile(k).cap_is_event_setting
)
#: The seat counts some offered profile has, smallest first.
SEAT_COUNTS: tuple[int, ...] = tuple(sorted({get_profile(k).seats for k in SERVICE_PROFILES}))
#: The most seats any table has.
MAX_SEATS = SEAT_COUNTS[-1]
#: Every seat position some table has: 0 … ``MAX_SEATS`` − 1.
SEAT_POSITIONS: tuple[int, ...] = tuple(range(MAX_SEATS))
#: The highest wild rank (a 2: R11.2.1, never a joker), as the boards' check reads it.
WILD_RANK_MAX = WILD_RANKS[-1]
#: The seat count of the default profile (``comp2016``).
DEFAULT_SEATS = get_profile().seats


@cache
def seat_count(profile_key: str) -> int:
    """The number of seats at a table of the rule profile ``profile_key``."""
    return get_profile(profile_key).seats


def seat_positions(profile_key: str) -> range:
    """The seat positions of a table of the rule profile ``profile_key``: 0, 1, 2 (, 3)."""
    return range(seat_count(profile_key))


def no_doubles(seats: int = DEFAULT_SEATS) -> list[bool]:
    """Nobody doubled, at a table of ``seats`` seats (a hand row's default)."""
    return [False] * seats
