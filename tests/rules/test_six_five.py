"""Six and five players (SPEC §13, §14, PROTOCOL-six-five) in the rules library: the kinds
against every sub-multiset, whole hands played to the end (hypothesis: zero-sum, replay, push /
pop), the secret partner kept out of the public view until his reveal, and typed refusals that
leave the state as it was. The vectors themselves run in ``test_vectors``."""

from __future__ import annotations

import dataclasses
import json
import random
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import (
    FIVE_P,
    SIX_P,
    SIX_P_NO_KITTY,
    Call,
    FiveHandState,
    HandState,
    PlayCards,
    RuleProfile,
    RulesError,
    SixDeal,
    SixHandState,
    beats_six,
    classify_six,
    legal_plays_six,
    result_from_json,
    score_hand,
)
from referee.rules.actions import Bid, Double, Pass
from referee.rules.cards import key_of_counts
from referee.rules.errors import IllegalAction, NotationError
from referee.rules.games import deal_json_from_seed, state_new, state_replayed
from referee.rules.scoring import stakes_of_hand
from referee.rules.six_combos import THREE_PACK_COUNTS
from referee.rules.six_hand import COPIES, base_text, format_six, id_text, parse_six

SETTINGS: dict[str, Any] = {
    "max_examples": 25,
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}
THREE_PACKS = [r for r, n in enumerate(THREE_PACK_COUNTS) for _ in range(n)]
PROFILES = [SIX_P, SIX_P_NO_KITTY, FIVE_P]


def _play(state: HandState, rng: random.Random) -> None:
    actions = state.legal_actions()
    plays = [a for a in actions if type(a) is PlayCards]
    state.push(rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions))


def _played_out(profile: RuleProfile, seed: int) -> tuple[dict[str, Any], HandState]:
    deal = deal_json_from_seed(profile, seed)
    state = state_new(profile, deal)
    rng = random.Random(seed)
    while not state.is_over:
        _play(state, rng)
    return deal, state


def _picture(state: HandState) -> tuple[Any, ...]:
    """Everything a hand state shows, to compare two states."""
    return (
        json.dumps(state.summary(), sort_keys=True),
        tuple(state.hand_cards_text(s) for s in range(state.profile.seats)),
        state.turn,
        tuple(state.legal_actions()),
        tuple(state.actions),
    )


# --- kinds -----------------------------------------------------------------------------------


@settings(**SETTINGS)
@given(st.integers(0, 10**6), st.integers(1, 9), st.booleans())
def test_six_legal_plays_are_every_sub_multiset_that_reads_and_beats(
    seed: int, size: int, answer: bool
) -> None:
    rng = random.Random(seed)
    counts = [0] * 15
    for r in rng.sample(THREE_PACKS, size):
        counts[r] += 1
    previous = None
    if answer:
        other = [0] * 15
        for r in rng.sample(THREE_PACKS, 12):
            other[r] += 1
        previous = rng.choice(legal_plays_six(other))
    listed = [p.key for p in legal_plays_six(counts, previous)]
    assert len(listed) == len(set(listed)), "each rank multiset once"
    wanted = set()
    for sub in product(*(range(n + 1) for n in counts)):
        play = classify_six(list(sub))
        if play is not None and (previous is None or beats_six(play, previous)):
            wanted.add(key_of_counts(sub))
    assert set(listed) == wanted


def reference_six(counts: list[int], most: int = 32) -> set[tuple[str, int | None, int]]:
    """R13.6 / R13.7 read afresh, by searching every body a play could have: the readings
    (kind, rank, length) of the rank counts; a multiset should have at most one."""
    total = sum(counts)
    if not 0 < total <= most or any(c > (3 if r > 12 else 12) for r, c in enumerate(counts)):
        return set()
    held = {r: c for r, c in enumerate(counts) if c}
    found: set[tuple[str, int | None, int]] = set()
    if len(held) == 1:
        ((r, c),) = held.items()
        if c == 1:
            found.add(("single", r, 1))
        elif c == 2:
            found.add(("pair", r, 1))  # XX and DD included
        elif r > 12:
            found |= {("joker_bomb", r, 3)} if c == 3 else set()
        else:
            found.add(("trio", r, 1) if c == 3 else ("bomb", r, c))
    if held == {13: 3, 14: 3}:
        found.add(("joker_bomb", None, 6))
    for width, kind, shortest in ((1, "straight", 5), (2, "pair_straight", 3), (3, "airplane", 2)):
        for lo in range(12):
            for hi in range(lo + shortest - 1, 12):  # within 3…A
                if held == {r: width for r in range(lo, hi + 1)}:
                    found.add((kind, hi, hi - lo + 1))
    for k in range(1, 8):
        for lo in range(13 if k == 1 else 12 - k + 1):
            body = range(lo, lo + k)
            if any(held.get(r, 0) != 3 for r in body):  # a body rank holds exactly three
                continue
            rest = {r: c for r, c in held.items() if r not in body}
            if len(rest) != k:
                continue
            for width, one, many in (
                (1, "trio_single", "airplane_singles"),
                (2, "trio_pair", "airplane_pairs"),
            ):
                if all(c == width for c in rest.values()):
                    found.add((one if k == 1 else many, lo + k - 1, 1 if k == 1 else k))
    return found


