"""``four_p`` (SPEC §11.1, PROTOCOL-variants §1): kinds, beating, legal plays, the hand state and
scores, with literal cases and properties (hypothesis).

* every legal play of a hand is held, is a combination, and leads or beats the play on the
  table (R11.1.5); nothing is missing (brute force over the sub-multisets of small hands);
  the generator lists what the plain reference one does (tests/rules/variant_reference.py),
  in its order, and its answers are its leads that beat the top;
* scores are zero-sum over four seats, the landlord ±3 times each defender (R11.1.8);
* random legal hands: replaying the log gives the same state, ``pop`` goes back to the start.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import Bid, Double, IllegalAction, Kind, Pass, PlayCards, parse_ranks
from referee.rules.cards import counts_of, key_of_counts
from referee.rules.four_combos import (
    TWO_PACK_COUNTS,
    beats_four,
    classify_four,
    legal_plays_four,
)
from referee.rules.four_hand import FourDeal, FourHandState
from referee.rules.four_scoring import FourResult, score_four, stake_breakdown_four
from referee.rules.hand import Phase
from tests.rules.variant_reference import four_plays

SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
    "max_examples": 150,
}
TWO_PACKS = [r for r, n in enumerate(TWO_PACK_COUNTS) for _ in range(n)]


def counts(text: str) -> list[int]:
    return counts_of(parse_ranks(text))


def play(text: str) -> Any:
    found = classify_four(counts(text))
    assert found is not None, text
    return found


def random_deal(seed: int) -> FourDeal:
    rng = random.Random(seed)
    cards = list(TWO_PACKS)
    rng.shuffle(cards)
    hands = tuple(tuple(sorted(cards[25 * i : 25 * i + 25])) for i in range(4))
    return FourDeal(hands=hands, kitty=tuple(sorted(cards[100:])), first_bidder=rng.randrange(4))  # type: ignore[arg-type]


# --- literal cases -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "rank", "length"),
    [
        ("33333333", Kind.BOMB, 0, 8),
        ("XXDD", Kind.JOKER_BOMB, None, 4),
        ("DD", Kind.PAIR, 14, 1),
        ("333+DD", Kind.TRIO_PAIR, 0, 1),
        ("3456789TJQKA", Kind.STRAIGHT, 11, 12),
        ("333444555+66+77+XX", Kind.AIRPLANE_PAIRS, 2, 3),
        ("QQQKKKAAA", Kind.AIRPLANE, 11, 3),
    ],
)
def test_kinds(cards: str, kind: Kind, rank: int | None, length: int) -> None:
    found = play(cards)
    assert (found.kind, found.rank, found.length) == (kind, rank, length)


@pytest.mark.parametrize(
    "cards", ["3334", "XD", "XXX", "333444+5+6", "3333+55", "AAA222", "2345", "JQKA2", ""]
)
def test_no_combination(cards: str) -> None:
    assert classify_four(counts(cards)) is None


def test_bombs_compare_by_size_then_rank_and_the_four_jokers_top_everything() -> None:
    order = ["3333", "2222", "33333", "AAAAA", "333333", "22222222", "XXDD"]
    for low, high in itertools.combinations(order, 2):
        assert beats_four(play(high), play(low)), (high, low)
        assert not beats_four(play(low), play(high)), (low, high)
    assert beats_four(play("3333"), play("3456789TJQKA"))
    assert not beats_four(play("XXDD"), play("XXDD"))


def test_auction_passes_out_after_four_passes_and_the_landlord_takes_eight() -> None:
    deal = random_deal(7)
    first = deal.first_bidder
    state = FourHandState(deal)
    for i in range(4):
        state.push(Bid((first + i) % 4, 0))
    assert state.phase is Phase.PASSED_OUT and state.scores() == (0, 0, 0, 0)
    state = FourHandState(deal)
    state.push(Bid(first, 1))
    state.push(Bid((first + 1) % 4, 3))
    assert state.landlord == (first + 1) % 4 and state.card_counts[state.landlord] == 33
    assert state.turn == state.landlord
    with pytest.raises(IllegalAction) as info:
        state.push(Double((first + 2) % 4, True))
    assert info.value.code == "invalid_double"


def test_score_literal_cases() -> None:
    result = FourResult(
        landlord=1, bid=3, bombs=2, spring=False, anti_spring=False, winner="defenders"
    )
    assert score_four(result) == (12, -36, 12, 12)
    result = FourResult(
        landlord=3, bid=2, bombs=1, spring=True, anti_spring=False, winner="landlord"
    )
    assert score_four(result) == (-8, -8, -8, 24)


# --- properties ----------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, max_size: int = 33) -> list[int]:
    picks = draw(st.lists(st.integers(0, 107), min_size=1, max_size=max_size, unique=True))
    return counts_of(TWO_PACKS[i] for i in picks)


@st.composite
def tops(draw: st.DrawFn) -> Any:
    """A play on the table: a random lead of another random hand."""
    plays = legal_plays_four(draw(hands()))
    return plays[draw(st.integers(0, len(plays) - 1))]


@settings(**SETTINGS)
@given(hand=hands(), top=st.one_of(st.none(), tops()))
def test_every_legal_play_is_held_is_a_combination_and_beats_the_top(
    hand: list[int], top: Any
) -> None:
    plays = legal_plays_four(hand, top)
    assert len({p.key for p in plays}) == len(plays), "each rank multiset once"
    for p in plays:
        assert all(n <= h for n, h in zip(counts_of(p.ranks), hand, strict=True))
        assert classify_four(counts_of(p.ranks)) == p
        assert top is None or beats_four(p, top)


@settings(**SETTINGS)
@given(hand=hands(max_size=9), top=st.one_of(st.none(), tops()))
def test_legal_plays_miss_nothing_on_small_hands(hand: list[int], top: Any) -> None:
    wanted = set()
    for sub in itertools.product(*(range(n + 1) for n in hand)):
        found = classify_four(sub)
        if found is not None and (top is None or beats_four(found, top)):
            wanted.add(key_of_counts(sub))
    assert {p.key for p in legal_plays_four(hand, top)} == wanted


@settings(**SETTINGS)
@given(hand=hands(), top=st.one_of(st.none(), tops()))
def test_legal_plays_match_the_reference_generator_in_order(hand: list[int], top: Any) -> None:
    """The cached generator lists the plays of the plain one (tests/rules/variant_reference.py),
    in the same order, on hands of up to 33 cards."""
    assert legal_plays_four(hand, top) == four_plays(hand, top)


@settings(**SETTINGS)
@given(hand=hands(), top=tops())
def test_answers_are_the_leads_that_beat_the_top(hand: list[int], top: Any) -> None:
    leads = legal_plays_four(hand)
    assert legal_plays_four(hand, top) == [p for p in leads if beats_four(p, top)]


SPRINGS = ("spring", "anti_spring")


@settings(**SETTINGS)
@given(
    landlord=st.integers(0, 3),
    bid=st.integers(1, 3),
    bombs=st.integers(0, 27),
    ending=st.sampled_from(["landlord", "defenders", "spring", "anti_spring"]),
)
def test_scores_are_zero_sum_over_four_seats(
    landlord: int, bid: int, bombs: int, ending: str
) -> None:
    winner = "landlord" if ending in ("landlord", "spring") else "defenders"
    result = FourResult(
        landlord=landlord,
        bid=bid,
        bombs=bombs,
        spring=ending == "spring",
        anti_spring=ending == "anti_spring",
        winner=winner,  # type: ignore[arg-type]
    )
    scores = score_four(result)
    assert len(scores) == 4 and sum(scores) == 0
    defenders = [s for seat, s in enumerate(scores) if seat != landlord]
    assert len(set(defenders)) == 1 and scores[landlord] == -3 * defenders[0]
    assert (scores[landlord] > 0) == (winner == "landlord")
    # each defender's stake, factor by factor, is the closed form of R11.1.8
    stakes = stake_breakdown_four(result)
    assert [s.seat for s in stakes] == [seat for seat in range(4) if seat != landlord]
    won = 1 if winner == "defenders" else -1
    for stake in stakes:
        assert stake.value == stake.product == bid * 2 ** (bombs + (ending in SPRINGS))
        assert scores[stake.seat] == won * stake.value


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_hands_replay_and_pop_back(seed: int) -> None:
    rng = random.Random(seed)
    deal = random_deal(seed)
    state = FourHandState(deal)
    start = state.summary()
    while not state.is_over:
        actions = state.legal_actions()
        plays = [a for a in actions if isinstance(a, PlayCards)]
        choice = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(actions)
        state.push(choice)
    summary = state.summary()
    assert summary["ok"] and summary["scores"] is not None and sum(summary["scores"]) == 0
    assert FourHandState.from_events(deal, state.to_events()).summary() == summary
    if state.phase is Phase.FINISHED:
        last = state.plays[-1][0]
        assert state.card_counts[last] == 0 and all(
            state.card_counts[s] > 0 for s in range(4) if s != last
        )
    while state.actions:
        state.pop()
    assert state.summary() == start


def test_a_trick_ends_after_three_passes() -> None:
    deal = random_deal(3)
    state = FourHandState(deal)
    state.push(Bid(deal.first_bidder, 3))
    leader = deal.first_bidder
    lead = min(legal_plays_four(counts(state.hand_text(leader))), key=lambda p: p.key)
    state.push(PlayCards(leader, lead.text()))
    for seat in ((leader + 1) % 4, (leader + 2) % 4):
        state.push(Pass(seat))
        assert state.top_play == lead
    state.push(Pass((leader + 3) % 4))
    assert state.top_play is None and state.turn == leader


def test_result_round_trips_through_its_json() -> None:
    result = FourResult(
        landlord=2, bid=3, bombs=4, spring=False, anti_spring=True, winner="defenders"
    )
    assert result.to_json() == {
        "landlord": 2,
        "bid": 3,
        "bombs": 4,
        "spring": False,
        "anti_spring": True,
        "winner": "defenders",
    }
    assert FourResult.from_json(result.to_json()) == result
