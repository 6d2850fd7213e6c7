"""Big Three (大三 / 挖坑, SPEC §12, PROTOCOL-big3) in the rules library: the kinds against an
independent reading of R12.8 / R12.9, whole hands played to the end (hypothesis), the auction
of R12.5, and the one design every game shares (one ``HandState``, one ``score_hand``)."""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import (
    BIG3,
    BIG3_ONE_ROUND,
    COMP2016,
    FIVE_P,
    FOUR_P,
    LAIZI,
    SIX_P,
    SIX_P_NO_KITTY,
    Bid,
    Big3Deal,
    Big3HandState,
    FiveHandState,
    FourHandState,
    HandState,
    IllegalAction,
    LaiziHandState,
    PlayCards,
    RuleProfile,
    SixHandState,
    legal_plays_big3,
    result_from_json,
    score_hand,
)
from referee.rules.cards import format_ranks, key_of, parse_ranks
from referee.rules.games import deal_json_from_seed, state_new, state_replayed

SETTINGS: dict[str, Any] = {
    "max_examples": 40,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}
#: R12.2, high to low 3 2 A K … 4: the order as written in SPEC, not as the library keeps it.
ORDER_TEXT = "456789TJQKA23"
PACK = [r for r in range(13) for _ in range(4)]


def _strength(rank: int) -> int:
    return ORDER_TEXT.index("3456789TJQKA2"[rank])


def reference_reading(ranks: list[int]) -> tuple[str, int, int] | None:
    """R12.8 read afresh: (kind, highest rank, length) or None. One rank: 1–4 cards; a run:
    the same number (1–4) of each of ≥ 3 consecutive ranks within 4…K, at most 20 cards."""
    if not ranks or len(ranks) > 20:
        return None
    counts = {r: ranks.count(r) for r in set(ranks)}
    widths = set(counts.values())
    if len(counts) == 1:
        ((rank, n),) = counts.items()
        return (("single", "pair", "trio", "quad")[n - 1], rank, 1) if n <= 4 else None
    if len(widths) != 1 or len(counts) < 3:
        return None
    width = widths.pop()
    low, high = min(counts), max(counts)
    if low < 1 or high > 10 or high - low + 1 != len(counts) or width > 4:  # 4 … K
        return None
    kind = ("straight", "pair_straight", "airplane", "quad_straight")[width - 1]
    return kind, high, len(counts)


def reference_beats(play: tuple[str, int, int], previous: tuple[str, int, int]) -> bool:
    """R12.9: same kind, same length, higher in the order 4 < … < A < 2 < 3."""
    return (
        play[0] == previous[0]
        and play[2] == previous[2]
        and _strength(play[1]) > _strength(previous[1])
    )


def sub_multisets(ranks: list[int]) -> list[list[int]]:
    counts = {r: ranks.count(r) for r in sorted(set(ranks))}
    out = []
    for chosen in product(*(range(n + 1) for n in counts.values())):
        out.append([r for r, n in zip(counts, chosen, strict=True) for _ in range(n)])
    return out


@settings(**SETTINGS)
@given(
    hand=st.lists(st.sampled_from(PACK), min_size=1, max_size=9),
    top=st.one_of(st.none(), st.lists(st.sampled_from(PACK), min_size=1, max_size=9)),
)
def test_legal_plays_are_every_sub_multiset_that_reads_and_beats(
    hand: list[int], top: list[int] | None
) -> None:
    hand = [r for r in hand if hand.count(r) <= 4] or [0]
    previous = None if top is None else reference_reading(top)
    top_play = None
    if top is not None and previous is not None:
        top_play = legal_plays_big3(key_of(top))
        top_play = next(p for p in top_play if p.key == key_of(top))
    wanted = set()
    for sub in sub_multisets(hand):
        reading = reference_reading(sub)
        if reading and (previous is None or reference_beats(reading, previous)):
            wanted.add(format_ranks(sub))
    got = [p.text() for p in legal_plays_big3(key_of(hand), top_play)]
    assert len(got) == len(set(got)), "each multiset once"
    assert set(got) == wanted


def test_every_play_of_a_full_hand_reads_as_the_reference_reads_it() -> None:
    everything = legal_plays_big3(key_of(PACK))
    assert len(everything) == len({p.key for p in everything})
    for play in everything:
        assert reference_reading(list(play.ranks)) == (play.kind.value, play.rank, play.length)
    assert not any(p.kind.value in ("bomb", "rocket") for p in everything)  # R12.9


def _random_hand(profile: RuleProfile, seed: int) -> Big3HandState:
    rng = random.Random(seed)
    state = state_new(profile, deal_json_from_seed(profile, seed))
    assert isinstance(state, Big3HandState)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return state


