"""Physical-cards mode (referee.rules.physical): every check that needs no deal."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import (
    CLASSIC,
    COMP2016,
    DealResult,
    IllegalAction,
    PhysicalHandState,
    RuleProfile,
    RulesError,
    check_deal,
    deal_from_seed,
    get_profile,
)
from referee.rules.actions import Action, DeclaredPlay, Pass, PlayCards, action_from_json
from referee.rules.cards import format_cards
from referee.rules.four_hand import FourDeal
from referee.rules.games import deal_json_from_seed, state_new, state_replayed
from referee.rules.hand import HandState, Phase
from referee.rules.laizi import parse_wild
from referee.rules.physical import deal_written_in
from tests.play import random_hand_actions


def playing(landlord: int = 0) -> PhysicalHandState:
    """Seat ``landlord`` bid 3 and nobody doubled: the landlord leads."""
    state = PhysicalHandState(first_bidder=landlord)
    state.push(state.legal_actions()[-1])
    while state.phase.value == "doubling":
        state.push(state.legal_actions()[-1])
    assert state.phase.value == "playing" and state.turn == landlord
    return state


def rejected(state: PhysicalHandState, action: dict[str, object]) -> str:
    before = (state.to_events(), state.card_counts, state.turn)
    with pytest.raises(IllegalAction) as excinfo:
        state.from_events(state.first_bidder, [*state.to_events(), action])
    assert (state.to_events(), state.card_counts, state.turn) == before
    return excinfo.value.code


def test_the_landlord_holds_twenty_cards() -> None:
    state = playing()
    assert state.card_counts == (20, 17, 17)


def test_no_seat_plays_more_cards_than_it_holds() -> None:
    state = playing()
    for action in ({"seat": 0, "play": "3456789TJQKA"}, {"seat": 1, "play": "pass"}):
        state.push(action_from_json(action))
    state.push(action_from_json({"seat": 2, "play": "pass"}))
    assert state.card_counts == (8, 17, 17) and state.turn == 0
    assert rejected(state, {"seat": 0, "play": "3456789TJQKA"}) == "not_held"


def test_r1_7_no_rank_beyond_four_copies_and_each_joker_once() -> None:
    state = playing()
    state.push(action_from_json({"seat": 0, "play": "3333"}))
    state.push(action_from_json({"seat": 1, "play": "XD"}))
    state.push(action_from_json({"seat": 2, "play": "pass"}))
    state.push(action_from_json({"seat": 0, "play": "pass"}))
    assert state.turn == 1 and state.rockets == 1 and state.bombs == 1
    assert rejected(state, {"seat": 1, "play": "3"}) == "not_held"
    assert rejected(state, {"seat": 1, "play": "X"}) == "not_held"


def test_the_same_physical_card_is_played_once() -> None:
    state = playing()
    state.push(action_from_json({"seat": 0, "play": "♠3"}))
    state.push(action_from_json({"seat": 1, "play": "♠4"}))
    state.push(action_from_json({"seat": 2, "play": "♠5"}))
    assert rejected(state, {"seat": 0, "play": "♠5"}) == "not_held"
    assert rejected(state, {"seat": 0, "play": "♥4"}) == "does_not_beat"


def test_combination_turn_and_lead_are_checked() -> None:
    state = playing()
    assert rejected(state, {"seat": 1, "play": "3"}) == "out_of_turn"
    assert rejected(state, {"seat": 0, "play": "pass"}) == "lead_pass"
    assert rejected(state, {"seat": 0, "play": "34"}) == "invalid_combination"
    assert rejected(state, {"seat": 0, "bid": 1}) == "invalid_bid"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), play_seed=st.integers(0, 100_000))
def test_a_legal_hand_is_legal_without_its_deal_and_scores_the_same(
    seed: int, play_seed: int
) -> None:
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed, bid_first=False)
    physical = PhysicalHandState.from_events(deal.first_bidder, actions)
    dealt = HandState.from_events(deal, actions)
    assert physical.phase == dealt.phase
    assert physical.scores() == dealt.scores()
    assert physical.result() == dealt.result()
    assert check_deal(deal, actions) is None


def test_check_deal_names_the_first_action_the_deal_forbids() -> None:
    deal = deal_from_seed(1)
    actions = random_hand_actions(deal, seed=1)
    other = deal_from_seed(2, first_bidder=deal.first_bidder)
    error = check_deal(other, actions)
    assert error is not None and error.code == "not_held"
    assert error.index is not None and actions[error.index].get("play")


# --- the play phase is HandState's own: both states decide every play alike -------------------


def _seen(state: HandState | PhysicalHandState) -> dict[str, object]:
    """What both states show: everything the play phase decides."""
    top = state.top_play
    return {
        "phase": state.phase,
        "turn": state.turn,
        "top": None if top is None else (state.top_seat, top),
        "card_counts": state.card_counts,
        "plays": [(p.seat, p.play) for p in state.plays],
        "bombs": state.bombs,
        "rockets": state.rockets,
        "announcements": state.announcements,
        "winner": state.winner,
        "spring": state.spring,
        "anti_spring": state.anti_spring,
        "result": state.result(),
        "scores": state.scores(),
        "events": state.to_events(),
    }


def _decision(state: HandState | PhysicalHandState, action: Action) -> str:
    """``accepted`` or the refusal's code; the state is left as it was."""
    try:
        state.push(action)
    except RulesError as exc:
        return exc.code
    state.pop()
    return "accepted"


