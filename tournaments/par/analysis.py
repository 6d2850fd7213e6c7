"""What par analysis computes, from a deal and a log: no database (``docs/solver.md``, "In the
service"). The services store it; this module only asks the rules library.

- ``par_table``: for each seat as landlord (the kitty in its hand, on lead as the profile's
  first lead says), the open-hand value (``referee.rules.solver``), within a budget.
- ``par_auction``: the profile's auction, from the board's first bidder, played by seats that
  all know the par table, each bidding for its own best score (backward induction over the
  rules' own auction; ties go to the first legal action: a pass, then the lowest bid). The
  score is the rules' scoring of that bid with no doubling, bomb or spring: the open-hand value
  says who goes out first, not the stake. "passed out" when nobody bids (scores 0); unsolved
  when the table has an unsolved seat.
- ``hand_lost``: where a played hand left par: from the first position of its play the
  solver decides within budget (its start), the first action after which the value turned
  against the side that made it, and a move that kept it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.rules.actions import action_from_json
from referee.rules.cards import Deal, key_of, parse_ranks
from referee.rules.combos import Play
from referee.rules.hand import HandState, Phase
from referee.rules.profiles import RuleProfile
from referee.rules.scoring import DealResult, score_result
from referee.rules.solver import Position, Solution, solver_for

#: The profiles the solver takes (``referee.rules.solver``): the others are not analysed.
PAR_PROFILES = frozenset({"comp2016", "classic"})


@dataclass(frozen=True)
class Budget:
    """One query's budget (``Solver``): milliseconds, nodes, table entries."""

    ms: int
    nodes: int
    entries: int

    def to_json(self) -> dict[str, int]:
        return {"ms": self.ms, "nodes": self.nodes, "entries": self.entries}


class Cancelled(Exception):
    """The analysis was cancelled between two queries (``should_stop``)."""


@dataclass
class Effort:
    """What the queries of one analysis cost."""

    nodes: int = 0
    ms: float = 0.0

    def add(self, solution: Solution) -> Solution:
        self.nodes += solution.nodes
        self.ms += solution.ms
        return solution


def query(
    position: Position,
    profile: RuleProfile,
    budget: Budget,
    effort: Effort,
    should_stop: Callable[[], bool] | None = None,
) -> Solution:
    """One solver query within ``budget``; ``should_stop`` is asked before it."""
    if should_stop is not None and should_stop():
        raise Cancelled
    solver = solver_for(
        position, profile, max_ms=budget.ms, max_nodes=budget.nodes, max_entries=budget.entries
    )
    return effort.add(solver.solve(position))


def _first_lead(deal: Deal, profile: RuleProfile, landlord: int) -> int:
    return deal.first_bidder if profile.first_lead == "first_bidder" else landlord


def landlord_position(deal: Deal, profile: RuleProfile, landlord: int) -> Position:
    """The play's first position with ``landlord`` holding the kitty."""
    keys = list(deal.keys)
    keys[landlord] += deal.kitty_key
    return Position((keys[0], keys[1], keys[2]), landlord, _first_lead(deal, profile, landlord))


def par_table(
    deal: Deal,
    profile: RuleProfile,
    budget: Budget,
    effort: Effort,
    should_stop: Callable[[], bool] | None = None,
) -> list[bool | None]:
    """For each seat as landlord: True wins, False loses, None unsolved within ``budget``."""
    return [
        query(
            landlord_position(deal, profile, seat), profile, budget, effort, should_stop
        ).landlord_wins
        for seat in range(profile.seats)
    ]


@dataclass(frozen=True)
class ParResult:
    """``outcome``: "landlord", "passed_out" or "unsolved" (``ParOutcome``)."""

    outcome: str
    landlord: int | None = None
    bid: int | None = None
    scores: tuple[int, ...] | None = None


def _auction_value(state: HandState, table: Sequence[bool], profile: RuleProfile) -> ParResult:
    if state.phase is Phase.BIDDING:
        seat = state.turn
        assert seat is not None
        best: ParResult | None = None
        for action in state.legal_actions():  # a pass first, then the bids upwards
            state.push(action)
            try:
                found = _auction_value(state, table, profile)
            finally:
                state.pop()
            assert found.scores is not None
            if best is None or best.scores is None or found.scores[seat] > best.scores[seat]:
                best = found
        assert best is not None
        return best
    landlord, bid = state.landlord, state.bid
    if landlord is None or bid is None:  # nobody bid: passed out, the board scores 0
        return ParResult("passed_out", scores=tuple(0 for _ in table))
    result = DealResult(
        landlord=landlord,
        bid=bid,
        doubled=tuple(False for _ in table),  # type: ignore[arg-type]  # three seats
        redoubled=False,
        bombs=0,
        rockets=0,
        spring=False,
        anti_spring=False,
        winner="landlord" if table[landlord] else "defenders",
    )
    return ParResult("landlord", landlord, bid, tuple(score_result(result, profile)))