def _structured(rng: random.Random) -> list[int]:
    """A multiset near some play: a random body with wings, a chain, a bomb or jokers, then
    maybe a card added or taken away."""
    counts = [0] * 15
    shape = rng.randrange(4)
    if shape == 0:  # trios and wings
        k = rng.randint(1, 7)
        lo = rng.randrange(13 - k)
        for r in range(lo, lo + k):
            counts[r] += 3
        width = rng.choice((1, 2))
        for r in rng.sample([r for r in range(15) if not lo <= r < lo + k], k):
            counts[r] += width
    elif shape == 1:  # a chain
        width = rng.randint(1, 3)
        n = rng.randint(2, 12)
        lo = rng.randrange(13 - min(n, 12))
        for r in range(lo, min(lo + n, 13)):
            counts[r] += width
    elif shape == 2:  # a bomb
        counts[rng.randrange(13)] = rng.randint(3, 12)
    else:  # jokers
        counts[13], counts[14] = rng.randint(0, 3), rng.randint(0, 3)
    if rng.random() < 0.5:
        r = rng.randrange(15)
        counts[r] = max(0, counts[r] + rng.choice((-1, 1)))
    return [min(c, 3 if r > 12 else 12) for r, c in enumerate(counts)]


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([32, 27]))
def test_six_classify_agrees_with_a_reading_of_r13_6_afresh(seed: int, most: int) -> None:
    counts = _structured(random.Random(seed))
    want = reference_six(counts, most)
    assert len(want) <= 1, f"R13.6: at most one reading, got {want}"
    play = classify_six(counts, most)
    got = set() if play is None else {(play.kind.value, play.rank, play.length)}
    assert got == want, counts


def test_the_bomb_ladder_of_r13_7_is_a_total_order() -> None:
    names = ["3333", "AAAA", "33333", "XXX", "333333", "DDD", "3333333", "2" * 12, "XXXDDD"]
    plays = []
    for text in names:
        counts = [0] * 15
        for card in parse_six(" ".join(f"♠{c}" if c not in "XD" else c for c in text)):
            counts[card[0]] += 1
        play = classify_six(counts)
        assert play is not None, text
        plays.append(play)
    for i, low in enumerate(plays):
        for high in plays[i + 1 :]:
            assert beats_six(high, low) and not beats_six(low, high)


# --- whole hands -----------------------------------------------------------------------------


@settings(**SETTINGS)
@given(st.sampled_from(PROFILES), st.integers(0, 10**6))
def test_a_hand_played_to_the_end_is_zero_sum_and_replays(profile: RuleProfile, seed: int) -> None:
    deal, state = _played_out(profile, seed)
    scores = state.scores()
    assert scores is not None and len(scores) == profile.seats and sum(scores) == 0
    again = state_replayed(profile, deal, state.to_events())
    assert _picture(again) == _picture(state)
    if state.phase.value == "finished":
        result = state.result()
        assert result is not None
        assert score_hand(result_from_json(result.to_json(), profile), profile) == scores
    if isinstance(state, SixHandState):
        side = {state.landlord, state.partner} - {None}
        winners = {s for s in range(6) if scores[s] > 0}
        assert winners in (side, set(range(6)) - side)
        left = sum(state.card_counts)
        played = sum(len(p.ranks) for p in state.plays)
        assert left + played == 162, "every card is held or played, once"


@settings(**SETTINGS)
@given(st.sampled_from(PROFILES), st.integers(0, 10**6), st.integers(1, 60), st.integers(1, 12))
def test_pop_gives_back_the_state_before_and_push_replays_it(
    profile: RuleProfile, seed: int, upto: int, back: int
) -> None:
    """push / pop round trip, for pushed actions (snapshots) and replayed ones (rebuilt)."""
    deal, state = _played_out(profile, seed)
    log = list(state.actions)
    upto = min(upto, len(log))
    back = min(back, upto)
    for pushed in (True, False):
        if pushed:
            live = state_new(profile, deal)
            for action in log[:upto]:
                live.push(action)
        else:
            live = state_replayed(profile, deal, log[:upto])
        before = state_replayed(profile, deal, log[: upto - back])
        taken = [live.pop() for _ in range(back)]
        assert taken == log[upto - back : upto][::-1]
        assert _picture(live) == _picture(before)
        for action in reversed(taken):
            live.push(action)
        assert _picture(live) == _picture(state_replayed(profile, deal, log[:upto]))