def _attempts(dealt: HandState, rng: random.Random) -> list[Action]:
    """Plays to try now: cards the seat on turn really holds (so the cards seen never tell
    them apart), some legal, most not; a pass; and a play out of turn."""
    turn = dealt.turn
    assert turn is not None
    held = list(dealt.hand_of(turn))
    tries: list[Action] = [Pass(turn), PlayCards((turn + 1) % 3, format_cards(held[:1]))]
    for _ in range(6):
        cards = rng.sample(held, rng.randint(1, min(len(held), 6)))
        tries.append(PlayCards(turn, format_cards(cards)))
    return tries


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    play_seed=st.integers(0, 100_000),
    profile=st.sampled_from([COMP2016, CLASSIC]),
)
def test_both_states_decide_every_play_alike_with_the_dealt_cards(
    seed: int, play_seed: int, profile: RuleProfile
) -> None:
    deal = deal_from_seed(seed)
    rng = random.Random(play_seed)
    dealt = HandState(deal, profile)
    physical = PhysicalHandState(deal.first_bidder, profile)
    while not dealt.is_over:
        if dealt.phase is Phase.PLAYING:
            for attempt in _attempts(dealt, rng):
                assert _decision(physical, attempt) == _decision(dealt, attempt), attempt
        action = rng.choice(dealt.legal_actions())
        dealt.push(action)
        physical.push(action)
        assert _seen(physical) == _seen(dealt)
    assert physical.is_over and physical.legal_actions() == []


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 100_000), play_seed=st.integers(0, 100_000))
def test_pop_takes_a_physical_hand_back_to_its_start(seed: int, play_seed: int) -> None:
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed)
    state = PhysicalHandState.from_events(deal.first_bidder, actions)
    fresh = PhysicalHandState(deal.first_bidder)
    while state.actions:
        state.pop()
    assert _seen(state) == _seen(fresh)
    assert state.card_counts == (17, 17, 17) and state.turn == deal.first_bidder


def test_r5_3_two_passes_end_the_trick_and_its_winner_leads() -> None:
    state = playing(landlord=1)
    for action in ({"seat": 1, "play": "♠9"}, {"seat": 2, "play": "pass"}):
        state.push(action_from_json(action))
    assert state.top_seat == 1 and state.turn == 0
    state.push(action_from_json({"seat": 0, "play": "pass"}))
    assert state.top_play is None and state.top_seat is None and state.turn == 1
    assert state.legal_actions() == []


