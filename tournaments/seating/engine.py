"""Seating engine (排座): entries + history + seed -> tables, seat positions, byes, explanation.

Pure Python, no Django, no database: the services read the inputs through selectors and
write the result.  Same inputs and seed give the same seating.

What it settles, in this order (SPEC §10.5, §10.8.6, §10.8.7):

Tables have ``SeatingOptions.table_size`` seats: 3, or as many as the rule profile's
game has (the services ask ``tournaments.common.seats``: 4 in ``four_p``, SPEC §11.1; 5 in
``five_p``, SPEC §14).

1. **Byes.** A player count that is not a multiple of the table size leaves the rest out.
   They are the entries with the fewest byes so far (never the same entry twice while
   another has fewer), then the lowest standing (Swiss) or the last of the draw (random).
   A bye gives nothing and needs no compensation (R10.8.6); the director may award
   penalty points with a reason.
2. **Tables.** Random: the seeded draw cut into tables.  Swiss: ranks 1-3 at table 1, 4-6 at
   table 2, ... (R10.5.1; 1-4, 5-8, ... at four-seat tables).  Then the fewest repeat
   table-mates over the event, and, as an option, the fewest table-mates of the same club:
   the cost of a table is
   ``REPEAT_WEIGHT * (earlier meetings of its pairs) + (pairs of the same club)``, so one
   repeat meeting outweighs any number of club pairs.  Up to ``exact_limit`` seated entries
   every grouping is searched; above it a local search swaps entries between tables
   (Swiss: only between nearby tables, so ranks stay close) while the cost goes down.
3. **Seat positions** (R10.5.2): at each table the permutation that gives each entry the
   position it has held least.
4. **First bidder** (首叫): when hands rotate the first bidder (table play, Swiss), the table's
   first hand starts at the position that evens out first-bidder turns; in duplicate the
   board decides (``hands_per_round=0``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from tournaments.common.phrases import (
    Lines,
    Phrase,
    SeatRef,
    Value,
    gettext_noop,
    ngettext_lazy,
    render,
)

Method = Literal["random", "swiss"]
#: Seats at a table: three by default; the services ask for the rule profile's own
#: (``tournaments.common.seats.seat_count``), and the engine seats tables of 3 to 6.
TABLE_SIZE = 3
TABLE_SIZES = range(3, 7)
#: One repeat meeting costs more than every same-club pair a seating can have.
REPEAT_WEIGHT = 1_000_000
#: The orders of a table's seats, by table size.
PERMUTATIONS = {size: tuple(itertools.permutations(range(size))) for size in TABLE_SIZES}
#: How far (in tables) the Swiss local search looks for a swap partner.
SWISS_WINDOW = 4
#: How many random tables the random-draw local search tries for each conflicting entry.
RANDOM_TRIES = 24
MAX_PASSES = 6


class SeatingError(ValueError):
    """Inputs the engine cannot seat (too few entries, duplicate ids): the message is
    one of the constants below."""


ENTRY_TWICE = "An entry is given twice."
#: The refusal of too few entries for tables of ``size`` seats: ``TOO_FEW_ENTRIES % size``.
TOO_FEW_ENTRIES = "At least %d entries are needed to seat a round."
BAD_TABLE_SIZE = f"A table has {TABLE_SIZES[0]} to {TABLE_SIZES[-1]} seats."


@dataclass(frozen=True)
class SeatingEntry:
    """An entry to seat: its id, registration order (for labels and ties), and club."""

    id: int
    registration_order: int
    club: str = ""


@dataclass(frozen=True)
class PastTable:
    """A table of an earlier round: entry ids by seat position, and how many hands each
    position bid first (首叫)."""

    entries: tuple[int, ...]
    first_bidder_turns: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.first_bidder_turns:  # none counted: none bid first
            object.__setattr__(self, "first_bidder_turns", (0,) * len(self.entries))
        elif len(self.first_bidder_turns) != len(self.entries):
            raise SeatingError(BAD_TABLE_SIZE)


@dataclass(frozen=True)
class History:
    """Earlier rounds: their tables, and one entry id per bye sat (ids repeat)."""

    tables: tuple[PastTable, ...] = ()
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatingOptions:
    method: Method = "random"
    separate_clubs: bool = False
    #: Seats at a table: one of ``TABLE_SIZES``.
    table_size: int = TABLE_SIZE
    #: Hands per round when the first bidder rotates hand by hand; 0 when boards decide.
    hands_per_round: int = 0
    #: Up to this many seated entries every grouping into tables is tried.
    exact_limit: int = 12
    #: Translates the explanation's sentences (the services pass Django's gettext).
    translate: Callable[[str], str] = field(default=str, compare=False)
    #: Chooses a plural form (the services pass Django's ngettext).
    translate_plural: Callable[[str, str, int], str] = field(
        default=lambda singular, plural, n: singular if n == 1 else plural, compare=False
    )
    #: Names a seat position in the explanation (the services pass ``seat_name``).
    seat_name: Callable[[int], str] = field(
        default=lambda position: f"seat {position}", compare=False
    )


@dataclass(frozen=True)
class TableSeating:
    number: int
    #: Entry ids by seat position 0, 1, 2 (and 3 at a four-seat table).
    entries: tuple[int, ...]
    #: Position that bids first in the table's first hand (then it rotates), or None.
    first_bidder: int | None


@dataclass(frozen=True)
class Seating:
    tables: tuple[TableSeating, ...]
    byes: tuple[int, ...]
    seed: int
    method: Method
    #: Sum over seated pairs of how often they met before.
    repeat_meetings: int
    #: Seated pairs from the same club (counted whether or not separation was asked).
    club_meetings: int
    #: The explanation in the language of ``SeatingOptions.translate``.
    explanation: str = field(compare=False, default="")
    #: The explanation as phrases not yet translated, to keep (``tournaments.common.phrases``).
    explanation_phrases: Lines = field(compare=False, default=())


@dataclass
class _Context:
    """Pair costs and per-entry counts derived from the inputs."""

    meetings: Counter[tuple[int, int]]
    club: dict[int, str]
    separate_clubs: bool
    seat_counts: dict[int, list[int]]
    first_bids: Counter[int]
    byes: Counter[int]

    def pair_cost(self, a: int, b: int) -> int:
        key = (a, b) if a < b else (b, a)
        cost = self.meetings.get(key, 0) * REPEAT_WEIGHT
        if self.separate_clubs and self.club[a] and self.club[a] == self.club[b]:
            cost += 1
        return cost

    def table_cost(self, table: Sequence[int]) -> int:
        if len(table) == TABLE_SIZE:  # the common case, without the combinations
            a, b, c = table
            return self.pair_cost(a, b) + self.pair_cost(a, c) + self.pair_cost(b, c)
        return sum(self.pair_cost(a, b) for a, b in itertools.combinations(table, 2))


def seat(
    *,
    entries: Sequence[SeatingEntry],
    seed: int,
    history: History = History(),
    standing: Sequence[int] = (),
    options: SeatingOptions = SeatingOptions(),
) -> Seating:
    """Seat ``entries`` for the next round.  ``standing`` (entry ids, best first) orders a
    Swiss round; entries missing from it follow in registration order."""
    by_id = {entry.id: entry for entry in entries}
    if len(by_id) != len(entries):
        raise SeatingError(ENTRY_TWICE)
    size = options.table_size
    if size not in TABLE_SIZES or any(len(t.entries) != size for t in history.tables):
        raise SeatingError(BAD_TABLE_SIZE)
    if len(entries) < size:
        raise SeatingError(TOO_FEW_ENTRIES % size)
    context = _context(entries, history, options)
    rng = random.Random(seed)

    order = _order(entries, standing, options.method, rng)
    bye_count = len(order) % size
    byes = _byes(order, context.byes, bye_count)
    bye_set = set(byes)
    seated = [entry_id for entry_id in order if entry_id not in bye_set]

    if len(seated) <= options.exact_limit:
        groups = _exact_groups(seated, context, size, swiss=options.method == "swiss")
    else:
        groups = _local_search(seated, context, rng, size, swiss=options.method == "swiss")

    tables = tuple(
        TableSeating(
            number=number,
            entries=positions,
            first_bidder=_first_bidder(positions, context, options.hands_per_round, number),
        )
        for number, positions in enumerate(
            (_positions(group, context, rng) for group in groups), start=1
        )
    )
    repeats = sum(
        context.meetings.get(_pair(a, b), 0)
        for table in tables
        for a, b in itertools.combinations(table.entries, 2)
    )
    clubs = sum(
        1
        for table in tables
        for a, b in itertools.combinations(table.entries, 2)
        if context.club[a] and context.club[a] == context.club[b]
    )
    seating = Seating(
        tables=tables,
        byes=tuple(byes),
        seed=seed,
        method=options.method,
        repeat_meetings=repeats,
        club_meetings=clubs,
    )
    ranks = (
        {entry_id: rank for rank, entry_id in enumerate(order, start=1)}
        if options.method == "swiss"
        else {}
    )
    moved: list[tuple[int, int]] = []
    if options.method == "swiss":
        table_of = {e: t.number for t in tables for e in t.entries}
        moved = [
            (entry_id, table_of[entry_id])
            for index, entry_id in enumerate(seated)
            if table_of[entry_id] != index // size + 1
        ]
    phrases = explain(
        seating, entries=by_id, context=context, options=options, ranks=ranks, moved=moved
    )
    explanation = render(
        phrases,
        translate=options.translate,
        translate_plural=options.translate_plural,
        seat_name=options.seat_name,
    )
    return replace(seating, explanation=explanation, explanation_phrases=phrases)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _context(
    entries: Sequence[SeatingEntry], history: History, options: SeatingOptions
) -> _Context:
    meetings: Counter[tuple[int, int]] = Counter()
    seat_counts: dict[int, list[int]] = {entry.id: [0] * options.table_size for entry in entries}
    first_bids: Counter[int] = Counter()
    for table in history.tables:
        for a, b in itertools.combinations(table.entries, 2):
            meetings[_pair(a, b)] += 1
        for position, entry_id in enumerate(table.entries):
            if entry_id in seat_counts:
                seat_counts[entry_id][position] += 1
            first_bids[entry_id] += table.first_bidder_turns[position]
    return _Context(
        meetings=meetings,
        club={entry.id: entry.club for entry in entries},
        separate_clubs=options.separate_clubs,
        seat_counts=seat_counts,
        first_bids=first_bids,
        byes=Counter(history.byes),
    )


def _order(
    entries: Sequence[SeatingEntry], standing: Sequence[int], method: Method, rng: random.Random
) -> list[int]:
    by_registration = [e.id for e in sorted(entries, key=lambda e: (e.registration_order, e.id))]
    if method == "swiss":
        known = set(by_registration)
        ranked = [entry_id for entry_id in dict.fromkeys(standing) if entry_id in known]
        listed = set(ranked)
        return ranked + [entry_id for entry_id in by_registration if entry_id not in listed]
    rng.shuffle(by_registration)
    return by_registration


def _byes(order: Sequence[int], past_byes: Mapping[int, int], count: int) -> list[int]:
    """The ``count`` entries with the fewest byes, the last in ``order`` first."""
    last_first = sorted(
        range(len(order)), key=lambda index: (past_byes.get(order[index], 0), -index)
    )
    return [order[index] for index in last_first[:count]]


def _exact_groups(
    seated: list[int], context: _Context, size: int, *, swiss: bool
) -> list[list[int]]:
    """The cheapest grouping of a small field into tables of ``size``, trying every one
    (12 entries: 15,400 in threes, 5,775 in fours).

    Swiss breaks cost ties by how far entries move from their rank's table; random by
    the draw order (the first grouping found)."""
    home = {entry_id: index // size for index, entry_id in enumerate(seated)}
    best: tuple[int, int] | None = None
    best_groups: list[list[int]] = []

    def displacement(groups: list[list[int]]) -> int:
        ordered = sorted(groups, key=lambda g: min(home[e] for e in g))
        return sum(abs(home[e] - t) for t, g in enumerate(ordered) for e in g)

    def search(rest: list[int], groups: list[list[int]], cost: int) -> None:
        nonlocal best, best_groups
        if best is not None and (cost > best[0] or (cost == best[0] and not swiss)):
            return
        if not rest:
            score = (cost, displacement(groups) if swiss else 0)
            if best is None or score < best:
                best, best_groups = score, [list(g) for g in groups]
            return
        first, others = rest[0], rest[1:]
        for chosen in itertools.combinations(range(len(others)), size - 1):
            group = [first, *(others[i] for i in chosen)]
            remaining = [e for k, e in enumerate(others) if k not in chosen]
            groups.append(group)
            search(remaining, groups, cost + context.table_cost(group))
            groups.pop()

    search(seated, [], 0)
    return sorted(best_groups, key=lambda g: min(home[e] for e in g))


def _local_search(
    seated: list[int], context: _Context, rng: random.Random, size: int, *, swiss: bool
) -> list[list[int]]:
    """Cut ``seated`` into tables of ``size``, then swap entries between tables while that
    lowers the cost.  Swiss tries the nearest tables first, so an entry moves as few ranks
    as it can."""
    tables = [seated[i : i + size] for i in range(0, len(seated), size)]
    costs = [context.table_cost(t) for t in tables]
    count = len(tables)
    for _ in range(MAX_PASSES):
        improved = False
        for ti in range(count):
            if costs[ti] == 0:
                continue
            if swiss:
                partners: Iterable[int] = (
                    ti + step * sign
                    for step in range(1, SWISS_WINDOW + 1)
                    for sign in (1, -1)
                    if 0 <= ti + step * sign < count
                )
            else:
                partners = (rng.randrange(count) for _ in range(RANDOM_TRIES))
            for tj in partners:
                if tj == ti:
                    continue
                if _best_swap(tables, costs, ti, tj, context):
                    improved = True
                    if costs[ti] == 0:
                        break
        if not improved:
            break
    return tables


def _best_swap(
    tables: list[list[int]], costs: list[int], ti: int, tj: int, context: _Context
) -> bool:
    """Make the one swap between tables ``ti`` and ``tj`` that lowers their cost most."""
    before = costs[ti] + costs[tj]
    best: tuple[int, int, int, int, int] | None = None
    for a in range(len(tables[ti])):
        for b in range(len(tables[tj])):
            left = list(tables[ti])
            right = list(tables[tj])
            left[a], right[b] = right[b], left[a]
            new_left, new_right = context.table_cost(left), context.table_cost(right)
            if new_left + new_right < before and (
                best is None or new_left + new_right < best[0] + best[1]
            ):
                best = (new_left, new_right, a, b, 0)
    if best is None:
        return False
    new_left, new_right, a, b, _ = best
    tables[ti][a], tables[tj][b] = tables[tj][b], tables[ti][a]
    costs[ti], costs[tj] = new_left, new_right
    return True


def _positions(group: Sequence[int], context: _Context, rng: random.Random) -> tuple[int, ...]:
    """The permutation giving each entry the seat it held least (R10.5.2); the draw
    picks among equally good ones."""
    size = len(group)
    orders = PERMUTATIONS[size]
    start = rng.randrange(len(orders))
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for k in range(len(orders)):
        perm = orders[(start + k) % len(orders)]
        # perm[i] is the position of group[i]
        held = [context.seat_counts[group[i]][perm[i]] for i in range(size)]
        score = (sum(held), max(held))
        if best is None or score < best[0]:
            positions = [0] * size
            for i in range(size):
                positions[perm[i]] = group[i]
            best = (score, tuple(positions))
    assert best is not None
    return best[1]


def first_bidder_turns(first_bidder: int, hands: int, size: int = TABLE_SIZE) -> tuple[int, ...]:
    """How many of ``hands`` each of a table's ``size`` positions bids first when hand 1
    starts at ``first_bidder`` and the turn moves one seat each hand."""
    turns = [0] * size
    for k in range(hands):
        turns[(first_bidder + k) % size] += 1
    return tuple(turns)


def _first_bidder(
    positions: Sequence[int], context: _Context, hands: int, number: int
) -> int | None:
    if hands <= 0:
        return None
    best: tuple[tuple[int, int], int] | None = None
    size = len(positions)
    for k in range(size):
        start = (number - 1 + k) % size  # spread equal choices over the tables
        turns = first_bidder_turns(start, hands, size)
        totals = [context.first_bids[positions[p]] + turns[p] for p in range(size)]
        score = (max(totals), sum(t * t for t in totals))
        if best is None or score < best[0]:
            best = (score, start)
    assert best is not None
    return best[1]


def explain(
    seating: Seating,
    *,
    entries: Mapping[int, SeatingEntry],
    context: _Context,
    options: SeatingOptions,
    ranks: Mapping[int, int] | None = None,
    moved: Sequence[tuple[int, int]] = (),
) -> Lines:
    """The seating in words: method, seed, byes and why, repeat and club meetings per table;
    with ``ranks`` (Swiss) each entry's standing, so a move to avoid a repeat shows.
    Phrases, not yet translated (``tournaments.common.phrases``): a round keeps them and each
    reader reads them in their own language."""
    swiss = options.method == "swiss"
    P = Phrase.of

    def label(entry_id: int) -> Value:
        order = entries[entry_id].registration_order
        if ranks:
            return P(gettext_noop("#%(order)s (rank %(rank)s)"), order=order, rank=ranks[entry_id])
        return f"#{order}"

    if not swiss:
        how = P(gettext_noop("random draw"))
    elif options.table_size == TABLE_SIZE:
        how = P(gettext_noop("Swiss: ranks 1-3 at table 1, 4-6 at table 2, ... (R10.5.1)"))
    elif options.table_size == 4:
        how = P(gettext_noop("Swiss: ranks 1-4 at table 1, 5-8 at table 2, ... (R10.5.1)"))
    else:
        size = options.table_size
        how = P(
            gettext_noop(
                "Swiss: ranks 1-%(last)s at table 1, %(next)s-%(last2)s at table 2, ... (R10.5.1)"
            ),
            last=size,
            next=size + 1,
            last2=2 * size,
        )
    entry_count = sum(len(t.entries) for t in seating.tables) + len(seating.byes)
    lines: list[tuple[Value, ...]] = [
        (
            P(
                gettext_noop("%(how)s; seed %(seed)s; %(entries)s, %(tables)s, %(byes)s."),
                how=how,
                seed=seating.seed,
                entries=ngettext_lazy("%(n)s entry", "%(n)s entries", entry_count),
                tables=ngettext_lazy("%(n)s table", "%(n)s tables", len(seating.tables)),
                byes=ngettext_lazy("%(n)s bye", "%(n)s byes", len(seating.byes)),
            ),
        ),
        (
            P(
                gettext_noop(
                    "Repeat meetings: %(repeats)s; same-club pairs: %(clubs)s "
                    "(clubs kept apart where possible)."
                )
                if options.separate_clubs
                else gettext_noop("Repeat meetings: %(repeats)s; same-club pairs: %(clubs)s."),
                repeats=seating.repeat_meetings,
                clubs=seating.club_meetings,
            ),
        ),
    ]
    if seating.byes:
        byes = tuple(
            P(
                gettext_noop("%(entry)s (byes before: %(count)s)"),
                entry=label(e),
                count=context.byes.get(e, 0),
            )
            for e in seating.byes
        )
        lines.append(
            (
                P(
                    gettext_noop(
                        "Byes: %(byes)s — fewest byes so far, then lowest standing; "
                        "a bye scores nothing (R10.8.6)."
                    )
                    if swiss
                    else gettext_noop(
                        "Byes: %(byes)s — fewest byes so far, then last in the draw; "
                        "a bye scores nothing (R10.8.6)."
                    ),
                    byes=byes,
                ),
            )
        )
    if moved:
        moves = tuple(
            P(gettext_noop("%(entry)s to table %(table)s"), entry=label(e), table=t)
            for e, t in moved
        )
        lines.append(
            (
                P(
                    gettext_noop(
                        "Moved from their rank's table to avoid repeat meetings or club pairs: "
                        "%(moves)s."
                    )
                    if options.separate_clubs
                    else gettext_noop(
                        "Moved from their rank's table to avoid repeat meetings: %(moves)s."
                    ),
                    moves=moves,
                ),
            )
        )
    if options.hands_per_round:
        lines.append(
            (P(gettext_noop("First bidder rotates one seat each hand from the position shown.")),)
        )
    for table in seating.tables:
        seats = tuple(
            P(gettext_noop("%(seat)s: %(entry)s"), seat=SeatRef(position), entry=label(e))
            for position, e in enumerate(table.entries)
        )
        line: list[Value] = [
            P(gettext_noop("Table %(number)s: %(seats)s"), number=table.number, seats=seats)
        ]
        if table.first_bidder is not None:
            line.append(
                P(gettext_noop("; first bidder %(seat)s"), seat=SeatRef(table.first_bidder))
            )
        repeats = tuple(
            P(
                gettext_noop("%(a)s-%(b)s met %(count)sx"),
                a=label(a),
                b=label(b),
                count=context.meetings[_pair(a, b)],
            )
            for a, b in itertools.combinations(table.entries, 2)
            if context.meetings.get(_pair(a, b))
        )
        if repeats:
            line.append(P(gettext_noop("; repeat meetings left: %(repeats)s"), repeats=repeats))
        lines.append((*line, P(gettext_noop("."))))  # a full stop: "。" in Chinese
    return tuple(lines)
