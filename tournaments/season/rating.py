"""The season's rating and points over plain values (no ORM): OpenSkill's Weng-Lin model
(``openskill.models.PlackettLuce``), updated once per counted hand, and masterpoint-like
season points per tournament.

Per hand, not per tournament: a hand is where Dou Dizhu's sides exist (one landlord, 地主,
against two farmers, or three in four_p) and Weng-Lin rates teams of unequal size, so each
hand tells the model who beat whom and how strong the other side was.  A whole tournament as
one free-for-all of a hundred would forget who sat against whom and weigh a win at a strong
table like one at a weak table.  A passed-out hand (流局) has no winner and changes nothing.

Everything is deterministic: tournaments in season order, hands in (round, hand number,
table) order (the tables of one hand number hold different players, so their order among
themselves changes nothing), ties of the ladder broken by player id."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

#: The ladder orders by the conservative rating μ − 3σ ("ordinal").
SIGMAS = 3.0
#: Points of taking part in one tournament, and the placing points of its winner (the last
#: gets none; between them linearly, by the share of the field beaten).
PARTICIPATION_POINTS = 10
WINNER_POINTS = 50


@dataclass(frozen=True)
class HandOutcome:
    """One counted hand: the landlord's player, the farmers' players, who won; six players:
    the landlord's partner (暗地主) on his side (R13.8), none when he played alone."""

    landlord: int
    farmers: tuple[int, ...]
    landlord_won: bool
    partners: tuple[int, ...] = ()


@dataclass(frozen=True)
class EventInput:
    """One counted tournament: its hands in order and each player's total (deal points and
    penalties) for the placing."""

    tournament_id: int
    hands: Sequence[HandOutcome]
    totals: dict[int, int]


@dataclass
class PlayerLine:
    mu: float
    sigma: float
    points: int = 0
    events: int = 0
    hands: int = 0
    ordinal: float = 0.0
    #: The change of ``ordinal`` over the player's last event (0 after their first).
    trend: float = 0.0
    rank: int = 0


@dataclass(frozen=True)
class Step:
    player_id: int
    tournament_id: int
    order: int
    placing: int
    field: int
    mu: float
    sigma: float
    ordinal: float
    rank: int
    points: int
    hands: int


@dataclass
class SeasonResult:
    players: dict[int, PlayerLine] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)


def placings(totals: dict[int, int]) -> dict[int, int]:
    """Rank by total, best first; equal totals share the better placing (1, 2, 2, 4)."""
    ordered = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    out: dict[int, int] = {}
    for i, (player, total) in enumerate(ordered):
        if i and total == ordered[i - 1][1]:
            out[player] = out[ordered[i - 1][0]]
        else:
            out[player] = i + 1
    return out


def event_points(placing: int, field_size: int) -> int:
    """Participation plus placing points: the winner ``WINNER_POINTS``, the last none."""
    if field_size <= 1:
        return PARTICIPATION_POINTS + WINNER_POINTS
    beaten = (field_size - placing) / (field_size - 1)
    return PARTICIPATION_POINTS + round(WINNER_POINTS * beaten)


def _ordinal(mu: float, sigma: float) -> float:
    return mu - SIGMAS * sigma


def _ranks(lines: dict[int, PlayerLine]) -> None:
    ordered = sorted(lines.items(), key=lambda kv: (-round(kv[1].ordinal, 9), kv[0]))
    for i, (_player, line) in enumerate(ordered, start=1):
        line.rank = i


def rate(model: PlackettLuce, teams: list[list[Any]]) -> list[list[Any]]:
    """``model.rate(teams)`` (the teams in the order they finished), without the copy and
    the argument checks that make it five times slower: the dynamics τ added to each σ, then
    the model's own update (``_compute``), exactly as ``rate`` does.  The ratings passed in
    are this computation's own (nobody else holds them), so they are changed in place.
    ``tests/tournaments/test_season_rating_model.py`` holds the two equal, bit for bit."""
    tau_squared = model.tau * model.tau
    for team in teams:
        for r in team:
            r.sigma = math.sqrt(r.sigma * r.sigma + tau_squared)
    return model._compute(teams=teams)


def season_compute(events: Iterable[EventInput]) -> SeasonResult:
    """The ladder after every event, and the steps of each player's chart."""
    model = PlackettLuce()
    result = SeasonResult()
    lines = result.players
    # The model's rating objects, carried from hand to hand (``rate`` returns new ones).
    ratings: dict[int, Any] = {}
    for order, event in enumerate(events, start=1):
        played: dict[int, int] = {}
        before = {p: lines[p].ordinal for p in event.totals if p in lines and lines[p].events}
        for hand in event.hands:
            side = (hand.landlord, *hand.partners)
            for p in (*side, *hand.farmers):
                if p not in ratings:
                    ratings[p] = model.rating()
                played[p] = played.get(p, 0) + 1
            landlord = [ratings[p] for p in side]
            farmers = [ratings[p] for p in hand.farmers]
            # The teams in the order of the result: winners first.
            if hand.landlord_won:
                new_landlord, new_farmers = rate(model, [landlord, farmers])
            else:
                new_farmers, new_landlord = rate(model, [farmers, landlord])
            for p, r in zip(side, new_landlord, strict=True):
                ratings[p] = r
            for p, r in zip(hand.farmers, new_farmers, strict=True):
                ratings[p] = r
        for p in event.totals:
            if p not in ratings:
                ratings[p] = model.rating()
            if p not in lines:
                lines[p] = PlayerLine(mu=ratings[p].mu, sigma=ratings[p].sigma)
        for p in played:
            if p not in lines:
                lines[p] = PlayerLine(mu=ratings[p].mu, sigma=ratings[p].sigma)
        for p, line in lines.items():
            line.mu, line.sigma = ratings[p].mu, ratings[p].sigma
        places = placings(event.totals)
        for p in event.totals:
            line = lines[p]
            line.events += 1
            line.hands += played.get(p, 0)
            line.points += event_points(places[p], len(event.totals))
        for line in lines.values():
            line.ordinal = _ordinal(line.mu, line.sigma)
        _ranks(lines)
        for p in sorted(event.totals):
            line = lines[p]
            result.steps.append(
                Step(
                    player_id=p,
                    tournament_id=event.tournament_id,
                    order=order,
                    placing=places[p],
                    field=len(event.totals),
                    mu=line.mu,
                    sigma=line.sigma,
                    ordinal=line.ordinal,
                    rank=line.rank,
                    points=event_points(places[p], len(event.totals)),
                    hands=played.get(p, 0),
                )
            )
        for p in event.totals:
            lines[p].trend = lines[p].ordinal - before[p] if p in before else 0.0
    return result
