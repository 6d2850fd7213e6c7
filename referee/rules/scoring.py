"""Deal scores (SPEC §8), and the one entry point that scores a hand of any profile.

``score_hand(result, profile)`` (with ``result_from_json`` to read a result) dispatches by the
profile to its game's rule: Dou Dizhu for three here (``score_result``), ``four_p`` in
``four_scoring`` (R11.1.8), ``laizi`` in ``laizi_scoring`` (R11.2.4), Big Three in ``big3_scoring``
(R12.11), ``six_p`` and ``five_p`` in ``six_five_scoring`` (R13.9, R14.7; the profile's
``cap``). Every caller that scores a hand goes through ``score_hand``.


Defender *i* scores ``B × W × 2^(R + K + S + d_i + r·d_i)`` (R8.1, ``stake_breakdown`` names
each factor): the double and the redouble
are bets between the landlord (地主) and that defender only (R4.2); the landlord scores minus the
sum of both, so every deal is zero-sum. Profiles switch the spring factor (R7.4), the multiplier
mode (R8.5) and a cap (R8.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, NamedTuple

from referee.rules.errors import BadResult, ImpossibleResult, InvalidResult
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

    def to_json(self) -> dict[str, Any]:
        """The protocol's form (op ``score``, a result event's ``result``): the fields by
        name, ``doubled`` a list. ``from_json`` reads it back."""
        data = {name: getattr(self, name) for name in _JSON_TYPES}
        data["doubled"] = list(self.doubled)
        return data

    @classmethod
    def from_json(cls, data: object) -> DealResult:
        """Read ``to_json``'s form (other keys are ignored); raises BadResult naming the first
        field missing or of the wrong type. Whether the values can have happened is
        ``check_result``'s question (``score_result`` asks it)."""
        if not isinstance(data, dict):
            raise BadResult("a result is an object with " + ", ".join(_JSON_TYPES))
        for name, kind in _JSON_TYPES.items():
            value = data.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise BadResult(f"field {name!r} is missing or of the wrong type", field=name)
        doubled = data["doubled"]
        if len(doubled) != 3 or not all(isinstance(d, bool) for d in doubled):
            raise BadResult("field 'doubled' must be three booleans", field="doubled")
        return cls(**{**{name: data[name] for name in _JSON_TYPES}, "doubled": tuple(doubled)})


#: ``DealResult``'s fields in its JSON form, with the type each must have there (a
#: ``winner`` that is text but neither side is ``check_result``'s R7.1).
_JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "landlord": int,
    "bid": int,
    "doubled": (list, tuple),
    "redoubled": bool,
    "bombs": int,
    "rockets": int,
    "spring": bool,
    "anti_spring": bool,
    "winner": str,
}


def check_result(result: DealResult, profile: RuleProfile) -> None:
    """Raise InvalidResult naming the first contradiction in ``result`` and its rule, then
    ImpossibleResult if no deal can give it (``result_bounds_check``)."""
    problems = _contradictions(result, profile)
    if problems:
        message, rule = problems[0]
        raise InvalidResult(f"{rule}: {message}", rule=rule)
    result_bounds_check(
        profile,
        winner=result.winner,
        bombs=result.bombs,
        rockets=result.rockets,
        spring=result.spring,
        anti_spring=result.anti_spring,
    )


