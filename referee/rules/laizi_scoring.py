"""Deal scores of ``laizi`` (SPEC R8.1 with the 欢乐 multipliers of R11.2.4,
PROTOCOL-variants §2.4).

Defender *i* scores ``bid × W × 2^(soft + 2·hard + 2·pure_wild + 2·rockets + S + d_i + r·d_i)``
(soft bomb ×2, hard bomb ×4, pure-wild bomb ×4, rocket ×4); the landlord scores minus the sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.rules.errors import BadResult, InvalidResult
from referee.rules.profiles import COMP2016
from referee.rules.scoring import (
    DealResult,
    DefenderStake,
    FactorKind,
    StakeFactor,
    _contradictions,
    defender_stakes,
)

CLASS_FIELDS = ("soft_bombs", "hard_bombs", "pure_wild_bombs")
#: Each bomb class with the factor it multiplies the stake by (R11.2.4; ``score_laizi``).
BOMB_CLASS_FACTORS = (("soft", 2), ("hard", 4), ("pure_wild", 4))
_CLASS_FACTOR = dict(BOMB_CLASS_FACTORS)
#: The rocket's factor in laizi (R11.2.4).
ROCKET_FACTOR = 4
#: One pack: four wild cards (a soft bomb uses at least one, the pure-wild bomb all four), and
#: four natural cards of each of the twelve other ranks 3…2.
MAX_HARD_BOMBS = 12


@dataclass(frozen=True, slots=True)
class LaiziResult:
    """A ``comp2016`` result (``base.bombs`` is the total of the classes) with the bombs by
    class."""

    base: DealResult
    soft_bombs: int
    hard_bombs: int
    pure_wild_bombs: int

    def to_json(self) -> dict[str, Any]:
        return {
            **self.base.to_json(),
            "soft_bombs": self.soft_bombs,
            "hard_bombs": self.hard_bombs,
            "pure_wild_bombs": self.pure_wild_bombs,
        }

    @classmethod
    def from_json(cls, data: object) -> LaiziResult:
        """Read the protocol's ``score`` fields: those of ``comp2016`` with the three class
        counts (default 0, never negative: BadResult) instead of ``bombs``, which may be sent
        and must then be their sum (InvalidResult)."""
        if not isinstance(data, dict):
            raise BadResult("a result is an object")
        counts = {}
        for name in CLASS_FIELDS:
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise BadResult(f"field {name!r} must be a count (0 or more)", field=name)
            counts[name] = value
        total = sum(counts.values())
        bombs = data.get("bombs", total)
        if isinstance(bombs, int) and not isinstance(bombs, bool) and bombs != total:
            raise InvalidResult(
                f"bombs ({bombs}) must be the sum of the three classes ({total})", rule="R11.2.3"
            )
        base = DealResult.from_json({**data, "bombs": bombs})
        return cls(base=base, **counts)


def check_laizi_result(r: LaiziResult) -> None:
    """Raise InvalidResult naming the first contradiction (the pack's limits, PROTOCOL-variants
    §2.4; not a full feasibility check)."""
    problems = [p for p in _contradictions(r.base, COMP2016) if p[1] != "R5.19"]
    if problems:
        message, rule = problems[0]
        raise InvalidResult(f"{rule}: {message}", rule=rule)
    if r.pure_wild_bombs > 1:
        raise InvalidResult("R11.2.1: one pack has one pure-wild bomb", rule="R11.2.1")
    if r.soft_bombs + 4 * r.pure_wild_bombs > 4:
        raise InvalidResult(
            "R11.2.3: each soft bomb needs a wild card and the pure-wild bomb all four",
            rule="R11.2.3",
        )
    if r.hard_bombs > MAX_HARD_BOMBS:
        raise InvalidResult(
            "R11.2.3: twelve ranks have four natural cards (hard bombs)", rule="R11.2.3"
        )


def stake_breakdown_laizi(result: LaiziResult) -> tuple[DefenderStake, ...]:
    """Each defender's stake in seat order, factor by factor (R8.1 with R11.2.4): the bid,
    ×2 a soft bomb, ×4 a hard or pure-wild bomb, ×4 the rocket, ×2 for a spring or an
    anti-spring, and ×2 for a double (×2 more when redoubled), between the landlord and that
    defender only. ``winner`` plays no part (a live hand's stakes so far)."""
    r = result.base
    counted: tuple[tuple[FactorKind, int, int], ...] = (
        ("soft_bombs", result.soft_bombs, _CLASS_FACTOR["soft"]),
        ("hard_bombs", result.hard_bombs, _CLASS_FACTOR["hard"]),
        ("pure_wild_bombs", result.pure_wild_bombs, _CLASS_FACTOR["pure_wild"]),
        ("rockets", r.rockets, ROCKET_FACTOR),
    )
    common = [StakeFactor(kind, n, factor**n) for kind, n, factor in counted if n]
    if r.spring or r.anti_spring:
        common.append(StakeFactor("anti_spring" if r.anti_spring else "spring", 1, 2))
    return defender_stakes(r, common)


def score_laizi(result: LaiziResult) -> tuple[int, int, int]:
    """Scores of seats 0, 1, 2 (zero-sum): each defender wins or loses its stake
    (``stake_breakdown_laizi``), the landlord the opposite of their sum; raises
    InvalidResult for an impossible result."""
    check_laizi_result(result)
    r = result.base
    won = 1 if r.winner == "defenders" else -1
    scores = [0, 0, 0]
    for stake in stake_breakdown_laizi(result):
        scores[stake.seat] = won * stake.value
    scores[r.landlord] = -sum(scores)
    return scores[0], scores[1], scores[2]
