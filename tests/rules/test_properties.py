"""Property-based tests (hypothesis) and exhaustive cross-checks against ``reference.py``.

* scoring: zero-sum, symmetric between the defenders, only InvalidResult for bad results;
* legal plays: every generated play is a held combination that beats the top play, each
  multiset once, and nothing is missing (table scan for any hand, brute force for small hands);
* the independent reference classifier (SPEC R5.6–R5.23) agrees with ``readings`` on random
  multisets, on every key of the play table, and on every candidate built by brute force;
* random legal games: event logs rebuild the same state, pops return to the start, finished
  hands are zero-sum and spring / anti-spring agree with the play counts;
* no input crashes: notation, protocol requests, and arbitrary actions pushed on a hand.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.rules import (
    CLASSIC,
    COMP2016,
    Bid,
    Card,
    Deal,
    DealResult,
    Double,
    HandState,
    IllegalAction,
    InvalidResult,
    NotationError,
    Pass,
    Phase,
    PlayCards,
    Redouble,
    RuleProfile,
    RulesError,
    beats,
    deal_from_seed,
    format_cards,
    handle_request,
    legal_plays,
    parse_cards,
    parse_ranks,
    readings,
    score_result,
)
from referee.rules.cards import counts_of_key, key_of_counts
from referee.rules.scoring import max_bombs
from referee.rules.table import play_table
from tests.rules.helpers import snapshot
from tests.rules.reference import PACK, ref_beats, ref_readings, ref_score, sub_multisets

PROFILES = [COMP2016, CLASSIC]
VARIANTS = [
    COMP2016,
    CLASSIC,
    dataclasses.replace(COMP2016, key="strict", doubling_order="next_defender_first"),
    dataclasses.replace(COMP2016, key="early-kitty", kitty_reveal="before_doubling"),
    dataclasses.replace(COMP2016, key="no-trio-wings", wing_trio_allowed_if_not_adjacent=False),
    dataclasses.replace(COMP2016, key="short-pairs", max_airplane_pairs_len=3),
]
SCORE_VARIANTS = [
    COMP2016,
    CLASSIC,
    dataclasses.replace(COMP2016, key="cap", cap=24),
    dataclasses.replace(COMP2016, key="spring-x3", spring_factor=3),
    dataclasses.replace(COMP2016, key="jj", multiplier_mode="jj_linear_bombs"),
    dataclasses.replace(COMP2016, key="ccgc", multiplier_mode="ccgc_additive"),
    dataclasses.replace(CLASSIC, key="classic-cap", cap=10),
]
SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}

PACK_RANKS = [r for r in range(15) for _ in range(PACK[r])]  # 54 cards as ranks


def ref_set(counts: list[int] | tuple[int, ...], profile: RuleProfile) -> set[tuple[Any, ...]]:
    return ref_readings(list(counts), profile)


def lib_set(key: int, profile: RuleProfile) -> set[tuple[Any, ...]]:
    return {(p.kind.value, p.rank, p.length) for p in readings(key, profile)}


# --- strategies ---------------------------------------------------------------------------------

profiles = st.sampled_from(PROFILES)


@st.composite
def pack_multisets(draw: st.DrawFn, min_size: int = 1, max_size: int = 20) -> list[int]:
    """Counts of a random sub-multiset of one pack."""
    picks = draw(st.lists(st.integers(0, 53), min_size=min_size, max_size=max_size, unique=True))
    counts = [0] * 15
    for i in picks:
        counts[PACK_RANKS[i]] += 1
    return counts


@st.composite
def rich_hands(draw: st.DrawFn, profile: RuleProfile, max_size: int = 20) -> list[int]:
    """A hand made of one to four random combinations of the table (so airplanes, fours and
    chains are common), trimmed to ``max_size`` cards and to one pack."""
    keys = _table_keys(profile)
    counts = [0] * 15
    for _ in range(draw(st.integers(1, 4))):
        for rank, n in enumerate(counts_of_key(keys[draw(st.integers(0, len(keys) - 1))])):
            counts[rank] = min(PACK[rank], counts[rank] + n)
    while sum(counts) > max_size:
        held = [r for r in range(15) if counts[r]]
        counts[held[draw(st.integers(0, len(held) - 1))]] -= 1
    return counts


@st.composite
def near_combinations(draw: st.DrawFn, profile: RuleProfile) -> list[int]:
    """A legal multiset of the profile's table with a card added, removed or changed."""
    keys = _table_keys(profile)
    counts = counts_of_key(keys[draw(st.integers(0, len(keys) - 1))])
    for _ in range(draw(st.integers(0, 2))):
        rank = draw(st.integers(0, 14))
        delta = draw(st.sampled_from([-1, 1]))
        counts[rank] = min(PACK[rank], max(0, counts[rank] + delta))
    return counts