def _contradictions(r: DealResult, profile: RuleProfile) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if not _is_int(r.landlord) or r.landlord not in (0, 1, 2):
        return [(f"landlord must be seat 0, 1 or 2, got {r.landlord!r}", "R2.2")]
    if not _is_int(r.bid) or not 1 <= r.bid <= 3:
        out.append((f"bid must be 1, 2 or 3, got {r.bid!r}", "R3.1"))
    doubled = r.doubled
    if not isinstance(doubled, tuple | list) or len(doubled) != 3:
        return [*out, ("doubled must be three booleans, one per seat", "R4.1")]
    if not all(isinstance(d, bool) for d in doubled):
        return [*out, ("doubled must be three booleans, one per seat", "R4.1")]
    if r.winner not in ("landlord", "defenders"):
        out.append((f"winner must be 'landlord' or 'defenders', got {r.winner!r}", "R7.1"))
    if r.doubled[r.landlord]:
        out.append(
            (f"the landlord (seat {r.landlord}) cannot double; only defenders double", "R4.1")
        )
    if not profile.has_doubling and (any(r.doubled) or r.redoubled):
        out.append((f"profile {profile.key} has no doubling", "R8.4"))
    elif r.redoubled and not any(r.doubled):
        out.append(("a redouble needs at least one defender's double", "R4.3"))
    if not _is_int(r.bombs) or not 0 <= r.bombs <= MAX_BOMBS:
        out.append((f"bombs must be 0..{MAX_BOMBS}, got {r.bombs!r}", "R5.19"))
    if not _is_int(r.rockets) or r.rockets not in (0, 1):
        out.append(
            (f"rockets must be 0 or 1 (one pack has one rocket), got {r.rockets!r}", "R5.20")
        )
    if r.spring and r.anti_spring:
        out.append(("spring and anti-spring exclude each other", "R7.4"))
    if r.spring and r.winner == "defenders":
        out.append(("a spring needs the landlord to win", "R7.2"))
    if r.anti_spring and r.winner == "landlord":
        out.append(("an anti-spring needs the defenders to win", "R7.3"))
    return out


# --------------------------------------------------------------------------- card bounds
#: One pack (R2.1, R2.6): the landlord holds 20 cards with the kitty, each defender 17.
LANDLORD_CARDS = 20
DEFENDER_CARDS = 17
BOMB_CARDS = 4  # R5.19
ROCKET_CARDS = 2  # R5.20


@dataclass(frozen=True, slots=True)
class _Seat:
    """What one seat can have played in a hand: ``cards`` at most, in ``plays`` plays at
    most (None: no limit but the cards)."""

    cards: int
    plays: int | None = None

    def max_bombs(self, *, rocket: bool) -> int | None:
        """Bombs this seat can have played (with the rocket too if ``rocket``), None if it
        cannot have played the rocket."""
        left = self.cards - (ROCKET_CARDS if rocket else 0)
        if left < 0 or (rocket and self.plays is not None and self.plays < 1):
            return None
        bombs = left // BOMB_CARDS
        if self.plays is not None:
            bombs = min(bombs, self.plays - int(rocket))
        return bombs


def _seats(winner: str, spring: bool, anti_spring: bool) -> tuple[tuple[_Seat, ...], str, str]:
    """The three seats' limits for this ending, with the rule and its explanation."""
    if winner == "landlord":
        if spring:  # R7.2: the defenders played no card
            return (
                (_Seat(LANDLORD_CARDS), _Seat(0), _Seat(0)),
                "R7.2",
                "in a spring neither defender plays a card, so every bomb and the rocket come "
                f"from the landlord's {LANDLORD_CARDS} cards",
            )
        # R7.1: the landlord played all his cards; each defender kept at least one.
        return (
            (_Seat(LANDLORD_CARDS), _Seat(DEFENDER_CARDS - 1), _Seat(DEFENDER_CARDS - 1)),
            "R7.1",
            "the hand ends when the landlord goes out, so each defender still holds a card",
        )
    if anti_spring:  # R7.3: the landlord made exactly one play, his opening lead
        return (
            (_Seat(LANDLORD_CARDS - 1, plays=1), _Seat(DEFENDER_CARDS), _Seat(DEFENDER_CARDS - 1)),
            "R7.3",
            "in an anti-spring the landlord makes one play, so at most one bomb or the rocket "
            "is his; the rest come from the defenders' cards",
        )
    return (
        (_Seat(LANDLORD_CARDS - 1), _Seat(DEFENDER_CARDS), _Seat(DEFENDER_CARDS - 1)),
        "R7.1",
        "the hand ends when a defender goes out, so the landlord and the other defender each "
        "still hold a card",
    )


def max_bombs(*, winner: str, rockets: int, spring: bool, anti_spring: bool) -> int:
    """The most bombs a hand with this ending and ``rockets`` played can have played (-1 if
    no hand can have played that many rockets): the cards of one pack, seat by seat."""
    seats, _rule, _why = _seats(winner, spring, anti_spring)
    if rockets == 0:
        return sum(seat.max_bombs(rocket=False) or 0 for seat in seats)
    best = -1
    for holder, seat in enumerate(seats):  # whoever played the rocket
        with_rocket = seat.max_bombs(rocket=True)
        if with_rocket is None:
            continue
        others = sum(s.max_bombs(rocket=False) or 0 for i, s in enumerate(seats) if i != holder)
        best = max(best, with_rocket + others)
    return best


