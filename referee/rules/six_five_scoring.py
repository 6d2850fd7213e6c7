"""Deal scores of ``six_p`` (SPEC R13.9, PROTOCOL-six-five §1.3) and ``five_p`` (R14.7, §2.2).

Both multiply by *M* = 2^(bombs + [spring or anti-spring]), every bomb and joker bomb counting,
capped at the profile's ``cap`` (R8.3) when the event sets one: the cap caps *M*, not the total.

* ``six_p``: base 1, *S* = *M*; every winner settles with every loser for *S* (a winner gains
  *S* × losers, a loser pays *S* × winners). The landlord side is the landlord and his partner,
  or the landlord alone (``partner`` None, R13.5).
* ``five_p``: each farmer scores ``bid × W × M`` (W = +1 if the farmers won), the landlord −4
  times that.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.rules.errors import BadResult, InvalidResult
from referee.rules.four_scoring import two_pack_factors
from referee.rules.scoring import DefenderStake, Winner

SIX_SEATS, FIVE_SEATS = 6, 5
#: Three packs hold three 4-card bombs of each of 13 ranks, ``XXX`` and ``DDD`` (41).
MAX_BOMBS_SIX = 41
#: Two packs hold two 4-card bombs of each of 13 ranks and the four jokers (27).
MAX_BOMBS_FIVE = 27


def multiplier(bombs: int, spring: bool, anti_spring: bool, cap: int | None) -> int:
    """*M* = 2^(bombs + [spring or anti-spring]), at most ``cap`` (R13.9, R14.7)."""
    m = 2 ** (bombs + (1 if spring or anti_spring else 0))
    return m if cap is None else min(m, cap)


def _check_common(bombs: int, most: int, spring: bool, anti: bool, winner: str) -> None:
    if winner not in ("landlord", "defenders"):
        raise InvalidResult(f"R7.1: winner must be landlord or defenders, not {winner!r}")
    if not 0 <= bombs <= most:
        raise InvalidResult(f"bombs must be 0..{most}, got {bombs}", rule="R13.7")
    if spring and anti:
        raise InvalidResult("R7.4: spring and anti-spring exclude each other", rule="R7.4")
    if spring and winner == "defenders":
        raise InvalidResult("R13.9: a spring needs the landlord side to win", rule="R13.9")
    if anti and winner == "landlord":
        raise InvalidResult("R13.9: an anti-spring needs the farmers to win", rule="R13.9")


def _read_fields(data: object, types: dict[str, type], seats: int) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadResult("a result is an object")
    for name, kind in types.items():
        value = data.get(name, False) if kind is bool else data.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadResult(f"field {name!r} is missing or of the wrong type", field=name)
    if not 0 <= data["landlord"] < seats:
        raise BadResult(f"landlord must be seat 0..{seats - 1}", field="landlord")
    doubled = data.get("doubled", [False] * seats)
    if not isinstance(doubled, list | tuple) or len(doubled) != seats:
        raise BadResult(f"field 'doubled' must be {seats} booleans", field="doubled")
    if not all(isinstance(d, bool) for d in doubled):
        raise BadResult(f"field 'doubled' must be {seats} booleans", field="doubled")
    redoubled, rockets = data.get("redoubled", False), data.get("rockets", 0)
    if not isinstance(redoubled, bool):
        raise BadResult("field 'redoubled' must be a boolean", field="redoubled")
    if not isinstance(rockets, int) or isinstance(rockets, bool):
        raise BadResult("field 'rockets' must be an integer", field="rockets")
    if any(doubled) or redoubled:
        raise InvalidResult("there is no doubling in this game (R13.3, R14.3)", rule="R14.3")
    if rockets:
        raise InvalidResult("there is no rocket in this game (R13.7, R14.5)", rule="R13.7")
    return {
        name: data.get(name, False) if kind is bool else data[name] for name, kind in types.items()
    }


# --------------------------------------------------------------------------- six_p
@dataclass(frozen=True, slots=True)
class SixResult:
    """What a ``six_p`` hand sums up to for scoring: the landlord, his partner (None when he
    plays alone), bombs (joker bombs included), spring / anti-spring, and the winning side."""

    landlord: int
    partner: int | None
    bombs: int
    spring: bool
    anti_spring: bool
    winner: Winner

    def to_json(self) -> dict[str, Any]:
        return {
            "landlord": self.landlord,
            "partner": self.partner,
            "bombs": self.bombs,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: object) -> SixResult:
        """Read the protocol's ``score`` fields (PROTOCOL-six-five §1.3): ``partner`` required
        (a seat or null); ``bid`` (1), ``doubled``, ``redoubled``, ``rockets`` may be sent."""
        fields = _read_fields(data, _SIX_TYPES, SIX_SEATS)
        assert isinstance(data, dict)
        if "partner" not in data:
            raise BadResult("six_p needs the partner: a seat, or null alone", field="partner")
        partner = data["partner"]
        if partner is not None and (type(partner) is not int or not 0 <= partner < SIX_SEATS):
            raise BadResult("partner must be a seat 0..5 or null", field="partner")
        bid = data.get("bid", 1)
        if type(bid) is not int:
            raise BadResult("field 'bid' must be an integer", field="bid")
        if bid != 1:
            raise InvalidResult("R13.3: six_p has no auction; the base is 1", rule="R13.3")
        return cls(partner=partner, **fields)


_SIX_TYPES: dict[str, type] = {
    "landlord": int,
    "bombs": int,
    "spring": bool,
    "anti_spring": bool,
    "winner": str,
}


def check_six_result(r: SixResult) -> None:
    """Raise InvalidResult naming the first contradiction in ``r``."""
    if r.partner == r.landlord:
        raise InvalidResult("R13.4: the partner is another seat than the landlord", rule="R13.4")
    _check_common(r.bombs, MAX_BOMBS_SIX, r.spring, r.anti_spring, r.winner)


def six_sides(landlord: int, partner: int | None) -> tuple[frozenset[int], frozenset[int]]:
    """(landlord side, farmers) of a six-player hand."""
    side = frozenset({landlord} if partner is None else {landlord, partner})
    return side, frozenset(range(SIX_SEATS)) - side


def score_six(result: SixResult, cap: int | None = None) -> tuple[int, ...]:
    """Six scores, zero-sum (R13.9): each winner gains *S* × losers, each loser pays *S* ×
    winners, *S* = min(2^(bombs + spring), cap)."""
    check_six_result(result)
    stake = multiplier(result.bombs, result.spring, result.anti_spring, cap)
    side, farmers = six_sides(result.landlord, result.partner)
    winners, losers = (side, farmers) if result.winner == "landlord" else (farmers, side)
    return tuple(
        stake * len(losers) if seat in winners else -stake * len(winners)
        for seat in range(SIX_SEATS)
    )


# --------------------------------------------------------------------------- five_p
@dataclass(frozen=True, slots=True)
class FiveResult:
    """What a ``five_p`` hand sums up to for scoring."""

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
    def from_json(cls, data: object) -> FiveResult:
        """Read the protocol's ``score`` fields (PROTOCOL-six-five §2.2)."""
        return cls(**_read_fields(data, _FIVE_TYPES, FIVE_SEATS))