_KEYS: dict[str, list[int]] = {}
_PLAYS: dict[str, list[Any]] = {}


def _table_keys(profile: RuleProfile) -> list[int]:
    if profile.key not in _KEYS:
        _KEYS[profile.key] = sorted(play_table(profile))
    return _KEYS[profile.key]


def _all_plays(profile: RuleProfile) -> list[Any]:
    if profile.key not in _PLAYS:
        table = play_table(profile)
        _PLAYS[profile.key] = [p for key in _table_keys(profile) for p in table[key]]
    return _PLAYS[profile.key]


# --- scoring ------------------------------------------------------------------------------------


@st.composite
def valid_results(draw: st.DrawFn, profile: RuleProfile) -> DealResult:
    landlord = draw(st.integers(0, 2))
    winner = draw(st.sampled_from(["landlord", "defenders"]))
    doubled = [False, False, False]
    redoubled = False
    if profile.has_doubling:
        for seat in range(3):
            if seat != landlord:
                doubled[seat] = draw(st.booleans())
        redoubled = any(doubled) and draw(st.booleans())
    bonus = draw(st.booleans())
    spring, anti = bonus and winner == "landlord", bonus and winner == "defenders"
    rockets = draw(st.integers(0, 1))
    most = max_bombs(winner=winner, rockets=rockets, spring=spring, anti_spring=anti)
    return DealResult(
        landlord=landlord,
        bid=draw(st.integers(1, 3)),
        doubled=(doubled[0], doubled[1], doubled[2]),
        redoubled=redoubled,
        bombs=draw(st.integers(0, most)),
        rockets=rockets,
        spring=spring,
        anti_spring=anti,
        winner=winner,  # type: ignore[arg-type]
    )


@settings(max_examples=300, **SETTINGS)
@given(data=st.data(), profile=st.sampled_from(SCORE_VARIANTS))
def test_score_result_is_zero_sum_for_every_valid_result(
    data: st.DataObject, profile: RuleProfile
) -> None:
    result = data.draw(valid_results(profile))
    scores = score_result(result, profile)
    assert sum(scores) == 0
    won = result.winner == "defenders"
    for seat in range(3):
        if seat != result.landlord:
            assert (scores[seat] > 0) == won and scores[seat] != 0
            assert scores[seat] % result.bid == 0 or profile.cap is not None


@settings(max_examples=200, **SETTINGS)
@given(data=st.data(), profile=st.sampled_from(SCORE_VARIANTS))
def test_swapping_the_defenders_doubles_swaps_their_scores(
    data: st.DataObject, profile: RuleProfile
) -> None:
    result = data.draw(valid_results(profile))
    d1, d2 = (result.landlord + 1) % 3, (result.landlord + 2) % 3
    doubled = list(result.doubled)
    doubled[d1], doubled[d2] = doubled[d2], doubled[d1]
    swapped = dataclasses.replace(result, doubled=(doubled[0], doubled[1], doubled[2]))
    before, after = score_result(result, profile), score_result(swapped, profile)
    assert after[d1] == before[d2] and after[d2] == before[d1]
    assert after[result.landlord] == before[result.landlord]