def test_r5_5_r6_1_r7_2_the_landlord_goes_out_in_a_spring() -> None:
    state = playing()
    plays = ["3456789TJQKA", "3", "4", "5", "6", "7", "8", "9", "T"]
    for index, cards in enumerate(plays):
        state.push(action_from_json({"seat": 0, "play": cards}))
        if index < len(plays) - 1:
            state.push(action_from_json({"seat": 1, "play": "pass"}))
            state.push(action_from_json({"seat": 2, "play": "pass"}))
    assert state.phase is Phase.FINISHED and state.winner == "landlord"
    assert [(a.seat, a.cards_left) for a in state.announcements] == [(0, 2), (0, 1)]
    assert state.spring and not state.anti_spring
    assert state.result() == DealResult(
        0, 3, (False, False, False), False, 0, 0, True, False, "landlord"
    )
    assert state.scores() == (12, -6, -6)


# --- laizi (R11.2): the wild rank typed in once drawn --------------------------------------


def test_r11_2_1_no_laizi_card_is_played_before_the_wild_rank_is_typed_in() -> None:
    laizi = get_profile("laizi")
    state = PhysicalHandState(0, laizi)
    state.push(action_from_json({"seat": 0, "bid": 3}))
    while state.phase is Phase.DOUBLING:
        state.push(state.legal_actions()[-1])
    assert state.phase is Phase.PLAYING and state.wild is None
    before = state.to_events()
    with pytest.raises(IllegalAction) as excinfo:
        state.push(PlayCards(0, "33"))
    assert excinfo.value.code == "phase" and "R11.2.1" in excinfo.value.message
    assert state.to_events() == before
    drawn = PhysicalHandState.from_events(0, before, laizi, wild=4)  # 7 is wild
    drawn.push(DeclaredPlay(0, "5557", "5555"))
    assert drawn.bomb_classes == {"soft": 1, "hard": 0, "pure_wild": 0}
    assert drawn.top_play is not None and drawn.top_play.text() == "5555"


def test_a_laizi_wild_card_is_a_card_of_the_pack_like_any_other() -> None:
    laizi = get_profile("laizi")
    state = PhysicalHandState(0, laizi, wild=4)
    state.push(action_from_json({"seat": 0, "bid": 3}))
    while state.phase is Phase.DOUBLING:
        state.push(state.legal_actions()[-1])
    state.push(DeclaredPlay(0, "7777", "7777"))  # four wild cards: a pure-wild bomb
    for seat in (1, 2):
        state.push(Pass(seat))
    with pytest.raises(IllegalAction) as excinfo:
        state.push(PlayCards(0, "7"))  # a fifth 7: one pack has four
    assert excinfo.value.code == "not_held"


def test_the_wild_rank_belongs_to_laizi_only() -> None:
    with pytest.raises(ValueError, match="no wild cards"):
        PhysicalHandState(0, COMP2016, wild=4)
    assert PhysicalHandState(0, COMP2016).wild is None
    assert PhysicalHandState(0, COMP2016).bomb_classes is None


# --- both variants ------------------------------------------------------------------------------


def _variant_hand(
    key: str, seed: int, play_seed: int
) -> tuple[dict[str, object], list[dict[str, object]]]:
    """A deal of profile ``key`` (a laizi deal with its wild rank) and the JSON log of one
    random hand played on it."""
    profile = get_profile(key)
    data = deal_json_from_seed(profile, seed)
    state = state_new(profile, data)
    rng = random.Random(play_seed)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return data, state.to_events()


@settings(max_examples=30, deadline=None)
@given(
    key=st.sampled_from(["four_p", "laizi"]),
    seed=st.integers(0, 100_000),
    play_seed=st.integers(0, 100_000),
)
def test_a_variant_hand_is_legal_without_its_deal_and_scores_the_same(
    key: str, seed: int, play_seed: int
) -> None:
    """four_p and laizi: the log of a dealt hand is legal from physical cards (the laizi
    wild rank typed in), with the same plays, counts, bombs by class and scores; the deal
    written in afterwards fits it; the accepted replay and ``pop`` agree."""
    profile = get_profile(key)
    data, actions = _variant_hand(key, seed, play_seed)
    wild = parse_wild(data["wild"]) if "wild" in data else None
    first = int(str(data["first_bidder"]))
    physical = PhysicalHandState.from_events(first, actions, profile, wild=wild)
    dealt = state_replayed(profile, data, actions)
    assert physical.phase == dealt.phase and physical.scores() == dealt.scores()
    assert physical.card_counts == dealt.card_counts and physical.winner == dealt.winner
    assert [p.play for p in physical.plays] == [p[1] for p in dealt.plays]
    assert physical.wild == getattr(dealt, "wild", None)
    assert physical.bomb_classes == getattr(dealt, "bomb_classes", None)
    written = deal_written_in(profile, data)
    assert check_deal(written, actions, profile, wild=wild) is None
    replayed = PhysicalHandState.replay(first, actions, profile, wild=wild)
    assert replayed.scores() == physical.scores() and replayed.to_events() == actions
    while physical.actions:
        physical.pop()
    fresh = PhysicalHandState(first, profile, wild=wild)
    assert physical.card_counts == fresh.card_counts and physical.turn == first