def par_auction(deal: Deal, profile: RuleProfile, table: Sequence[bool | None]) -> ParResult:
    """The par result (see the module docstring)."""
    if any(value is None for value in table):
        return ParResult("unsolved")
    known = [bool(value) for value in table]
    return _auction_value(HandState(deal, profile), known, profile)


@dataclass(frozen=True)
class HandLost:
    """``outcome``: "unsolved", "held", "turned" or "open" (``LostOutcome``); action
    numbers index ``actions``."""

    outcome: str
    start_action: int | None = None
    start_landlord_wins: bool | None = None
    turn_action: int | None = None
    turn_seat: int | None = None
    kept_play: str = ""
    open_action: int | None = None


def position_of(state: HandState) -> Position:
    """The solver's position of a hand in play."""
    hands = tuple(key_of(parse_ranks(state.hand_text(seat))) for seat in range(state.profile.seats))
    landlord, turn = state.landlord, state.turn
    assert landlord is not None and turn is not None
    return Position((hands[0], hands[1], hands[2]), landlord, turn, state.top_play, state.top_seat)


def _over(state: HandState) -> bool | None:
    """Whether the landlord went out (None: nobody has)."""
    if state.winner is None:
        return None
    return state.winner == "landlord"


def _move_text(step: tuple[int, Any]) -> str:
    play = step[1]
    return "pass" if play is None else str(play.text())


def hand_lost(
    deal: Deal,
    profile: RuleProfile,
    actions: Sequence[dict[str, Any]],
    budget: Budget,
    effort: Effort,
    *,
    max_queries: int,
    should_stop: Callable[[], bool] | None = None,
) -> HandLost:
    """Where the played hand of ``actions`` (the protocol's JSON, bids included) left par:
    ``steps_lost`` over its play-phase actions."""
    state = HandState(deal, profile)
    steps: list[PlayStep] = []
    for index, event in enumerate(actions):
        before = position_of(state) if state.phase is Phase.PLAYING else None
        state.push(action_from_json(event))
        if before is not None:
            after = position_of(state) if state.phase is Phase.PLAYING else None
            steps.append(PlayStep(index, before, after, _over(state)))
    return steps_lost(
        steps, profile, budget, effort, max_queries=max_queries, should_stop=should_stop
    )


@dataclass(frozen=True)
class PlayStep:
    """A play-phase action: its index, the position before it, the position after it (None
    when the hand is over) and, then, whether the landlord went out."""

    index: int
    before: Position
    after: Position | None
    landlord_out: bool | None


def steps_lost(
    steps: Sequence[PlayStep],
    profile: RuleProfile,
    budget: Budget,
    effort: Effort,
    *,
    max_queries: int,
    should_stop: Callable[[], bool] | None = None,
) -> HandLost:
    """The positions before each step are tried in order until one is decided (at most
    ``max_queries`` of them): that is the start. From there each action of the side the
    value favours is checked (an action of the other side cannot turn it: every move of a
    lost position loses); the first one after which the value is against its side is the
    turning point, and the solver's winning line from the position before it gives a move
    that kept par. A position the budget does not decide after the start ends the analysis
    there ("open"): nothing is guessed beyond it."""
    start: int | None = None
    solution: Solution | None = None
    for tried, step in enumerate(steps[:max_queries]):
        found = query(step.before, profile, budget, effort, should_stop)
        if found.landlord_wins is not None:
            start, solution = tried, found
            break
    if start is None or solution is None:
        return HandLost("unsolved")
    start_index = steps[start].index
    value = bool(solution.landlord_wins)
    known: dict[int, Solution] = {start_index: solution}
    for step in steps[start:]:
        mover = step.before.turn
        if (mover == step.before.landlord) != value:  # the losing side: it cannot turn
            continue
        if step.after is None:
            after = step.landlord_out
        else:
            answer = query(step.after, profile, budget, effort, should_stop)
            known[step.index + 1] = answer
            after = answer.landlord_wins
        if after is None:
            return HandLost("open", start_index, value, open_action=step.index + 1)
        if after != value:
            line = known.get(step.index) or query(step.before, profile, budget, effort, should_stop)
            kept = _move_text(line.line[0]) if line.line else ""
            return HandLost("turned", start_index, value, step.index, mover, kept)
    return HandLost("held", start_index, value)


def after(position: Position, move: Play | None) -> Position:
    """The position after the seat on turn plays ``move`` (None: passes), as the solver
    reads a top played by the seat on turn: a lead."""
    top, top_seat = position.top, position.top_seat
    if top is not None and top_seat == position.turn:
        top, top_seat = None, None
    nxt = (position.turn + 1) % len(position.hands)
    if move is None:
        if nxt == top_seat:
            return position._replace(turn=nxt, top=None, top_seat=None)
        return position._replace(turn=nxt, top=top, top_seat=top_seat)
    hands = list(position.hands)
    hands[position.turn] -= move.key
    return Position((hands[0], hands[1], hands[2]), position.landlord, nxt, move, position.turn)


def deal_of(data: dict[str, Any]) -> Deal:
    """A deal's JSON (``hand_deal_json``) read."""
    return Deal.from_json(data)