@settings(max_examples=200, **SETTINGS)
@given(data=st.data(), profile=st.sampled_from(SCORE_VARIANTS))
def test_a_result_round_trips_through_json(data: st.DataObject, profile: RuleProfile) -> None:
    result = data.draw(valid_results(profile))
    text = json.dumps(result.to_json())
    assert DealResult.from_json(json.loads(text)) == result


any_value = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 16), st.text(max_size=3), st.floats(-1, 4)
)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _valid(r: DealResult, profile: RuleProfile) -> bool:
    """PROTOCOL op score: the contradictions that make a result impossible."""
    if not (_is_int(r.landlord) and r.landlord in (0, 1, 2)):
        return False
    if not (_is_int(r.bid) and 1 <= r.bid <= 3):
        return False
    if len(r.doubled) != 3 or not all(isinstance(d, bool) for d in r.doubled):
        return False
    if r.doubled[r.landlord]:
        return False
    if not profile.has_doubling and (any(r.doubled) or r.redoubled):
        return False
    if r.redoubled and not any(r.doubled):
        return False
    if not (_is_int(r.bombs) and 0 <= r.bombs <= 13):
        return False
    if not (_is_int(r.rockets) and 0 <= r.rockets <= 1):
        return False
    if r.winner not in ("landlord", "defenders"):
        return False
    if r.spring and r.anti_spring:
        return False
    if r.spring and r.winner != "landlord":
        return False
    if r.anti_spring and r.winner != "defenders":
        return False
    # the cards of one pack (tests/rules/test_result_bounds.py checks max_bombs by brute force)
    return r.bombs <= max_bombs(
        winner=r.winner, rockets=r.rockets, spring=r.spring, anti_spring=r.anti_spring
    )


@settings(max_examples=400, **SETTINGS)
@given(
    profile=st.sampled_from(SCORE_VARIANTS),
    landlord=st.one_of(st.integers(-1, 3), any_value),
    bid=st.one_of(st.integers(-1, 5), any_value),
    doubled=st.one_of(
        st.tuples(st.booleans(), st.booleans(), st.booleans()),
        st.lists(st.one_of(st.booleans(), st.integers(0, 1), st.text(max_size=1)), max_size=4),
    ),
    redoubled=st.booleans(),
    bombs=st.one_of(st.integers(-2, 15), any_value),
    rockets=st.one_of(st.integers(-1, 2), any_value),
    spring=st.booleans(),
    anti_spring=st.booleans(),
    winner=st.one_of(st.sampled_from(["landlord", "defenders", "draw", ""]), any_value),
)
def test_invalid_results_raise_invalid_result_only(
    profile: RuleProfile,
    landlord: Any,
    bid: Any,
    doubled: Any,
    redoubled: bool,
    bombs: Any,
    rockets: Any,
    spring: bool,
    anti_spring: bool,
    winner: Any,
) -> None:
    result = DealResult(
        landlord, bid, doubled, redoubled, bombs, rockets, spring, anti_spring, winner
    )
    try:
        scores = score_result(result, profile)
    except InvalidResult as exc:
        assert exc.code in ("invalid_result", "impossible_result") and exc.message
        assert not _valid(result, profile), f"a valid result was refused: {exc}"
    else:
        assert _valid(result, profile), f"an impossible result was scored: {scores}"
        assert sum(scores) == 0


# --- legal plays: generator against table and reference ----------------------------------------


@st.composite
def hands_and_previous(draw: st.DrawFn, profile: RuleProfile, max_size: int) -> tuple[Any, Any]:
    counts = draw(st.one_of(pack_multisets(1, max_size), rich_hands(profile, max_size)))
    previous = None
    if draw(st.booleans()):
        plays = _all_plays(profile)
        previous = plays[draw(st.integers(0, len(plays) - 1))]
    return counts, previous


