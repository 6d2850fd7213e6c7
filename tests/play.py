"""Random complete hands for tests and benchmarks: legal actions chosen by a seeded RNG."""

import random
from typing import Any

from referee.rules.cards import Deal
from referee.rules.hand import HandState
from referee.rules.profiles import RuleProfile, get_profile


def random_hand_actions(
    deal: Deal, *, seed: int, profile: RuleProfile | None = None, bid_first: bool = True
) -> list[dict[str, Any]]:
    """The JSON actions of one complete random hand (the first bidder bids 1 when
    ``bid_first``, so the hand is not passed out)."""
    rng = random.Random(seed)
    state = HandState(deal, profile or get_profile("comp2016"))
    while not state.is_over:
        options = state.legal_actions()
        if bid_first and not state.actions:
            options = [a for a in options if a.to_json().get("bid") == 1] or options
        state.push(rng.choice(options))
    return state.to_events()
