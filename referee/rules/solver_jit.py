"""The open-hand solver's search compiled with numba: an optional accelerator (issue 33).

``solver.Solver`` is the reference and the fallback: pure Python, always there. This module is
used only when numba is installed (``pip install numba``: wheels, no compiler on the user's
machine) and gives the same values: the same AND/OR search, transposition table, move ordering
and budget, over arrays instead of dictionaries of ``Play`` objects.

Before the search, every sub-multiset of each of the three hands is listed (a hand of 10 cards
has at most 1,024) with its leads in the reference's order (``Solver._leads_of``: the fewest
plays left to go out first, then the most cards, then the lower rank). An answer to a top is a
lead of the same hand that beats it: with one reading a multiset (``comp2016`` and ``classic``,
checked) the answers ``legal_plays`` lists are exactly those leads. The compiled search then runs
on small ints: a hand is its index among its seat's sub-multisets, a top its signature's number
(``Solver._signature_id``); the table is an open-addressing hash of keys of two int64s.

The table's key is the order of the ranks held, not the ranks (``_canonical``), with which of
them are consecutive where a hand holds a chain: positions that differ only by ranks no one
holds any more are one entry. The reference keys the hands themselves; the values agree. On
1,600 endgames of 7-10 cards a hand: 241,086,950 -> 125,333,183 nodes (docs/solver.md).

Two shortcuts of its own, both sound (docs/solver.md): a node whose seat on turn goes out in at
most three plays that no opponent can beat but the last is settled unsearched (``_unstoppable``),
and a forced pass is passed over without a lookup (``_forced_pass``). The reference has neither
(in Python the run-out check cost what it saved); the values agree, the node counts do not.

A query that goes past ``SPLIT_NODES`` nodes goes on on two threads (``JitSolver.threads``) that
share its table: a slot is taken by a compare-and-swap and its key written after its value, so
a thread reads only whole entries, each a proof; near the root each thread searches its own
share of the moves first. The value is the one thread's; the nodes counted vary from run to run.

``JitSolver`` overrides two hooks of ``Solver`` (``value`` and ``_proven``), so the winning line
is read from the compiled table by the reference's own ``line``. Positions whose hands have too
many sub-multisets (full deals) go to the reference search.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from referee.rules.cards import KEY_BITS, NUM_RANKS, SMALL_JOKER, TWO, UNIT
from referee.rules.combos import Kind
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.solver import (
    Position,
    Solution,
    Solver,
    _OutOfBudget,
    _winner_is_landlord,
)
from referee.rules.table import unique_readings

try:  # the accelerator is optional: without numba, ``available()`` is False
    import numba
    import numpy as np
    from numba import types as _types
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic

    _NUMBA = True
except ImportError:  # pragma: no cover - exercised where numba is not installed
    _NUMBA = False

#: At most this many sub-multisets of one hand (the packed key has 14 bits a hand); more and
#: the position goes to the reference search. A hand of 13 distinct ranks has 8,192.
MAX_SUB_HANDS = 1 << 13
_HAND_BITS = 14
_SIG_BITS = 12  # signature numbers + 1 (0: no top); a profile has 308 signatures

_KIND_CODE = {kind._value_: code for code, kind in enumerate(Kind)}
#: A play's class: what a play must share with the top to beat it by rank (kind and length),
#: the bomb and the rocket classes of their own.
_BOMB_CLASS, _ROCKET_CLASS = 1 << 10, (1 << 10) + 1


#: The kinds whose ranks must be consecutive (R5.9-R5.16): a position where a hand holds one
#: keeps the ranks themselves in the table's key (``_canonical``).
_CHAIN_KINDS = frozenset(
    kind._value_
    for kind in (
        Kind.STRAIGHT,
        Kind.PAIR_STRAIGHT,
        Kind.AIRPLANE,
        Kind.AIRPLANE_SINGLES,
        Kind.AIRPLANE_PAIRS,
    )
)
_SMALL_JOKER, _TWO = SMALL_JOKER, TWO
_JOKERS = 3 << SMALL_JOKER  # both jokers' bits in a hand's ranks (``_canonical``)


def _count_codes() -> list[int]:
    """A rank's three counts (four cards at most between them) numbered 1-34, at
    c0 * 25 + c1 * 5 + c2 (``_canonical``); 0: none held."""
    codes = [0] * 125
    held = [(c0, c1, c2) for c0 in range(5) for c1 in range(5) for c2 in range(5)]
    for code, (c0, c1, c2) in enumerate((c for c in held if 0 < sum(c) <= 4), start=1):
        codes[c0 * 25 + c1 * 5 + c2] = code
    return codes


_COUNT_CODES = _count_codes()
#: The table's key is the order of the ranks held (``_canonical``); False: the hands' numbers
#: (``_pack``), to measure against.
CANONICAL_KEYS = True


def _class(kind: str, length: int) -> int:
    if kind == Kind.BOMB._value_:
        return _BOMB_CLASS
    if kind == Kind.ROCKET._value_:
        return _ROCKET_CLASS
    return _KIND_CODE[kind] << 5 | length


# a thread's state slots, shared with its compiled search: its nodes and entries not yet
# added to the query's (``_S_NODES``, ``_S_ENTRIES``: at each check), the node of its next
# check, why it stopped, the budgets, and where the search on one thread hands over to several
_NODES, _NEXT_CHECK, _ABORT, _ENTRIES, _MAX_NODES, _MAX_ENTRIES, _REPORTED, _SPLIT_AT = range(8)
# the slots the threads of a query share (read and written atomically): stop now (a thread
# finished, or must grow the table, or ran out of budget), the query's nodes and entries
_S_STOP, _S_NODES, _S_ENTRIES = range(3)
# the header of the compiled search's ``data``: the seats' first hand numbers (0-2), then where
# each array starts, then how many signatures + 1 (the killers' stride)
_D_START, _D_CHILD, _D_SIG, _D_CLASS, _D_RANK, _D_ECLASS, _D_ERANK, _D_SIGS = range(3, 11)
# ... then the run-out check's arrays: each sub-multiset's fewest plays to go out, each entry's
# class numbered densely, each sub-multiset's best rank + 2 of each dense class (0: none; the
# rocket's rank is -1, so it counts 1), how
# many dense classes, the bomb's and the rocket's dense class (-1: no such play), each
# signature's dense class
_D_TRICKS, _D_ECC, _D_TOPS, _D_NCLS, _D_BOMB, _D_ROCKET, _D_SCC = range(11, 18)
# ... then, for the table's key (``_canonical``), each sub-multiset's rank counts (its
# multiset key), whether it holds a chain (a straight, a pair straight or an airplane: 1,
# else 0) and its ranks (bit r: rank r held, the jokers' too), and the number 1-34 of each
# rank's three counts (at c0 * 25 + c1 * 5 + c2; 0: none held)
_D_HAND, _D_CHAINS, _D_RANKS, _D_COUNTS = 18, 19, 20, 21
_HEADER = 22
#: The run-out check looks for a way out of at most this many plays (see ``_runs_out``).
RUN_OUT_PLAYS = 3
#: ``max_entries`` is a memory budget counted in the reference's entries, about 160 bytes each
#: with the memos (1,933,286 entries of seed 11's endgame 119: 312 MB). A compiled entry takes
#: 32-128 bytes (a 16-byte slot, the table between an eighth and half full): the compiled search
#: keeps four for each of the budget's, in less memory.
ENTRIES_PER_BUDGET = 4
#: No budget of entries: 2**24 of them (a table of 2**25 slots of 16 bytes, 512 MB) at most.
_NO_ENTRY_BUDGET = 1 << 24
#: A node is stored when its search took at least this many nodes below it: a node that goes
#: out at once (none) is found again as fast as it is looked up. 3 and 8 searched 8-43 % more
#: nodes on seed 11's hardest endgames, no faster.
_STORE_FROM = 1
# a frame of the compiled search's stack: the node (its hands, turn, top), its table key and
# slot, the nodes counted when it was entered, its moves (the entries' range, the killer, the
# top's class and rank, the killer's slot) and the move being searched (its index, its entry);
# at a node near the root of a search on several threads, which round of its moves (0: the
# first and this thread's share, 1: all) and how many of them it has met
(_F_H0, _F_H1, _F_H2, _F_TURN, _F_SIG, _F_SEAT, _F_KEY, _F_SLOT, _F_FIRST, _F_START, _F_END,
 _F_KILLER, _F_CLASS, _F_RANK, _F_KSLOT, _F_I, _F_E, _F_KEY2,
 _F_ROUND, _F_ORD) = range(20)  # fmt: skip
#: Frames: a path never has more nodes than moves, and three moves (two passes) at least take
#: a card: 3 * 54 + 1 at most.
_MAX_DEPTH = 3 * 54 + 2
# why a search stopped: the budget ran out, the table is half full and must grow first, the
# search on one thread hands over to several, or another thread of the query said stop
_OUT_OF_BUDGET, _GROW, _SPLIT, _STOPPED = 1, 2, 3, 4
#: A slot of the table being written by a thread (its first word; a key is never negative)
_LOCKED = -2
#: A query searches on one thread for this many nodes (about 50 ms), then on ``threads``
#: (``JitSolver``), which share one table: a thread could not pay for itself sooner.
SPLIT_NODES = 1 << 18
#: On several threads, a node this near the root is shared out (``_search``): every thread
#: searches its first move (young brothers wait: the first often settles it), then each its
#: share of the others (the ``thread``-th, then every ``threads``-th), then all of them, the
#: others' proofs read from the table. The three hardest endgames of 7-10 cards, two threads,
#: three runs each: shared out at the root only, 673-1,004 / 410-443 / 613-713 ms; to depth 8
#: after the first move, 693-984 / 383-426 / 536-642 ms; at every depth, 1,186-2,069 /
#: 547-563 / 734-773 ms (docs/solver.md).
SPLIT_DEPTH = 8
#: The table starts with this many slots and grows fourfold when half full (the search then
#: starts again from the root, every proven entry kept): a table sized for the whole budget
#: at once (4,194,304 slots, 32 MB) cost 10 ms a query to fill, more than most searches.
_FIRST_CAPACITY = 1 << 16
#: A table this large is filled once when the search is compiled, outside any query: the
#: process's first table of millions of slots took 150 ms more than the next (the memory new
#: to the process), in the first query's time.
_WARM_SLOTS = 1 << 22


def available() -> bool:
    """True when numba imports: the compiled search can run."""
    return _NUMBA


def _sub_hands(hand: int) -> list[int]:
    """Every sub-multiset of ``hand``, the empty one first."""
    keys = [0]
    for rank in range(NUM_RANKS):
        count = (hand >> (KEY_BITS * rank)) & 0xF
        if count:
            unit = UNIT[rank]
            keys = [key + n * unit for key in keys for n in range(count + 1)]
    return keys


#: Preparing a sub-multiset costs about what this many nodes of the reference search do (its
#: leads listed and ordered in Python, 10-40 us, against 1.3-1.6 us a reference node): with a
#: smaller budget of nodes per sub-multiset to prepare, the reference answers sooner.
NODES_PER_SUB_HAND = 20


def pays(position: Position, max_nodes: int | None) -> bool:
    """Whether preparing ``position`` for the compiled search pays within ``max_nodes``."""
    if max_nodes is None:
        return True
    return max_nodes >= NODES_PER_SUB_HAND * sum(sub_hand_count(hand) for hand in position.hands)


def sub_hand_count(hand: int) -> int:
    """How many sub-multisets ``hand`` has (the empty one and itself included)."""
    total = 1
    for rank in range(NUM_RANKS):
        total *= ((hand >> (KEY_BITS * rank)) & 0xF) + 1
    return total


if _NUMBA:

    def _item_pointer(context, builder, signature, args):
        # the address of ``args[0][args[1], args[2]]`` (a 2-d int64 array)
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        return _cgutils.get_item_pointer(
            context, builder, array_type, array, [args[1], args[2]], wraparound=False
        )

    # Atomics for the table and the slots the threads of a query share (numba has none on the
    # CPU): each one LLVM instruction, a plain move on x86-64 but for the compare-and-swap and
    # the add (``lock cmpxchg``, ``lock xadd``).
    def _load_acquire_code(typingctx, array, i, j):
        # ``array[i, j]``; no read after it is made before it
        def codegen(context, builder, signature, args):
            return builder.load_atomic(
                _item_pointer(context, builder, signature, args), "acquire", 8
            )

        return _types.int64(array, i, j), codegen

    def _store_release_code(typingctx, array, i, j, value):
        # ``array[i, j] = value``; no write before it is seen after it
        def codegen(context, builder, signature, args):
            pointer = _item_pointer(context, builder, signature, args)
            builder.store_atomic(args[3], pointer, "release", 8)
            return context.get_dummy_value()

        return _types.none(array, i, j, value), codegen

    def _compare_swap_code(typingctx, array, i, j, expected, new):
        # ``array[i, j] = new`` if it holds ``expected``, at once; returns what it held
        def codegen(context, builder, signature, args):
            pointer = _item_pointer(context, builder, signature, args)
            swapped = builder.cmpxchg(pointer, args[3], args[4], "seq_cst", "seq_cst")
            return builder.extract_value(swapped, 0)

        return _types.int64(array, i, j, expected, new), codegen

    def _fetch_add_code(typingctx, array, i, j, value):
        # ``array[i, j] += value`` at once; returns what it held before
        def codegen(context, builder, signature, args):
            pointer = _item_pointer(context, builder, signature, args)
            return builder.atomic_rmw("add", pointer, args[3], "seq_cst")

        return _types.int64(array, i, j, value), codegen

    # called only from compiled code, with the array and its indices (no typing context)
    _load_acquire: Any = _intrinsic(_load_acquire_code)
    _store_release: Any = _intrinsic(_store_release_code)
    _compare_swap: Any = _intrinsic(_compare_swap_code)
    _fetch_add: Any = _intrinsic(_fetch_add_code)

    @numba.njit(cache=True)
    def _beats(play_class: int, rank: int, top_class: int, top_rank: int):
        # R5.21, as ``combos.beats``: the same kind and length (class) with a higher body rank
        # (a higher bomb over a bomb: the rocket has no rank to beat), else a bomb over any
        # non-bomb, the rocket over all
        if play_class == top_class:
            return rank > top_rank
        if play_class == _BOMB_CLASS:
            return top_class != _ROCKET_CLASS
        return play_class == _ROCKET_CLASS

    @numba.njit(cache=True)
    def _holds_above(data, o, play, rank):
        # whether the sub-multiset numbered ``o`` (-1: no hand) holds a lead that beats a
        # play of dense class ``play`` and rank ``rank`` (R5.21), read from its best rank of
        # each class: the rocket beats all, a bomb all but the rocket and a lower bomb, else
        # a higher play of the same class
        if o < 0:
            return False
        tops = data[_D_TOPS] + o * data[_D_NCLS]
        bomb = data[_D_BOMB]
        rocket = data[_D_ROCKET]
        if play == rocket:
            return False
        if rocket >= 0 and data[tops + rocket] > 0:
            return True
        above = rank + 2  # the best rank + 2 that does not beat it
        if play == bomb:
            return data[tops + bomb] > above
        return data[tops + play] > above or (bomb >= 0 and data[tops + bomb] > 0)

    @numba.njit(cache=True)
    def _forced_pass(data, h0, h1, h2, turn, sig):
        # whether the seat on turn must pass: there is a top and none of its plays beats it
        return sig >= 0 and not _holds_above(
            data,
            data[turn] + (h0, h1, h2)[turn],
            data[data[_D_SCC] + sig],
            data[data[_D_RANK] + sig],
        )

    @numba.njit(cache=True)
    def _beatable(data, e, o):
        # whether the hand numbered ``o`` can beat the entry ``e``
        return _holds_above(data, o, data[data[_D_ECC] + e], data[data[_D_ERANK] + e])

    @numba.njit(cache=True)
    def _runs_out(data, base, gid, plays, o1, o2, sig, top_class, top_rank):
        # Whether the hand numbered ``gid`` (its seat's first number ``base``), on turn with
        # ``plays`` (2 or 3) as its fewest plays to go out, goes out in that many plays that
        # no opponent (``o1``, ``o2``: their hands' numbers, -1 none) can beat but the last:
        # each of them keeps the lead, the last empties the hand. The first must beat the
        # top (``sig`` >= 0). Only the ways out of the fewest plays are looked at: a lead
        # whose rest needs more comes after them in the entries' order, where the loop
        # stops. Sound, not complete: a "no" says nothing.
        start_at = data[_D_START]
        child_at = data[_D_CHILD]
        tricks_at = data[_D_TRICKS] + base
        for e in range(data[start_at + gid], data[start_at + gid + 1]):
            rest = data[child_at + e]
            left = data[tricks_at + rest]
            if left > plays - 1:
                break
            if sig >= 0 and not _beats(
                data[data[_D_ECLASS] + e], data[data[_D_ERANK] + e], top_class, top_rank
            ):
                continue
            if _beatable(data, e, o1) or _beatable(data, e, o2):
                continue
            if left <= 1:
                return True  # the rest is one play, led
            second = base + rest  # left == 2: one more play no one beats, then the last
            for f in range(data[start_at + second], data[start_at + second + 1]):
                if data[tricks_at + data[child_at + f]] > 1:
                    break
                if not (_beatable(data, f, o1) or _beatable(data, f, o2)):
                    return True
        return False

    @numba.njit(cache=True)
    def _unstoppable(data, h0, h1, h2, turn, landlord, sig, top_class, top_rank):
        # whether the seat on turn goes out in at most ``RUN_OUT_PLAYS`` plays that no
        # opponent can stop (``_runs_out``): the landlord's opponents are both farmers, a
        # farmer's the landlord (his partner passes)
        hands = (h0, h1, h2)
        gid = data[turn] + hands[turn]
        plays = data[data[_D_TRICKS] + gid]
        if plays < 2 or plays > RUN_OUT_PLAYS:
            return False  # one play: it beats the top or not, the search looks first
        if turn == landlord:
            o1 = data[(turn + 1) % 3] + hands[(turn + 1) % 3]
            o2 = data[(turn + 2) % 3] + hands[(turn + 2) % 3]
        else:
            o1 = data[landlord] + hands[landlord]
            o2 = -1
        return _runs_out(data, data[turn], gid, plays, o1, o2, sig, top_class, top_rank)

    @numba.njit(cache=True)
    def _fill_tops(data, groups):
        # each sub-multiset's best rank + 2 of each dense class, from its entries (the
        # rocket's rank is -1: + 1 would read as "none", and a farmer's rocket unseen)
        ncls = data[_D_NCLS]
        start_at = data[_D_START]
        for gid in range(groups):
            tops = data[_D_TOPS] + gid * ncls
            for e in range(data[start_at + gid], data[start_at + gid + 1]):
                play = data[data[_D_ECC] + e]
                rank = data[data[_D_ERANK] + e] + 2
                if rank > data[tops + play]:
                    data[tops + play] = rank

    @numba.njit(cache=True)
    def _now():
        with numba.objmode(t="float64"):
            t = time.perf_counter()
        return t

    @numba.njit(cache=True)
    def _pack(h0, h1, h2, turn, sig, top_seat):
        # the table's key: the three hands' numbers, the turn, the top's signature number and
        # its seat (-1: none), 58 bits
        return (
            h0
            | (h1 << _HAND_BITS)
            | (h2 << (2 * _HAND_BITS))
            | (turn << (3 * _HAND_BITS))
            | ((sig + 1) << (3 * _HAND_BITS + 2))
            | ((top_seat + 1) << (3 * _HAND_BITS + 2 + _SIG_BITS))
        )

    @numba.njit(cache=True)
    def _canonical(data, h0, h1, h2, turn, sig, top_seat):
        # The table's key, as two ints: the ranks held, low to high, each by
        # its three counts (a number 1-34, 6 bits) and whether it follows the rank held
        # before it at once (1 bit), not by the rank itself; the top's rank by how many of
        # them are at or below it. A play's rank matters only by its order among the ranks
        # held (R5.21: a higher rank of the same kind, a bomb, the rocket), and a chain's
        # ranks by being consecutive (R5.9-R5.16): two positions that differ only by ranks
        # no one holds any more, with the same runs of consecutive ranks, are one entry
        # (docs/solver.md). Where no hand holds a chain (a straight, a pair straight, an
        # airplane; hands only shrink) the runs do not matter either: the bit is left out.
        # A 2 never follows an ace (no chain takes it). A joker is a rank like the others
        # (a single above the 2), unless one hand holds both: the rocket, whose holder the
        # key names (2 bits, twice), the jokers out of the order. First int: 1 << 60, turn,
        # top's seat + 1, top's class (11 bits) and place (5 bits), the rocket's holder (or
        # 15), the first 5 ranks held (7 bits each); second: the next 8. More than 13 ranks
        # held: the hands' numbers (``_pack``), shared with no other position.
        g0 = data[0] + h0
        g1 = data[1] + h1
        g2 = data[2] + h2
        chains = data[_D_CHAINS]
        runs = data[chains + g0] or data[chains + g1] or data[chains + g2]
        counts = data[_D_COUNTS]
        at = data[_D_HAND]
        k0 = data[at + g0]
        k1 = data[at + g1]
        k2 = data[at + g2]
        top_class = 0
        top_rank = -1
        if sig >= 0:
            top_class = data[data[_D_CLASS] + sig]
            top_rank = data[data[_D_RANK] + sig]
        first = (1 << 60) | turn | ((top_seat + 1) << 2) | (top_class << 4)
        ranks = data[_D_RANKS]
        m0 = data[ranks + g0]
        m1 = data[ranks + g1]
        m2 = data[ranks + g2]
        # the jokers: when one hand holds both (the rocket), who holds them, out of the
        # order; else each is a single above the 2 and nothing more, in the order
        rocket = (m0 & _JOKERS) == _JOKERS or (m1 & _JOKERS) == _JOKERS or (m2 & _JOKERS) == _JOKERS
        kept = ~_JOKERS if rocket else -1
        if rocket:
            holder = 0 if m0 & _JOKERS else 1 if m1 & _JOKERS else 2
            first |= (holder | holder << 2) << 20
        else:
            first |= 15 << 20
        second = 0
        held = 0
        at_or_below = 0
        present = (m0 | m1 | m2) & kept
        # the top's place counts the ranks at or below it that the seats who may answer it
        # hold: its own seat never answers it (both others pass: it leads), so how it stands
        # to that seat's own ranks does not matter
        answering = 0
        if top_seat >= 0:
            answering = (
                (m0 if top_seat != 0 else 0)
                | (m1 if top_seat != 1 else 0)
                | (m2 if top_seat != 2 else 0)
            ) & kept
        rank = 0
        last = -2
        while present:
            if present & 1:
                shift = KEY_BITS * rank
                code = data[
                    counts
                    + ((k0 >> shift) & 0xF) * 25
                    + ((k1 >> shift) & 0xF) * 5
                    + ((k2 >> shift) & 0xF)
                ]
                if runs and rank == last + 1 and rank < _TWO:
                    code |= 64
                last = rank
                if rank <= top_rank and (answering >> rank) & 1:
                    at_or_below += 1
                if held < 5:
                    first |= code << (24 + 7 * held)
                else:
                    second |= code << (7 * (held - 5))
                held += 1
            present >>= 1
            rank += 1
        if held > 13:  # no room in the key: the hands' numbers (no entry shared)
            return _pack(h0, h1, h2, turn, sig, top_seat), 0
        # a joker on top beside the rocket: above every rank held (13 at most), the big one
        # above the small
        place = at_or_below
        if rocket and top_rank >= _SMALL_JOKER:
            place = 14 + top_rank - _SMALL_JOKER
        return first | (place << 15), second

    @numba.njit(cache=True)
    def _key(data, h0, h1, h2, turn, sig, top_seat):
        # the table's key: ``_canonical``'s, or (measuring without it) ``_pack``'s
        if CANONICAL_KEYS:
            return _canonical(data, h0, h1, h2, turn, sig, top_seat)
        return _pack(h0, h1, h2, turn, sig, top_seat), 0

    @numba.njit(cache=True)
    def _slot(key, second, mask):
        # Fibonacci hashing: the product's high bits
        mixed = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(second) * np.uint64(
            0xC2B2AE3D27D4EB4F
        )
        return int(mixed >> np.uint64(32)) & mask

    @numba.njit(cache=True, inline="always")
    def _probe(table, key, second, mask):
        # the slot that holds the key (its value 0 or 1) or the empty slot where it would go
        # (-1): linear probing from its hash, the search's lookup and ``_lookup_node``'s. A
        # slot's second word is written before its key (``_store``), and read after it, so a
        # key read is its entry's: a slot another thread is writing is passed over (a miss
        # at worst, never a wrong value)
        slot = _slot(key, second, mask)
        while True:
            first = _load_acquire(table, slot, 0)
            if first == -1:
                return slot, -1
            if first == key and table[slot, 1] >> 1 == second:
                return slot, table[slot, 1] & 1
            slot = (slot + 1) & mask

    @numba.njit(cache=True, inline="always")
    def _store(table, slot, key, second, value, mask):
        # the entry into the first empty slot from ``slot`` on: taken by a compare-and-swap (a
        # thread that finds it taken probes on), its second word written, then its key
        while _compare_swap(table, slot, 0, -1, _LOCKED) != -1:
            slot = (slot + 1) & mask
        table[slot, 1] = (second << 1) | value
        _store_release(table, slot, 0, key)

    @numba.njit(cache=True, nogil=True)  # the threads of a query search at once
    def _search(
        h0, h1, h2, turn, sig, top_seat, landlord, data, table, killers, frames, state, deadline,
        shared, thread, threads,
    ):  # fmt: skip
        # Depth-first with an explicit stack (``frames``: a row a node on the path), not
        # recursion: a call of 12 arguments, four of them arrays, cost more than the node's
        # work. ``data``: the static arrays in one, at the offsets its first slots hold;
        # ``table``: key, second << 1 | value, -1 empty; ``killers``: per hand and top, the
        # entry that last refuted it, -1 none. On several threads (``thread`` of ``threads``,
        # one table, ``shared``: ``_S_STOP`` and the totals), each searches the whole root;
        # at a node within ``SPLIT_DEPTH`` of it, the first move, then its share of the
        # others (every ``threads``-th), then all of them, where the others' proofs wait in
        # the table. The first to finish tells the others to stop.
        depth = 0
        frames[0, _F_H0] = h0
        frames[0, _F_H1] = h1
        frames[0, _F_H2] = h2
        frames[0, _F_TURN] = turn
        frames[0, _F_SIG] = sig
        frames[0, _F_SEAT] = top_seat
        child_at = data[_D_CHILD]
        sig_at = data[_D_SIG]
        class_at = data[_D_ECLASS]
        rank_at = data[_D_ERANK]
        mask = table.shape[0] - 1
        entering = True
        value = False
        while True:
            h0 = frames[depth, _F_H0]
            h1 = frames[depth, _F_H1]
            h2 = frames[depth, _F_H2]
            turn = frames[depth, _F_TURN]
            sig = frames[depth, _F_SIG]
            top_seat = frames[depth, _F_SEAT]
            maximiser = turn == landlord
            settled = False  # the node's value is known: store it and return to the parent
            result = False
            if entering:
                state[_NODES] += 1
                if state[_NODES] >= state[_NEXT_CHECK]:
                    # the thread's nodes and entries since its last check into the query's
                    added = state[_NODES] - state[_REPORTED]
                    state[_REPORTED] = state[_NODES]
                    nodes = _fetch_add(shared, 0, _S_NODES, added) + added
                    added = state[_ENTRIES]
                    state[_ENTRIES] = 0
                    entries = _fetch_add(shared, 0, _S_ENTRIES, added) + added
                    over_nodes = state[_MAX_NODES] >= 0 and nodes > state[_MAX_NODES]
                    over_entries = entries >= state[_MAX_ENTRIES]
                    if _load_acquire(shared, 0, _S_STOP):
                        state[_ABORT] = _STOPPED
                    elif over_nodes or over_entries or (deadline > 0.0 and _now() > deadline):
                        state[_ABORT] = _OUT_OF_BUDGET
                    elif 2 * (entries + 1024 * (2 * threads - 1)) > table.shape[0]:
                        # a node adds at most one entry: each thread's until its next check,
                        # the others' since their last
                        state[_ABORT] = _GROW
                    elif 0 <= state[_SPLIT_AT] <= nodes:
                        state[_ABORT] = _SPLIT
                    if state[_ABORT]:
                        if state[_ABORT] != _STOPPED:
                            _store_release(shared, 0, _S_STOP, 1)
                        return False
                    state[_NEXT_CHECK] = state[_NODES] + 1024
                if _forced_pass(data, h0, h1, h2, turn, sig):
                    # no play beats the top: the next seat's node takes this frame, neither
                    # looked up nor stored (a quarter of the nodes of the hardest endgames:
                    # 5.7-6.1 -> 4.4-4.6 s on six of them)
                    turn = (turn + 1) % 3
                    frames[depth, _F_TURN] = turn
                    if turn == top_seat:
                        frames[depth, _F_SIG] = -1
                        frames[depth, _F_SEAT] = -1
                    continue
                hand = h0 if turn == 0 else h1 if turn == 1 else h2
                gid = data[turn] + hand
                start = data[data[_D_START] + gid]
                end = data[data[_D_START] + gid + 1]
                if sig >= 0:
                    top_class = data[data[_D_CLASS] + sig]
                    top_rank = data[data[_D_RANK] + sig]
                else:
                    top_class = top_rank = -1
                # a node settled before any move is never stored (no node below it): these
                # checks come before the table's lookup, which would always miss
                empties = start < end and data[child_at + start] == 0  # first in order
                if (
                    empties
                    and (
                        sig < 0
                        or _beats(
                            data[class_at + start], data[rank_at + start], top_class, top_rank
                        )
                    )
                ) or _unstoppable(data, h0, h1, h2, turn, landlord, sig, top_class, top_rank):
                    # the hand goes out now, or by a way out that no opponent can stop:
                    # 38,801,758 -> 27,504,457 nodes (-29 %) and 6.1-6.5 -> 5.1-5.3 s on six
                    # of the hardest endgames of 7-10 cards (seeds 11, 12, 14); ways out of at
                    # most 2 plays: -22 %, of 4 (recursive, not cacheable by numba): -30 %
                    value = maximiser
                    depth -= 1
                    if depth < 0:
                        return value
                    entering = False
                    continue
                key, second = _key(data, h0, h1, h2, turn, sig, top_seat)
                slot, known = _probe(table, key, second, mask)
                if known >= 0:  # in the table: back to the parent, nothing to store
                    value = known == 1
                    depth -= 1
                    if depth < 0:
                        return value
                    entering = False
                    continue
                frames[depth, _F_KEY] = key
                frames[depth, _F_KEY2] = second
                frames[depth, _F_SLOT] = slot
                frames[depth, _F_FIRST] = state[_NODES]
                frames[depth, _F_START] = start
                frames[depth, _F_END] = end
                frames[depth, _F_CLASS] = top_class
                frames[depth, _F_RANK] = top_rank
                killer_slot = gid * data[_D_SIGS] + sig + 1
                frames[depth, _F_KSLOT] = killer_slot
                frames[depth, _F_KILLER] = killers[killer_slot]
                frames[depth, _F_ROUND] = 0 if threads > 1 and depth <= SPLIT_DEPTH else 1
                frames[depth, _F_ORD] = 0
                i = start - 2
            else:  # back from the child at ``_F_E`` with its ``value``
                if value == maximiser:
                    settled = True
                    result = maximiser
                    e = frames[depth, _F_E]
                    if e >= 0:
                        killers[frames[depth, _F_KSLOT]] = e
                i = frames[depth, _F_I] + 1
            if not settled:
                # the next move in order: a pass first (a farmer whose partner holds the
                # top), the killer (the entry that last refuted this hand and top: the
                # reference moves it to the front of its list, the same idea in one slot), the
                # entries, a pass last (anyone else, when there is a top to pass on)
                start = frames[depth, _F_START]
                end = frames[depth, _F_END]
                killer = frames[depth, _F_KILLER]
                top_class = frames[depth, _F_CLASS]
                top_rank = frames[depth, _F_RANK]
                nxt = (turn + 1) % 3
                found = False
                e = -1
                while True:
                    while i <= end:
                        if i == start - 2 or i == end:  # a pass
                            pass_first = (not maximiser) and top_seat >= 0 and top_seat != landlord
                            if pass_first if i < start else (sig >= 0 and not pass_first):
                                e = -1
                                found = True
                        else:
                            e = killer if i == start - 1 else i if i != killer else -1
                            # an answer: a lead of the hand that beats the top (its class and
                            # rank stored beside the entry)
                            if e >= 0 and (
                                sig < 0
                                or _beats(
                                    data[class_at + e], data[rank_at + e], top_class, top_rank
                                )
                            ):
                                found = True
                        if found and frames[depth, _F_ROUND] == 0:
                            # a first round near the root: the first move, then this thread's
                            # share of the others
                            met = frames[depth, _F_ORD]
                            frames[depth, _F_ORD] = met + 1
                            if met >= 1:
                                found = (met - 1) % threads == thread
                        if found:
                            break
                        i += 1
                    if found or frames[depth, _F_ROUND] == 1:
                        break
                    frames[depth, _F_ROUND] = 1  # the second round: all its moves
                    i = start - 2
                if found:
                    frames[depth, _F_I] = i
                    frames[depth, _F_E] = e
                    depth += 1
                    if e < 0:  # a pass: the next seat answers the same top, or leads
                        frames[depth, _F_H0] = h0
                        frames[depth, _F_H1] = h1
                        frames[depth, _F_H2] = h2
                        if nxt != top_seat:
                            frames[depth, _F_SIG] = sig
                            frames[depth, _F_SEAT] = top_seat
                        else:
                            frames[depth, _F_SIG] = -1
                            frames[depth, _F_SEAT] = -1
                    else:
                        child = data[child_at + e]
                        frames[depth, _F_H0] = child if turn == 0 else h0
                        frames[depth, _F_H1] = child if turn == 1 else h1
                        frames[depth, _F_H2] = child if turn == 2 else h2
                        frames[depth, _F_SIG] = data[sig_at + e]
                        frames[depth, _F_SEAT] = turn
                    frames[depth, _F_TURN] = nxt
                    entering = True
                    continue
                result = not maximiser  # no move escapes
            if state[_NODES] - frames[depth, _F_FIRST] >= _STORE_FROM:
                # from the slot the lookup found empty (the subtree, or another thread, may
                # have filled it since: ``_store`` probes on)
                _store(
                    table,
                    frames[depth, _F_SLOT],
                    frames[depth, _F_KEY],
                    frames[depth, _F_KEY2],
                    1 if result else 0,
                    mask,
                )
                state[_ENTRIES] += 1
            value = result
            depth -= 1
            if depth < 0:
                return value
            entering = False

    @numba.njit(cache=True)
    def _rehash(table, new_table):
        mask = new_table.shape[0] - 1
        for i in range(table.shape[0]):
            key = table[i, 0]
            if key != -1:
                slot = _slot(key, table[i, 1] >> 1, mask)
                while new_table[slot, 0] != -1:
                    slot = (slot + 1) & mask
                new_table[slot, 0] = key
                new_table[slot, 1] = table[i, 1]

    @numba.njit(cache=True)
    def _lookup_node(data, table, h0, h1, h2, turn, sig, top_seat):
        # a node's value as the search stored it: past its forced passes (not stored)
        while _forced_pass(data, h0, h1, h2, turn, sig):
            turn = (turn + 1) % 3
            if turn == top_seat:
                sig = top_seat = -1
        key, second = _key(data, h0, h1, h2, turn, sig, top_seat)
        return _probe(table, key, second, table.shape[0] - 1)[1]


_compiled = False


def _compile() -> None:
    """Compile every function of the search once a process (a few seconds the first time,
    then a fraction of one from numba's cache on disk), so that no query's budget pays it."""
    global _compiled
    if _compiled:
        return
    _compiled = True
    tiny = Position((UNIT[0], UNIT[1], UNIT[2]), 0, 0)
    _rehash(np.full((4, 2), -1, dtype=np.int64), np.full((16, 2), -1, dtype=np.int64))
    Solver.solve(JitSolver(COMP2016, max_ms=60_000), tiny)  # _search, _beats, _now, _key
    np.full((_WARM_SLOTS, 2), -1, dtype=np.int64)


def default_threads() -> int:
    """The threads a query searches on past ``SPLIT_NODES``: two where the machine has two
    cores or more (the only count measured: docs/solver.md), else one."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


class JitSolver(Solver):
    """``Solver`` with its search compiled: ``value`` and ``_proven`` read and write the
    compiled table; the line, the budget's meaning and the answers are the reference's.

    ``threads``: past ``split_nodes`` nodes a query searches on this many threads sharing one
    table (``default_threads()`` when None; 1: one thread throughout). The value is the same;
    the nodes counted are not."""

    # set by ``_prepare`` at the first ``value``: the arrays of the compiled search, and each
    # seat's sub-multisets numbered
    _data: Any = None
    _table: Any = None
    _killers: Any = None
    _frames: Any = None
    _state: Any = None
    _shared: Any = None
    _index: tuple[dict[int, int], ...] = ()

    def __init__(
        self,
        profile: RuleProfile,
        *,
        threads: int | None = None,
        split_nodes: int = SPLIT_NODES,
        **budget: Any,
    ) -> None:
        super().__init__(profile, **budget)  # max_ms, max_nodes, max_entries: ``Solver``'s
        self.threads = default_threads() if threads is None else max(1, threads)
        self.split_nodes = split_nodes
        self.threads_used = 1  # ``threads`` once a query went past ``split_nodes``

    def solve(self, position: Position) -> Solution:
        """As ``Solver.solve``; the first query of a process compiles the search first (or
        loads it from numba's cache), outside the clock."""
        _compile()
        return super().solve(position)

    @staticmethod
    def takes(position: Position, profile: RuleProfile) -> bool:
        """Whether the compiled search takes the position: numba there, one reading a
        multiset, and few enough sub-multisets a hand."""
        return (
            available()
            and unique_readings(profile)
            and all(sub_hand_count(hand) <= MAX_SUB_HANDS for hand in position.hands)
        )

    def _prepare(self, position: Position) -> None:
        hands = position.hands
        subs = [_sub_hands(hand) for hand in hands]
        self._index = tuple({key: i for i, key in enumerate(keys)} for keys in subs)
        if position.top is not None:
            self._signature_id(position.top)
        starts: list[int] = []
        children: list[int] = []
        sigs: list[int] = []
        for seat in range(3):
            index = self._index[seat]
            for n, key in enumerate(subs[seat]):
                if n % 256 == 0 and self.max_ms is not None and self._late():
                    raise _OutOfBudget  # preparing is part of the query's time
                starts.append(len(children))
                if key:
                    for _, signature, play_key in self._leads_of(key):
                        children.append(index[key - play_key])
                        sigs.append(signature)
        starts.append(len(children))
        signatures = sorted(self._signatures.items(), key=lambda item: item[1])
        if len(signatures) >= (1 << _SIG_BITS) - 1:  # pragma: no cover - a profile has 308
            raise AssertionError("too many signatures for the packed key")
        classes = [_class(kind, length) for (kind, _, length), _ in signatures]
        ranks = [-1 if rank is None else rank for (_, rank, _), _ in signatures]
        entry_classes = [classes[sig] for sig in sigs]
        entry_ranks = [ranks[sig] for sig in sigs]
        header = [0, len(subs[0]), len(subs[0]) + len(subs[1])] + [0] * (_HEADER - 3)
        tricks = [self._tricks_of(key) for seat in range(3) for key in subs[seat]]
        hand_keys = [key for seat in range(3) for key in subs[seat]]
        # with numpy, a rank at a time over every sub-multiset (and the chains below by a
        # cumulative sum): for the 1,920 sub-multisets of three hands of 10 cards, 0.43 ms
        # against 7.6 ms for one sub-multiset at a time in Python (a third of the median
        # query's time on endgames of 7-10 cards)
        keys = np.array(hand_keys, dtype=np.int64)
        held = np.zeros(len(hand_keys), dtype=np.int64)
        for rank in range(NUM_RANKS):
            held |= (((keys >> (KEY_BITS * rank)) & 0xF) > 0).astype(np.int64) << rank
        held_ranks: list[int] = held.tolist()
        dense: dict[int, int] = {}
        for cls in classes:
            dense.setdefault(cls, len(dense))
        entry_dense = [dense[classes[sig]] for sig in sigs]
        groups = len(starts) - 1
        is_chain = np.array([kind in _CHAIN_KINDS for (kind, _, _), _ in signatures], dtype=bool)
        chains_before = np.concatenate(([0], np.cumsum(is_chain[np.array(sigs, dtype=np.int64)])))
        bounds = np.array(starts, dtype=np.int64)
        chained: list[int] = (
            (chains_before[bounds[1:]] > chains_before[bounds[:-1]]).astype(np.int64).tolist()
        )
        data = header
        for slot, part in (
            (_D_START, starts),
            (_D_CHILD, children),
            (_D_SIG, sigs),
            (_D_CLASS, classes),
            (_D_RANK, ranks),
            (_D_ECLASS, entry_classes),
            (_D_ERANK, entry_ranks),
            (_D_TRICKS, tricks),
            (_D_ECC, entry_dense),
            (_D_HAND, hand_keys),
            (_D_CHAINS, chained),
            (_D_RANKS, held_ranks),
            (_D_COUNTS, _COUNT_CODES),
        ):
            data[slot] = len(data)
            data = data + part
        data[_D_SIGS] = len(signatures) + 1
        data[_D_NCLS] = len(dense)
        data[_D_BOMB] = dense.get(_BOMB_CLASS, -1)
        data[_D_ROCKET] = dense.get(_ROCKET_CLASS, -1)
        data[_D_SCC] = len(data)
        data = data + [dense[cls] for cls in classes]
        data[_D_TOPS] = len(data)
        self._data = np.array(data + [0] * (groups * len(dense)), dtype=np.int64)
        _fill_tops(self._data, groups)
        self._table = np.full((_FIRST_CAPACITY, 2), -1, dtype=np.int64)
        self._killers = np.full((len(starts) - 1) * (len(signatures) + 1), -1, dtype=np.int32)
        self._frames = np.zeros((_MAX_DEPTH, 20), dtype=np.int64)
        self._shared = np.zeros((1, 3), dtype=np.int64)
        state = np.zeros(8, dtype=np.int64)
        state[_MAX_NODES] = -1 if self.max_nodes is None else self.max_nodes
        state[_MAX_ENTRIES] = (
            _NO_ENTRY_BUDGET if self.max_entries is None else ENTRIES_PER_BUDGET * self.max_entries
        )
        self._state = state

    def _late(self) -> bool:
        return time.perf_counter() > self._deadline

    def _grow(self) -> None:
        table = np.full((4 * self._table.shape[0], 2), -1, dtype=np.int64)
        _rehash(self._table, table)
        self._table = table

    def _packed(self, position: Position) -> tuple[int, int, int, int, int, int]:
        h0, h1, h2, turn, signature, top_seat = self._key(position)
        index = self._index
        return (
            index[0][h0],
            index[1][h1],
            index[2][h2],
            turn,
            -1 if signature is None else signature,
            -1 if top_seat is None else top_seat,
        )

    def value(self, position: Position) -> bool:
        if self._data is None:
            self._prepare(position)
        root = (*self._packed(position), position.landlord)
        threads = self.threads
        self._state[_SPLIT_AT] = self.nodes + self.split_nodes if threads > 1 else -1
        while True:  # on one thread
            result, stops = self._run(root, [(self._killers, self._frames, self._state)])
            if stops == _GROW:
                self._grow()
            elif stops != _SPLIT:
                return result
            else:
                break
        # on several: each its own killers (the first thread's learnt so far), stack and state
        self.threads_used = threads
        states = [self._state] + [self._state.copy() for _ in range(threads - 1)]
        for state in states:
            state[_SPLIT_AT] = -1
        runs = [(self._killers, self._frames, states[0])] + [
            (self._killers.copy(), np.zeros_like(self._frames), states[t])
            for t in range(1, threads)
        ]
        while True:
            result, stops = self._run(root, runs)
            if stops != _GROW:
                return result
            self._grow()

    def _run(self, root: tuple[int, ...], runs: list[tuple[Any, Any, Any]]) -> tuple[bool, int]:
        """Search ``root`` on a thread a run (killers, stack, state), the first on this one.
        Returns the value and 0 when one of them finished, else why they stopped (``_GROW``,
        ``_SPLIT``); raises ``_OutOfBudget``."""
        h0, h1, h2, turn, signature, top_seat, landlord = root
        deadline = self._deadline if self.max_ms is not None else 0.0
        shared = self._shared
        shared[0, _S_STOP] = 0
        shared[0, _S_NODES] = self.nodes
        results = [False] * len(runs)

        def run(thread: int) -> None:
            killers, frames, state = runs[thread]
            state[_NODES] = state[_REPORTED] = state[_ENTRIES] = 0
            state[_NEXT_CHECK] = 0
            state[_ABORT] = 0
            try:
                results[thread] = _search(
                    h0, h1, h2, turn, signature, top_seat, landlord, self._data, self._table,
                    killers, frames, state, deadline, shared, thread, len(runs),
                )  # fmt: skip
            except BaseException as error:  # the query's, raised on the caller's thread
                errors.append(error)
                state[_ABORT] = _STOPPED
            if not state[_ABORT] or errors:  # finished (or failed): the others stop
                shared[0, _S_STOP] = 1

        errors: list[BaseException] = []
        helpers = [threading.Thread(target=run, args=(t,)) for t in range(1, len(runs))]
        for helper in helpers:
            helper.start()
        run(0)
        for helper in helpers:
            helper.join()
        if errors:
            raise errors[0]
        states = [state for _, _, state in runs]
        self.nodes = int(shared[0, _S_NODES]) + sum(
            int(state[_NODES] - state[_REPORTED]) for state in states
        )
        shared[0, _S_ENTRIES] += sum(int(state[_ENTRIES]) for state in states)
        for state in states:
            state[_ENTRIES] = 0
        for thread, state in enumerate(states):
            if not state[_ABORT]:
                return bool(results[thread]), 0
        stops = {int(state[_ABORT]) for state in states}
        if _OUT_OF_BUDGET in stops:
            raise _OutOfBudget
        return False, _GROW if _GROW in stops else _SPLIT

    def _proven(self, position: Position) -> bool | None:
        done = _winner_is_landlord(position)
        if done is not None:
            return done
        if self._data is None:
            return None
        found = int(_lookup_node(self._data, self._table, *self._packed(position)))
        return None if found < 0 else found == 1