# --- the secret partner ----------------------------------------------------------------------


def _swap_third_copy(deal: dict[str, Any], state: SixHandState) -> dict[str, Any] | None:
    """The same deal but the partner's copy of the partner card swapped with a card another
    farmer has not played: a deal whose partner is that farmer, and whose public events so far
    are the same. None when no farmer holds a card to swap."""
    landlord, partner = state.landlord, state.partner
    assert partner is not None and state.partner_card is not None
    hands = [list(parse_six(h)) for h in deal["hands"]]
    ids = [[base * COPIES + copy - 1 for _, base, copy in hand] for hand in hands]  # type: ignore[operator]
    third = next(i for i in ids[partner] if base_text(i) == state.partner_card)
    for farmer in range(6):
        if farmer in (landlord, partner):
            continue
        held = state.hand_of(farmer)
        if held:
            mine = held[0]
            ids[partner] = [mine if i == third else i for i in ids[partner]]
            ids[farmer] = [third if i == mine else i for i in ids[farmer]]
            return {**deal, "hands": [format_six(h) for h in ids]}
    return None


@settings(**SETTINGS)
@given(st.sampled_from([SIX_P, SIX_P_NO_KITTY]), st.integers(0, 10**6), st.integers(0, 400))
def test_the_public_view_cannot_tell_the_partner_before_his_reveal(
    profile: RuleProfile, seed: int, stop: int
) -> None:
    """Two deals alike in all the table has seen but with the partner's copy in another
    farmer's hand give the same public view until the reveal; then it names him."""
    deal, finished = _played_out(profile, seed)
    assert isinstance(finished, SixHandState)
    if finished.partner is None:
        view = finished.public_view()
        assert view["partner"] is None and view["alone"] is True
        return
    reveal = finished.revealed_at
    end = len(finished.actions) - 1 if reveal is None else reveal
    cut = min(stop, end)  # the state after `cut` actions: neither revealed nor over
    state = state_replayed(profile, deal, finished.actions[:cut])
    assert isinstance(state, SixHandState) and not state.is_over
    other_deal = _swap_third_copy(deal, state)
    assert other_deal is not None
    other = state_replayed(profile, other_deal, finished.actions[:cut])
    assert isinstance(other, SixHandState)
    assert other.partner != state.partner and other.partner_card == state.partner_card
    view = state.public_view()
    assert view == other.public_view()
    assert view["partner"] is None and view["revealed_at"] is None
    text = json.dumps(view, ensure_ascii=False)
    assert "#" not in text, "copies are a storage identity, not what the table saw"
    assert len(view["card_counts"]) == 6 and "kitty" not in view
    if reveal is not None:
        shown = state_replayed(profile, deal, finished.actions[: reveal + 1])
        assert isinstance(shown, SixHandState)
        after = shown.public_view()
        assert after["partner"] == finished.partner and after["revealed_at"] == reveal
    end_view = finished.public_view()
    assert end_view["partner"] == finished.partner and end_view["scores"] == list(
        finished.scores() or ()
    )


def test_the_landlord_playing_his_own_copy_reveals_nothing() -> None:
    deal = _deal_with_partner_card()
    state = SixHandState(deal, SIX_P)
    assert state.partner_card is not None
    state.push(Call(state.landlord or 0, state.partner_card))  # type: ignore[arg-type]
    own = [i for i in state.hand_of(state.landlord or 0) if base_text(i) == state.partner_card]
    assert len(own) == 2
    state.push(PlayCards(state.landlord or 0, id_text(own[0])))
    assert state.revealed_at is None and state.public_view()["partner"] is None


def _deal_with_partner_card() -> SixDeal:
    for seed in range(50):
        data = deal_json_from_seed(SIX_P, seed)
        deal = SixDeal.from_json(data)
        if SixHandState(deal, SIX_P).partner is not None:
            return deal
    raise AssertionError("no seed of 50 gives a partner")


# --- refusals --------------------------------------------------------------------------------


def _refused(state: HandState, action: Any, code: str) -> None:
    before = _picture(state)
    with pytest.raises(RulesError) as info:
        state.push(action)
    assert info.value.code == code, info.value.message
    assert _picture(state) == before, "a refused action leaves the state as it was"


