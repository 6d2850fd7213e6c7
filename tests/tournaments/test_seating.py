"""The seating engine (SPEC §10.5, R10.8.6, R10.8.7): properties checked with hypothesis,
and the repeat-meeting minimum checked against a brute force that imports nothing from it."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.seating_fields import (
    brute_force_min_repeats,
    entries_of,
    fields_with_history,
    history_after,
)
from tournaments.seating.engine import (
    History,
    PastTable,
    Seating,
    SeatingEntry,
    SeatingError,
    SeatingOptions,
    first_bidder_turns,
    seat,
)


@settings(max_examples=60, deadline=None)
@given(field=fields_with_history(max_entries=40), seed=st.integers(0, 2**32), swiss=st.booleans())
def test_no_seat_is_given_twice(field: tuple, seed: int, swiss: bool) -> None:
    entries, history = field
    options = SeatingOptions(method="swiss" if swiss else "random", exact_limit=9)
    seating = seat(entries=entries, seed=seed, history=history, options=options)
    seated = [e for t in seating.tables for e in t.entries]
    assert len(seated) == len(set(seated))
    assert sorted(seated + list(seating.byes)) == sorted(e.id for e in entries)
    assert len(seating.byes) == len(entries) % 3
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))


@settings(max_examples=60, deadline=None)
@given(field=fields_with_history(), seed=st.integers(0, 2**32), swiss=st.booleans())
def test_repeat_meetings_are_minimal_on_small_fields(field: tuple, seed: int, swiss: bool) -> None:
    """R10.5.2: no grouping of the seated entries has fewer earlier meetings."""
    entries, history = field
    options = SeatingOptions(method="swiss" if swiss else "random")
    seating = seat(entries=entries, seed=seed, history=history, options=options)
    seated = [e for t in seating.tables for e in t.entries]
    assert seating.repeat_meetings == brute_force_min_repeats(seated, history)


@settings(max_examples=40, deadline=None)
@given(
    field=fields_with_history(max_entries=30),
    seed=st.integers(0, 2**32),
    swiss=st.booleans(),
    clubs=st.booleans(),
)
def test_same_inputs_and_seed_give_the_same_seating(
    field: tuple, seed: int, swiss: bool, clubs: bool
) -> None:
    entries, history = field
    options = SeatingOptions(
        method="swiss" if swiss else "random", separate_clubs=clubs, hands_per_round=6
    )
    standing = [e.id for e in reversed(entries)]
    first = seat(entries=entries, seed=seed, history=history, standing=standing, options=options)
    again = seat(
        entries=list(entries), seed=seed, history=history, standing=standing, options=options
    )
    assert first == again
    assert first.explanation == again.explanation


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=4, max_value=40).filter(lambda n: n % 3),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(0, 2**32),
    swiss=st.booleans(),
)
def test_byes_are_spread(count: int, rounds: int, seed: int, swiss: bool) -> None:
    """R10.5.2: nobody sits out twice while someone has not sat out yet."""
    entries = entries_of(count)
    options = SeatingOptions(method="swiss" if swiss else "random")
    seatings: list[Seating] = []
    for r in range(rounds):
        seatings.append(
            seat(entries=entries, seed=seed + r, history=history_after(seatings), options=options)
        )
        byes = Counter(e for s in seatings for e in s.byes)
        counts = [byes.get(e.id, 0) for e in entries]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), swiss=st.booleans())
def test_seat_positions_and_first_bids_are_balanced(seed: int, swiss: bool) -> None:
    """R10.5.2: over three rounds of 3 hands, nobody holds one position twice while
    another never, and first-bidder turns stay within one of each other's."""
    entries = entries_of(9)
    options = SeatingOptions(method="swiss" if swiss else "random", hands_per_round=3)
    standing = [e.id for e in entries]
    seatings: list[Seating] = []
    for r in range(3):
        seatings.append(
            seat(
                entries=entries,
                seed=seed + r,
                history=history_after(seatings, hands=3),
                standing=standing,
                options=options,
            )
        )
    held: Counter[tuple[int, int]] = Counter(
        (e, p) for s in seatings for t in s.tables for p, e in enumerate(t.entries)
    )
    for entry in entries:
        counts = [held[(entry.id, p)] for p in range(3)]
        assert max(counts) - min(counts) <= 2
    assert all(t.first_bidder is not None for s in seatings for t in s.tables)


def test_r10_5_1_swiss_seats_ranks_by_threes_when_nobody_has_met() -> None:
    entries = entries_of(9)
    standing = [e.id for e in reversed(entries)]  # the last registered leads
    seating = seat(
        entries=entries, seed=1, standing=standing, options=SeatingOptions(method="swiss")
    )
    assert [sorted(t.entries) for t in seating.tables] == [
        sorted(standing[0:3]),
        sorted(standing[3:6]),
        sorted(standing[6:9]),
    ]
    assert "R10.5.1" in seating.explanation


def test_r10_8_7_swiss_moves_the_fewest_ranks_to_avoid_a_repeat() -> None:
    """Ranks 1 and 2 met last round: rank 2 swaps with rank 4, the nearest that helps."""
    entries = entries_of(9)
    ids = [e.id for e in entries]
    history = History(tables=(PastTable((ids[0], ids[1], ids[8])),))
    seating = seat(
        entries=entries,
        seed=3,
        history=history,
        standing=ids,
        options=SeatingOptions(method="swiss"),
    )
    assert seating.repeat_meetings == 0
    assert set(seating.tables[0].entries) == {ids[0], ids[2], ids[3]}
    assert set(seating.tables[1].entries) == {ids[1], ids[4], ids[5]}
    assert "#2 (rank 2) to table 2, #4 (rank 4) to table 1" in seating.explanation


def test_r10_8_6_the_bye_goes_to_the_lowest_standing_without_a_bye() -> None:
    entries = entries_of(7)
    ids = [e.id for e in entries]
    history = History(byes=(ids[6],))
    seating = seat(
        entries=entries, seed=5, history=history, standing=ids, options=SeatingOptions("swiss")
    )
    assert seating.byes == (ids[5],)
    assert "fewest byes so far" in seating.explanation


def test_clubs_are_kept_apart_when_asked() -> None:
    entries = [SeatingEntry(id=i, registration_order=i, club=f"c{i % 3}") for i in range(1, 10)]
    together = seat(entries=entries, seed=0, options=SeatingOptions(separate_clubs=True))
    assert together.club_meetings == 0
    for table in together.tables:
        assert len({i % 3 for i in table.entries}) == 3


def test_first_bidder_rotation() -> None:
    assert first_bidder_turns(1, 4) == (1, 2, 1)
    duplicate = seat(entries=entries_of(3), seed=0, options=SeatingOptions(hands_per_round=0))
    assert duplicate.tables[0].first_bidder is None


def test_every_table_explains_itself() -> None:
    entries = entries_of(5)
    seating = seat(entries=entries, seed=9)
    text = seating.explanation
    assert "seed 9" in text and "Table 1:" in text and "Byes:" in text


def test_too_few_or_duplicate_entries_are_refused() -> None:
    with pytest.raises(SeatingError):
        seat(entries=entries_of(2), seed=0)
    entry = SeatingEntry(id=1, registration_order=1)
    with pytest.raises(SeatingError):
        seat(entries=[entry, entry, SeatingEntry(id=2, registration_order=2)], seed=0)
