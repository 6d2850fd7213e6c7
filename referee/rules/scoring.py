"""Deal scores (SPEC §8): the one place where a hand's score is computed.

Defender *i* scores ``B × W × 2^(R + K + S + d_i + r·d_i)`` (R8.1): the double and the redouble
are bets between the landlord (地主) and that defender only (R4.2); the landlord scores minus the
sum of both, so every deal is zero-sum. Profiles switch the spring factor (R7.4), the multiplier
mode (R8.5) and a cap (R8.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.rules.errors import InvalidResult
from referee.rules.profiles import RuleProfile

Winner = Literal["landlord", "defenders"]
MAX_BOMBS = 13  # one pack holds 13 bombs (3333 … 2222)


@dataclass(frozen=True, slots=True)
class DealResult:
    """What a result-only score entry records (also what a finished hand log sums up to)."""

    landlord: int
    bid: int
    doubled: tuple[bool, bool, bool]
    redoubled: bool
    bombs: int
    rockets: int
    spring: bool
    anti_spring: bool
    winner: Winner


def check_result(result: DealResult, profile: RuleProfile) -> None:
    """Raise InvalidResult naming the first contradiction in ``result``."""
    problems = _contradictions(result, profile)
    if problems:
        raise InvalidResult(problems[0])


def _contradictions(r: DealResult, profile: RuleProfile) -> list[str]:
    out: list[str] = []
    if not _is_int(r.landlord) or r.landlord not in (0, 1, 2):
        return [f"landlord must be seat 0, 1 or 2, got {r.landlord!r}"]
    if not _is_int(r.bid) or not 1 <= r.bid <= 3:
        out.append(f"bid must be 1, 2 or 3, got {r.bid!r}")
    doubled = r.doubled
    if not isinstance(doubled, tuple | list) or len(doubled) != 3:
        return [*out, "doubled must be three booleans, one per seat"]
    if not all(isinstance(d, bool) for d in doubled):
        return [*out, "doubled must be three booleans, one per seat"]
    if r.winner not in ("landlord", "defenders"):
        out.append(f"winner must be 'landlord' or 'defenders', got {r.winner!r}")
    if r.doubled[r.landlord]:
        out.append(f"the landlord (seat {r.landlord}) cannot double; only defenders double")
    if not profile.has_doubling and (any(r.doubled) or r.redoubled):
        out.append(f"profile {profile.key} has no doubling")
    elif r.redoubled and not any(r.doubled):
        out.append("a redouble needs at least one defender's double (R4.3)")
    if not _is_int(r.bombs) or not 0 <= r.bombs <= MAX_BOMBS:
        out.append(f"bombs must be 0..{MAX_BOMBS}, got {r.bombs!r}")
    if not _is_int(r.rockets) or r.rockets not in (0, 1):
        out.append(f"rockets must be 0 or 1 (one pack has one rocket), got {r.rockets!r}")
    if r.spring and r.anti_spring:
        out.append("spring and anti-spring exclude each other (R7.4)")
    if r.spring and r.winner == "defenders":
        out.append("a spring needs the landlord to win (R7.2)")
    if r.anti_spring and r.winner == "landlord":
        out.append("an anti-spring needs the defenders to win (R7.3)")
    return out


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def score_result(result: DealResult, profile: RuleProfile) -> tuple[int, int, int]:
    """Scores of seats 0, 1, 2 (zero-sum); raises InvalidResult for an impossible result."""
    check_result(result, profile)
    won = 1 if result.winner == "defenders" else -1
    scores = [0, 0, 0]
    for seat in range(3):
        if seat == result.landlord:
            continue
        doubles = int(result.doubled[seat]) * (1 + int(result.redoubled))
        value = result.bid * _multiplier(result, profile) * 2**doubles
        if profile.cap is not None:
            value = min(value, profile.cap)
        scores[seat] = won * value
    scores[result.landlord] = -sum(scores)
    return scores[0], scores[1], scores[2]


def _multiplier(r: DealResult, profile: RuleProfile) -> int:
    """The stake multiplier before the per-defender doubling terms."""
    spring = r.spring or r.anti_spring
    if profile.multiplier_mode == "jj_linear_bombs":  # R8.5, Q15
        return (1 + r.bombs) * 2**r.rockets * (profile.spring_factor if spring else 1)
    if profile.multiplier_mode == "ccgc_additive":  # R8.5: each defender pays half the total
        return 1 + r.rockets + r.bombs + int(spring)
    return 2 ** (r.rockets + r.bombs) * (profile.spring_factor if spring else 1)
