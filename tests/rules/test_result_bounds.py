"""The bounds one pack puts on a result (SPEC R5.19, R5.20, R5.24, R7.1-R7.3, R2.6):
``result_bounds_check`` refuses exactly what no deal can give.

* an independent brute force over who played which bombs agrees with ``max_bombs``;
* random legal games on bomb-rich deals (bombs preferred) always end inside the bounds;
* the bounds are reached: a spring with 5 bombs, with 4 bombs and the rocket, is scored.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import (
    CLASSIC,
    COMP2016,
    Bid,
    Card,
    Deal,
    DealResult,
    HandState,
    Pass,
    parse_ranks,
    score_result,
)
from referee.rules.actions import Double, PlayCards, Redouble
from referee.rules.errors import ImpossibleResult, InvalidResult
from referee.rules.profiles import RuleProfile
from referee.rules.scoring import max_bombs, result_bounds_check

PROFILES = [COMP2016, CLASSIC]
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


def ref_max_bombs(*, winner: str, rockets: int, spring: bool, anti_spring: bool) -> int:
    """Brute force: every split of played bombs between the landlord (seat L) and the two
    defenders (W: the one who went out when the defenders win), and every holder of the
    rocket, kept when each seat's played cards fit its hand."""
    best = -1
    holders: list[str | None] = ["L", "W", "O"] if rockets else [None]
    for holder in holders:
        for b_l, b_w, b_o in itertools.product(range(6), repeat=3):
            cards = {
                "L": 4 * b_l + 2 * (holder == "L"),
                "W": 4 * b_w + 2 * (holder == "W"),
                "O": 4 * b_o + 2 * (holder == "O"),
            }
            plays_l = b_l + (holder == "L")
            if winner == "landlord":
                # the landlord went out with 20 cards; each defender still holds one of 17
                ok = cards["L"] <= 20 and cards["W"] <= 16 and cards["O"] <= 16
                if spring:
                    ok = ok and cards["W"] == 0 and cards["O"] == 0
            else:
                # defender W went out with 17; the landlord and defender O still hold a card
                ok = cards["W"] <= 17 and cards["O"] <= 16 and cards["L"] <= 19
                if anti_spring:
                    ok = ok and plays_l <= 1
            if ok:
                best = max(best, b_l + b_w + b_o)
    return best


@pytest.mark.parametrize(
    ("winner", "spring", "anti_spring", "no_rocket", "with_rocket"),
    [
        ("landlord", False, False, 13, 12),
        ("landlord", True, False, 5, 4),
        ("defenders", False, False, 12, 12),
        ("defenders", False, True, 9, 8),
    ],
)
def test_bounds_table(
    winner: str, spring: bool, anti_spring: bool, no_rocket: int, with_rocket: int
) -> None:
    kwargs = {"winner": winner, "spring": spring, "anti_spring": anti_spring}
    assert max_bombs(rockets=0, **kwargs) == no_rocket  # type: ignore[arg-type]
    assert max_bombs(rockets=1, **kwargs) == with_rocket  # type: ignore[arg-type]


@settings(max_examples=300, **SETTINGS)
@given(
    profile=st.sampled_from(PROFILES),
    winner=st.sampled_from(["landlord", "defenders"]),
    bombs=st.integers(0, 13),
    rockets=st.integers(0, 1),
    bonus=st.booleans(),
)
def test_bounds_refuse_exactly_what_the_brute_force_finds_impossible(
    profile: RuleProfile, winner: str, bombs: int, rockets: int, bonus: bool
) -> None:
    spring = bonus and winner == "landlord"
    anti = bonus and winner == "defenders"
    limit = ref_max_bombs(winner=winner, rockets=rockets, spring=spring, anti_spring=anti)
    assert max_bombs(winner=winner, rockets=rockets, spring=spring, anti_spring=anti) == limit
    try:
        result_bounds_check(
            profile, winner=winner, bombs=bombs, rockets=rockets, spring=spring, anti_spring=anti
        )
    except ImpossibleResult as exc:
        assert bombs > limit
        assert exc.code == "impossible_result" and exc.rule in ("R7.1", "R7.2", "R7.3")
        assert exc.message.startswith(exc.rule)
    else:
        assert bombs <= limit


def test_r7_2_spring_with_five_bombs_and_the_rocket_is_refused() -> None:
    """The issue's case: bid 3, 5 bombs + the rocket + spring (22 cards for a landlord who
    holds 20) was scored -384/768/-384."""
    impossible = DealResult(
        landlord=1, bid=3, doubled=(False, False, False), redoubled=False, bombs=5,
        rockets=1, spring=True, anti_spring=False, winner="landlord",
    )  # fmt: skip
    with pytest.raises(ImpossibleResult) as info:
        score_result(impossible, COMP2016)
    assert info.value.rule == "R7.2"
    assert "at most 4 bombs and the rocket" in info.value.message