@settings(max_examples=60, **SETTINGS)
@given(data=st.data(), profile=profiles)
def test_every_generated_play_is_a_held_combination_that_beats_the_top(
    data: st.DataObject, profile: RuleProfile
) -> None:
    counts, previous = data.draw(hands_and_previous(profile, 20))
    got = legal_plays(counts, previous, profile)
    keys = [p.key for p in got]
    assert len(keys) == len(set(keys)), "each distinct multiset appears once"
    table = play_table(profile)
    for play in got:
        assert play in readings(play.key, profile), "a generated play is one of its readings"
        assert all(c <= h for c, h in zip(counts_of_key(play.key), counts, strict=True))
        if previous is not None:
            assert beats(play, previous)
    # completeness: every combination of the table that the hand holds (and that beats)
    wanted = {
        key
        for key in table
        if all(c <= h for c, h in zip(counts_of_key(key), counts, strict=True))
        and (previous is None or any(beats(p, previous) for p in table[key]))
    }
    assert set(keys) == wanted


@settings(max_examples=150, **SETTINGS)
@given(data=st.data(), profile=profiles)
def test_small_hands_every_sub_multiset_with_a_reference_reading_is_generated(
    data: st.DataObject, profile: RuleProfile
) -> None:
    counts, previous = data.draw(hands_and_previous(profile, 8))
    if previous is not None and data.draw(st.booleans()):
        # a top play of the same kind as something the hand holds makes answers likelier
        own = legal_plays(counts, None, profile)
        previous = own[data.draw(st.integers(0, len(own) - 1))]
    top = None if previous is None else (previous.kind.value, previous.rank, previous.length)
    wanted = set()
    for sub in sub_multisets(counts):
        found = ref_set(sub, profile)
        if found and (top is None or any(ref_beats(r, top) for r in found)):
            wanted.add(key_of_counts(sub))
    got = [p.key for p in legal_plays(counts, previous, profile)]
    assert len(got) == len(set(got))
    assert set(got) == wanted


# --- the independent reference classifier -------------------------------------------------------


@settings(max_examples=300, **SETTINGS)
@given(counts=pack_multisets(), profile=st.sampled_from(VARIANTS))
def test_reference_classifier_agrees_on_random_multisets(
    counts: list[int], profile: RuleProfile
) -> None:
    assert lib_set(key_of_counts(counts), profile) == ref_set(counts, profile)


@settings(max_examples=300, **SETTINGS)
@given(data=st.data(), profile=st.sampled_from(VARIANTS))
def test_reference_classifier_agrees_next_to_legal_combinations(
    data: st.DataObject, profile: RuleProfile
) -> None:
    counts = data.draw(near_combinations(profile))
    assume(any(counts))
    assert lib_set(key_of_counts(counts), profile) == ref_set(counts, profile)


def test_reference_classifier_agrees_on_every_key_of_the_play_table() -> None:
    for profile in VARIANTS:
        table = play_table(profile)
        assert table, profile.key
        wrong = [
            (counts_of_key(key), lib_set(key, profile), ref_set(counts_of_key(key), profile))
            for key in table
            if lib_set(key, profile) != ref_set(counts_of_key(key), profile)
        ]
        assert wrong == [], f"{profile.key}: {len(wrong)} keys disagree, e.g. {wrong[:3]}"


def _candidates() -> set[tuple[int, ...]]:
    """Brute-force candidates, independent of the library: every multiset of up to 6 cards;
    every body of 2..5 consecutive trios 3..A plus any k cards; every body of 2..4 trios plus
    any k 'pairs' (including a joker 'pair' X+D, a split bomb, a pair of a body rank); every
    four of a kind plus any two such 'pairs'; every run of singles, pairs and trios."""
    out: set[tuple[int, ...]] = set()
    for size in range(1, 7):
        for combo in itertools.combinations_with_replacement(range(15), size):
            out.add(tuple(combo.count(r) for r in range(15)))
    units = [(r, r) for r in range(13)] + [(13, 14)]
    for k in range(2, 6):
        for low in range(0, 13 - k):
            body = [0] * 15
            for r in range(low, low + k):
                body[r] = 3
            for wings in itertools.combinations_with_replacement(range(15), k):
                counts = list(body)
                for r in wings:
                    counts[r] += 1
                out.add(tuple(counts))
            if k <= 4:
                for pairs in itertools.combinations_with_replacement(units, k):
                    counts = list(body)
                    for a, b in pairs:
                        counts[a] += 1
                        counts[b] += 1
                    out.add(tuple(counts))
    for four in range(13):
        for pairs in itertools.combinations_with_replacement(units, 2):
            counts = [0] * 15
            counts[four] = 4
            for a, b in pairs:
                counts[a] += 1
                counts[b] += 1
            out.add(tuple(counts))
    for per in (1, 2, 3):
        for low in range(12):
            for high in range(low, 12):
                out.add(tuple(per if low <= r <= high else 0 for r in range(15)))
    return {c for c in out if all(n <= p for n, p in zip(c, PACK, strict=True))}


