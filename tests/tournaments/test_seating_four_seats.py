"""The seating engine at four-seat tables (``four_p``, SPEC §11.1; issue 20 step 3): the
properties of three-seat tables hold with tables of four, checked with hypothesis, and the
repeat-meeting minimum against a brute force that imports nothing from the engine."""

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
    BAD_TABLE_SIZE,
    TOO_FEW_ENTRIES,
    History,
    PastTable,
    Seating,
    SeatingEntry,
    SeatingError,
    SeatingOptions,
    first_bidder_turns,
    seat,
)


def _options(swiss: bool = False, **more: object) -> SeatingOptions:
    return SeatingOptions(method="swiss" if swiss else "random", table_size=4, **more)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(
    field=fields_with_history(max_entries=41, size=4),
    seed=st.integers(0, 2**32),
    swiss=st.booleans(),
)
def test_every_entry_sits_once_at_a_table_of_four_or_has_a_bye(
    field: tuple, seed: int, swiss: bool
) -> None:
    entries, history = field
    seating = seat(entries=entries, seed=seed, history=history, options=_options(swiss))
    seated = [e for t in seating.tables for e in t.entries]
    assert all(len(t.entries) == 4 for t in seating.tables)
    assert len(seated) == len(set(seated))
    assert sorted(seated + list(seating.byes)) == sorted(e.id for e in entries)
    assert len(seating.byes) == len(entries) % 4
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))


@settings(max_examples=40, deadline=None)
@given(
    field=fields_with_history(max_entries=12, size=4),
    seed=st.integers(0, 2**32),
    swiss=st.booleans(),
)
def test_repeat_meetings_are_minimal_on_small_fields(field: tuple, seed: int, swiss: bool) -> None:
    """R10.5.2 at four-seat tables: no grouping of the seated entries has fewer earlier
    meetings (12 entries: every one of the 5,775 groupings is tried)."""
    entries, history = field
    seating = seat(entries=entries, seed=seed, history=history, options=_options(swiss))
    seated = [e for t in seating.tables for e in t.entries]
    assert seating.repeat_meetings == brute_force_min_repeats(seated, history, 4)


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=5, max_value=41).filter(lambda n: n % 4),
    rounds=st.integers(min_value=1, max_value=8),
    seed=st.integers(0, 2**32),
    swiss=st.booleans(),
)
def test_byes_rotate_never_twice_to_one_entry_while_another_has_none(
    count: int, rounds: int, seed: int, swiss: bool
) -> None:
    entries = entries_of(count)
    seatings: list[Seating] = []
    for r in range(rounds):
        seatings.append(
            seat(
                entries=entries,
                seed=seed + r,
                history=history_after(seatings),
                options=_options(swiss),
            )
        )
        byes = Counter(e for s in seatings for e in s.byes)
        counts = [byes.get(e.id, 0) for e in entries]
        assert max(counts) - min(counts) <= 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), swiss=st.booleans())
def test_seat_positions_and_first_bids_are_balanced_over_four_rounds(
    seed: int, swiss: bool
) -> None:
    """Four rounds of 4 hands at three tables of four: each entry holds each of the four
    positions about as often, and the first bidder rotates through all four seats."""
    entries = entries_of(12)
    standing = [e.id for e in entries]
    seatings: list[Seating] = []
    for r in range(4):
        seatings.append(
            seat(
                entries=entries,
                seed=seed + r,
                history=history_after(seatings, hands=4),
                standing=standing,
                options=_options(swiss, hands_per_round=4),
            )
        )
    held: Counter[tuple[int, int]] = Counter(
        (e, p) for s in seatings for t in s.tables for p, e in enumerate(t.entries)
    )
    for entry in entries:
        counts = [held[(entry.id, p)] for p in range(4)]
        assert max(counts) - min(counts) <= 2
    assert {t.first_bidder for s in seatings for t in s.tables} <= {0, 1, 2, 3}
    assert all(t.first_bidder is not None for s in seatings for t in s.tables)


def test_r10_5_1_swiss_seats_ranks_by_fours_when_nobody_has_met() -> None:
    entries = entries_of(12)
    standing = [e.id for e in reversed(entries)]
    seating = seat(entries=entries, seed=1, standing=standing, options=_options(swiss=True))
    assert [sorted(t.entries) for t in seating.tables] == [
        sorted(standing[0:4]),
        sorted(standing[4:8]),
        sorted(standing[8:12]),
    ]
    assert "ranks 1-4 at table 1, 5-8 at table 2" in seating.explanation
    assert "13 entries" not in seating.explanation and "12 entries" in seating.explanation


def test_the_three_byes_of_fifteen_entries_go_to_the_lowest_standing_without_a_bye() -> None:
    entries = entries_of(15)
    ids = [e.id for e in entries]
    history = History(byes=(ids[14],))
    seating = seat(
        entries=entries, seed=5, history=history, standing=ids, options=_options(swiss=True)
    )
    assert sorted(seating.byes) == sorted((ids[11], ids[12], ids[13]))
    assert len(seating.tables) == 3


def test_first_bidder_turns_at_four_seats() -> None:
    assert first_bidder_turns(3, 6, 4) == (2, 1, 1, 2)
    assert first_bidder_turns(1, 4) == (1, 2, 1)  # three seats by default


def test_clubs_are_kept_apart_at_four_seat_tables() -> None:
    entries = [SeatingEntry(id=i, registration_order=i, club=f"c{i % 4}") for i in range(1, 13)]
    seating = seat(entries=entries, seed=0, options=_options(separate_clubs=True))
    assert seating.club_meetings == 0
    for table in seating.tables:
        assert len({i % 4 for i in table.entries}) == 4


def test_too_few_entries_and_mixed_table_sizes_are_refused() -> None:
    with pytest.raises(SeatingError, match=TOO_FEW_ENTRIES % 4):
        seat(entries=entries_of(3), seed=0, options=_options())
    with pytest.raises(SeatingError, match=BAD_TABLE_SIZE):
        seat(entries=entries_of(6), seed=0, options=SeatingOptions(table_size=7))
    three_seat_history = History(tables=(PastTable((101, 102, 103)),))
    with pytest.raises(SeatingError, match=BAD_TABLE_SIZE):
        seat(entries=entries_of(8), seed=0, history=three_seat_history, options=_options())
    with pytest.raises(SeatingError, match=BAD_TABLE_SIZE):
        PastTable((101, 102, 103, 104), first_bidder_turns=(1, 1, 1))