_FIVE_TYPES: dict[str, type] = {"bid": int, **_SIX_TYPES}


def stake_breakdown_five(result: FiveResult, cap: int | None = None) -> tuple[DefenderStake, ...]:
    """Each farmer's stake in seat order, factor by factor (R14.7): the bid, ×2 a bomb (joker
    bombs included), ×2 for a spring or an anti-spring. The cap caps *M*, not the total, so
    a stake is at most ``bid × cap``. ``winner`` plays no part, so a live hand's stakes so far
    come from its result as it stands."""
    factors = two_pack_factors(result.bombs, result.spring, result.anti_spring)
    most = None if cap is None else result.bid * cap
    return tuple(
        DefenderStake(seat, result.bid, factors, most)
        for seat in range(FIVE_SEATS)
        if seat != result.landlord
    )


def score_five(result: FiveResult, cap: int | None = None) -> tuple[int, ...]:
    """Five scores, zero-sum (R14.7): each farmer ``bid × W × M``, the landlord −4 times."""
    if not 1 <= result.bid <= 3:
        raise InvalidResult(f"R14.3: bid must be 1, 2 or 3, got {result.bid}", rule="R14.3")
    _check_common(result.bombs, MAX_BOMBS_FIVE, result.spring, result.anti_spring, result.winner)
    won = 1 if result.winner == "defenders" else -1
    each = won * result.bid * multiplier(result.bombs, result.spring, result.anti_spring, cap)
    return tuple(-4 * each if seat == result.landlord else each for seat in range(FIVE_SEATS))
