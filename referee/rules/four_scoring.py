"""Deal scores of ``four_p`` (SPEC R11.1.8, PROTOCOL-variants §1.2).

Each defender scores ``bid × W × 2^(bombs + S)`` (W = +1 if the defenders won, −1 otherwise;
S = 1 for a spring or an anti-spring), the landlord −3 times that: four scores, zero-sum. Every
bomb played counts, the four-joker bomb included; there is no doubling and no rocket.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.rules.errors import BadResult, InvalidResult
from referee.rules.scoring import DefenderStake, StakeFactor, Winner

SEATS = 4
#: Two packs hold two 4-card bombs of each of 13 ranks and the four jokers (27).
MAX_BOMBS_FOUR = 27


@dataclass(frozen=True, slots=True)
class FourResult:
    """What a ``four_p`` hand sums up to for scoring."""

    landlord: int
    bid: int
    bombs: int
    spring: bool
    anti_spring: bool
    winner: Winner

    def to_json(self) -> dict[str, Any]:
        return {
            "landlord": self.landlord,
            "bid": self.bid,
            "bombs": self.bombs,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: object) -> FourResult:
        """Read the protocol's ``score`` fields. ``doubled`` (four booleans), ``redoubled`` and
        ``rockets`` may be sent and must then be false / 0: InvalidResult otherwise; BadResult
        for a field missing or of the wrong shape, or a landlord seat outside 0..3."""
        if not isinstance(data, dict):
            raise BadResult("a result is an object")
        for name, kind in _JSON_TYPES.items():
            value = data.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise BadResult(f"field {name!r} is missing or of the wrong type", field=name)
        if not 0 <= data["landlord"] < SEATS:
            raise BadResult(f"landlord must be seat 0..3, got {data['landlord']}", field="landlord")
        doubled = data.get("doubled", [False] * SEATS)
        if not isinstance(doubled, list | tuple) or len(doubled) != SEATS:
            raise BadResult("field 'doubled' must be four booleans", field="doubled")
        if not all(isinstance(d, bool) for d in doubled):
            raise BadResult("field 'doubled' must be four booleans", field="doubled")
        redoubled, rockets = data.get("redoubled", False), data.get("rockets", 0)
        if not isinstance(redoubled, bool):
            raise BadResult("field 'redoubled' must be a boolean", field="redoubled")
        if not isinstance(rockets, int) or isinstance(rockets, bool):
            raise BadResult("field 'rockets' must be an integer", field="rockets")
        if any(doubled) or redoubled:
            raise InvalidResult("four_p has no doubling (SPEC §11.1)", rule="§11.1")
        if rockets:
            raise InvalidResult("four_p has no rocket: the four jokers are a bomb", rule="R11.1.5")
        return cls(**{name: data[name] for name in _JSON_TYPES})


_JSON_TYPES: dict[str, type] = {
    "landlord": int,
    "bid": int,
    "bombs": int,
    "spring": bool,
    "anti_spring": bool,
    "winner": str,
}


def check_four_result(r: FourResult) -> None:
    """Raise InvalidResult naming the first contradiction in ``r`` and its rule."""
    if not 1 <= r.bid <= 3:
        raise InvalidResult(f"R11.1.2: bid must be 1, 2 or 3, got {r.bid}", rule="R11.1.2")
    if r.winner not in ("landlord", "defenders"):
        raise InvalidResult(f"R7.1: winner must be landlord or defenders, not {r.winner!r}")
    if not 0 <= r.bombs <= MAX_BOMBS_FOUR:
        raise InvalidResult(
            f"R11.1.5: bombs must be 0..{MAX_BOMBS_FOUR}, got {r.bombs}", rule="R11.1.5"
        )
    if r.spring and r.anti_spring:
        raise InvalidResult("R7.4: spring and anti-spring exclude each other", rule="R7.4")
    if r.spring and r.winner == "defenders":
        raise InvalidResult("R7.2: a spring needs the landlord to win", rule="R7.2")
    if r.anti_spring and r.winner == "landlord":
        raise InvalidResult("R7.3: an anti-spring needs the defenders to win", rule="R7.3")


def two_pack_factors(bombs: int, spring: bool, anti_spring: bool) -> tuple[StakeFactor, ...]:
    """A farmer's factors in the two-pack games (R11.1.8, R14.7): ×2 a bomb (the four jokers
    included), ×2 for a spring or an anti-spring; none of 1."""
    factors = []
    if bombs:
        factors.append(StakeFactor("bombs", bombs, 2**bombs))
    if spring or anti_spring:
        factors.append(StakeFactor("anti_spring" if anti_spring else "spring", 1, 2))
    return tuple(factors)


def stake_breakdown_four(result: FourResult) -> tuple[DefenderStake, ...]:
    """Each defender's stake in seat order, factor by factor (R11.1.8): the bid, ×2 a bomb
    (the four jokers included), ×2 for a spring or an anti-spring; no doubling, no cap.
    ``winner`` plays no part, so a live hand's stakes so far come from its result as it
    stands."""
    factors = two_pack_factors(result.bombs, result.spring, result.anti_spring)
    return tuple(
        DefenderStake(seat, result.bid, factors) for seat in range(SEATS) if seat != result.landlord
    )


def score_four(result: FourResult) -> tuple[int, int, int, int]:
    """Scores of seats 0..3 (zero-sum): each defender wins or loses its stake
    (``stake_breakdown_four``), the landlord the opposite of their sum; raises
    InvalidResult for an impossible result."""
    check_four_result(result)
    won = 1 if result.winner == "defenders" else -1
    scores = [0] * SEATS
    for stake in stake_breakdown_four(result):
        scores[stake.seat] = won * stake.value
    scores[result.landlord] = -sum(scores)
    return scores[0], scores[1], scores[2], scores[3]
