"""The open-hand solver (issue 33, docs/solver.md) against the brute-force minimax."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules.cards import key_of, parse_ranks
from referee.rules.combos import readings_of
from referee.rules.moves import legal_plays
from referee.rules.profiles import CLASSIC, COMP2016, RuleProfile
from referee.rules.protocol import handle_request
from referee.rules.solver import (
    LineError,
    Position,
    Solver,
    brute_force,
    check_line,
    hand_text,
    solve,
)

PACK = [r for r in range(13) for _ in range(4)] + [13, 14]
VECTORS = Path(__file__).parent / "data" / "solve.jsonl"


def random_position(
    rng: random.Random, largest: int = 3, sizes: list[int] | None = None
) -> Position:
    """Three hands of 1..largest cards (or of ``sizes``), a landlord, a turn and, half the
    time, a play to beat (a legal lead from cards nobody holds, by another seat)."""
    sizes = sizes or [rng.randint(1, largest) for _ in range(3)]
    cards = rng.sample(PACK, sum(sizes) + 4)
    hands, at = [], 0
    for size in sizes:
        hands.append(key_of(cards[at : at + size]))
        at += size
    turn = rng.randrange(3)
    top = top_seat = None
    if rng.random() < 0.5:
        plays = legal_plays(key_of(cards[at:]), None, COMP2016)
        top = rng.choice(plays)
        top_seat = rng.choice([s for s in range(3) if s != turn])
    return Position((hands[0], hands[1], hands[2]), rng.randrange(3), turn, top, top_seat)


@pytest.mark.parametrize("compiled", [False, True], ids=["reference", "compiled"])
def test_solver_agrees_with_brute_force_on_thousands_of_small_positions(compiled: bool) -> None:
    rng = random.Random(33)
    wins = 0
    for index in range(2400):
        profile = COMP2016 if index % 2 else CLASSIC
        position = random_position(rng)
        expected = brute_force(position, profile)
        found = solve(position, profile, compiled=compiled)
        assert found.landlord_wins is expected, position
        wins += expected
        if index % 4 == 0:  # every claimed win re-verified: each defence still loses
            check_line(position, found.line, expected, profile)
    assert 400 < wins < 2000  # both answers are exercised


@pytest.mark.parametrize("compiled", [False, True], ids=["reference", "compiled"])
def test_solver_agrees_with_brute_force_when_one_hand_holds_up_to_six_cards(
    compiled: bool,
) -> None:
    rng = random.Random(34)
    for index in range(300):
        sizes = [rng.randint(4, 6), rng.randint(1, 2), rng.randint(1, 2)]
        rng.shuffle(sizes)
        profile = COMP2016 if index % 2 else CLASSIC
        position = random_position(rng, sizes=sizes)
        found = solve(position, profile, compiled=compiled)
        assert found.landlord_wins is brute_force(position, profile), position


def test_the_line_is_read_from_the_search_table_not_searched_again() -> None:
    # endgames of 4-7 cards a hand: the value's search proved every step of the line, so the
    # line costs one table lookup a step (searching the moves in the generator's order
    # instead cost more than the value itself)
    rng = random.Random(35)
    for index in range(40):
        profile = COMP2016 if index % 2 else CLASSIC
        position = random_position(rng, sizes=[rng.randint(4, 7) for _ in range(3)])
        solver = Solver(profile)
        wins = solver.value(position)
        searched = solver.nodes
        line = solver.line(position, wins)
        assert solver.nodes - searched <= len(line), position
        assert line and not all(_after_line(position, line).hands)


def _after_line(position: Position, line: tuple) -> Position:
    hands = list(position.hands)
    for seat, play in line:
        if play is not None:
            hands[seat] -= play.key
    return position._replace(hands=(hands[0], hands[1], hands[2]))


def test_check_line_refuses_a_line_that_lets_a_defence_escape() -> None:
    # landlord 0 holds 3 and 4, farmer 1 holds 5: leading 3 loses to 5; the line claims a win
    position = Position(
        (key_of(parse_ranks("34")), key_of(parse_ranks("5")), key_of(parse_ranks("6"))), 0, 0
    )
    assert brute_force(position, COMP2016) is False
    three = readings_of("3")[0]
    four = readings_of("4")[0]
    try:
        check_line(position, [(0, three), (1, None), (2, None), (0, four)], True, COMP2016)
    except LineError as exc:
        assert exc.index == 1  # seat 1 could beat the 3 instead of passing
    else:
        raise AssertionError("a line with an escaping defence was accepted")


def _rotated(position: Position, by: int) -> Position:
    hands = tuple(position.hands[(s - by) % 3] for s in range(3))
    seat = lambda s: None if s is None else (s + by) % 3  # noqa: E731
    return Position(
        hands, seat(position.landlord), seat(position.turn), position.top, seat(position.top_seat)
    )  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 2))
def test_rotating_every_seat_gives_the_same_answer(seed: int, by: int) -> None:
    position = random_position(random.Random(seed), largest=5)
    value = solve(position, COMP2016).landlord_wins
    assert solve(_rotated(position, by), COMP2016).landlord_wins is value


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_a_hand_that_goes_out_in_one_play_wins_on_its_lead(seed: int) -> None:
    position = random_position(random.Random(seed), largest=5)
    position = position._replace(top=None, top_seat=None)
    hand = position.hands[position.turn]
    if readings_of(hand_text(hand)):
        expected = position.turn == position.landlord
        assert solve(position, COMP2016).landlord_wins is expected


def test_an_exhausted_budget_answers_unsolved() -> None:
    rng = random.Random(5)
    cards = rng.sample(PACK, 54)
    hands = (key_of(cards[:20]), key_of(cards[20:37]), key_of(cards[37:]))
    found = solve(Position(hands, 0, 0), COMP2016, max_nodes=2000)
    assert found.landlord_wins is None and found.line == ()


def _request_position(request: dict, profile: RuleProfile) -> Position:
    hands = tuple(key_of(parse_ranks(h)) for h in request["hands"])
    top = readings_of(request["top"], profile)[0] if request.get("top") else None
    return Position(hands, request["landlord"], request["turn"], top, request.get("top_seat"))  # type: ignore[arg-type]


def test_solve_vectors_agree_with_the_brute_force_and_the_protocol() -> None:
    lines = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
    assert len(lines) >= 20
    for vector in lines:
        request, expected = vector["request"], vector["answer"]
        profile = CLASSIC if request.get("profile") == "classic" else COMP2016
        position = _request_position(request, profile)
        assert brute_force(position, profile) is expected["landlord_wins"]
        answer = handle_request(request)  # the compiled search where numba is installed
        assert answer["landlord_wins"] is expected["landlord_wins"]
        # the reference search gives the recorded line; a line is one winning line of many
        # (the compiled search may give another): each must prove what it claims
        reference = solve(position, profile, compiled=False).to_json()
        assert reference["line"] == expected["line"]
        for line in (expected["line"], answer["line"]):
            steps = [
                (e["seat"], None if e["play"] == "pass" else readings_of(e["play"], profile)[0])
                for e in line
            ]
            check_line(position, steps, expected["landlord_wins"], profile)


def test_solve_refuses_bad_requests() -> None:
    base = {"op": "solve", "hands": ["3", "4", "5"], "landlord": 0, "turn": 0}
    assert handle_request({**base, "hands": ["3", "4"]})["error"] == "bad_request"
    assert handle_request({**base, "hands": ["33333", "4", "5"]})["error"] == "bad_request"
    assert handle_request({**base, "turn": 3})["error"] == "bad_request"
    assert handle_request({**base, "top": "37", "top_seat": 1})["error"] == "invalid_top"
    assert handle_request({**base, "top": "7"})["error"] == "bad_request"
    assert handle_request({**base, "hands": ["", "4", "5"]})["error"] == "unsolvable_position"
    assert handle_request({**base, "profile": "four_p"})["error"] == "unknown_op"
    assert handle_request({**base, "budget_ms": 0})["error"] == "bad_request"
