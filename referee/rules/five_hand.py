"""One ``five_p`` hand (五人斗地主, SPEC §14, PROTOCOL-six-five §2): ``four_hand.FourHandState``
with five seats.

From the profile ``FIVE_P``: five seats, two packs dealt 21 each + 3, one round of bids from
the first bidder (a 3 closes it at once; all five pass: passed out), no doubling, the kitty taken
unseen, the landlord leads, four passes end a trick. From ``FourHandState``: the two-pack
holdings, ``four_p``'s kinds and ladder (R14.4, R14.5; the 24-card bound holds by itself: no
hand is longer), no 报牌. Overridden here: the deal and the result (``six_five_scoring``: the
landlord ±4 × bid × M).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.rules.actions import Action, BadEvent, action_from_json
from referee.rules.four_hand import FourHandState, TwoPackDeal
from referee.rules.hand import Phase
from referee.rules.profiles import FIVE_P, RuleProfile
from referee.rules.six_five_scoring import FIVE_SEATS as SEATS
from referee.rules.six_five_scoring import FiveResult

HAND_CARDS, KITTY_CARDS = 21, 3  # R14.2
_SEATS, _HAND_CARDS, _KITTY_CARDS = SEATS, HAND_CARDS, KITTY_CARDS  # as FiveDeal names them
#: The most cards one play can have: the landlord's 21 + 3 (R14.4).
MAX_PLAY_CARDS = 24


@dataclass(frozen=True, slots=True)
class FiveDeal(TwoPackDeal):
    """Five hands of 21 and a kitty of 3 that are together two packs (R14.1, R14.2), and the
    first bidder (the holder of the marker card, R14.3). Ranks only: two packs hold two of
    every card."""

    GAME, SEATS_WORD = "five_p", "five"
    SEATS, HAND_CARDS, KITTY_CARDS = _SEATS, _HAND_CARDS, _KITTY_CARDS


def five_seat_action_from_json(event: object) -> Action:
    """``action_from_json`` for the five seats of ``five_p`` (0..4)."""
    if type(event) is not dict:
        raise BadEvent("an event must be a JSON object")
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise BadEvent(f"event seat must be 0..4, got {seat!r}")
    return action_from_json({**event, "seat": 0})._replace(seat=seat)


class FiveHandState(FourHandState):
    """One ``five_p`` hand from the deal to the score; ``push`` an action, ``pop`` to take it
    back."""

    deal: FiveDeal  # type: ignore[assignment]

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        return profile.seats == SEATS

    @staticmethod
    def _read_action(event: object) -> Action:
        return five_seat_action_from_json(event)

    def __init__(self, deal: FiveDeal, profile: RuleProfile = FIVE_P) -> None:
        super().__init__(deal, profile)  # type: ignore[arg-type]

    @classmethod
    def from_events(  # type: ignore[override]
        cls,
        deal: FiveDeal,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = FIVE_P,
    ) -> FiveHandState:
        """Replay an event log; the first illegal event raises, its position in ``index``."""
        return super().from_events(deal, events, profile)  # type: ignore[arg-type, return-value]

    def result(self) -> FiveResult | None:  # type: ignore[override]
        c = self._core
        if c.phase is not Phase.FINISHED or c.landlord is None or c.winner is None:
            return None
        return FiveResult(
            landlord=c.landlord,
            bid=c.high_bid,
            bombs=c.bombs,
            spring=self.spring,
            anti_spring=self.anti_spring,
            winner=c.winner,
        )