def test_play_table_holds_every_combination_the_reference_finds_by_brute_force() -> None:
    candidates = _candidates()
    for profile in PROFILES:
        table = play_table(profile)
        legal = {c for c in candidates if ref_set(c, profile)}
        missing = [c for c in legal if key_of_counts(c) not in table]
        assert missing == [], f"{profile.key}: {len(missing)} combinations missing"
        assert len(legal) > 10_000


# --- random legal games -------------------------------------------------------------------------


def _rank_only_deal(rng: random.Random) -> Deal:
    ranks = list(PACK_RANKS)
    rng.shuffle(ranks)
    hands = tuple(tuple(Card(r) for r in sorted(ranks[i * 17 : i * 17 + 17])) for i in range(3))
    kitty = tuple(Card(r) for r in ranks[51:])
    return Deal(hands=hands, kitty=kitty, first_bidder=rng.randrange(3))  # type: ignore[arg-type]


def _light(state: HandState) -> tuple[Any, ...]:
    return (
        state.summary(),
        state.phase,
        state.turn,
        state.card_counts,
        state.top_play,
        state.top_seat,
        state.doubled,
        state.redoubled,
        state.kitty_revealed,
        state.announcements,
        state.plays,
        tuple(state.hand_of(s) for s in range(3)),
    )


def _play_random_game(seed: int, suited: bool, profile: RuleProfile) -> tuple[HandState, Any]:
    rng = random.Random(seed)
    deal = deal_from_seed(seed) if suited else _rank_only_deal(rng)
    state = HandState(deal, profile)
    start = snapshot(state)
    history = [_light(state)]
    pass_bias = rng.random()
    for _ in range(500):
        if state.is_over:
            break
        actions = state.legal_actions()
        assert actions, "a hand that has not ended always has a legal action"
        if isinstance(actions[0], Bid):  # bid more often than not, so few hands pass out
            bids = [a for a in actions if a.value] if rng.random() < 0.6 else []
            action = rng.choice(bids or actions)
        elif Pass(actions[0].seat) in actions and rng.random() < pass_bias:
            action = Pass(actions[0].seat)
        else:
            action = rng.choice(actions)
        state.push(action)
        history.append(_light(state))
    assert state.is_over, "a game of legal actions ends"
    return state, (deal, start, history)


