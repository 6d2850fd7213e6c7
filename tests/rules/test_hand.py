"""One hand, event by event, through ``HandState`` (SPEC §2–§7, R9.1)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules import (
    CLASSIC,
    COMP2016,
    Action,
    Bid,
    Deal,
    Double,
    HandState,
    IllegalAction,
    NotationError,
    Pass,
    Phase,
    PlayCards,
    Redouble,
    RuleProfile,
    RulesError,
    deal_from_seed,
)
from tests.rules.helpers import build_deal, snapshot
from tests.rules.reference import ref_score

STRICT = dataclasses.replace(COMP2016, key="strict-order", doubling_order="next_defender_first")
EARLY_KITTY = dataclasses.replace(COMP2016, key="early-kitty", kitty_reveal="before_doubling")

# Seat 0 (landlord) ends up with 333444555666+789T, JJ, Q, K; seat 1 with 3456 777888999TTT J;
# seat 2 with J QQQ KKK AAAA 2222 X D.
SPRING_DEAL = build_deal({0: "333444555666789TJJQK"})
AIRPLANE = "333444555666789T"


def state_at_play(
    deal: Deal,
    profile: RuleProfile = COMP2016,
    *,
    bid: int = 3,
    doubles: tuple[bool, bool] = (False, False),
    redouble: bool | None = None,
) -> HandState:
    """The first bidder bids ``bid``, the others pass, then the doubling declarations
    (D1 then D2, then the landlord's redouble when somebody doubled)."""
    state = HandState(deal, profile)
    landlord = deal.first_bidder
    state.push(Bid(landlord, bid))
    if bid < 3:
        state.push(Bid((landlord + 1) % 3, 0))
        state.push(Bid((landlord + 2) % 3, 0))
    if profile.has_doubling:
        state.push(Double((landlord + 1) % 3, doubles[0]))
        state.push(Double((landlord + 2) % 3, doubles[1]))
        if any(doubles):
            state.push(Redouble(landlord, bool(redouble)))
    assert state.phase is Phase.PLAYING
    return state


def push_all(state: HandState, actions: list[Action]) -> None:
    for action in actions:
        state.push(action)


def rejects(state: HandState, action: Action, code: str) -> None:
    """The action is refused with ``code`` and the state does not change (R9.1)."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.push(action)
    assert info.value.code == code, info.value
    assert snapshot(state) == before


def lead_then_two_passes(state: HandState, seat: int, cards: str) -> None:
    state.push(PlayCards(seat, cards))
    if not state.is_over:
        state.push(Pass((seat + 1) % 3))
        state.push(Pass((seat + 2) % 3))


# --- §3 auction ---------------------------------------------------------------------------------


def test_r3_1_a_bid_must_be_higher_and_0_to_3() -> None:
    state = HandState(SPRING_DEAL)
    state.push(Bid(0, 2))
    rejects(state, Bid(1, 2), "invalid_bid")
    rejects(state, Bid(1, 1), "invalid_bid")
    rejects(state, Bid(1, 4), "invalid_bid")
    rejects(state, Bid(1, -1), "invalid_bid")
    state.push(Bid(1, 3))
    assert (state.phase, state.landlord, state.bid) == (Phase.DOUBLING, 1, 3)


def test_r3_1_a_bid_of_3_closes_the_auction_at_once() -> None:
    for profile in (COMP2016, CLASSIC):
        state = HandState(SPRING_DEAL, profile)
        state.push(Bid(0, 0))
        state.push(Bid(1, 3))
        assert state.landlord == 1 and state.bid == 3
        assert state.phase is (Phase.DOUBLING if profile.has_doubling else Phase.PLAYING)
        rejects(state, Bid(2, 0), "invalid_bid")


def test_r3_2_comp2016_one_round_each_seat_acts_once() -> None:
    state = HandState(SPRING_DEAL)
    push_all(state, [Bid(0, 0), Bid(1, 1), Bid(2, 0)])
    assert (state.phase, state.landlord, state.bid) == (Phase.DOUBLING, 1, 1)
    rejects(state, Bid(0, 2), "invalid_bid")  # seat 0 passed: he cannot bid later


def test_r3_2_comp2016_highest_of_three_bids_wins() -> None:
    state = HandState(build_deal({}, landlord=0, first_bidder=2))
    push_all(state, [Bid(2, 1), Bid(0, 2), Bid(1, 0)])
    assert (state.landlord, state.bid) == (0, 2)


def test_r3_3_classic_until_two_passes_with_re_entry() -> None:
    # SPEC R3.3 example: A passes, B bids 1, C passes, A bids 2, B passes, C passes.
    state = HandState(SPRING_DEAL, CLASSIC)
    push_all(state, [Bid(0, 0), Bid(1, 1), Bid(2, 0), Bid(0, 2), Bid(1, 0)])
    assert state.phase is Phase.BIDDING and state.turn == 2
    state.push(Bid(2, 0))
    assert (state.phase, state.landlord, state.bid) == (Phase.PLAYING, 0, 2)


def test_r3_3_comp2016_closes_the_same_sequence_after_one_round() -> None:
    state = HandState(SPRING_DEAL, COMP2016)
    push_all(state, [Bid(0, 0), Bid(1, 1), Bid(2, 0)])
    assert state.landlord == 1
    rejects(state, Bid(0, 2), "invalid_bid")


def test_r3_3_classic_a_bid_followed_by_two_passes_closes() -> None:
    state = HandState(SPRING_DEAL, CLASSIC)
    push_all(state, [Bid(0, 1), Bid(1, 0), Bid(2, 0)])
    assert (state.phase, state.landlord, state.bid) == (Phase.PLAYING, 0, 1)


@pytest.mark.parametrize("profile", [COMP2016, CLASSIC], ids=["comp2016", "classic"])
def test_r2_4_nobody_bids_passed_out_scores_zero(profile: RuleProfile) -> None:
    state = HandState(SPRING_DEAL, profile)
    push_all(state, [Bid(0, 0), Bid(1, 0), Bid(2, 0)])
    assert state.phase is Phase.PASSED_OUT and state.is_over
    assert state.landlord is None and state.bid is None and state.winner is None
    assert state.scores() == (0, 0, 0)
    assert state.legal_actions() == []
    assert state.turn is None
    rejects(state, Bid(0, 1), "phase")
    rejects(state, PlayCards(0, "3"), "phase")


@pytest.mark.parametrize(
    ("all_pass", "expected"),
    [("redeal_advance_first_bidder", 1), ("redeal", 0), ("score_zero", None)],
)
def test_r2_4_who_bids_first_on_the_redeal(all_pass: str, expected: int | None) -> None:
    profile = dataclasses.replace(COMP2016, all_pass=all_pass)
    state = HandState(SPRING_DEAL, profile)
    assert SPRING_DEAL.first_bidder == 0
    assert state.redeal_first_bidder is None  # not passed out (yet)
    push_all(state, [Bid(0, 0), Bid(1, 0), Bid(2, 0)])
    assert state.redeal_first_bidder == expected
    played = HandState(SPRING_DEAL, profile)
    push_all(played, [Bid(0, 1), Bid(1, 0), Bid(2, 0)])
    assert played.redeal_first_bidder is None  # a landlord: no redeal


def test_r3_7_bid_out_of_turn() -> None:
    state = HandState(SPRING_DEAL)
    rejects(state, Bid(1, 1), "out_of_turn")
    rejects(state, Bid(2, 0), "out_of_turn")


# --- §4 doubling --------------------------------------------------------------------------------


def after_bid(profile: RuleProfile = COMP2016) -> HandState:
    state = HandState(SPRING_DEAL, profile)
    state.push(Bid(0, 3))
    return state


def test_r4_1_each_defender_declares_once_then_the_landlord() -> None:
    state = after_bid()
    assert state.phase is Phase.DOUBLING
    state.push(Double(1, True))
    rejects(state, Double(1, False), "invalid_double")  # a second declaration
    rejects(state, Redouble(0, True), "invalid_double")  # before both declared
    state.push(Double(2, False))
    assert state.phase is Phase.DOUBLING and state.turn == 0
    rejects(state, Redouble(1, True), "invalid_double")  # a defender never redoubles
    state.push(Redouble(0, True))
    assert state.phase is Phase.PLAYING and state.turn == 0
    assert state.doubled == (None, True, False) and state.redoubled is True
    rejects(state, Redouble(0, True), "invalid_double")  # a second redouble
    rejects(state, Double(2, True), "invalid_double")  # after the doubling phase


def test_r4_1_the_landlord_does_not_double() -> None:
    rejects(after_bid(), Double(0, True), "invalid_double")


def test_r4_1_no_double_before_the_landlord_is_known() -> None:
    state = HandState(SPRING_DEAL)
    rejects(state, Double(1, True), "invalid_double")
    rejects(state, Redouble(0, True), "invalid_double")


def test_r4_3_no_redouble_when_nobody_doubled() -> None:
    state = after_bid()
    push_all(state, [Double(1, False), Double(2, False)])
    assert state.phase is Phase.PLAYING, "nobody doubled: play starts at once"
    rejects(state, Redouble(0, True), "invalid_double")


def test_r4_4_defenders_declare_in_either_order() -> None:
    state = after_bid()
    assert {a.seat for a in state.legal_actions()} == {1, 2}
    state.push(Double(2, True))
    state.push(Double(1, False))
    assert state.doubled == (None, False, True) and state.turn == 0


def test_r4_4_strict_order_next_defender_first() -> None:
    state = after_bid(STRICT)
    assert state.turn == 1
    assert set(state.legal_actions()) == {Double(1, True), Double(1, False)}
    rejects(state, Double(2, True), "out_of_turn")
    state.push(Double(1, False))
    assert set(state.legal_actions()) == {Double(2, True), Double(2, False)}
    state.push(Double(2, True))
    assert set(state.legal_actions()) == {Redouble(0, True), Redouble(0, False)}


def test_r4_no_doubling_in_classic() -> None:
    state = HandState(SPRING_DEAL, CLASSIC)
    state.push(Bid(0, 3))
    assert state.phase is Phase.PLAYING
    rejects(state, Double(1, True), "invalid_double")
    rejects(state, Redouble(0, True), "invalid_double")


def test_r9_1_bid_or_play_during_doubling() -> None:
    state = after_bid()
    rejects(state, Bid(1, 0), "invalid_bid")
    rejects(state, PlayCards(0, "3"), "phase")
    rejects(state, Pass(0), "phase")


@pytest.mark.parametrize(
    ("doubles", "redouble"),
    [
        ((False, False), None),
        ((True, False), False),
        ((True, False), True),
        ((True, True), True),
        ((False, True), True),
    ],
)
def test_r4_2_doubles_reach_the_score_of_that_defender_only(
    doubles: tuple[bool, bool], redouble: bool | None
) -> None:
    state = state_at_play(SPRING_DEAL, doubles=doubles, redouble=redouble)
    for cards in (AIRPLANE, "Q", "K", "JJ"):
        lead_then_two_passes(state, 0, cards)
    assert state.phase is Phase.FINISHED and state.spring
    expected = ref_score(
        landlord=0,
        bid=3,
        doubled=(False, *doubles),
        redoubled=bool(redouble),
        bombs=0,
        rockets=0,
        spring=True,
        anti_spring=False,
        winner="landlord",
    )
    assert list(state.scores() or ()) == expected
    assert sum(expected) == 0


# --- R2.5 / R4.5 kitty --------------------------------------------------------------------------


def test_r2_5_comp2016_kitty_taken_after_doubling() -> None:
    state = after_bid()
    assert not state.kitty_revealed
    assert state.card_counts == (17, 17, 17) and len(state.hand_of(0)) == 17
    push_all(state, [Double(1, True), Double(2, False)])
    assert not state.kitty_revealed, "the redouble is still pending"
    state.push(Redouble(0, False))
    assert state.kitty_revealed
    assert state.card_counts == (20, 17, 17)
    assert sorted(state.hand_of(0), key=str) == sorted(
        SPRING_DEAL.hands[0] + SPRING_DEAL.kitty, key=str
    )


def test_r4_5_kitty_before_doubling_switch() -> None:
    state = after_bid(EARLY_KITTY)
    assert state.phase is Phase.DOUBLING
    assert state.kitty_revealed and state.card_counts == (20, 17, 17)
    push_all(state, [Double(1, False), Double(2, False)])
    assert state.card_counts == (20, 17, 17), "the kitty is taken once"


def test_r2_5_classic_kitty_taken_before_play() -> None:
    state = HandState(SPRING_DEAL, CLASSIC)
    push_all(state, [Bid(0, 1), Bid(1, 0)])
    assert not state.kitty_revealed and state.card_counts == (17, 17, 17)
    state.push(Bid(2, 0))
    assert state.kitty_revealed and state.card_counts == (20, 17, 17)


# --- §5.1 turns ---------------------------------------------------------------------------------


def test_r5_1_the_landlord_leads_and_play_goes_seat_plus_one() -> None:
    deal = build_deal({1: "3333444455556666789T"}, landlord=1)
    state = state_at_play(deal)
    assert state.turn == 1 and state.top_play is None
    rejects(state, PlayCards(2, "3"), "out_of_turn")
    state.push(PlayCards(1, "3"))
    assert state.turn == 2
    rejects(state, PlayCards(0, "4"), "out_of_turn")


def test_r5_2_the_leader_cannot_pass_and_followers_must_beat() -> None:
    state = state_at_play(SPRING_DEAL)
    rejects(state, Pass(0), "lead_pass")
    assert not any(isinstance(a, Pass) for a in state.legal_actions())
    state.push(PlayCards(0, "T"))
    assert Pass(1) in state.legal_actions()
    rejects(state, PlayCards(1, "9"), "does_not_beat")
    rejects(state, PlayCards(1, "T"), "does_not_beat")
    rejects(state, PlayCards(1, "77"), "does_not_beat")
    rejects(state, PlayCards(1, "78"), "invalid_combination")
    rejects(state, PlayCards(1, "Q"), "not_held")
    state.push(PlayCards(1, "J"))
    assert state.top_play is not None and state.top_play.text() == "J"


def test_r5_3_two_passes_end_the_trick_and_its_winner_leads() -> None:
    state = state_at_play(SPRING_DEAL)
    push_all(state, [PlayCards(0, "T"), PlayCards(1, "J"), Pass(2), Pass(0)])
    assert state.top_play is None and state.turn == 1
    assert not any(isinstance(a, Pass) for a in state.legal_actions())
    state.push(PlayCards(1, "777888+34"))  # a free choice of kind
    assert state.top_play is not None and state.top_play.kind.value == "airplane_singles"


def test_r5_4_a_pass_does_not_bar_a_later_play_in_the_same_trick() -> None:
    deal = build_deal({0: "39J", 1: "468TQA", 2: "8"})
    state = state_at_play(deal)
    push_all(state, [PlayCards(0, "3"), Pass(1), PlayCards(2, "8"), PlayCards(0, "9")])
    state.push(PlayCards(1, "T"))  # seat 1 passed earlier in this trick
    assert state.top_seat == 1
    push_all(state, [Pass(2), PlayCards(0, "J"), Pass(1), Pass(2)])
    assert state.top_play is None and state.turn == 0


def test_r5_5_the_hand_ends_when_a_player_plays_his_last_card() -> None:
    state = state_at_play(SPRING_DEAL)
    for cards in (AIRPLANE, "Q", "K"):
        lead_then_two_passes(state, 0, cards)
    assert state.phase is Phase.PLAYING
    state.push(PlayCards(0, "JJ"))
    assert state.phase is Phase.FINISHED and state.winner == "landlord"
    assert state.card_counts[0] == 0 and state.turn is None
    assert state.legal_actions() == []
    rejects(state, Pass(1), "phase")
    rejects(state, PlayCards(1, "3"), "phase")


# --- R5.24 bombs --------------------------------------------------------------------------------


def test_r5_24_four_with_kickers_is_not_counted_as_a_bomb() -> None:
    deal = build_deal({0: "888834TTTJJJQQQ569AA"})
    state = state_at_play(deal)
    for cards in ("888834", "TTTJJJQQQ569"):
        lead_then_two_passes(state, 0, cards)
    state.push(PlayCards(0, "AA"))
    assert state.phase is Phase.FINISHED and state.bombs == 0 and state.rockets == 0
    assert state.scores() == (12, -6, -6)  # bid 3, spring: 3 x 2^1 per defender


def test_r5_24_a_bomb_that_ends_the_hand_counts() -> None:
    deal = build_deal({0: AIRPLANE + "KKKK"})
    state = state_at_play(deal)
    lead_then_two_passes(state, 0, AIRPLANE)
    state.push(PlayCards(0, "KKKK"))
    assert state.phase is Phase.FINISHED and state.bombs == 1
    assert state.spring
    assert state.scores() == (24, -12, -12)  # SPEC R8.6 E3


def test_r5_24_bombs_and_rocket_played_by_anyone_count_once_each() -> None:
    state = state_at_play(SPRING_DEAL)
    push_all(state, [PlayCards(0, "T"), Pass(1), PlayCards(2, "2222")])
    assert state.bombs == 1
    push_all(state, [Pass(0), Pass(1), PlayCards(2, "XD")])
    assert (state.bombs, state.rockets) == (1, 1)
    push_all(state, [Pass(0), Pass(1), PlayCards(2, "AAAA")])
    assert state.bombs == 2


# --- §6 announcements ---------------------------------------------------------------------------


def _announced(state: HandState) -> list[tuple[int, int]]:
    return [(a.seat, a.cards_left) for a in state.announcements]


def test_r6_1_from_4_to_2_cards_announces_2() -> None:
    state = state_at_play(SPRING_DEAL)
    lead_then_two_passes(state, 0, AIRPLANE)
    assert state.card_counts[0] == 4 and _announced(state) == []
    state.push(PlayCards(0, "JJ"))
    assert _announced(state) == [(0, 2)]
    due = state.announcement_due
    assert due is not None and (due.seat, due.cards_left) == (0, 2)
    state.push(Pass(1))
    assert state.announcement_due is None
    state.push(Pass(2))
    state.push(PlayCards(0, "Q"))
    assert _announced(state) == [(0, 2), (0, 1)]


def test_r6_1_from_3_to_1_card_announces_1_only() -> None:
    state = state_at_play(SPRING_DEAL)
    lead_then_two_passes(state, 0, AIRPLANE)
    lead_then_two_passes(state, 0, "K")
    assert state.card_counts[0] == 3 and _announced(state) == []
    state.push(PlayCards(0, "JJ"))
    assert _announced(state) == [(0, 1)]


def test_r6_1_from_2_to_0_cards_announces_nothing() -> None:
    state = state_at_play(SPRING_DEAL)
    for cards in (AIRPLANE, "Q", "K"):
        lead_then_two_passes(state, 0, cards)
    assert _announced(state) == [(0, 2)]  # 3 -> 2 with the K
    state.push(PlayCards(0, "JJ"))
    assert state.is_over and _announced(state) == [(0, 2)]


# --- §7 spring, anti-spring ---------------------------------------------------------------------


def test_r7_2_spring_when_no_defender_played_a_card() -> None:
    state = state_at_play(SPRING_DEAL, bid=3)
    for cards in (AIRPLANE, "Q", "K", "JJ"):
        lead_then_two_passes(state, 0, cards)
    assert state.spring and not state.anti_spring
    assert state.scores() == (12, -6, -6)


def test_r7_2_no_spring_once_a_defender_played() -> None:
    state = state_at_play(SPRING_DEAL, bid=3)
    lead_then_two_passes(state, 0, AIRPLANE)
    push_all(state, [PlayCards(0, "Q"), Pass(1), PlayCards(2, "K"), Pass(0), Pass(1)])
    push_all(state, [PlayCards(2, "J"), PlayCards(0, "K"), Pass(1), Pass(2)])
    state.push(PlayCards(0, "JJ"))
    assert state.winner == "landlord" and not state.spring and not state.anti_spring
    assert state.scores() == (6, -3, -3)


ANTI_DEAL = build_deal({0: "3", 1: "2444555666777+89TJ"})


def test_r7_3_anti_spring_when_the_landlord_played_only_his_opening_lead() -> None:
    state = state_at_play(ANTI_DEAL, bid=1, doubles=(False, True), redouble=True)
    push_all(state, [PlayCards(0, "3"), PlayCards(1, "2"), Pass(2), Pass(0)])
    assert state.top_play is None and state.turn == 1
    state.push(PlayCards(1, "444555666777+89TJ"))
    assert state.winner == "defenders" and state.anti_spring and not state.spring
    # SPEC R4.7 row f with the anti-spring doubling: D1 1 x 2^1, D2 1 x 2^(1+1+1)
    assert state.scores() == (-10, 2, 8)


def test_r7_3_no_anti_spring_when_the_landlord_played_twice() -> None:
    deal = build_deal({0: "32", 1: "8", 2: "X999TTTJJJQQQKA2D"})
    state = state_at_play(deal, bid=1)
    push_all(state, [PlayCards(0, "3"), PlayCards(1, "8"), Pass(2), PlayCards(0, "2")])
    push_all(state, [Pass(1), PlayCards(2, "X"), Pass(0), Pass(1)])
    state.push(PlayCards(2, "999TTTJJJQQQKA2D"))
    assert state.winner == "defenders" and not state.anti_spring and not state.spring
    assert state.scores() == (-2, 1, 1)


# --- R1.7 physical cards ------------------------------------------------------------------------


def _seeded_landlord(condition: Any) -> tuple[HandState, int]:
    """A suited deal (deal_from_seed) where the first bidder's 20 cards satisfy ``condition``;
    he bids 3 and becomes the landlord, nobody doubles."""
    for seed in range(500):
        deal = deal_from_seed(seed)
        twenty = [str(c) for c in deal.hands[deal.first_bidder] + deal.kitty]
        if condition(twenty):
            state = state_at_play(deal)
            return state, deal.first_bidder
    raise AssertionError("no seed satisfies the condition")


def test_r1_7_a_physical_card_not_held_is_not_held_even_with_that_rank_in_hand() -> None:
    state, seat = _seeded_landlord(lambda h: "♠A" not in h and any(c.endswith("A") for c in h))
    held_ace = next(str(c) for c in state.hand_of(seat) if str(c).endswith("A"))
    rejects(state, PlayCards(seat, "♠A"), "not_held")
    before = snapshot(state)
    with pytest.raises(NotationError):  # suits are symbols, never letters
        state.push(PlayCards(seat, "SA"))
    assert snapshot(state) == before
    state.push(PlayCards(seat, held_ace))
    assert held_ace not in {str(c) for c in state.hand_of(seat)}


def test_r1_7_the_same_physical_card_twice_is_not_held() -> None:
    state, seat = _seeded_landlord(lambda h: sum(c.endswith("A") for c in h) >= 2)
    aces = [str(c) for c in state.hand_of(seat) if str(c).endswith("A")]
    rejects(state, PlayCards(seat, f"{aces[0]} {aces[0]}"), "not_held")
    state.push(PlayCards(seat, f"{aces[0]} {aces[1]}"))
    assert state.top_play is not None and state.top_play.text() == "AA"


def test_r1_7_rank_notation_in_a_suited_deal_takes_a_held_card_of_that_rank() -> None:
    state, seat = _seeded_landlord(lambda h: any(c.endswith("A") for c in h))
    before = len(state.hand_of(seat))
    state.push(PlayCards(seat, "A"))
    assert len(state.hand_of(seat)) == before - 1
    assert state.card_counts[seat] == before - 1


def test_r1_7_bad_notation_raises_notation_error_and_changes_nothing() -> None:
    state = state_at_play(SPRING_DEAL)
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.push(PlayCards(0, "3Z"))
    assert snapshot(state) == before


@pytest.mark.parametrize("count", [5, 8, 16, 19])
def test_r1_7_more_cards_of_a_rank_than_one_pack_holds_are_not_held(count: int) -> None:
    # A rank-only deal; seat 0 holds three 3s and three 4s. A play of ``count`` 3s is never
    # held (one pack has four), whatever multiset arithmetic the library uses inside.
    state = state_at_play(SPRING_DEAL)
    before = snapshot(state)
    try:
        state.push(PlayCards(0, "3" * count))
    except IllegalAction as exc:
        assert exc.code in ("not_held", "invalid_combination")
        assert snapshot(state) == before
    else:
        pytest.fail(
            f"{count} threes accepted as {state.top_play}; seat 0 now has "
            f"{state.card_counts[0]} cards but holds {state.hand_text(0)!r}"
        )


def test_r1_7_play_text_that_is_not_text_is_a_notation_error() -> None:
    state = state_at_play(SPRING_DEAL)
    for value in (None, 3, ["3"], ("3",), {"3": 1}):
        before = snapshot(state)
        with pytest.raises(NotationError):
            state.push(PlayCards(0, value))  # type: ignore[arg-type]
        assert snapshot(state) == before, value


# --- push / pop, legal actions, event log -------------------------------------------------------


def full_spring_actions() -> list[Action]:
    actions: list[Action] = [Bid(0, 3), Double(1, True), Double(2, False), Redouble(0, True)]
    for cards in (AIRPLANE, "Q", "K"):
        actions += [PlayCards(0, cards), Pass(1), Pass(2)]
    return [*actions, PlayCards(0, "JJ")]


def test_push_pop_is_exact_at_every_step() -> None:
    state = HandState(SPRING_DEAL)
    history = [snapshot(state)]
    for action in full_spring_actions():
        state.push(action)
        history.append(snapshot(state))
    assert state.phase is Phase.FINISHED
    for expected in reversed(history[:-1]):
        state.pop()
        assert snapshot(state) == expected
    with pytest.raises(IndexError):
        state.pop()


def test_pop_returns_the_action_taken_back() -> None:
    state = HandState(SPRING_DEAL)
    state.push(Bid(0, 2))
    assert state.pop() == Bid(0, 2)
    assert state.actions == []


def test_event_log_round_trip() -> None:
    state = HandState(SPRING_DEAL)
    push_all(state, full_spring_actions())
    events = state.to_events()
    assert events[0] == {"seat": 0, "bid": 3}
    assert events[1] == {"seat": 1, "double": True}
    assert events[3] == {"seat": 0, "redouble": True}
    assert events[5] == {"seat": 1, "play": "pass"}
    rebuilt = HandState.from_events(SPRING_DEAL, events)
    assert snapshot(rebuilt) == snapshot(state)
    assert HandState.from_events(SPRING_DEAL, state.actions).to_events() == events


def test_from_events_raises_on_the_first_illegal_event() -> None:
    events = [{"seat": 0, "bid": 1}, {"seat": 1, "bid": 1}]
    with pytest.raises(IllegalAction) as info:
        HandState.from_events(SPRING_DEAL, events)
    assert info.value.code == "invalid_bid"


def test_legal_actions_in_each_phase() -> None:
    state = HandState(SPRING_DEAL)
    assert set(state.legal_actions()) == {Bid(0, v) for v in range(4)}
    state.push(Bid(0, 1))
    assert set(state.legal_actions()) == {Bid(1, 0), Bid(1, 2), Bid(1, 3)}
    push_all(state, [Bid(1, 0), Bid(2, 0)])
    assert set(state.legal_actions()) == {Double(s, d) for s in (1, 2) for d in (True, False)}
    push_all(state, [Double(1, False), Double(2, True)])
    assert set(state.legal_actions()) == {Redouble(0, True), Redouble(0, False)}
    state.push(Redouble(0, False))
    lead = state.legal_actions()
    assert lead and all(isinstance(a, PlayCards) and a.seat == 0 for a in lead)
    assert PlayCards(0, AIRPLANE) in lead
    state.push(PlayCards(0, "K"))
    follow = state.legal_actions()
    assert Pass(1) in follow
    assert {a.cards for a in follow if isinstance(a, PlayCards)} == set()  # seat 1 has no A+
    state.push(Pass(1))
    follow = state.legal_actions()
    texts = {a.cards for a in follow if isinstance(a, PlayCards)}
    assert texts == {"A", "2", "X", "D", "AAAA", "2222", "XD"}


def test_every_legal_action_is_accepted_and_every_accepted_play_was_legal() -> None:
    state = state_at_play(SPRING_DEAL)
    state.push(PlayCards(0, "7"))
    legal = state.legal_actions()
    for action in legal:
        state.push(action)
        state.pop()
    for text in ("8", "9", "T", "J", "77", "3", "4"):
        action = PlayCards(1, text)
        try:
            state.push(action)
        except IllegalAction:
            assert action not in legal
        else:
            state.pop()
            assert action in legal


@pytest.mark.parametrize(
    "action",
    [
        Bid(0, True),  # a boolean is not a bid
        Bid(0, 1.0),  # type: ignore[arg-type]
        Double(1, "no"),  # type: ignore[arg-type]
        Double(1, None),  # type: ignore[arg-type]
        Double(1, 1),  # type: ignore[arg-type]
    ],
    ids=["bid-True", "bid-1.0", "double-'no'", "double-None", "double-1"],
)
def test_r9_1_accepted_actions_round_trip_through_the_event_log(action: Action) -> None:
    """``to_events`` promises a log that ``from_events`` rebuilds: an action whose value is
    not of the protocol's type must be refused (RulesError), not recorded."""
    state = HandState(SPRING_DEAL)
    if isinstance(action, Double):
        state.push(Bid(0, 3))
    before = snapshot(state)
    try:
        state.push(action)
    except RulesError:
        assert snapshot(state) == before
        return
    try:
        rebuilt = HandState.from_events(SPRING_DEAL, state.to_events())
    except RulesError as exc:
        pytest.fail(
            f"{action!r} was accepted but its event {state.to_events()[-1]} does not replay: {exc}"
        )
    assert snapshot(rebuilt) == snapshot(state)


# --- R9.1 / PROTOCOL "Which code when" ---------------------------------------------------------


def test_r9_1_checks_for_a_play_run_in_the_protocol_order() -> None:
    # phase -> out_of_turn -> bad_notation -> lead_pass -> not_held -> invalid_combination
    # -> does_not_beat: each event below has two faults; the earlier check names it.
    during_doubling = after_bid()
    rejects(during_doubling, PlayCards(1, "3Z"), "phase")
    rejects(during_doubling, Pass(2), "phase")
    state = state_at_play(SPRING_DEAL)
    rejects(state, PlayCards(1, "3Z"), "out_of_turn")
    rejects(state, Pass(2), "out_of_turn")
    with pytest.raises(NotationError):
        state.push(PlayCards(0, "QQQZ"))  # not held, unreadable: bad_notation
    rejects(state, PlayCards(0, "XX"), "not_held")  # no combination either
    rejects(state, PlayCards(0, "2"), "not_held")
    state.push(PlayCards(0, "T"))
    rejects(state, PlayCards(1, "QK"), "not_held")  # neither held nor a combination
    rejects(state, PlayCards(1, "3"), "does_not_beat")
    rejects(state, PlayCards(1, "34"), "invalid_combination")  # held, no combination


def test_r9_1_every_event_after_the_end_is_a_phase_error() -> None:
    state = state_at_play(SPRING_DEAL)
    for cards in (AIRPLANE, "Q", "K", "JJ"):
        lead_then_two_passes(state, 0, cards)
    assert state.phase is Phase.FINISHED
    for action in (Bid(1, 1), Double(1, True), Redouble(0, True), Pass(1), PlayCards(1, "3")):
        rejects(state, action, "phase")
