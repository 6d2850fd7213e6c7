"""Deal scores (SPEC §4 R4.6–R4.7, §7 R7.4, §8; PROTOCOL op ``score``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from referee.rules import (
    CLASSIC,
    COMP2016,
    BadResult,
    DealResult,
    InvalidResult,
    RuleProfile,
    score_result,
)


def result(
    *,
    landlord: int = 0,
    bid: int = 1,
    d1: bool = False,
    d2: bool = False,
    redoubled: bool = False,
    bombs: int = 0,
    rockets: int = 0,
    spring: bool = False,
    anti_spring: bool = False,
    winner: str = "landlord",
) -> DealResult:
    """A result with the doubles given per defender: D1 = landlord + 1, D2 = landlord + 2."""
    doubled = [False, False, False]
    doubled[(landlord + 1) % 3] = d1
    doubled[(landlord + 2) % 3] = d2
    return DealResult(
        landlord=landlord,
        bid=bid,
        doubled=(doubled[0], doubled[1], doubled[2]),
        redoubled=redoubled,
        bombs=bombs,
        rockets=rockets,
        spring=spring,
        anti_spring=anti_spring,
        winner=winner,  # type: ignore[arg-type]
    )


def by_role(scores: tuple[int, int, int], landlord: int) -> tuple[int, int, int]:
    """(D1, D2, L) from seat scores."""
    assert sum(scores) == 0, "R8.1: every deal is zero-sum"
    return scores[(landlord + 1) % 3], scores[(landlord + 2) % 3], scores[landlord]


SEATS = pytest.mark.parametrize("landlord", [0, 1, 2])

# SPEC R8.6: (bid, events, doubling, winner) -> D1, D2, L.
R8_6: dict[str, tuple[dict[str, Any], tuple[int, int, int]]] = {
    "E1": ({"bid": 1}, (-1, -1, 2)),
    "E2": ({"bid": 2, "bombs": 1, "rockets": 1, "winner": "defenders"}, (8, 8, -16)),
    "E3": ({"bid": 3, "bombs": 1, "spring": True}, (-12, -12, 24)),
    "E4": (
        {
            "bid": 3,
            "bombs": 1,
            "rockets": 1,
            "anti_spring": True,
            "d1": True,
            "redoubled": True,
            "winner": "defenders",
        },
        (96, 24, -120),
    ),
    "E5": ({"bid": 2, "bombs": 2, "d1": True, "d2": True, "redoubled": True}, (-32, -32, 64)),
    "E6": ({"bid": 1, "d1": True, "winner": "defenders"}, (2, 1, -3)),
    "E7": ({"bid": 3, "d2": True, "redoubled": True}, (-3, -12, 15)),
    "E8": ({"bid": 2, "bombs": 4, "rockets": 1, "spring": True}, (-128, -128, 256)),
    "E9": (
        {
            "bid": 1,
            "anti_spring": True,
            "d1": True,
            "d2": True,
            "redoubled": True,
            "winner": "defenders",
        },
        (8, 8, -16),
    ),
}

# SPEC R4.7 rows a-f.
R4_7: dict[str, tuple[dict[str, Any], tuple[int, int, int]]] = {
    "a": ({"bid": 2}, (-2, -2, 4)),
    "b": ({"bid": 2, "d1": True}, (-4, -2, 6)),
    "c": ({"bid": 2, "d1": True, "redoubled": True}, (-8, -2, 10)),
    "d": ({"bid": 3, "d1": True, "d2": True}, (-6, -6, 12)),
    "e": ({"bid": 3, "d1": True, "d2": True, "redoubled": True}, (-12, -12, 24)),
    "f": ({"bid": 1, "d2": True, "redoubled": True, "winner": "defenders"}, (1, 4, -5)),
}


@SEATS
@pytest.mark.parametrize("example", sorted(R8_6))
def test_r8_6_worked_examples(example: str, landlord: int) -> None:
    fields, expected = R8_6[example]
    scores = score_result(result(landlord=landlord, **fields), COMP2016)
    assert by_role(scores, landlord) == expected


def test_r8_2_rulebook_appendix_1_example() -> None:
    fields, _ = R8_6["E4"]
    assert score_result(result(landlord=0, **fields), COMP2016) == (-120, 96, 24)


@SEATS
@pytest.mark.parametrize("row", sorted(R4_7))
def test_r4_7_doubling_examples(row: str, landlord: int) -> None:
    fields, expected = R4_7[row]
    assert by_role(score_result(result(landlord=landlord, **fields), COMP2016), landlord) == (
        expected
    )


@SEATS
def test_r8_4_classic_score_e10_and_english_wikipedia_example(landlord: int) -> None:
    e10 = result(landlord=landlord, bid=2, bombs=1, winner="defenders")
    assert by_role(score_result(e10, CLASSIC), landlord) == (4, 4, -8)
    # R8.4: bid 2, one bomb and the rocket, a defender goes out: landlord -16, others +8.
    wiki = result(landlord=landlord, bid=2, bombs=1, rockets=1, winner="defenders")
    assert by_role(score_result(wiki, CLASSIC), landlord) == (8, 8, -16)


def test_r7_4_spring_and_anti_spring_count_as_one_doubling() -> None:
    base = score_result(result(bid=2, bombs=1), COMP2016)
    spring = score_result(result(bid=2, bombs=1, spring=True), COMP2016)
    assert spring == tuple(2 * s for s in base)
    base = score_result(result(bid=2, winner="defenders"), COMP2016)
    anti = score_result(result(bid=2, anti_spring=True, winner="defenders"), COMP2016)
    assert anti == tuple(2 * s for s in base)


def test_r4_2_redouble_affects_only_the_defenders_who_doubled() -> None:
    plain = score_result(result(bid=1, d1=True), COMP2016)
    redoubled = score_result(result(bid=1, d1=True, redoubled=True), COMP2016)
    assert plain == (3, -2, -1) and redoubled == (5, -4, -1)


# --- R7.4 / R8.3 / R8.5 profile switches ---------------------------------------------------------


def test_r7_4_spring_factor_switch() -> None:
    triple = dataclasses.replace(COMP2016, key="spring-x3", spring_factor=3)
    e3 = result(bid=3, bombs=1, spring=True)
    assert score_result(e3, triple) == (36, -18, -18)
    assert score_result(result(bid=3, bombs=1), triple) == score_result(
        result(bid=3, bombs=1), COMP2016
    )


def test_r8_3_cap_limits_each_defender_and_the_landlord_to_twice_the_cap() -> None:
    capped = dataclasses.replace(COMP2016, key="cap-24", cap=24)
    fields, _ = R8_6["E8"]
    assert score_result(result(**fields), capped) == (48, -24, -24)
    fields, _ = R8_6["E4"]
    assert score_result(result(**fields), capped) == (-48, 24, 24)
    small = result(bid=1)
    assert score_result(small, capped) == score_result(small, COMP2016)


def test_r8_3_no_cap_by_default() -> None:
    # the most a spring's landlord can play: 4 bombs and the rocket (R7.2)
    huge = result(bid=3, bombs=4, rockets=1, spring=True, d1=True, d2=True, redoubled=True)
    scores = score_result(huge, COMP2016)
    assert scores[1] == -3 * 2 ** (4 + 1 + 1 + 2)


def test_r8_5_sv_13_jj_linear_bombs() -> None:
    jj = dataclasses.replace(COMP2016, key="jj", multiplier_mode="jj_linear_bombs")
    sv13 = result(landlord=0, bid=3, bombs=3)
    assert by_role(score_result(sv13, jj), 0) == (-12, -12, 24)
    assert by_role(score_result(sv13, COMP2016), 0) == (-24, -24, 48)


@pytest.mark.parametrize(
    ("bid", "bombs", "rockets", "spring", "defender"),
    [
        (3, 2, 1, False, 3 * (1 + 2) * 2),  # a rocket doubles (Q15), bombs count linearly
        (3, 0, 1, False, 3 * 1 * 2),
        (2, 1, 0, True, 2 * (1 + 1) * 2),  # a spring doubles too (R7.4)
        (1, 0, 1, True, 1 * 1 * 2 * 2),  # rocket and spring
        (1, 3, 0, False, 1 * (1 + 3)),
    ],
)
def test_r8_5_q15_jj_linear_bombs_doubles_per_rocket_and_spring(
    bid: int, bombs: int, rockets: int, spring: bool, defender: int
) -> None:
    jj = dataclasses.replace(COMP2016, key="jj", multiplier_mode="jj_linear_bombs")
    won = result(landlord=1, bid=bid, bombs=bombs, rockets=rockets, spring=spring)
    assert by_role(score_result(won, jj), 1) == (-defender, -defender, 2 * defender)
    lost = dataclasses.replace(won, winner="defenders", spring=False, anti_spring=spring)
    assert by_role(score_result(lost, jj), 1) == (defender, defender, -2 * defender)


def test_r8_5_jj_linear_bombs_spring_uses_the_profiles_spring_factor() -> None:
    jj3 = dataclasses.replace(
        COMP2016, key="jj3", multiplier_mode="jj_linear_bombs", spring_factor=3
    )
    spring = result(landlord=0, bid=2, bombs=1, rockets=1, spring=True)
    assert by_role(score_result(spring, jj3), 0) == (-24, -24, 48)  # 2 x 2 x 2 x 3


def test_r8_5_sv_14_ccgc_additive() -> None:
    ccgc = dataclasses.replace(COMP2016, key="ccgc", multiplier_mode="ccgc_additive")
    sv14 = result(landlord=0, bid=2, rockets=1, bombs=1, spring=True)
    assert by_role(score_result(sv14, ccgc), 0) == (-8, -8, 16)


# --- invalid results (PROTOCOL op score) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "profile", "word"),
    [
        ({"bid": 0}, COMP2016, "bid"),
        ({"bid": 4}, COMP2016, "bid"),
        ({"redoubled": True}, COMP2016, "redouble"),
        ({"d1": True}, CLASSIC, "doubl"),
        ({"d1": True, "redoubled": True}, CLASSIC, "doubl"),
        ({"spring": True, "winner": "defenders"}, COMP2016, "spring"),
        ({"anti_spring": True, "winner": "landlord"}, COMP2016, "spring"),
        ({"spring": True, "anti_spring": True}, COMP2016, "spring"),
        ({"bombs": 14}, COMP2016, "bomb"),
        ({"bombs": -1}, COMP2016, "bomb"),
        ({"rockets": 2}, COMP2016, "rocket"),
        ({"rockets": -1}, COMP2016, "rocket"),
        ({"winner": "nobody"}, COMP2016, "winner"),
        ({"landlord": 3}, COMP2016, "landlord"),
    ],
)
def test_invalid_result_names_the_contradiction(
    fields: dict[str, Any], profile: RuleProfile, word: str
) -> None:
    landlord = fields.pop("landlord", 0)
    base = result(landlord=landlord if landlord in (0, 1, 2) else 0, **fields)
    if landlord not in (0, 1, 2):
        base = dataclasses.replace(base, landlord=landlord)
    with pytest.raises(InvalidResult) as info:
        score_result(base, profile)
    assert info.value.code == "invalid_result"
    assert word in info.value.message.lower()


def test_invalid_result_when_the_landlord_doubles() -> None:
    bad = dataclasses.replace(result(landlord=1), doubled=(False, True, False))
    with pytest.raises(InvalidResult) as info:
        score_result(bad, COMP2016)
    assert "landlord" in info.value.message.lower()


@pytest.mark.parametrize(
    "doubled",
    [(False, False), (False, False, False, False), ("yes", False, False), None, 7],
    ids=["two", "four", "text", "none", "int"],
)
def test_invalid_result_when_the_doubles_are_not_three_booleans(doubled: Any) -> None:
    bad = dataclasses.replace(result(), doubled=doubled)
    with pytest.raises(InvalidResult):
        score_result(bad, COMP2016)


# --------------------------------------------------------------------------- stake breakdown
def _factors(stake: Any) -> list[tuple[str, int, int]]:
    return [(f.kind, f.count, f.value) for f in stake.factors]


def test_r8_1_breakdown_names_every_factor_of_each_defender() -> None:
    from referee.rules import stake_breakdown

    r = result(landlord=1, bid=2, d1=True, redoubled=True, bombs=2, rockets=1, spring=True)
    first, second = stake_breakdown(r, COMP2016)
    assert (first.seat, second.seat) == (0, 2)  # the defenders, in seat order
    by_seat = {first.seat: first, second.seat: second}
    assert _factors(by_seat[2]) == [
        ("bombs", 2, 4),
        ("rockets", 1, 2),
        ("spring", 1, 2),
        ("doubled", 1, 2),
        ("redoubled", 1, 2),
    ]
    assert _factors(by_seat[0]) == [("bombs", 2, 4), ("rockets", 1, 2), ("spring", 1, 2)]
    assert (by_seat[2].product, by_seat[0].product) == (128, 32)
    assert score_result(r, COMP2016) == (-32, 160, -128)


def test_r8_5_breakdown_follows_the_profiles_multipliers() -> None:
    from referee.rules import stake_breakdown

    linear = dataclasses.replace(
        COMP2016, key="test-linear", multiplier_mode="jj_linear_bombs", spring_factor=3
    )
    additive = dataclasses.replace(COMP2016, key="test-additive", multiplier_mode="ccgc_additive")
    capped = dataclasses.replace(COMP2016, key="test-capped", cap=10)
    r = result(bid=3, bombs=2, anti_spring=True, winner="defenders")
    (stake, _) = stake_breakdown(r, linear)
    assert _factors(stake) == [("bombs", 2, 3), ("anti_spring", 1, 3)]
    assert stake.product == stake.value == 27
    (stake, _) = stake_breakdown(r, additive)
    assert _factors(stake) == [("events", 3, 4)]
    assert stake.value == 12
    (stake, _) = stake_breakdown(r, capped)
    assert (stake.product, stake.value, stake.capped) == (24, 10, True)
    assert _factors(stake_breakdown(result(bid=1), COMP2016)[0]) == []


def test_breakdown_and_scores_agree_on_every_result() -> None:
    """``score_result`` is the breakdown's stakes, signed: checked over a grid of results
    under every mode."""
    from referee.rules import stake_breakdown

    profiles = [
        COMP2016,
        dataclasses.replace(COMP2016, key="l", multiplier_mode="jj_linear_bombs", spring_factor=3),
        dataclasses.replace(COMP2016, key="a", multiplier_mode="ccgc_additive", cap=20),
    ]
    for profile in profiles:
        for bombs in range(4):
            for rockets in (0, 1):
                for d1, d2, redoubled in (
                    (False, False, False),
                    (True, False, True),
                    (True, True, False),
                ):
                    for winner, spring, anti in (
                        ("landlord", False, False),
                        ("landlord", True, False),
                        ("defenders", False, True),
                    ):
                        r = result(
                            landlord=2, bid=2, d1=d1, d2=d2, redoubled=redoubled, bombs=bombs,
                            rockets=rockets, spring=spring, anti_spring=anti, winner=winner,
                        )  # fmt: skip
                        sign = 1 if winner == "defenders" else -1
                        scores = score_result(r, profile)
                        for stake in stake_breakdown(r, profile):
                            assert scores[stake.seat] == sign * stake.value


# --- the JSON form (PROTOCOL op ``score``, a result event's ``result``) -------------------------

PROTOCOL_FORM = {
    "landlord": 2,
    "bid": 3,
    "doubled": [True, False, False],
    "redoubled": True,
    "bombs": 1,
    "rockets": 0,
    "spring": False,
    "anti_spring": True,
    "winner": "defenders",
}


def test_a_result_reads_and_writes_the_protocol_form() -> None:
    read = DealResult.from_json({**PROTOCOL_FORM, "op": "score", "profile": "comp2016"})
    assert read == DealResult(2, 3, (True, False, False), True, 1, 0, False, True, "defenders")
    assert read.to_json() == PROTOCOL_FORM
    assert DealResult.from_json(read.to_json()) == read


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"landlord": None}, "landlord", "field 'landlord' is missing or of the wrong type"),
        ({"bid": True}, "bid", "field 'bid' is missing or of the wrong type"),
        ({"doubled": "no"}, "doubled", "field 'doubled' is missing or of the wrong type"),
        ({"doubled": [True, False]}, "doubled", "field 'doubled' must be three booleans"),
        ({"doubled": [1, 0, 0]}, "doubled", "field 'doubled' must be three booleans"),
        ({"spring": 0}, "spring", "field 'spring' is missing or of the wrong type"),
        ({"winner": 1}, "winner", "field 'winner' is missing or of the wrong type"),
    ],
)
def test_a_malformed_result_names_its_field(
    change: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(BadResult) as excinfo:
        DealResult.from_json({**PROTOCOL_FORM, **change})
    assert (excinfo.value.code, excinfo.value.field, excinfo.value.message) == (
        "bad_request",
        field,
        message,
    )


def test_a_result_is_an_object_and_its_values_are_score_results_question() -> None:
    with pytest.raises(BadResult):
        DealResult.from_json([2, 3])
    missing = {k: v for k, v in PROTOCOL_FORM.items() if k != "anti_spring"}
    with pytest.raises(BadResult, match="'anti_spring' is missing"):
        DealResult.from_json(missing)
    odd = DealResult.from_json({**PROTOCOL_FORM, "winner": "nobody"})  # text: read as written
    with pytest.raises(InvalidResult) as excinfo:
        score_result(odd, COMP2016)
    assert excinfo.value.rule == "R7.1"


def test_stakes_of_hand_is_each_games_own_breakdown() -> None:
    """The one entry point of the stakes (``stakes_of_hand``) answers, for a result of each
    profile, what that game's own breakdown answers; six players settle pairwise (no
    defender's stake)."""
    from referee.rules.big3_scoring import Big3Result, stake_breakdown_big3
    from referee.rules.four_scoring import FourResult, stake_breakdown_four
    from referee.rules.laizi_scoring import LaiziResult, stake_breakdown_laizi
    from referee.rules.profiles import get_profile
    from referee.rules.scoring import result_from_json, stake_breakdown, stakes_of_hand
    from referee.rules.six_five_scoring import FiveResult, stake_breakdown_five

    base = {"landlord": 0, "bid": 2, "winner": "landlord", "doubled": [], "redoubled": False,
            "bombs": 1,
            "rockets": 0, "spring": False, "anti_spring": False}  # fmt: skip
    cases = {
        "comp2016": lambda r: stake_breakdown(r, get_profile("comp2016")),
        "classic": lambda r: stake_breakdown(r, get_profile("classic")),
        "four_p": stake_breakdown_four,
        "laizi": stake_breakdown_laizi,
        "big3": stake_breakdown_big3,
        "five_p": stake_breakdown_five,
    }
    readers = {"four_p": FourResult, "laizi": LaiziResult, "big3": Big3Result, "five_p": FiveResult}
    for key, own in cases.items():
        profile = get_profile(key)
        fields = dict(base, doubled=[False] * profile.seats)
        if key == "big3":
            fields["bombs"] = 0
        if key == "laizi":
            fields = {**fields, "hard_bombs": 1}
        result = result_from_json(fields, profile)
        if key in readers:
            assert isinstance(result, readers[key])
        stakes = stakes_of_hand(result, profile)
        assert stakes == own(result) and len(stakes) == profile.seats - 1, key
    six = get_profile("six_p")
    assert stakes_of_hand(result_from_json(_six_result(), six), six) == ()


def _six_result() -> dict[str, object]:
    return {"landlord": 0, "partner": 3, "bombs": 0, "spring": False, "anti_spring": False,
            "winner": "landlord"}  # fmt: skip