def result_bounds_check(
    profile: RuleProfile,
    *,
    winner: str,
    bombs: int,
    rockets: int,
    spring: bool = False,
    anti_spring: bool = False,
) -> None:
    """Raise ImpossibleResult (naming the rule) if no deal of one pack can give a hand that
    ended this way with these bombs and rockets played (R5.24). Both profiles deal one pack
    20/17/17, so the bounds are the same for each; ``profile`` is taken so a profile with
    another pack gets its own."""
    del profile  # every registered profile plays one 54-card pack (R2.1)
    limit = max_bombs(winner=winner, rockets=rockets, spring=spring, anti_spring=anti_spring)
    if bombs <= limit:
        return
    _, rule, why = _seats(winner, spring, anti_spring)
    rocket_text = " and the rocket" if rockets else ""
    raise ImpossibleResult(
        f"{rule}: {why}: at most {max(limit, 0)} bombs{rocket_text}, got {bombs}{rocket_text}",
        rule=rule,
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


FactorKind = Literal[
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "events",
    "doubled",
    "redoubled",
    "soft_bombs",
    "hard_bombs",
    "pure_wild_bombs",
]


@dataclass(frozen=True, slots=True)
class StakeFactor:
    """One multiplier of a defender's stake (R8.1, R8.5): what raised it (``kind``), how
    many of them there were (``count``) and what they multiply the stake by together
    (``value``). ``events`` is the additive mode's one factor, 1 + bombs + rockets + spring
    (``count`` = bombs + rockets + spring)."""

    kind: FactorKind
    count: int
    value: int


@dataclass(frozen=True, slots=True)
class DefenderStake:
    """What one defender (农民) and the landlord bet (R8.1): the bid times every factor of
    the profile, at most the profile's cap (R8.3). The defender wins or loses ``value``."""

    seat: int
    bid: int
    factors: tuple[StakeFactor, ...]
    cap: int | None = None

    @property
    def product(self) -> int:
        """The bid times every factor, before the cap."""
        out = self.bid
        for factor in self.factors:
            out *= factor.value
        return out

    @property
    def value(self) -> int:
        """The stake: the product, at most the cap."""
        return self.product if self.cap is None else min(self.product, self.cap)

    @property
    def capped(self) -> bool:
        return self.value != self.product


def stake_breakdown(result: DealResult, profile: RuleProfile) -> tuple[DefenderStake, ...]:
    """Each defender's stake, in seat order, factor by factor as ``profile`` counts them
    (R8.1, R8.5, R7.4, R8.3); factors that multiply by 1 are left out. ``result`` is taken
    as it is (``score_result`` checks it first); ``winner`` plays no part, so a live hand's
    stakes so far come from its result as it stands."""
    return defender_stakes(result, _common_factors(result, profile), profile.cap)


def defender_stakes(
    result: DealResult, common: Sequence[StakeFactor], cap: int | None = None
) -> tuple[DefenderStake, ...]:
    """Each defender's stake, in seat order: the bid, the factors both share (``common``)
    and its own double and the redouble (R4.2, R4.3), at most ``cap``."""
    stakes = []
    for seat in range(len(result.doubled)):
        if seat == result.landlord:
            continue
        factors = list(common)
        if result.doubled[seat]:  # R4.2: a bet between the landlord and this defender only
            factors.append(StakeFactor("doubled", 1, 2))
            if result.redoubled:  # R4.3: the landlord's redouble answers every double
                factors.append(StakeFactor("redoubled", 1, 2))
        stakes.append(DefenderStake(seat, result.bid, tuple(factors), cap))
    return tuple(stakes)


def _common_factors(r: DealResult, profile: RuleProfile) -> list[StakeFactor]:
    """The factors both defenders share: bombs, rockets and the spring, by the profile's
    multiplier mode (R8.5)."""
    spring_kind: FactorKind = "anti_spring" if r.anti_spring else "spring"
    spring = r.spring or r.anti_spring
    if profile.multiplier_mode == "ccgc_additive":  # R8.5: each defender pays half the total
        count = r.bombs + r.rockets + int(spring)
        return [StakeFactor("events", count, 1 + count)] if count else []
    if profile.multiplier_mode == "jj_linear_bombs":  # R8.5, Q15
        bombs = StakeFactor("bombs", r.bombs, 1 + r.bombs)
    else:
        bombs = StakeFactor("bombs", r.bombs, 2**r.bombs)
    factors = [
        bombs,
        StakeFactor("rockets", r.rockets, 2**r.rockets),
        StakeFactor(spring_kind, int(spring), profile.spring_factor if spring else 1),
    ]
    return [f for f in factors if f.value != 1]


def score_result(result: DealResult, profile: RuleProfile) -> tuple[int, int, int]:
    """Scores of seats 0, 1, 2 (zero-sum); raises InvalidResult for an impossible result."""
    check_result(result, profile)
    won = 1 if result.winner == "defenders" else -1
    scores = [0, 0, 0]
    for stake in stake_breakdown(result, profile):
        scores[stake.seat] = won * stake.value
    scores[result.landlord] = -sum(scores)
    return scores[0], scores[1], scores[2]


# --------------------------------------------------------------------------- every profile
#: DealResult, four_scoring.FourResult, laizi_scoring.LaiziResult or big3_scoring.Big3Result.
AnyResult = Any


class _Scorer(NamedTuple):
    read: Callable[[object], AnyResult]
    score: Callable[[AnyResult], tuple[int, ...]]
    #: Each defender's stake and its factors (R8.1); None where the game settles otherwise
    #: (six players: every winner with every loser).
    stakes: Callable[[AnyResult], tuple[DefenderStake, ...]] | None = None


@cache
def _scorer(profile: RuleProfile) -> _Scorer:
    """The game rule that reads and scores ``profile``'s results. The variants' modules build
    on this one, so they are imported here, once a profile asks."""
    if profile.game == "big3":
        from referee.rules.big3_scoring import Big3Result, score_big3, stake_breakdown_big3

        return _Scorer(Big3Result.from_json, score_big3, stake_breakdown_big3)
    if profile.game == "six_p":
        from referee.rules.six_five_scoring import SixResult, score_six

        return _Scorer(SixResult.from_json, lambda result: score_six(result, profile.cap))
    if profile.seats == 5:
        from referee.rules.six_five_scoring import FiveResult, score_five, stake_breakdown_five

        return _Scorer(
            FiveResult.from_json,
            lambda result: score_five(result, profile.cap),
            lambda result: stake_breakdown_five(result, profile.cap),
        )
    if profile.seats == 4:
        from referee.rules.four_scoring import FourResult, score_four, stake_breakdown_four

        return _Scorer(FourResult.from_json, score_four, stake_breakdown_four)
    if profile.wild_cards:
        from referee.rules.laizi_scoring import LaiziResult, score_laizi, stake_breakdown_laizi

        return _Scorer(LaiziResult.from_json, score_laizi, stake_breakdown_laizi)
    return _Scorer(
        DealResult.from_json,
        lambda result: score_result(result, profile),
        lambda result: stake_breakdown(result, profile),
    )


def result_from_json(data: object, profile: RuleProfile) -> AnyResult:
    """A result of ``profile`` read from the protocol's ``score`` fields (BadResult,
    InvalidResult for a field its game forbids)."""
    return _scorer(profile).read(data)


def score_hand(result: AnyResult, profile: RuleProfile) -> tuple[int, ...]:
    """The scores, seat by seat and zero-sum, of a hand of ``profile`` summed up as
    ``result`` (the result type of its game); InvalidResult for an impossible result."""
    return _scorer(profile).score(result)


def stakes_of_hand(result: AnyResult, profile: RuleProfile) -> tuple[DefenderStake, ...]:
    """Each defender's stake and its factors (R8.1) in a hand of ``profile`` summed up as
    ``result``, as its game counts them (R11.1.8, R11.2.4, R12.11.1); none in a game that
    settles every winner with every loser (R13.9)."""
    stakes = _scorer(profile).stakes
    return () if stakes is None else stakes(result)
