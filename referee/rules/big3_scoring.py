"""Deal scores of Big Three (SPEC R12.11, PROTOCOL-big3 §2), reached through
``scoring.score_hand``.

The digger (挖坑者, reported as ``landlord``) plays alone for his bid *B*: each opponent pays
him *B* when he goes out first (digger +2B, opponents −B), he pays each *B* otherwise (−2B,
+B, +B). No multipliers (R12.11.1): no doubling, bombs, rockets or springs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.rules.errors import BadResult, InvalidResult
from referee.rules.scoring import DefenderStake, Winner

SEATS = 3
#: Fields of the Dou Dizhu result that a Big Three result may carry, with the only value
#: they may have (R12.11.1, R12.10; PROTOCOL-big3 §2), the type they must have, and the rule.
_ZERO_FIELDS: dict[str, tuple[object, type, str]] = {
    "redoubled": (False, bool, "R12.11.1"),
    "bombs": (0, int, "R12.9"),
    "rockets": (0, int, "R12.9"),
    "spring": (False, bool, "R12.10"),
    "anti_spring": (False, bool, "R12.10"),
}


@dataclass(frozen=True, slots=True)
class Big3Result:
    """What a Big Three hand sums up to: the digger, his bid and who went out first."""

    landlord: int
    bid: int
    winner: Winner

    def to_json(self) -> dict[str, Any]:
        return {"landlord": self.landlord, "bid": self.bid, "winner": self.winner}

    @classmethod
    def from_json(cls, data: object) -> Big3Result:
        """Read the protocol's ``score`` fields: BadResult for a field missing or malformed,
        a seat outside 0..2 or a winner that is neither side; InvalidResult for a double, a
        redouble, a bomb, a rocket or a spring (Big Three has none)."""
        if not isinstance(data, dict):
            raise BadResult("a result is an object with landlord, bid and winner")
        for name in ("landlord", "bid"):
            value = data.get(name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise BadResult(f"field {name!r} is missing or not an integer", field=name)
        if not 0 <= data["landlord"] < SEATS:
            raise BadResult(f"landlord must be seat 0..2, got {data['landlord']}", field="landlord")
        winner = data.get("winner")
        if winner not in ("landlord", "defenders"):
            raise BadResult("field 'winner' must be 'landlord' or 'defenders'", field="winner")
        doubled = data.get("doubled", [False] * SEATS)
        if not isinstance(doubled, list | tuple) or len(doubled) != SEATS:
            raise BadResult("field 'doubled' must be three booleans", field="doubled")
        if not all(isinstance(d, bool) for d in doubled):
            raise BadResult("field 'doubled' must be three booleans", field="doubled")
        found: dict[str, object] = {}
        for name, (_, kind, _rule) in _ZERO_FIELDS.items():
            value = data.get(name, _ZERO_FIELDS[name][0])
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise BadResult(f"field {name!r} is of the wrong type", field=name)
            found[name] = value
        if any(doubled):
            raise InvalidResult("R12.11.1: Big Three has no doubling", rule="R12.11.1")
        for name, (zero, _, rule) in _ZERO_FIELDS.items():
            if found[name] != zero:
                raise InvalidResult(f"{rule}: Big Three has no {name} ({found[name]!r})", rule=rule)
        return cls(landlord=data["landlord"], bid=data["bid"], winner=winner)


def check_big3_result(result: Big3Result) -> None:
    """Raise InvalidResult naming the first contradiction in ``result`` and its rule."""
    if not 1 <= result.bid <= 3:
        raise InvalidResult(f"R12.5: bid must be 1, 2 or 3, got {result.bid}", rule="R12.5")
    if result.winner not in ("landlord", "defenders"):
        raise InvalidResult(f"R12.10: winner must be landlord or defenders, not {result.winner!r}")
    if not 0 <= result.landlord < SEATS:
        raise InvalidResult(f"R12.3: the digger is seat 0..2, not {result.landlord}")


def score_big3(result: Big3Result) -> tuple[int, int, int]:
    """Scores of seats 0, 1, 2 (zero-sum, R12.11.2): each opponent ±B, the digger ∓2B."""
    check_big3_result(result)
    each = result.bid if result.winner == "defenders" else -result.bid
    scores = [each] * SEATS
    scores[result.landlord] = -2 * each
    return scores[0], scores[1], scores[2]


def stake_breakdown_big3(result: Big3Result) -> tuple[DefenderStake, ...]:
    """Each opponent's stake in seat order: the bid alone, no factor (R12.11, R12.11.1).
    ``winner`` plays no part, so a live hand's stakes come from its digger and bid."""
    return tuple(
        DefenderStake(seat, result.bid, ()) for seat in range(SEATS) if seat != result.landlord
    )
