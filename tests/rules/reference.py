"""An independent reference reading of SPEC §5.2 (R5.6–R5.20, R5.23) and R5.21.

Written from the text of SPEC.md only; it deliberately imports nothing from
``referee.rules.patterns`` / ``table`` / ``combos``. It works on count vectors: ``counts[r]`` is
how many cards of rank ``r`` a multiset holds, ranks numbered in playing order (R1.2)
``3 = 0 … A = 11, 2 = 12, small joker X = 13, big joker D = 14``.

A reading is ``(kind, rank, length)`` as in PROTOCOL.md: ``rank`` is the highest body rank (an
int, or None for the rocket) and ``length`` the number of distinct body ranks (1 for non-chains).

The profile switches consulted are the ones SPEC §0.4 defines for combinations:
``wing_singles_may_repeat_rank`` (R5.15.5), ``wing_trio_allowed_if_not_adjacent`` (R5.15.6),
``four_two_singles_may_pair`` (R5.17) and ``max_airplane_pairs_len`` (R5.16, Q11).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

RANKS = "3456789TJQKA2XD"
ACE, TWO, SMALL, BIG = 11, 12, 13, 14
#: R1.1: one pack has four of each rank 3…2 and one of each joker.
PACK = (4,) * 13 + (1, 1)

Reading = tuple[str, int | None, int]

#: R5.11–R5.13, R5.23: chains without wings: (cards per body rank, shortest, longest).
PLAIN_CHAINS = {
    "straight": (1, 5, 12),
    "pair_straight": (2, 3, 10),
    "airplane": (3, 2, 6),
}
#: R5.15 / R5.23: airplane + singles has 2..5 trios; R5.16: airplane + pairs 2..4 (Q11).
AIRPLANE_SINGLES_MAX = 5


def counts_from_text(text: str) -> list[int]:
    """Counts of canonical rank text such as ``666777AA`` (test helper, no aliases)."""
    return [text.count(ch) for ch in RANKS]


def text_from_counts(counts: Sequence[int]) -> str:
    return "".join(RANKS[r] * counts[r] for r in range(15))


def reading_text(reading: Reading) -> tuple[str, str | None, int]:
    kind, rank, length = reading
    return kind, None if rank is None else RANKS[rank], length


def ref_readings(counts: Sequence[int], profile: Any) -> set[Reading]:
    """Every reading of the multiset under ``profile`` (empty: no combination)."""
    assert len(counts) == 15
    n = sum(counts)
    found: set[Reading] = set()
    if n == 0 or any(c > p for c, p in zip(counts, PACK, strict=True)):
        return found
    present = [r for r in range(15) if counts[r]]

    # R5.6 single: any one card.
    if n == 1:
        found.add(("single", present[0], 1))
    # R5.20 rocket: the two jokers together.
    if n == 2 and counts[SMALL] == 1 and counts[BIG] == 1:
        found.add(("rocket", None, 1))

    # One-rank bodies (3 … 2; jokers never form a pair, trio or four).
    for r in present:
        if r > TWO:
            continue
        c = counts[r]
        rest = {q: counts[q] for q in present if q != r}
        if c == 2 and n == 2:  # R5.7
            found.add(("pair", r, 1))
        if c == 3 and n == 3:  # R5.8
            found.add(("trio", r, 1))
        if c == 4 and n == 4:  # R5.19
            found.add(("bomb", r, 1))
        if c == 3 and n == 4:  # R5.9: the kicker is of another rank (a 2 or a joker allowed)
            found.add(("trio_single", r, 1))
        if c == 3 and n == 5 and _pairs(rest, 1):  # R5.10: the jokers are no pair
            found.add(("trio_pair", r, 1))
        if c == 4 and n == 6:  # R5.17
            both_jokers = SMALL in rest and BIG in rest
            distinct = len(rest) == 2
            if not both_jokers and (distinct or profile.four_two_singles_may_pair):
                found.add(("four_two_singles", r, 1))
        if c == 4 and n == 8 and _pairs(rest, 2):  # R5.18: two pairs of two ranks
            found.add(("four_two_pairs", r, 1))

    # R5.11–R5.13: plain chains within 3…A (R1.3), no other cards.
    for kind, (per, shortest, longest) in PLAIN_CHAINS.items():
        if n % per:
            continue
        k = n // per
        low = present[0]
        top = low + k - 1
        if not shortest <= k <= longest or top > ACE or len(present) != k:
            continue
        if all(counts[q] == per for q in range(low, top + 1)):
            found.add((kind, top, k))

    # R5.14–R5.16: airplanes with wings. Try every run of k trios as the body.
    for kind, k in (
        ("airplane_singles", n // 4 if n % 4 == 0 else 0),
        ("airplane_pairs", n // 5 if n % 5 == 0 else 0),
    ):
        longest = (
            AIRPLANE_SINGLES_MAX if kind == "airplane_singles" else profile.max_airplane_pairs_len
        )
        if not 2 <= k <= longest:
            continue
        for low in range(0, ACE - k + 2):
            top = low + k - 1
            # R5.15.1 / R5.16: a body rank holds exactly its trio (no wing shares its rank).
            if not all(counts[q] == 3 for q in range(low, top + 1)):
                continue
            wing = {q: counts[q] for q in present if not low <= q <= top}
            if kind == "airplane_pairs":
                if _pairs(wing, k):
                    found.add((kind, top, k))
            elif _single_wings_ok(wing, low, top, profile):
                found.add((kind, top, k))
    return found


def _pairs(cards: dict[int, int], how_many: int) -> bool:
    """Exactly ``how_many`` pairs of different ranks 3…2 and nothing else (R5.10, R5.16,
    R5.18: a bomb is not two pairs; the jokers are not a pair)."""
    return len(cards) == how_many and all(c == 2 and q <= TWO for q, c in cards.items())


def _single_wings_ok(wing: dict[int, int], low: int, top: int, profile: Any) -> bool:
    if SMALL in wing and BIG in wing:  # R5.15.2
        return False
    if any(c == 4 for c in wing.values()):  # R5.15.3
        return False
    if not profile.wing_singles_may_repeat_rank:  # R5.15.5 CLASSIC: all wings differ
        return all(c == 1 for c in wing.values())
    # R5.15.4 / R5.15.6: a trio among the wings only if allowed and not next to the body
    # (the 2 is never next to a body: chains stop at A).
    adjacent = {q for q in (low - 1, top + 1) if 0 <= q <= ACE}
    for q, c in wing.items():
        if c == 3 and (q in adjacent or not profile.wing_trio_allowed_if_not_adjacent):
            return False
    return True


def ref_beats(play: Reading, previous: Reading) -> bool:
    """R5.21 on readings: rocket over all; bomb over non-bombs and lower bombs; otherwise same
    kind, same length, higher body rank (kickers never count)."""
    kind, rank, length = play
    pkind, prank, plength = previous
    if kind == "rocket":
        return pkind != "rocket"
    if pkind == "rocket":
        return False
    if kind == "bomb":
        return pkind != "bomb" or rank > prank  # type: ignore[operator]
    return kind == pkind and length == plength and rank > prank  # type: ignore[operator]


def sub_multisets(counts: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every non-empty sub-multiset of ``counts`` (brute force)."""

    def rec(i: int, acc: list[int]) -> Iterable[tuple[int, ...]]:
        if i == len(counts):
            if any(acc):
                yield tuple(acc)
            return
        for m in range(counts[i] + 1):
            acc.append(m)
            yield from rec(i + 1, acc)
            acc.pop()

    return rec(0, [])


def ref_score(
    *,
    landlord: int,
    bid: int,
    doubled: Sequence[bool],
    redoubled: bool,
    bombs: int,
    rockets: int,
    spring: bool,
    anti_spring: bool,
    winner: str,
    doubling: bool = True,
) -> list[int]:
    """R8.1 (and R8.4 without doubling terms): the deal score of seats 0, 1, 2."""
    w = 1 if winner == "defenders" else -1
    s = 1 if (spring or anti_spring) else 0
    scores = [0, 0, 0]
    for seat in range(3):
        if seat == landlord:
            continue
        d = int(doubled[seat]) if doubling else 0
        r = int(redoubled) if doubling else 0
        scores[seat] = bid * w * 2 ** (rockets + bombs + s + d + r * d)
    scores[landlord] = -sum(scores)
    return scores
