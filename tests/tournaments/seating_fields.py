"""Fields, histories and a brute-force minimum for the seating engine's tests, at tables of
three or four seats (the brute force imports nothing from the engine's search)."""

import itertools
from collections import Counter

from hypothesis import strategies as st

from tournaments.seating.engine import History, PastTable, Seating, SeatingEntry, first_bidder_turns


def entries_of(count: int, clubs: int = 0) -> list[SeatingEntry]:
    return [
        SeatingEntry(id=100 + i, registration_order=i, club=f"c{i % clubs}" if clubs else "")
        for i in range(1, count + 1)
    ]


@st.composite
def fields_with_history(draw: st.DrawFn, max_entries: int = 12, size: int = 3) -> tuple:
    """A field of entries and some earlier tables of ``size`` drawn among them."""
    count = draw(st.integers(min_value=size, max_value=max_entries))
    entries = entries_of(count, clubs=draw(st.integers(min_value=0, max_value=4)))
    ids = [e.id for e in entries]
    tables = draw(
        st.lists(st.permutations(ids).map(lambda p: PastTable(tuple(p[:size]))), max_size=8)
    )
    byes = draw(st.lists(st.sampled_from(ids), max_size=4))
    return entries, History(tables=tuple(tables), byes=tuple(byes))


def history_after(seatings: list[Seating], hands: int = 0) -> History:
    return History(
        tables=tuple(
            PastTable(t.entries, first_bidder_turns(t.first_bidder or 0, hands, len(t.entries)))
            for s in seatings
            for t in s.tables
        ),
        byes=tuple(e for s in seatings for e in s.byes),
    )


def brute_force_min_repeats(seated: list[int], history: History, size: int = 3) -> int:
    """The fewest earlier meetings any grouping of ``seated`` into tables of ``size`` has."""
    met: Counter[frozenset[int]] = Counter()
    for table in history.tables:
        for a, b in itertools.combinations(table.entries, 2):
            met[frozenset((a, b))] += 1

    def best(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        result = None
        for mates in itertools.combinations(others, size - 1):
            table = (first, *mates)
            cost = sum(met[frozenset(pair)] for pair in itertools.combinations(table, 2))
            total = cost + best(tuple(x for x in others if x not in mates))
            result = total if result is None else min(result, total)
        assert result is not None
        return result

    return best(tuple(seated))
