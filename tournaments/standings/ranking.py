"""Ranking and tie-breaks over aggregated rows (排名, SPEC §10.6 and §10.8).  No ORM.

The database sums each entry's counted hands (``EntryTotals``), the duplicate comparison
groups (``MatchpointGroup``) and the table meetings (``Meeting``); ``standings_rank`` turns
them into ranks under a tournament's tie-break chain.  Matchpoint ratios are kept as exact
fractions so that two equal percentages are equal, whatever order they were summed in.
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm

#: Criteria a tie-break chain may name, with what they mean (SPEC R10.8.5).  The first
#: criterion of every ranking is fixed by the format: ``total`` for table play and Swiss,
#: ``mp_percentage`` for duplicate; a tournament chooses the criteria that follow it.
CRITERIA: dict[str, str] = {
    "total": "total score: deal scores plus penalties (R10.8.2)",
    "mp_percentage": "matchpoint percentage: 100 × mean matchpoint ratio (R10.8.3)",
    "last_deal": "1 if the entry's side won its own last counted finished hand (R10.6.2)",
    "registration": "earlier registration first (R10.6.2)",
    "opponents_outscored": "mean final matchpoint % of the table-mates outscored (R10.6.1)",
    "tops": "number of tops: results that beat every other in their group (R10.8.3)",
    "head_to_head": "placement points between the entries still tied (R10.3.2)",
}
PRIMARY = {"table": "total", "swiss": "total", "duplicate": "mp_percentage"}
DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "table": ("last_deal", "registration"),
    "swiss": ("last_deal", "registration"),
    "duplicate": ("opponents_outscored", "tops"),
}
_DUPLICATE_ONLY = frozenset({"mp_percentage", "opponents_outscored", "tops"})


class TiebreakError(ValueError):
    """A tie-break chain that names an unknown or unusable criterion."""


def tiebreaks_check(*, format: str, tiebreaks: Sequence[object]) -> None:
    """Raise TiebreakError unless ``tiebreaks`` is a usable chain for ``format``."""
    if not isinstance(tiebreaks, list | tuple):
        raise TiebreakError("the tie-break chain is a list of criterion names")
    seen: set[object] = set()
    for name in tiebreaks:
        if not isinstance(name, str) or name not in CRITERIA:
            known = ", ".join(CRITERIA)
            raise TiebreakError(f"unknown tie-break {name!r}; known: {known}")
        if name in seen:
            raise TiebreakError(f"tie-break {name!r} is named twice")
        if name == PRIMARY.get(format):
            raise TiebreakError(f"{name!r} is already the first criterion of {format} play")
        if name in _DUPLICATE_ONLY and format != "duplicate":
            raise TiebreakError(f"{name!r} needs matchpoints: duplicate play only")
        seen.add(name)


def chain_for(*, format: str, tiebreaks: Sequence[str]) -> tuple[str, ...]:
    """The whole ranking chain: the format's first criterion, then the chosen tie-breaks
    (the format's default when none are chosen)."""
    return (PRIMARY[format], *(tiebreaks or DEFAULT_TIEBREAKS[format]))


@dataclass(frozen=True, slots=True)
class EntryTotals:
    """One entry's sums over its counted hands (one ``GROUP BY`` row) and its penalties."""

    entry_id: int
    registration_order: int
    withdrawn: bool = False
    deal_points: int = 0
    penalty_points: int = 0
    hands_played: int = 0
    landlord_hands: int = 0
    landlord_wins: int = 0
    last_deal_won: bool = False

    @property
    def total(self) -> int:
        """The entry's total (R10.8.2): its deal points plus its penalties and adjustments.
        Every page, export and the ranking read this one sum."""
        return self.deal_points + self.penalty_points


@dataclass(frozen=True, slots=True)
class MatchpointGroup:
    """An entry's scored results in comparison groups of one size ``n`` ≥ 2 (R10.4.3):
    their count, matchpoints and tops (``GROUP BY entry, n``)."""

    entry_id: int
    n: int
    results: int
    matchpoints: int
    tops: int


@dataclass(frozen=True, slots=True)
class Meeting:
    """An entry's match score (场分) at one table of one round (R10.3.1)."""

    round_id: int
    table_id: int
    entry_id: int
    match_score: int


@dataclass(slots=True)
class Standing:
    """An entry's place in the standings and every value it was ranked on."""

    entry_id: int
    registration_order: int
    withdrawn: bool
    total: int
    deal_points: int
    penalty_points: int
    hands_played: int
    landlord_hands: int
    landlord_wins: int
    last_deal_won: bool
    matchpoints: int = 0
    matchpoint_top: int = 0
    boards_scored: int = 0
    tops: int = 0
    mp_ratio: Fraction = Fraction(0)
    opponents_outscored: Fraction = Fraction(0)
    rank: int = 0
    tiebreaks: dict[str, int | float] = field(default_factory=dict)

    #: 100 × the mean of the per-board ratios (R10.8.3); 0 with no scored board.
    mp_percentage: Fraction = Fraction(0)


def _mp_ratio(groups: Iterable[MatchpointGroup]) -> tuple[Fraction, int, int, int, int]:
    """(mean ratio, scored results, matchpoints, top, tops) of one entry's groups."""
    # The ratios Σ mp/(2(n − 1)) are added as integers over the common denominator of the
    # groups' tops (one group size, so one denominator, for most entries): one Fraction.
    groups = list(groups)
    common = lcm(*(2 * (g.n - 1) for g in groups)) if groups else 1
    numerator, results, mp, top, tops = 0, 0, 0, 0, 0
    for g in groups:
        numerator += g.matchpoints * (common // (2 * (g.n - 1)))
        results += g.results
        mp += g.matchpoints
        top += g.results * 2 * (g.n - 1)
        tops += g.tops
    ratio = Fraction(numerator, common * results) if results else Fraction(0)
    return ratio, results, mp, top, tops


def _opponents_outscored(standings: dict[int, Standing], meetings: Sequence[Meeting]) -> None:
    """R10.8.5: mean final MP % of the table-mates whose match score was strictly lower."""
    by_table: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for m in meetings:
        by_table[(m.round_id, m.table_id)].append((m.match_score, m.entry_id))
    # Exact means without a Fraction addition per opponent (30,000 entries meet 600,000
    # times): every percentage is an integer over the common denominator of them all, so
    # an entry's sum is an integer addition per opponent and one Fraction at the end.
    common = lcm(*{s.mp_percentage.denominator for s in standings.values()})
    scaled = {
        e: s.mp_percentage.numerator * (common // s.mp_percentage.denominator)
        for e, s in standings.items()
    }
    sums: dict[int, int] = {}
    counts: dict[int, int] = {}
    for members in by_table.values():
        for score, entry_id in members:
            if entry_id not in standings:
                continue
            for other_score, other_id in members:
                if other_score < score and other_id in scaled:
                    sums[entry_id] = sums.get(entry_id, 0) + scaled[other_id]
                    counts[entry_id] = counts.get(entry_id, 0) + 1
    for entry_id, total in sums.items():
        standings[entry_id].opponents_outscored = Fraction(total, common * counts[entry_id])


def _placement_points(group: Sequence[Standing], meetings: Sequence[Meeting]) -> dict[int, int]:
    """R10.3.2 between the members of ``group``: 2 per member outscored, 1 per tie, over
    every meeting where at least two of them sat at the same table."""
    ids = {s.entry_id for s in group}
    by_table: dict[tuple[int, int], list[Meeting]] = defaultdict(list)
    for m in meetings:
        if m.entry_id in ids:
            by_table[(m.round_id, m.table_id)].append(m)
    points = dict.fromkeys(ids, 0)
    for members in by_table.values():
        for m in members:
            for other in members:
                if other is not m:
                    points[m.entry_id] += (
                        2
                        if m.match_score > other.match_score
                        else 1
                        if m.match_score == other.match_score
                        else 0
                    )
    return points


_Key = Callable[[Standing], int | Fraction]
_KEYS: dict[str, _Key] = {  # larger is better
    "total": lambda s: s.total,
    "mp_percentage": lambda s: s.mp_percentage,
    "last_deal": lambda s: int(s.last_deal_won),
    "registration": lambda s: -s.registration_order,
    "opponents_outscored": lambda s: s.opponents_outscored,
    "tops": lambda s: s.tops,
}


def _split(
    group: list[Standing], criterion: str, meetings: Sequence[Meeting]
) -> list[list[Standing]]:
    """Order ``group`` by ``criterion`` (best first) and cut it where the value changes."""
    keyed: list[tuple[int | Fraction, Standing]]
    if criterion == "head_to_head":
        points = _placement_points(group, meetings)
        keyed = [(points[s.entry_id], s) for s in group]
    else:
        key = _KEYS[criterion]
        keyed = [(key(s), s) for s in group]
    # Sorted on (float, exact value): floats compare fast and rounding keeps their order
    # (x < y whenever float(x) < float(y)); the exact value decides only between equal floats.
    keyed.sort(key=lambda pair: (float(pair[0]), pair[0]), reverse=True)
    out: list[list[Standing]] = []
    previous: object = None
    for value, s in keyed:
        if out and value == previous:
            out[-1].append(s)
        else:
            out.append([s])
        previous = value
    return out


def _as_json(value: int | Fraction) -> int | float:
    return round(float(value), 6) if isinstance(value, Fraction) else value


def standings_rank(
    *,
    format: str,
    tiebreaks: Sequence[str],
    entries: Iterable[EntryTotals],
    matchpoints: Iterable[MatchpointGroup] = (),
    meetings: Sequence[Meeting] = (),
) -> list[Standing]:
    """Rank every entry (best first).  Withdrawn entries come after all active ones
    (R10.8.6); entries equal after the whole chain share a rank: 1, 2, 2, 4 (R10.8.5)."""
    chain = chain_for(format=format, tiebreaks=tiebreaks)
    groups_by_entry: dict[int, list[MatchpointGroup]] = defaultdict(list)
    for mp_group in matchpoints:
        groups_by_entry[mp_group.entry_id].append(mp_group)
    standings: dict[int, Standing] = {}
    for e in entries:
        ratio, scored, mp, top, tops = _mp_ratio(groups_by_entry.get(e.entry_id, ()))
        standings[e.entry_id] = Standing(
            entry_id=e.entry_id,
            registration_order=e.registration_order,
            withdrawn=e.withdrawn,
            total=e.total,
            deal_points=e.deal_points,
            penalty_points=e.penalty_points,
            hands_played=e.hands_played,
            landlord_hands=e.landlord_hands,
            landlord_wins=e.landlord_wins,
            last_deal_won=e.last_deal_won,
            matchpoints=mp,
            matchpoint_top=top,
            boards_scored=scored,
            tops=tops,
            mp_ratio=ratio,
            mp_percentage=100 * ratio,
        )
    if "opponents_outscored" in chain:
        _opponents_outscored(standings, meetings)

    active = [s for s in standings.values() if not s.withdrawn]
    withdrawn = [s for s in standings.values() if s.withdrawn]
    ranked: list[Standing] = []
    for part in (active, withdrawn):
        groups = [sorted(part, key=lambda s: s.registration_order)] if part else []
        for criterion in chain:
            groups = [
                sub
                for g in groups
                for sub in (_split(g, criterion, meetings) if len(g) > 1 else [g])
            ]
        for tied in groups:
            rank = len(ranked) + 1
            for s in tied:
                s.rank = rank
                ranked.append(s)
    for s in ranked:
        s.tiebreaks = {
            name: _as_json(_KEYS[name](s)) if name != "registration" else s.registration_order
            for name in chain
            if name in _KEYS
        }
    return ranked