@settings(max_examples=60, **SETTINGS)
@given(seed=st.integers(0, 2**32), suited=st.booleans(), profile=st.sampled_from(VARIANTS))
def test_random_legal_games_replay_pop_and_score_consistently(
    seed: int, suited: bool, profile: RuleProfile
) -> None:
    state, (deal, start, history) = _play_random_game(seed, suited, profile)
    events = state.to_events()
    json.dumps(events)

    rebuilt = HandState.from_events(deal, events, profile)
    assert snapshot(rebuilt) == snapshot(state)

    # the protocol sees the same hand (deal written as text, events as JSON)
    if profile in PROFILES:
        answer = handle_request(
            {"op": "replay", "profile": profile.key, "deal": deal.to_json(), "events": events}
        )
        assert answer == state.summary()

    # every card is either still held or was played, once
    played = Counter(r for trick in state.plays for r in _ranks_of(trick.play.key))
    held = Counter(c.rank for s in range(3) for c in state.hand_of(s))
    if not state.kitty_revealed:
        held.update(c.rank for c in deal.kitty)
    assert played + held == Counter(PACK_RANKS)
    assert state.card_counts == tuple(len(state.hand_of(s)) for s in range(3))

    scores = state.scores()
    assert scores is not None and sum(scores) == 0
    if state.phase is Phase.FINISHED:
        landlord = state.landlord
        assert landlord is not None
        counts = Counter(trick.seat for trick in state.plays)
        defenders_played = sum(n for seat, n in counts.items() if seat != landlord)
        spring = state.winner == "landlord" and defenders_played == 0
        anti = state.winner == "defenders" and counts[landlord] == 1
        assert state.spring == spring and state.anti_spring == anti
        assert not (state.spring and state.anti_spring)
        if state.winner == "landlord":
            assert state.card_counts[landlord] == 0
        else:
            assert 0 in (
                state.card_counts[(landlord + 1) % 3],
                state.card_counts[(landlord + 2) % 3],
            )
        bombs = sum(1 for t in state.plays if t.play.kind.value == "bomb")
        rockets = sum(1 for t in state.plays if t.play.kind.value == "rocket")
        assert (state.bombs, state.rockets) == (bombs, rockets)
        expected = ref_score(
            landlord=landlord,
            bid=state.bid or 0,
            doubled=[d is True for d in state.doubled],
            redoubled=state.redoubled is True,
            bombs=bombs,
            rockets=rockets,
            spring=spring,
            anti_spring=anti,
            winner=state.winner or "",
            doubling=profile.has_doubling,
        )
        assert list(scores) == expected, "R8.1"
    else:
        assert state.phase is Phase.PASSED_OUT and scores == (0, 0, 0)

    # popping every action walks back through the same states to the start
    for expected in reversed(history[:-1]):
        state.pop()
        assert _light(state) == expected
    assert snapshot(state) == start


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32), profile=st.sampled_from(PROFILES))
def test_a_legal_play_of_a_dealt_hand_names_the_lowest_suits_held_of_each_rank(
    seed: int, profile: RuleProfile
) -> None:
    """A legal play offered from a deal with suits is written with the physical cards the
    seat holds: of each rank it plays, the cards that come first in the hand's order."""
    rng = random.Random(seed)
    state = HandState(deal_from_seed(seed), profile)
    while not state.is_over:
        actions = state.legal_actions()
        if state.phase is Phase.PLAYING:
            held = state.hand_of(actions[0].seat)
            for action in actions:
                if not isinstance(action, PlayCards):
                    continue
                cards = parse_cards(action.cards)
                wanted = Counter(card.rank for card in cards)
                lowest = [
                    card
                    for rank, n in sorted(wanted.items())
                    for card in [c for c in held if c.rank == rank][:n]
                ]
                assert action.cards == format_cards(lowest), action
        state.push(rng.choice(actions))


def _ranks_of(key: int) -> list[int]:
    return [r for r, n in enumerate(counts_of_key(key)) for _ in range(n)]


# --- no input crashes ---------------------------------------------------------------------------

notation_text = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="3456789TJQKA2XDtjqkaxd10 ,+-♠♥♣♦SHCshc小王大王BRPp?\t", max_size=30),
)