def test_six_p_refusals_are_typed_and_change_nothing() -> None:
    state = SixHandState(_deal_with_partner_card(), SIX_P)
    landlord = state.landlord
    assert landlord is not None and state.partner_card is not None
    other = (landlord + 1) % 6
    _refused(state, PlayCards(landlord, "♠3"), "phase")  # no play before the call
    _refused(state, Bid(landlord, 1), "invalid_bid")  # no auction
    _refused(state, Double(other, True), "invalid_double")  # no doubling
    _refused(state, Call(other, state.partner_card), "out_of_turn")  # type: ignore[arg-type]
    _refused(state, Call(landlord, "none"), "wrong_partner_card")  # type: ignore[arg-type]
    _refused(state, Call(landlord, state.partner_card + "#1"), "bad_notation")  # type: ignore[arg-type]
    _refused(state, Call(landlord, "X"), "wrong_partner_card")  # type: ignore[arg-type]
    state.push(Call(landlord, state.partner_card))  # type: ignore[arg-type]
    _refused(state, Call(landlord, state.partner_card), "phase")  # type: ignore[arg-type]
    _refused(state, Pass(landlord), "lead_pass")
    _refused(state, PlayCards(other, "♠3"), "out_of_turn")
    _refused(state, PlayCards(landlord, "3"), "bad_notation")  # six_p plays need suits
    _refused(state, PlayCards(landlord, "♠X"), "bad_notation")  # a joker has no suit
    _refused(state, PlayCards(landlord, "♠3#4"), "bad_notation")
    mine = set(state.hand_of(landlord))
    missing = next(i for i in range(162) if i not in mine)
    _refused(state, PlayCards(landlord, id_text(missing)), "not_held")
    held = sorted(mine)
    pair_of_two = [i for i in held if i // COPIES != held[0] // COPIES][:1] + held[:1]
    if pair_of_two[0] // COPIES // 4 != held[0] // COPIES // 4:  # two ranks: no combination
        _refused(
            state, PlayCards(landlord, " ".join(map(id_text, pair_of_two))), "invalid_combination"
        )
    state.push(PlayCards(landlord, id_text(held[-1])))
    follower = (landlord + 1) % 6
    lowest = min(state.hand_of(follower))
    if lowest // COPIES // 4 < held[-1] // COPIES // 4:
        _refused(state, PlayCards(follower, id_text(lowest)), "does_not_beat")


def test_a_kitty_card_is_the_landlords_only() -> None:
    """R13.2, R13.4: the kitty joins the landlord's hand unseen; another seat naming one of its
    cards (with its copy) is not_held, and the public view counts the landlord's cards as one."""
    deal = _deal_with_partner_card()
    state = SixHandState(deal, SIX_P)
    landlord = state.landlord
    assert landlord is not None and state.partner_card is not None
    assert state.card_counts[landlord] == 32
    assert set(deal.kitty) <= set(state.hand_of(landlord))
    state.push(Call(landlord, state.partner_card))  # type: ignore[arg-type]
    state.push(PlayCards(landlord, id_text(min(state.hand_of(landlord)))))
    follower = (landlord + 1) % 6
    kitty_card = max(deal.kitty)
    if kitty_card in state.hand_of(landlord):
        _refused(state, PlayCards(follower, id_text(kitty_card)), "not_held")
    assert state.public_view()["card_counts"][landlord] == 31


def test_deals_are_refused_with_invalid_deal() -> None:
    good = deal_json_from_seed(SIX_P, 1)
    cases = [
        {**good, "kitty": None},  # six_p needs its kitty
        {**good, "face_up": good["kitty"].split()[0]},  # the face-up card is drawn
        {**good, "hands": good["hands"][:5]},
        {**good, "hands": [h.replace("#1", "") for h in good["hands"]]},  # copies required
    ]
    for data in cases:
        with pytest.raises(RulesError) as info:
            SixDeal.from_json(data)
        assert info.value.code == "invalid_deal"
    with pytest.raises(RulesError):
        SixDeal.from_json(deal_json_from_seed(SIX_P_NO_KITTY, 1))  # 27 each is not six_p
    assert SixDeal.from_json(deal_json_from_seed(SIX_P_NO_KITTY, 1), no_kitty=True)


def test_five_p_refusals_are_typed_and_change_nothing() -> None:
    state = state_new(FIVE_P, deal_json_from_seed(FIVE_P, 3, first_bidder=2))
    assert isinstance(state, FiveHandState)
    _refused(state, Bid(3, 1), "out_of_turn")
    _refused(state, PlayCards(2, "3"), "phase")
    state.push(Bid(2, 3))  # a 3 closes the auction at once
    _refused(state, Double(3, True), "invalid_double")
    _refused(state, Pass(2), "lead_pass")
    assert state.card_counts[2] == 24


def test_a_notation_error_is_a_rules_error_with_the_stable_code() -> None:
    for text in ("2S", "♠X", "7", "♠7#0", "♠7#12"):
        with pytest.raises(NotationError):
            parse_six(text)
    assert [c[2] for c in parse_six("♠7#2♥7 X#3")] == [2, None, 3]
    with pytest.raises(IllegalAction):
        state = SixHandState(_deal_with_partner_card(), SIX_P)
        state.push(Call(state.landlord or 0, "none"))  # type: ignore[arg-type]


# --- scores ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 5),
    st.one_of(st.none(), st.integers(0, 5)),
    st.integers(0, 41),
    st.sampled_from([(False, False), (True, False), (False, True)]),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 1 << 20)),
)
def test_six_p_scores_are_zero_sum_pairwise_and_capped(
    landlord: int,
    partner: int | None,
    bombs: int,
    springs: tuple[bool, bool],
    landlord_wins: bool,
    cap: int | None,
) -> None:
    if partner == landlord:
        partner = None
    spring, anti = springs
    if (spring and not landlord_wins) or (anti and landlord_wins):
        return
    profile = dataclasses.replace(SIX_P, cap=cap)
    result = result_from_json(
        {
            "landlord": landlord,
            "partner": partner,
            "bombs": bombs,
            "spring": spring,
            "anti_spring": anti,
            "winner": "landlord" if landlord_wins else "defenders",
        },
        profile,
    )
    scores = score_hand(result, profile)
    assert sum(scores) == 0 and len(scores) == 6
    m = 2 ** (bombs + (spring or anti))
    stake = m if cap is None else min(m, cap)
    side = {landlord} | ({partner} if partner is not None else set())
    winners = side if landlord_wins else set(range(6)) - side
    for seat in range(6):
        want = stake * (6 - len(winners)) if seat in winners else -stake * len(winners)
        assert scores[seat] == want, seat


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 4),
    st.integers(1, 3),
    st.integers(0, 27),
    st.sampled_from([(False, False), (True, False), (False, True)]),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 1 << 20)),
)
def test_five_p_stakes_are_what_each_farmer_wins_or_loses(
    landlord: int,
    bid: int,
    bombs: int,
    springs: tuple[bool, bool],
    landlord_wins: bool,
    cap: int | None,
) -> None:
    """Each farmer's stake (what the console and the pages show as the hand stands) is
    exactly what the score gives him, with the cap on *M* (R14.7), and the landlord pays
    or takes their sum."""
    spring, anti = springs
    if (spring and not landlord_wins) or (anti and landlord_wins):
        return
    profile = dataclasses.replace(FIVE_P, cap=cap)
    result = result_from_json(
        {
            "landlord": landlord,
            "bid": bid,
            "bombs": bombs,
            "spring": spring,
            "anti_spring": anti,
            "winner": "landlord" if landlord_wins else "defenders",
        },
        profile,
    )
    scores = score_hand(result, profile)
    stakes = stakes_of_hand(result, profile)
    assert [s.seat for s in stakes] == [seat for seat in range(5) if seat != landlord]
    m = 2 ** (bombs + (spring or anti))
    won = -1 if landlord_wins else 1
    for stake in stakes:
        assert stake.value == bid * (m if cap is None else min(m, cap))
        assert scores[stake.seat] == won * stake.value
    assert scores[landlord] == -sum(won * s.value for s in stakes)


def test_the_cli_scores_six_p_with_its_partner_and_cap() -> None:
    import io

    from referee.rules.__main__ import main

    out = io.StringIO()
    argv = ["score", "--profile", "six_p", "--landlord", "0", "--partner", "1", "--bid", "1"]
    main([*argv, "--bombs", "5", "--winner", "landlord", "--cap", "8"], out=out)
    assert "+32 +32 -16 -16 -16 -16" in out.getvalue()  # SX-47: M = min(2^5, 8)
    out = io.StringIO()
    main(
        ["score", "--profile", "six_p", "--landlord", "0", "--bid", "1", "--winner", "landlord"],
        out=out,
    )
    assert "bad_request" in out.getvalue()  # the partner is required (PROTOCOL-six-five §1.3)
    out = io.StringIO()
    main([*argv[:5], "--partner", "none", "--bid", "1", "--winner", "landlord"], out=out)
    assert "+5 -1 -1 -1 -1 -1" in out.getvalue()  # alone: ±5S against ∓S (R13.9)