def test_contradictions_name_their_rule() -> None:
    redouble_alone = DealResult(
        landlord=0, bid=1, doubled=(False, False, False), redoubled=True, bombs=0,
        rockets=0, spring=False, anti_spring=False, winner="landlord",
    )  # fmt: skip
    with pytest.raises(InvalidResult) as info:
        score_result(redouble_alone, COMP2016)
    assert info.value.code == "invalid_result" and info.value.rule == "R4.3"
    assert info.value.message.startswith("R4.3:")


# --- real games ---------------------------------------------------------------------------------


def _bomb_rich_deal(rng: random.Random) -> Deal:
    """A deal whose ranks come in whole blocks (four of a kind, a joker), shuffled as blocks:
    most seats hold several bombs and often the rocket."""
    blocks: list[list[int]] = [[r] * 4 for r in range(13)] + [[13], [14]]
    rng.shuffle(blocks)
    ranks = [r for block in blocks for r in block]
    hands = tuple(tuple(Card(r) for r in sorted(ranks[i * 17 : i * 17 + 17])) for i in range(3))
    kitty = tuple(Card(r) for r in ranks[51:])
    return Deal(hands=hands, kitty=kitty, first_bidder=rng.randrange(3))  # type: ignore[arg-type]


def _play_bombing_game(seed: int, profile: RuleProfile) -> HandState:
    rng = random.Random(seed)
    state = HandState(_bomb_rich_deal(rng), profile)
    pass_bias = rng.random()
    for _ in range(500):
        if state.is_over:
            break
        actions = state.legal_actions()
        if isinstance(actions[0], Bid):
            bids = [a for a in actions if a.value]
            action = rng.choice(bids or actions)
        elif isinstance(actions[0], Double | Redouble):
            action = rng.choice(actions)
        else:
            plays = [a for a in actions if isinstance(a, PlayCards)]
            bombs = [a for a in plays if len(a.cards.replace(" ", "")) in (2, 4)]
            if bombs and rng.random() < 0.8:
                action = rng.choice(bombs)
            elif Pass(actions[0].seat) in actions and rng.random() < pass_bias:
                action = Pass(actions[0].seat)
            else:
                action = rng.choice(actions)
        state.push(action)
    assert state.is_over
    return state


@settings(max_examples=80, **SETTINGS)
@given(seed=st.integers(0, 2**32), profile=st.sampled_from(PROFILES))
def test_every_played_hand_is_inside_the_bounds(seed: int, profile: RuleProfile) -> None:
    state = _play_bombing_game(seed, profile)
    result = state.result()
    if result is None:  # passed out
        return
    assert result.bombs <= max_bombs(
        winner=result.winner,
        rockets=result.rockets,
        spring=result.spring,
        anti_spring=result.anti_spring,
    )
    assert sum(score_result(result, profile)) == 0


def _spring(landlord: str, kitty: str, plays: list[str]) -> DealResult | None:
    """Seat 0 holds ``landlord`` (17 cards), bids 3 and takes ``kitty``; nobody doubles; the
    landlord plays ``plays`` and the defenders pass every time."""
    h0, k = parse_ranks(landlord), parse_ranks(kitty)
    rest = [r for r in range(15) for _ in range(4 if r < 13 else 1)]
    for r in (*h0, *k):
        rest.remove(r)
    deal = Deal(
        hands=(
            tuple(Card(r) for r in h0),
            tuple(Card(r) for r in rest[:17]),
            tuple(Card(r) for r in rest[17:]),
        ),
        kitty=tuple(Card(r) for r in k),
        first_bidder=0,
    )
    state = HandState(deal, COMP2016)
    state.push(Bid(0, 3))
    while state.legal_actions() and not isinstance(state.legal_actions()[0], PlayCards):
        state.push(next(a for a in state.legal_actions() if not a[1]))  # no double
    for cards in plays:
        state.push(PlayCards(0, cards))
        if not state.is_over:
            state.push(Pass(1))
            state.push(Pass(2))
    return state.result()


@pytest.mark.parametrize(
    ("landlord", "kitty", "plays", "bombs", "rockets"),
    [
        ("33334444555566667", "777", ["3333", "4444", "5555", "6666", "7777"], 5, 0),
        ("3333444455556666X", "D77", ["3333", "4444", "5555", "6666", "XD", "77"], 4, 1),
    ],
)
def test_r7_2_the_spring_bound_is_reached(
    landlord: str, kitty: str, plays: list[str], bombs: int, rockets: int
) -> None:
    """A landlord whose 20 cards are five bombs (or four and the rocket) plays them all and
    the defenders never play: the bound is a spring the cards can give, and is scored."""
    result = _spring(landlord, kitty, plays)
    assert result is not None and result.spring and result.winner == "landlord"
    assert (result.bombs, result.rockets) == (bombs, rockets)
    assert bombs == max_bombs(winner="landlord", rockets=rockets, spring=True, anti_spring=False)
    assert sum(score_result(result, COMP2016)) == 0
