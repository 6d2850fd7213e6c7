"""Where a hand left par (issue 33, point 3), on small constructed hands whose every
position the brute-force minimax answers (``referee.rules.solver.brute_force``): the start is
the first position decided within the budget, the turning point is the first action after
which the value is against its side, the move given keeps par, and an undecided position is
reported unsolved, never guessed. Pure: no database."""

from __future__ import annotations

import random

from referee.rules.cards import Deal, deal_from_seed
from referee.rules.moves import legal_plays
from referee.rules.profiles import CLASSIC, COMP2016, RuleProfile
from referee.rules.solver import Position, brute_force, solve
from tests.rules.test_solver import random_position
from tournaments.par.analysis import (
    Budget,
    Effort,
    ParResult,
    PlayStep,
    after,
    par_auction,
    steps_lost,
)

BIG = Budget(ms=60_000, nodes=10_000_000, entries=2_000_000)


def _lead(position: Position) -> Position:
    if position.top is not None and position.top_seat == position.turn:
        return position._replace(top=None, top_seat=None)
    return position


def _options(position: Position, profile: RuleProfile) -> list:
    pos = _lead(position)
    moves: list = list(legal_plays(pos.hands[pos.turn], pos.top, profile))
    if pos.top is not None:
        moves.append(None)
    return moves


def _random_line(start: Position, profile: RuleProfile, rng: random.Random) -> list[PlayStep]:
    """A random game from ``start`` to its end, as the steps of a played hand."""
    steps = []
    position, index = start, 7  # action numbers as a hand's: the auction comes first
    while True:
        move = rng.choice(_options(position, profile))
        nxt = after(position, move)
        out = [seat for seat in range(3) if not nxt.hands[seat]]
        landlord_out = (out[0] == nxt.landlord) if out else None
        steps.append(PlayStep(index, position, None if out else nxt, landlord_out))
        if out:
            return steps
        position, index = nxt, index + 1


def _value(step_position: Position | None, landlord_out: bool | None, profile: RuleProfile) -> bool:
    if step_position is None:
        assert landlord_out is not None
        return landlord_out
    return brute_force(step_position, profile)


def _expected_turn(steps: list[PlayStep], profile: RuleProfile) -> tuple[int, int] | None:
    """The brute force's answer: (action, seat) of the first action after which the value
    turned against the side that made it; None when it never did."""
    for step in steps:
        before = brute_force(step.before, profile)
        later = _value(step.after, step.landlord_out, profile)
        mover_landlord = step.before.turn == step.before.landlord
        if before == mover_landlord and later != before:
            return step.index, step.before.turn
    return None


def test_the_turning_point_and_the_kept_move_agree_with_the_brute_force() -> None:
    rng = random.Random(3303)
    checked = turned = 0
    for n in range(400):
        profile = COMP2016 if n % 2 else CLASSIC
        start = random_position(rng, largest=3)
        steps = _random_line(start, profile, rng)
        found = steps_lost(steps, profile, BIG, Effort(), max_queries=len(steps))
        assert found.start_action == steps[0].index  # a big budget decides the first position
        assert found.start_landlord_wins == brute_force(steps[0].before, profile)
        expected = _expected_turn(steps, profile)
        if expected is None:
            assert found.outcome == "held", (start, found)
        else:
            turned += 1
            assert found.outcome == "turned", (start, found)
            assert (found.turn_action, found.turn_seat) == expected
            step = next(s for s in steps if s.index == found.turn_action)
            kept = next(
                m
                for m in _options(step.before, profile)
                if ("pass" if m is None else m.text()) == found.kept_play
            )
            child = after(step.before, kept)
            mover_landlord = step.before.turn == step.before.landlord
            if all(child.hands):
                assert brute_force(child, profile) == mover_landlord  # it keeps par
            else:  # it goes out: a win for the mover's side
                assert (child.hands[child.landlord] == 0) == mover_landlord
        checked += 1
    print(f"where it was lost: {checked} random lines, {turned} turned, all as brute force")
    assert checked == 400 and turned > 50


def test_the_start_is_the_first_position_decided_within_the_budget() -> None:
    """With a budget of one node check (the solver looks at its budget every 1,024 nodes),
    the early (bigger) positions are unsolved: the analysis starts at the first one the same
    budget decides, with the value an unbounded search gives (the solver agrees with the
    brute force: tests/rules/test_solver.py)."""
    rng = random.Random(3304)
    budget = Budget(ms=60_000, nodes=1, entries=2_000_000)
    later_starts = 0
    for _ in range(40):
        sizes = [rng.randint(5, 7), rng.randint(5, 7), rng.randint(4, 6)]
        start = random_position(rng, sizes=sizes)
        steps = _random_line(start, COMP2016, rng)
        found = steps_lost(steps, COMP2016, budget, Effort(), max_queries=len(steps))
        decided = [
            s
            for s in steps
            if solve(s.before, COMP2016, max_nodes=1, max_ms=60_000).landlord_wins is not None
        ]
        if not decided:
            assert found.outcome == "unsolved" and found.start_action is None
            continue
        assert found.start_action == decided[0].index
        exact = solve(decided[0].before, COMP2016, max_ms=60_000).landlord_wins
        assert found.start_landlord_wins == exact
        later_starts += found.start_action > steps[0].index
        if found.outcome == "open":  # an undecided position after the start: no guess
            assert found.open_action is not None and found.open_action > found.start_action
            assert found.turn_action is None and found.kept_play == ""
    assert later_starts > 5


def test_nothing_decided_within_the_budget_is_unsolved() -> None:
    rng = random.Random(3305)
    start = random_position(rng, sizes=[10, 10, 9])
    steps = _random_line(start, COMP2016, rng)
    found = steps_lost(steps, COMP2016, Budget(60_000, 1, 2_000_000), Effort(), max_queries=3)
    assert found.outcome == "unsolved" and found.start_action is None


def _deal(first_bidder: int) -> Deal:
    return deal_from_seed(4242, first_bidder=first_bidder)


def test_par_auction_follows_the_profiles_auction() -> None:
    """Seats that all know the table, each bidding for its own score: a seat that loses as
    landlord never bids (−2 × bid against −bid as a farmer, or 0 passed out); the first
    winning seat to speak bids 3, the highest stake, which also ends the auction (a later
    winner would outbid anything lower). Nobody wins: passed out, 0 each. An unsolved seat:
    unsolved. Every table of both profiles, from each first bidder."""
    for profile in (COMP2016, CLASSIC):
        for first in range(3):
            deal = _deal(first)
            order = [(first + k) % 3 for k in range(3)]
            assert par_auction(deal, profile, [True, None, False]).outcome == "unsolved"
            for bits in range(8):
                table = [bool(bits >> seat & 1) for seat in range(3)]
                result = par_auction(deal, profile, table)
                winners = [seat for seat in order if table[seat]]
                if not winners:
                    assert result == ParResult("passed_out", scores=(0, 0, 0))
                    continue
                assert (result.outcome, result.landlord, result.bid) == ("landlord", winners[0], 3)
                assert result.scores is not None and sum(result.scores) == 0
                assert result.scores[winners[0]] == 6  # 3 from each farmer, no multiplier
