"""Rule profiles: the switches of SPEC §0.4 as one frozen value, looked up by a stable key.

``comp2016`` is the national competitive rules (竞技二打一扑克竞赛规则, 2016), the default;
``classic`` is the English-language (pagat / English Wikipedia) rules. Where SPEC marks a point
*inferred*, the field holds SPEC's recommended default so that a profile can switch it.

The variants of SPEC §11 (``docs/rules/variants/PROTOCOL-variants.md``) are registered apart, in
``VARIANT_PROFILES``: ``four_p`` (four seats, two packs) and ``laizi`` (``comp2016`` with a wild
rank). ``PROFILES`` stays the three-player registry the service builds its tables for.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from dataclasses import dataclass
from typing import Literal

from referee.rules.errors import UnknownProfile

AuctionMode = Literal["single_round", "until_two_passes"]
FirstBidder = Literal["board_specified", "rotate", "face_up_card"]
AllPass = Literal["redeal_advance_first_bidder", "redeal", "score_zero", "first_bidder_digs"]
Doubling = Literal["defenders_then_landlord_redouble", "none"]
DoublingOrder = Literal["any_order", "next_defender_first"]
KittyReveal = Literal["after_doubling", "before_doubling", "before_play"]
MultiplierMode = Literal["power_of_two", "jj_linear_bombs", "ccgc_additive"]
Announce = Literal["mandatory", "optional"]
Game = Literal["doudizhu", "big3", "six_p"]
FirstLead = Literal["landlord", "first_bidder"]

DEFAULT_PROFILE = "comp2016"


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """Every three-player switch of SPEC §0.4. Compare profiles by ``content_hash``."""

    key: str
    auction_mode: AuctionMode = "single_round"  # §3
    first_bidder: FirstBidder = "board_specified"  # R2.3
    all_pass: AllPass = "redeal_advance_first_bidder"  # R2.4; duplicate boards: score_zero
    kitty_visible_to_all: bool = True  # R2.5
    doubling: Doubling = "defenders_then_landlord_redouble"  # §4
    doubling_order: DoublingOrder = "any_order"  # R4.4 (inferred)
    kitty_reveal: KittyReveal = "after_doubling"  # R2.5, R4.5 (Q3)
    wing_singles_may_repeat_rank: bool = True  # R5.15.5
    wing_trio_allowed_if_not_adjacent: bool = True  # R5.15.6 (inferred)
    four_two_singles_may_pair: bool = True  # R5.17 (Q10)
    four_with_one: bool = False  # R5.17: no 四带一
    rocket_in_kickers: bool = False  # R5.15.2, Q9
    bomb_in_kickers: bool = False  # R5.15.3, R5.16, R5.18
    max_airplane_pairs_len: int = 4  # R5.16, Q11
    multiplier_mode: MultiplierMode = "power_of_two"  # R8.1, R8.5
    spring_factor: int = 2  # R7.4
    cap: int | None = None  # R8.3 (inferred: no cap)
    announce_2_and_1: Announce = "mandatory"  # §6
    grab_landlord: bool = False  # R3.5 (CN_ONLINE only)
    seats: int = 3  # R2.2; 4 in four_p (R11.1.1)
    packs: int = 1  # R1.1; 2 in four_p (R11.1.1)
    wild_cards: bool = False  # R11.2.1: one wild rank per deal (laizi)
    game: Game = "doudizhu"  # the pack, kinds and score of a related game: big3 (SPEC §12)
    compulsory_opening: bool = False  # R12.5.1: the first bidder must bid (big3)
    first_lead: FirstLead = "landlord"  # R5.1; the first bidder in big3 (R12.7.1)
    kitty_cards: int | None = None  # None: the pack's kitty (3, 8); 6 / 0 in six_p, 3 in five_p

    def __post_init__(self) -> None:
        unsupported = {
            "four_with_one": self.four_with_one,
            "grab_landlord": self.grab_landlord,
        }
        for name, value in unsupported.items():
            if value:
                raise ValueError(f"switch {name}=True is not supported by this rules library yet")
        if not 2 <= self.max_airplane_pairs_len <= 4:
            raise ValueError("max_airplane_pairs_len must be 2..4 (20-card hand)")
        if self.spring_factor < 1:
            raise ValueError("spring_factor must be positive")
        if self.cap is not None and self.cap < 1:
            raise ValueError("cap must be positive or None")
        if (self.seats, self.packs) not in ((3, 1), (4, 2), (5, 2), (6, 3)):
            raise ValueError(
                "a profile is three seats with one pack, four or five with two, or six with three"
            )
        if self.game == "six_p" and (self.seats, self.packs) != (6, 3):
            raise ValueError("six_p is six seats with three packs (R13.1)")
        if self.game == "big3" and (self.seats, self.wild_cards) != (3, False):
            raise ValueError("big3 is three seats without wild cards (R12.3)")

    def __hash__(self) -> int:
        # Profiles key caches on every hot call; the key alone hashes fast, equality stays exact.
        return hash(self.key)

    @property
    def has_doubling(self) -> bool:
        return self.doubling != "none"

    @property
    def pack_size(self) -> int:
        """Cards dealt: 54 a pack (R1.1), 52 in big3 (no jokers, R12.1)."""
        return 52 if self.game == "big3" else 54 * self.packs

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty (底牌): 3 from one pack (R2.1), 8 from two (R11.1.1), a hole
        (坑) of 4 in big3 (R12.3)."""
        if self.game == "big3":
            return 4
        if self.kitty_cards is not None:  # six_p 6 (or 0, no_kitty_27: R13.2), five_p 3 (R14.2)
            return self.kitty_cards
        return 3 if self.packs == 1 else 8

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat: 17 (R2.1), 25 in four_p (R11.1.1), 16 in big3 (R12.3), 26
        in six_p (27 in six_p_no_kitty, R13.2), 21 in five_p (R14.2)."""
        return (self.pack_size - self.kitty_size) // self.seats

    @property
    def cap_is_event_setting(self) -> bool:
        """Whether an event sets this game's cap on *M* (R13.9, R14.7: six and five players,
        with three packs' and two packs' frequent bombs). ``comp2016`` and ``classic`` have no
        cap (R8.3), nor have ``four_p``, ``laizi`` and Big Three (R11.1.8, R11.2.4, R12.11)."""
        return self.game == "six_p" or self.seats == 5

    @property
    def is_three_player(self) -> bool:
        """Three seats, one pack, no wild card, Dou Dizhu's kinds: what the play table of
        ``table`` models and the service builds its tables for."""
        return self.seats == 3 and not self.wild_cards and self.game == "doudizhu"

    @property
    def switches(self) -> dict[str, object]:
        """The switches as a plain dict (without the key). The variant fields appear only when
        they differ from three players with one pack, so every three-player profile keeps the
        content hash it had before the variants existed."""
        data = dataclasses.asdict(self)
        data.pop("key")
        for name, default in _THREE_PLAYER.items():
            if data[name] == default:
                del data[name]
        return data

    @property
    def content_hash(self) -> str:
        """A short stable hash of the switches, so a tournament records exactly which rules."""
        text = json.dumps(self.switches, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


_THREE_PLAYER: dict[str, object] = {
    "seats": 3,
    "packs": 1,
    "wild_cards": False,
    "game": "doudizhu",
    "compulsory_opening": False,
    "first_lead": "landlord",
    "kitty_cards": None,
}

COMP2016 = RuleProfile(key="comp2016")

CLASSIC = RuleProfile(
    key="classic",
    auction_mode="until_two_passes",
    first_bidder="rotate",
    all_pass="redeal",
    doubling="none",
    kitty_reveal="before_play",
    wing_singles_may_repeat_rank=False,
    wing_trio_allowed_if_not_adjacent=False,
    four_two_singles_may_pair=False,
    announce_2_and_1="optional",
)

#: 四人斗地主 (SPEC §11.1, PROTOCOL-variants §1): four seats, two packs, one round of bids, no
#: doubling; its kinds, bombs and scores are in ``four_combos`` and ``four_hand``.
FOUR_P = RuleProfile(key="four_p", seats=4, packs=2, doubling="none", kitty_visible_to_all=False)

#: 癞子 (SPEC §11.2, PROTOCOL-variants §2): ``comp2016`` with one wild rank per deal
#: (``laizi``).
LAIZI = RuleProfile(key="laizi", wild_cards=True)

#: Big Three (大三 / 挖坑, SPEC §12, PROTOCOL-big3): 52 cards, 16 each and a hole of 4, a
#: compulsory opening bid, the auction until a bid is followed by two passes (re-entry
#: allowed), no doubling, the first bidder leads; kinds and scores in ``big3``.
BIG3 = RuleProfile(
    key="big3",
    game="big3",
    auction_mode="until_two_passes",
    compulsory_opening=True,
    all_pass="redeal",  # never reached: the opening bid is compulsory (R12.5.2)
    doubling="none",
    kitty_visible_to_all=False,  # R12.6: the hole is not shown
    kitty_reveal="before_play",
    first_lead="first_bidder",
)
#: ``big3`` with the one-round auction of the Chinese tradition (R12.5.3): three passes and
#: the first bidder digs at 1 (烂挖).
BIG3_ONE_ROUND = dataclasses.replace(
    BIG3,
    key="big3_one_round",
    auction_mode="single_round",
    compulsory_opening=False,
    all_pass="first_bidder_digs",
)

#: 六人斗地主 (SPEC §13, PROTOCOL-six-five §1): six seats, three packs, 26 each and a kitty of 6
#: the landlord adds unseen; the face-up card names the landlord (no auction, no doubling), his
#: call names a secret partner; kinds, bombs and scores in ``six_combos`` / ``six_hand``.
#: ``cap`` (R13.9) is an event's setting: ``dataclasses.replace(SIX_P, cap=16)``.
SIX_P = RuleProfile(
    key="six_p",
    game="six_p",
    seats=6,
    packs=3,
    kitty_cards=6,
    doubling="none",
    kitty_visible_to_all=False,  # R13.11: the kitty is never shown
    kitty_reveal="before_play",
    all_pass="redeal",  # never reached: there is no auction (R13.3)
)
#: ``six_p`` with the switch ``six_p_deal: no_kitty_27`` (R13.2): 27 each, no kitty.
SIX_P_NO_KITTY = dataclasses.replace(SIX_P, key="six_p_no_kitty", kitty_cards=0)
#: 五人斗地主 (SPEC §14, PROTOCOL-six-five §2): five seats, two packs, 21 each + 3, one round of
#: bids, no doubling, ``four_p``'s kinds and bombs; the landlord alone against four.
FIVE_P = RuleProfile(
    key="five_p",
    seats=5,
    packs=2,
    kitty_cards=3,
    doubling="none",
    kitty_visible_to_all=False,  # R14.3: the kitty is taken unseen
)

#: The three-player profiles: what the service offers and builds play tables for.
PROFILES: dict[str, RuleProfile] = {p.key: p for p in (COMP2016, CLASSIC)}
#: The variant profiles of SPEC §11, known to the rules library and its tool.
VARIANT_PROFILES: dict[str, RuleProfile] = {p.key: p for p in (FOUR_P, LAIZI)}
#: The related games of ``docs/rules/games`` the rules library and its tool know. The
#: service offers those named in ``tournaments.common.seats.SERVICE_PROFILES`` (Big Three,
#: five players); six players are the rules library's only, for now.
GAME_PROFILES: dict[str, RuleProfile] = {
    p.key: p for p in (BIG3, BIG3_ONE_ROUND, SIX_P, SIX_P_NO_KITTY, FIVE_P)
}


def capped_profile(key: str, cap: int | None) -> RuleProfile:
    """The profile ``key`` with an event's ``cap`` on *M* (R13.9, R14.7), or as registered when
    ``cap`` is None. ValueError for a cap the game has no place for, or below 1."""
    profile = get_profile(key)
    return profile if cap is None else _with_cap(profile, cap)


@functools.cache
def _with_cap(profile: RuleProfile, cap: int) -> RuleProfile:
    if not profile.cap_is_event_setting:
        raise ValueError(f"the {profile.key} rules have no cap (R8.3)")
    return dataclasses.replace(profile, cap=cap)


def get_profile(key: str | None = None) -> RuleProfile:
    """The registered profile for ``key`` (default ``comp2016``), three-player or variant."""
    if key is None:
        key = DEFAULT_PROFILE
    try:
        return PROFILES[key]
    except (KeyError, TypeError):
        pass
    try:
        return VARIANT_PROFILES[key]
    except (KeyError, TypeError):
        pass
    try:
        return GAME_PROFILES[key]
    except (KeyError, TypeError):
        known = ", ".join(sorted({*PROFILES, *VARIANT_PROFILES, *GAME_PROFILES}))
        raise UnknownProfile(f"unknown rule profile {key!r}; known: {known}") from None
