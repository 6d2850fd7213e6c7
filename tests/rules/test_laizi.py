"""``laizi`` (SPEC §11.2, PROTOCOL-variants §2): declarations, bomb classes, legal plays, the
hand state and scores, with literal cases and properties (hypothesis).

* every legal play is held, its declaration is valid, and it leads or beats the play on the
  table; nothing is missing and each declaration is the canonical one (brute force over every
  sub-multiset and every declaration of small hands);
* the generator lists what the reference generator does (tests/rules/variant_reference.py) on
  full hands with up to four wild cards, and its answers are its leads that beat the top;
* declared plays round-trip: their notation ``cards=declared`` reads back to the same play, and
  a ``DeclaredPlay`` event to the same action;
* scores are zero-sum (R8.1 with R11.2.4); random legal hands replay to the same state.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import (
    DealResult,
    IllegalAction,
    InvalidResult,
    PlayCards,
    deal_from_seed,
    parse_ranks,
)
from referee.rules.actions import DeclaredPlay, wild_action_from_json
from referee.rules.cards import PACK_COUNTS, counts_of, key_of_counts, ranks_of_key
from referee.rules.hand import Phase
from referee.rules.laizi import (
    InvalidSubstitution,
    WildPlay,
    beats_wild,
    check_declaration,
    legal_plays_wild,
    read_wild_play,
    wild_readings,
)
from referee.rules.laizi_hand import LaiziHandState
from referee.rules.laizi_scoring import LaiziResult, score_laizi, stake_breakdown_laizi
from tests.rules.variant_reference import laizi_plays

SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
    "max_examples": 120,
}
PACK = [r for r, n in enumerate(PACK_COUNTS) for _ in range(n)]
SEVEN = parse_ranks("7")[0]


def wild_play(cards: str, declared: str | None = None, wild: int = SEVEN) -> Any:
    found = read_wild_play(cards, declared, wild)
    assert found is not None, (cards, declared)
    return found


def ident(play: Any) -> tuple[Any, ...]:
    return (play.cards, play.kind, play.rank, play.length)


# --- literal cases -------------------------------------------------------------------------


def test_bomb_classes_and_their_order() -> None:
    soft_k, hard_3 = wild_play("KKK7", "KKKK"), wild_play("3333")
    pure, rocket = wild_play("7777", "AAAA"), wild_play("XD")
    assert (soft_k.bomb_class, hard_3.bomb_class, pure.bomb_class) == ("soft", "hard", "pure_wild")
    assert pure.rank == SEVEN  # Q20: the pure-wild bomb keeps the wild rank
    order = [wild_play("3337", "3333"), soft_k, hard_3, wild_play("2222"), pure, rocket]
    for low, high in itertools.combinations(order, 2):
        assert beats_wild(high, low) and not beats_wild(low, high), (high, low)


@pytest.mark.parametrize(
    ("cards", "declared"),
    [("7", "A"), ("X7", "XX"), ("KK", "AA"), ("K7", "KKK"), ("D7", "XD"), ("K7", "K")],
)
def test_invalid_declarations(cards: str, declared: str) -> None:
    with pytest.raises(InvalidSubstitution) as info:
        check_declaration(parse_ranks(cards), parse_ranks(declared), SEVEN)
    assert info.value.code == "invalid_substitution"


def test_a_declared_play_before_the_play_phase_is_a_phase_error() -> None:
    deal = deal_from_seed(5)
    state = LaiziHandState(deal, wild=SEVEN)
    first = deal.first_bidder
    for action in ({"seat": first, "bid": 3},):
        state.push(wild_action_from_json(action))  # type: ignore[arg-type]
    assert state.phase is Phase.DOUBLING
    with pytest.raises(IllegalAction) as info:
        state.push(DeclaredPlay(first, "7", "A"))  # type: ignore[arg-type]
    assert info.value.code == "phase"


@pytest.mark.parametrize(
    (
        "landlord",
        "bid",
        "soft",
        "hard",
        "pure",
        "rockets",
        "doubled",
        "redoubled",
        "winner",
        "expected",
    ),
    [
        (0, 1, 1, 0, 0, 0, (False, False, False), False, "landlord", (4, -2, -2)),
        (1, 2, 0, 1, 0, 1, (False, False, False), False, "defenders", (32, -64, 32)),
        (0, 2, 1, 0, 0, 1, (False, True, False), False, "defenders", (-48, 32, 16)),
        (0, 1, 1, 0, 0, 0, (False, True, False), True, "defenders", (-10, 8, 2)),
        (2, 3, 0, 0, 1, 0, (False, False, False), False, "landlord", (-12, -12, 24)),
    ],
)
def test_score_literal_cases(
    landlord: int,
    bid: int,
    soft: int,
    hard: int,
    pure: int,
    rockets: int,
    doubled: tuple[bool, bool, bool],
    redoubled: bool,
    winner: str,
    expected: tuple[int, int, int],
) -> None:
    base = DealResult(
        landlord=landlord,
        bid=bid,
        doubled=doubled,
        redoubled=redoubled,
        bombs=soft + hard + pure,
        rockets=rockets,
        spring=False,
        anti_spring=False,
        winner=winner,  # type: ignore[arg-type]
    )
    result = LaiziResult(base=base, soft_bombs=soft, hard_bombs=hard, pure_wild_bombs=pure)
    assert score_laizi(result) == expected


# --- properties ----------------------------------------------------------------------------


@st.composite
def wild_hands(
    draw: st.DrawFn, max_size: int = 20, wilds: int | None = None, min_size: int = 0
) -> tuple[list[int], int]:
    """A hand of one pack and its wild rank; ``wilds`` wild cards if given."""
    wild = draw(st.integers(0, 12))
    rest = [r for r in PACK if r != wild]
    count = draw(st.integers(0, 4)) if wilds is None else wilds
    others = st.integers(0, len(rest) - 1)
    size = {"min_size": max(0, min_size - count), "max_size": max_size - count}
    picks = draw(st.lists(others, **size, unique=True))
    hand = counts_of([rest[i] for i in picks])
    hand[wild] = count
    if not sum(hand):
        hand[wild] = 1
    return hand, wild


@st.composite
def tops(draw: st.DrawFn, wild: int) -> Any:
    """A play on the table: a random lead of another hand with the same wild rank."""
    hand, _ = draw(wild_hands(max_size=8))
    hand[wild] = min(hand[wild], 2)
    plays = legal_plays_wild(hand, wild)
    return plays[draw(st.integers(0, len(plays) - 1))] if plays else None


def brute_force(hand: list[int], wild: int, top: Any) -> dict[tuple[Any, ...], int]:
    """Every play of every sub-multiset and declaration, with its canonical declared key."""
    best: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for sub in itertools.product(*(range(n + 1) for n in hand)):
        if not sum(sub):
            continue
        cards = list(ranks_of_key(key_of_counts(sub)))
        natural = [r for r in cards if r != wild]
        for stands in itertools.combinations_with_replacement(range(13), sub[wild]):
            declared = sorted(natural + list(stands))
            try:
                check_declaration(cards, declared, wild)
            except InvalidSubstitution:
                continue
            changed = sum(1 for r in stands if r != wild)
            for p in wild_readings(cards, declared, wild):
                if top is not None and not beats_wild(p, top):
                    continue
                order = (changed, tuple(declared), p.key)
                if ident(p) not in best or order < best[ident(p)]:
                    best[ident(p)] = order
    return {k: v[2] for k, v in best.items()}


@settings(**SETTINGS)
@given(data=st.data())
def test_legal_plays_match_brute_force_with_canonical_declarations(data: st.DataObject) -> None:
    hand, wild = data.draw(wild_hands(max_size=6))
    hand[wild] = min(hand[wild], 3)
    top = data.draw(st.one_of(st.none(), tops(wild)))
    plays = legal_plays_wild(hand, wild, top)
    assert {ident(p): p.key for p in plays} == brute_force(hand, wild, top)


@settings(**SETTINGS)
@given(data=st.data())
def test_every_legal_play_is_held_valid_beats_the_top_and_round_trips(data: st.DataObject) -> None:
    hand, wild = data.draw(wild_hands(max_size=12))
    top = data.draw(st.one_of(st.none(), tops(wild)))
    plays = legal_plays_wild(hand, wild, top)
    assert len({ident(p) for p in plays}) == len(plays)
    for p in plays:
        cards = list(ranks_of_key(p.cards))
        assert all(n <= h for n, h in zip(counts_of(cards), hand, strict=True))
        check_declaration(cards, list(p.ranks), wild)
        assert top is None or beats_wild(p, top)
        text, _, declared = p.notation().partition("=")
        back = read_wild_play(text, declared or None, wild, previous=top)
        assert back is not None and ident(back) == ident(p)
        assert back.bomb_class == p.bomb_class and back.key == p.key
        action = DeclaredPlay(1, text, declared) if declared else PlayCards(1, text)
        assert wild_action_from_json(action.to_json()) == action


@settings(**SETTINGS)
@given(data=st.data())
def test_every_listed_play_equals_the_one_its_constructor_builds(data: st.DataObject) -> None:
    """``wild_play`` builds plays through the slots (a measured speed trick): each play it made
    is equal, field by field and by hash, to ``WildPlay(...)`` with the same fields."""
    hand, wild = data.draw(wild_hands(max_size=12))
    top = data.draw(st.one_of(st.none(), tops(wild)))
    for p in legal_plays_wild(hand, wild, top):
        fields = {f.name: getattr(p, f.name) for f in dataclasses.fields(WildPlay)}
        built = WildPlay(**fields)
        assert built == p and hash(built) == hash(p)
        assert dataclasses.astuple(built) == dataclasses.astuple(p)
        with pytest.raises(dataclasses.FrozenInstanceError):
            p.wilds = 0  # type: ignore[misc]


@settings(**{**SETTINGS, "max_examples": 40})
@given(data=st.data())
def test_legal_plays_match_the_reference_generator_on_full_hands(data: st.DataObject) -> None:
    """The generator built by structure lists exactly the plays of the one that made every
    declared multiset and kept the canonical declaration of each play (tests/rules/
    variant_reference.py), on hands of up to 20 cards with two to four wild cards."""
    hand, wild = data.draw(wild_hands(wilds=data.draw(st.integers(2, 4)), min_size=14))
    top = data.draw(st.one_of(st.none(), tops(wild)))
    plays = legal_plays_wild(hand, wild, top)
    assert len(set(plays)) == len(plays)
    assert set(plays) == set(laizi_plays(hand, wild, top))


@settings(**SETTINGS)
@given(data=st.data())
def test_answers_are_the_leads_that_beat_the_top(data: st.DataObject) -> None:
    hand, wild = data.draw(wild_hands(min_size=10))
    top = data.draw(tops(wild))
    if top is None:
        return
    leads = legal_plays_wild(hand, wild)
    assert set(legal_plays_wild(hand, wild, top)) == {p for p in leads if beats_wild(p, top)}


@settings(**SETTINGS)
@given(
    classes=st.tuples(st.integers(0, 4), st.integers(0, 12), st.integers(0, 1)).filter(
        lambda c: c[0] + 4 * c[2] <= 4
    ),
    landlord=st.integers(0, 2),
    bid=st.integers(1, 3),
    rockets=st.integers(0, 1),
    doubles=st.tuples(st.booleans(), st.booleans(), st.booleans()),
    ending=st.sampled_from(["landlord", "defenders", "spring", "anti_spring"]),
)
def test_scores_are_zero_sum(
    classes: tuple[int, int, int],
    landlord: int,
    bid: int,
    rockets: int,
    doubles: tuple[bool, bool, bool],
    ending: str,
) -> None:
    doubled = tuple(d and seat != landlord for seat, d in enumerate(doubles))
    soft, hard, pure = classes
    base = DealResult(
        landlord=landlord,
        bid=bid,
        doubled=doubled,  # type: ignore[arg-type]
        redoubled=any(doubled),
        bombs=soft + hard + pure,
        rockets=rockets,
        spring=ending == "spring",
        anti_spring=ending == "anti_spring",
        winner="landlord" if ending in ("landlord", "spring") else "defenders",
    )
    result = LaiziResult(base=base, soft_bombs=soft, hard_bombs=hard, pure_wild_bombs=pure)
    scores = score_laizi(result)
    assert sum(scores) == 0
    assert (scores[landlord] > 0) == (base.winner == "landlord")
    # each defender's stake, factor by factor, is the closed form of PROTOCOL-variants §2.4
    stakes = stake_breakdown_laizi(result)
    assert [s.seat for s in stakes] == [seat for seat in range(3) if seat != landlord]
    won = 1 if base.winner == "defenders" else -1
    common = soft + 2 * (hard + pure + rockets) + (ending in ("spring", "anti_spring"))
    for stake in stakes:
        d = int(doubled[stake.seat])
        exponent = common + d + int(base.redoubled) * d
        assert stake.value == stake.product == bid * 2**exponent
        assert scores[stake.seat] == won * stake.value


@pytest.mark.parametrize("seed", range(6))
def test_random_legal_hands_replay_to_the_same_state(seed: int) -> None:
    rng = random.Random(seed)
    deal = deal_from_seed(seed)
    wild = rng.randrange(13)
    state = LaiziHandState(deal, wild=wild)
    while not state.is_over:
        actions = state.legal_actions()
        plays = [a for a in actions if getattr(a, "cards", None)]
        choice = rng.choice(plays) if plays and rng.random() < 0.8 else rng.choice(actions)
        state.push(choice)
    summary = state.summary()
    assert summary["scores"] is not None and sum(summary["scores"]) == 0
    classes = summary["soft_bombs"] + summary["hard_bombs"] + summary["pure_wild_bombs"]
    assert classes == summary["bombs"]
    again = LaiziHandState.from_events(deal, state.to_events(), wild=wild)
    assert again.summary() == summary
    while state.actions:
        state.pop()
    fresh = LaiziHandState(deal, wild=wild)
    assert state.summary() == fresh.summary() and state.hand_text(0) == fresh.hand_text(0)


def test_result_round_trips_through_its_json() -> None:
    base = DealResult(
        landlord=1,
        bid=2,
        doubled=(True, False, False),
        redoubled=True,
        bombs=3,
        rockets=1,
        spring=False,
        anti_spring=False,
        winner="landlord",
    )
    result = LaiziResult(base=base, soft_bombs=0, hard_bombs=2, pure_wild_bombs=1)
    data = result.to_json()
    classes = (data["soft_bombs"], data["hard_bombs"], data["pure_wild_bombs"], data["bombs"])
    assert classes == (0, 2, 1, 3)
    assert LaiziResult.from_json(data) == result
    # 2 x 2^(2·2 hard + 2 pure-wild + 2 rocket), doubled and redoubled for seat 0
    assert score_laizi(result) == (-2048, 2560, -512)
    with pytest.raises(InvalidResult):  # a soft bomb needs a wild card the pure-wild bomb took
        score_laizi(
            dataclasses.replace(result, soft_bombs=1, base=dataclasses.replace(base, bombs=4))
        )
