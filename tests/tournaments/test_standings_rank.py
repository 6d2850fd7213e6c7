"""The pure ranking module against SPEC §10 (the MV examples of vectors/variants.md)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings.ranking import (
    EntryTotals,
    MatchpointGroup,
    Meeting,
    TiebreakError,
    standings_rank,
    tiebreaks_check,
)


def entry(entry_id: int, **fields: object) -> EntryTotals:
    return EntryTotals(entry_id=entry_id, registration_order=entry_id, **fields)  # type: ignore[arg-type]


def ranks(standings: list) -> dict[int, int]:
    return {s.entry_id: s.rank for s in standings}


def test_r10_4_4_mv03_standing_is_the_mean_of_the_board_ratios() -> None:
    # Three boards of groups of 4: 6/6, 3/6, 0/6 -> 100 %, 50 %, 0 % -> 50 %.
    groups = [
        MatchpointGroup(entry_id=1, n=4, results=1, matchpoints=6, tops=1),
        MatchpointGroup(entry_id=1, n=4, results=1, matchpoints=3, tops=0),
        MatchpointGroup(entry_id=1, n=4, results=1, matchpoints=0, tops=0),
    ]
    [s] = standings_rank(format="duplicate", tiebreaks=[], entries=[entry(1)], matchpoints=groups)
    assert s.mp_percentage == 50
    assert (s.matchpoints, s.matchpoint_top, s.boards_scored, s.tops) == (9, 18, 3, 1)


def test_r10_8_3_percentage_is_the_mean_of_ratios_not_sum_over_tops() -> None:
    # 2/2 in a group of 2 (100 %) and 0/6 in a group of 4 (0 %): mean 50 %, ΣMP/ΣTop 25 %.
    groups = [
        MatchpointGroup(entry_id=1, n=2, results=1, matchpoints=2, tops=1),
        MatchpointGroup(entry_id=1, n=4, results=1, matchpoints=0, tops=0),
    ]
    [s] = standings_rank(format="duplicate", tiebreaks=[], entries=[entry(1)], matchpoints=groups)
    assert s.mp_percentage == 50
    assert Fraction(s.matchpoints, s.matchpoint_top) == Fraction(1, 4)


def test_r10_8_4_an_entry_with_no_scored_board_has_zero_percent() -> None:
    [s] = standings_rank(format="duplicate", tiebreaks=[], entries=[entry(1, hands_played=3)])
    assert s.mp_percentage == 0
    assert s.hands_played == 3


def test_r10_6_1_mv05_opponents_outscored_breaks_an_equal_percentage() -> None:
    # A (1) and B (2) at 62.5 %; A outscored an opponent at 55 %, B one at 48 %.
    def group(entry_id: int, mp: int) -> MatchpointGroup:
        return MatchpointGroup(entry_id=entry_id, n=201, results=1, matchpoints=mp, tops=0)

    groups = [group(1, 250), group(2, 250), group(3, 220), group(4, 192)]
    meetings = [
        Meeting(1, 10, 1, 30),
        Meeting(1, 10, 3, -30),
        Meeting(1, 11, 2, 30),
        Meeting(1, 11, 4, -30),
    ]
    standings = standings_rank(
        format="duplicate",
        tiebreaks=[],
        entries=[entry(2), entry(1), entry(3), entry(4)],
        matchpoints=groups,
        meetings=meetings,
    )
    by_id = {s.entry_id: s for s in standings}
    assert by_id[1].mp_percentage == by_id[2].mp_percentage == Fraction(125, 2)
    assert by_id[1].opponents_outscored == 55
    assert by_id[2].opponents_outscored == 48
    assert ranks(standings)[1] == 1
    assert ranks(standings)[2] == 2


def test_r10_6_2_mv06_equal_totals_go_to_the_winner_of_the_last_deal() -> None:
    standings = standings_rank(
        format="table",
        tiebreaks=[],
        entries=[entry(1, deal_points=10), entry(2, deal_points=10, last_deal_won=True)],
    )
    assert ranks(standings) == {2: 1, 1: 2}


def test_r10_6_2_mv06_then_the_earlier_registration() -> None:
    standings = standings_rank(
        format="swiss",
        tiebreaks=[],
        entries=[entry(2, deal_points=10), entry(1, deal_points=10)],
    )
    assert ranks(standings) == {1: 1, 2: 2}


def test_r10_8_2_penalties_change_the_total_only() -> None:
    standings = standings_rank(
        format="table",
        tiebreaks=[],
        entries=[entry(1, deal_points=10, penalty_points=-6), entry(2, deal_points=5)],
    )
    assert [(s.entry_id, s.total, s.deal_points) for s in standings] == [(2, 5, 5), (1, 4, 10)]


def test_r10_8_5_equal_after_the_chain_share_a_rank_1_2_2_4() -> None:
    standings = standings_rank(
        format="table",
        tiebreaks=["last_deal"],
        entries=[
            entry(1, deal_points=9),
            entry(2, deal_points=5),
            entry(3, deal_points=5),
            entry(4, deal_points=-19),
        ],
    )
    assert [s.rank for s in standings] == [1, 2, 2, 4]


def test_r10_8_6_withdrawn_entries_rank_below_every_active_entry() -> None:
    standings = standings_rank(
        format="table",
        tiebreaks=[],
        entries=[
            entry(1, deal_points=50, withdrawn=True),
            entry(2, deal_points=-5),
            entry(3, deal_points=-45),
        ],
    )
    assert [(s.entry_id, s.rank) for s in standings] == [(2, 1), (3, 2), (1, 3)]


def test_r10_3_2_mv07_head_to_head_placement_points() -> None:
    # Totals tie at 0; in their meeting entry 2 outscored entry 1 (+30 against +30 is a tie
    # with entry 3, who is not in the tied group).
    meetings = [
        Meeting(1, 1, 1, -10),
        Meeting(1, 1, 2, 40),
        Meeting(1, 1, 3, -30),
        Meeting(2, 5, 1, 10),
        Meeting(2, 6, 2, -40),
    ]
    standings = standings_rank(
        format="table",
        tiebreaks=["head_to_head", "registration"],
        entries=[entry(1), entry(2), entry(3, deal_points=-30)],
        meetings=meetings,
    )
    assert [s.entry_id for s in standings] == [2, 1, 3]


@pytest.mark.parametrize(
    ("format", "chain", "message"),
    [
        ("table", ["nonsense"], "unknown tie-break"),
        ("table", ["tops"], "duplicate play only"),
        ("table", ["total"], "already the first criterion"),
        ("duplicate", ["tops", "tops"], "named twice"),
        ("table", "last_deal", "is a list"),
    ],
)
def test_a_tiebreak_chain_names_known_usable_criteria(
    format: str, chain: object, message: str
) -> None:
    with pytest.raises(TiebreakError, match=message):
        tiebreaks_check(format=format, tiebreaks=chain)  # type: ignore[arg-type]


def test_the_default_chains_are_valid() -> None:
    tiebreaks_check(format="duplicate", tiebreaks=["opponents_outscored", "tops", "head_to_head"])
    tiebreaks_check(format="table", tiebreaks=["last_deal", "head_to_head", "registration"])


@given(
    st.lists(st.tuples(st.integers(-50, 50), st.booleans(), st.booleans()), min_size=1, max_size=30)
)
def test_ranks_are_competition_ranks_and_respect_the_chain(
    rows: list[tuple[int, bool, bool]],
) -> None:
    entries = [
        entry(i + 1, deal_points=p, last_deal_won=w, withdrawn=wd)
        for i, (p, w, wd) in enumerate(rows)
    ]
    standings = standings_rank(format="table", tiebreaks=["last_deal"], entries=entries)
    assert sorted(s.entry_id for s in standings) == [e.entry_id for e in entries]

    def key(s: object) -> tuple[bool, int, int]:
        return (s.withdrawn, -s.total, -int(s.last_deal_won))  # type: ignore[attr-defined]

    for i, s in enumerate(standings):
        # rank = 1 + the number of entries strictly ahead of it
        assert s.rank == 1 + sum(1 for o in standings if key(o) < key(s))
        if i:
            assert key(standings[i - 1]) <= key(s)