@settings(**SETTINGS)
@given(seed=st.integers(0, 10**6), profile=st.sampled_from([BIG3, BIG3_ONE_ROUND]))
def test_a_hand_played_to_the_end_scores_plus_minus_2b_and_replays(
    seed: int, profile: RuleProfile
) -> None:
    state = _random_hand(profile, seed)
    assert state.phase.value == "finished"  # R12.5.2: never passed out
    bid, digger = state.bid, state.landlord
    assert bid in (1, 2, 3) and digger is not None
    scores = state.scores()
    assert scores is not None and sum(scores) == 0  # R12.11.2
    sign = 1 if state.winner == "landlord" else -1
    assert scores[digger] == sign * 2 * bid
    assert all(scores[s] == -sign * bid for s in range(3) if s != digger)
    assert state.summary()["spring"] is False and state.bombs == 0 and state.rockets == 0
    again = state_replayed(profile, state.deal.to_json(), state.to_events())
    assert again.summary() == state.summary()
    first_play = next(a for a in state.actions if isinstance(a, PlayCards))
    assert first_play.seat == state.deal.first_bidder  # R12.7.1: the first bidder leads


@settings(**SETTINGS)
@given(seed=st.integers(0, 10**6), back=st.integers(1, 30))
def test_pop_gives_back_the_state_before(seed: int, back: int) -> None:
    state = _random_hand(BIG3, seed)
    events = state.to_events()
    back = min(back, len(events))
    for _ in range(back):
        state.pop()
    earlier = state_replayed(BIG3, state.deal.to_json(), events[: len(events) - back])
    assert state.summary() == earlier.summary() and state.turn == earlier.turn
    assert state.card_counts == earlier.card_counts


def _deal() -> Big3Deal:
    return Big3Deal.from_json(deal_json_from_seed(BIG3, 3))


def test_big3_opening_pass_is_refused_and_a_passed_seat_may_bid_again() -> None:
    deal = _deal()
    first = deal.first_bidder
    state = Big3HandState(deal, BIG3)
    with pytest.raises(IllegalAction) as refused:
        state.push(Bid(first, 0))
    assert refused.value.code == "invalid_bid"  # R12.5.1: the opening bid is compulsory
    state.push(Bid(first, 1))
    state.push(Bid((first + 1) % 3, 0))
    state.push(Bid((first + 2) % 3, 2))
    state.push(Bid(first, 0))
    state.push(Bid((first + 1) % 3, 3))  # Q-B3: re-entry after a pass
    assert state.landlord == (first + 1) % 3 and state.bid == 3
    assert state.turn == first  # R12.7.1: the first bidder leads, not the digger
    assert state.card_counts[(first + 1) % 3] == 20 and not state.kitty_revealed  # R12.6


def test_one_round_all_pass_makes_the_first_bidder_dig_at_one() -> None:
    deal = _deal()
    first = deal.first_bidder
    state = Big3HandState(deal, BIG3_ONE_ROUND)
    for step in range(3):
        state.push(Bid((first + step) % 3, 0))
    assert (state.landlord, state.bid, state.phase.value) == (first, 1, "playing")  # 烂挖


def test_a_seeded_deal_names_its_first_bidder_by_the_lowest_heart() -> None:
    for seed in range(30):
        data = deal_json_from_seed(BIG3, seed)
        deal = Big3Deal.from_json(data)  # hearts checked against first_bidder (R12.4)
        lowest = next(
            seat
            for rank in (parse_ranks(ch)[0] for ch in ORDER_TEXT[:5])  # ♥4 … ♥8, R12.4.1
            for seat in range(3)
            if rank in parse_ranks(data["hearts"][seat])
        )
        assert deal.first_bidder == lowest


# --- one design ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "state_class", [FourHandState, LaiziHandState, Big3HandState, SixHandState, FiveHandState]
)
def test_every_game_is_a_hand_state(state_class: type[HandState]) -> None:
    assert issubclass(state_class, HandState)


@pytest.mark.parametrize(
    "profile", [COMP2016, FOUR_P, LAIZI, BIG3, BIG3_ONE_ROUND, SIX_P, SIX_P_NO_KITTY, FIVE_P]
)
def test_the_one_scoring_entry_point_scores_what_the_hand_state_scores(
    profile: RuleProfile,
) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        data = deal_json_from_seed(profile, seed)
        state = state_new(profile, data)
        while not state.is_over:
            state.push(rng.choice(state.legal_actions()))
        if state.phase.value == "passed_out":
            assert state.scores() == (0,) * profile.seats
            continue
        summary = state.summary()
        fields = {k: summary[k] for k in ("landlord", "winner", "bombs", "rockets")}
        fields["bid"] = summary.get("bid", 1)  # six_p: no auction, the base is 1 (R13.3)
        if "partner" in summary:  # six_p: the landlord's side (R13.4)
            fields["partner"] = summary["partner"]
        fields |= {"spring": summary["spring"], "anti_spring": summary["anti_spring"]}
        fields["doubled"] = [d is True for d in state.doubled]
        fields["redoubled"] = state.redoubled is True
        if profile.wild_cards:
            fields |= {f"{k}_bombs": summary[f"{k}_bombs"] for k in ("soft", "hard", "pure_wild")}
            del fields["bombs"]
        scores = score_hand(result_from_json(fields, profile), profile)
        assert scores == state.scores() and len(scores) == profile.seats