# --- four_p (R11.1): two packs, four seats ----------------------------------------------------


def _four_playing() -> PhysicalHandState:
    """four_p, physical cards: seat 0 bid 3 and leads with 33 cards."""
    state = PhysicalHandState(0, get_profile("four_p"))
    state.push(action_from_json({"seat": 0, "bid": 3}))
    assert state.phase is Phase.PLAYING and state.card_counts == (33, 25, 25, 25)
    return state


def _passes(state: PhysicalHandState, *seats: int) -> None:
    for seat in seats:
        state.push(Pass(seat))


def test_r11_1_two_packs_hold_eight_of_a_rank_two_of_each_card_and_two_of_each_joker() -> None:
    state = _four_playing()
    state.push(PlayCards(0, "33333333"))  # an eight-card bomb of two packs
    _passes(state, 1, 2, 3)
    with pytest.raises(IllegalAction) as ninth:
        state.push(PlayCards(0, "3"))
    assert ninth.value.code == "not_held"
    state.push(PlayCards(0, "♠4"))
    _passes(state, 1, 2, 3)
    state.push(PlayCards(0, "♠4"))  # the other pack's ♠4
    _passes(state, 1, 2, 3)
    with pytest.raises(IllegalAction) as third:
        state.push(PlayCards(0, "♠4"))
    assert third.value.code == "not_held" and "two of each card" in third.value.message
    state.push(PlayCards(0, "XXDD"))  # the four jokers, a bomb of four_p
    _passes(state, 1, 2, 3)
    with pytest.raises(IllegalAction) as joker:
        state.push(PlayCards(0, "X"))
    assert joker.value.code == "not_held"
    assert state.bombs == 2


def test_a_four_p_seat_plays_no_more_than_it_holds_and_turns_go_round_four() -> None:
    state = _four_playing()
    state.push(PlayCards(0, "3456789TJQKA"))
    assert state.turn == 1
    _passes(state, 1, 2)
    assert state.turn == 3 and state.top_seat == 0  # three passes end a trick
    state.push(Pass(3))
    assert state.turn == 0 and state.top_play is None
    with pytest.raises(IllegalAction) as seat_four:
        state.push(PlayCards(4, "5"))
    assert seat_four.value.code == "out_of_turn"
    state.push(PlayCards(0, "3456789TJQKA"))
    _passes(state, 1, 2, 3)
    with pytest.raises(IllegalAction) as more:
        state.push(PlayCards(0, "3456789TJQ"))  # 9 cards left, not 10
    assert more.value.code == "not_held"


def test_a_four_p_deal_written_in_names_the_first_action_it_forbids() -> None:
    four = get_profile("four_p")
    data, actions = _variant_hand("four_p", 1, 1)
    other = deal_json_from_seed(four, 2, first_bidder=int(str(data["first_bidder"])))
    played = [a for a in actions if a.get("play") not in (None, "pass")]
    assert played
    error = check_deal(FourDeal.from_json(other), actions, four)
    assert error is not None and error.code == "not_held"
    assert deal_written_in(four, other) == FourDeal.from_json(other)
    laizi = get_profile("laizi")
    assert deal_written_in(laizi, {**deal_from_seed(3).to_json(), "wild": "7"}) == deal_from_seed(3)