@settings(max_examples=500, **SETTINGS)
@given(text=notation_text)
def test_notation_parsers_raise_only_notation_error(text: str) -> None:
    try:
        ranks = parse_ranks(text)
    except NotationError as exc:
        assert exc.code == "bad_notation" and exc.token
    else:
        assert list(ranks) == sorted(ranks) and all(0 <= r <= 14 for r in ranks)
    try:
        cards = parse_cards(text)
    except NotationError as exc:
        assert exc.code == "bad_notation" and exc.token
    else:
        assert all(isinstance(c, Card) for c in cards)
    try:
        ranks = parse_ranks(text)
    except NotationError:
        return
    # R1.5 / R1.7: a text the rank notation accepts is read as exactly those ranks, no suits
    assert sorted(parse_cards(text), key=lambda c: c.rank) == [Card(r) for r in ranks]


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(
        [
            "3",
            "33",
            "pass",
            "XD",
            "666777AA",
            "comp2016",
            "classic",
            "landlord",
            "defenders",
            "♠A",
            "10",
            "33Z",
            "",
        ]
    ),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = [
    "id",
    "op",
    "profile",
    "cards",
    "previous",
    "hand",
    "landlord",
    "bid",
    "doubled",
    "redoubled",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "winner",
    "deal",
    "events",
]
OPS = ["classify", "legal_plays", "score", "replay", "shuffle"]
DEAL_JSON = deal_from_seed(9).to_json()
events_json = st.lists(
    st.fixed_dictionaries(
        {"seat": st.one_of(st.integers(-1, 3), json_scalars)},
        optional={
            "bid": json_values,
            "double": json_values,
            "redouble": json_values,
            "play": st.one_of(notation_text, json_scalars),
        },
    ),
    max_size=6,
)
requests = st.one_of(
    json_values,
    st.builds(
        lambda op, fields: {"op": op, **fields},
        st.sampled_from(OPS),
        st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=9),
    ),
    st.builds(
        lambda profile, events: {
            "op": "replay",
            "profile": profile,
            "deal": DEAL_JSON,
            "events": events,
        },
        st.sampled_from(["comp2016", "classic"]),
        events_json,
    ),
)
ANSWER_KEYS = {"classify": "legal", "legal_plays": "plays", "score": "scores", "replay": "ok"}


@settings(max_examples=600, **SETTINGS)
@given(request=requests)
def test_handle_request_never_raises_and_always_answers(request: Any) -> None:
    answer = handle_request(request)
    assert isinstance(answer, dict)
    json.dumps(answer)
    if "error" in answer and answer.get("ok") is not False:
        assert isinstance(answer["error"], str) and answer["error"]
        return
    op = request.get("op") if isinstance(request, dict) else None
    assert op in ANSWER_KEYS, answer
    assert ANSWER_KEYS[op] in answer, answer
    if isinstance(request, dict) and "id" in request:
        assert answer["id"] == request["id"]


seats = st.one_of(st.integers(0, 2), st.integers(-2, 5), st.none(), st.text(max_size=1))
values = st.one_of(st.integers(-1, 4), st.booleans(), st.none(), st.text(max_size=2))
card_texts = st.one_of(notation_text, st.none(), st.integers(0, 99))


@st.composite
def random_actions(draw: st.DrawFn, state: HandState) -> Any:
    """Mostly legal actions (so the hand moves on), often garbage."""
    if draw(st.integers(0, 3)) == 0 and state.legal_actions():
        legal = state.legal_actions()
        return legal[draw(st.integers(0, len(legal) - 1))]
    kind = draw(st.sampled_from(["bid", "double", "redouble", "play", "pass"]))
    seat = draw(seats)
    if kind == "bid":
        return Bid(seat, draw(values))
    if kind == "double":
        return Double(seat, draw(values))
    if kind == "redouble":
        return Redouble(seat, draw(values))
    if kind == "pass":
        return Pass(seat)
    return PlayCards(seat, draw(card_texts))


@settings(max_examples=60, **SETTINGS)
@given(
    data=st.data(),
    seed=st.integers(0, 2**16),
    suited=st.booleans(),
    profile=st.sampled_from(VARIANTS),
)
def test_pushing_arbitrary_actions_raises_only_rules_errors_and_changes_nothing_on_error(
    data: st.DataObject, seed: int, suited: bool, profile: RuleProfile
) -> None:
    deal = deal_from_seed(seed) if suited else _rank_only_deal(random.Random(seed))
    state = HandState(deal, profile)
    for _ in range(data.draw(st.integers(1, 40))):
        before = _light(state)
        action = data.draw(random_actions(state))
        try:
            state.push(action)
        except (IllegalAction, NotationError, RulesError):
            assert _light(state) == before, action
        else:
            assert state.card_counts == tuple(len(state.hand_of(s)) for s in range(3))
            assert state.actions[-1] == action
