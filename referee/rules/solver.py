"""Open-hand (perfect-information) value of a play-phase position (issue 33, ``docs/solver.md``).

Every hand is known (the landlord's includes the kitty), so is the seat on turn and the play to
beat. The question: does the landlord go out first against best play by both sides, the two
farmers cooperating? ``solve`` answers it with a boolean depth-first search (an AND/OR tree:
the landlord's nodes are OR, a farmer's are AND; each subtree stops at its first refutation),
a transposition table keyed by the three hands, the seat on turn and the play to beat, and a
budget of time, nodes and table entries that answers ``None`` (unsolved) rather than wait.

``brute_force`` is the reference: plain minimax, every child of every node evaluated, no
table. ``check_line`` re-verifies a winning line against it. Only ``comp2016`` and
``classic`` (the three-seat profiles) are solved.

A position is rank-count multiset keys (``cards.key_of``), one int per hand: a play is
subtracted, an empty hand is 0.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from referee.rules.cards import format_ranks, ranks_of_key
from referee.rules.combos import Play, beats
from referee.rules.errors import RulesError
from referee.rules.moves import legal_plays
from referee.rules.profiles import PROFILES, RuleProfile

#: A step of a line: the seat and its play, None for a pass.
Step = tuple[int, Play | None]


class SolverError(RulesError):
    """A position the solver does not take (an unsupported profile, a hand already out)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="unsolvable_position")


class Position(NamedTuple):
    """A play-phase position: ``hands`` (three multiset keys), the ``landlord``'s seat, the
    seat on ``turn`` and the ``top`` play to beat with its ``top_seat`` (None: a lead). A top
    played by the seat on turn means the others both passed: that seat leads."""

    hands: tuple[int, int, int]
    landlord: int
    turn: int
    top: Play | None = None
    top_seat: int | None = None


class Solution(NamedTuple):
    """``landlord_wins`` (None: unsolved within the budget), a ``line`` of steps in which the
    winning side goes out (empty when unsolved), the ``nodes`` searched and the ``ms`` taken."""

    landlord_wins: bool | None
    line: tuple[Step, ...]
    nodes: int
    ms: float

    def to_json(self) -> dict[str, Any]:
        return {
            "landlord_wins": self.landlord_wins,
            "line": [step_json(step) for step in self.line],
            "nodes": self.nodes,
            "ms": round(self.ms, 1),
        }


def step_json(step: Step) -> dict[str, Any]:
    """A step as a protocol event: ``{"seat": s, "play": "<cards>" | "pass"}``."""
    seat, play = step
    return {"seat": seat, "play": "pass" if play is None else play.text()}


class _OutOfBudget(Exception):
    pass


def _check_profile(position: Position, profile: RuleProfile) -> None:
    if PROFILES.get(profile.key) is not profile:
        raise SolverError(f"the solver takes comp2016 and classic, not {profile.key}")
    if not all(position.hands):
        raise SolverError("a hand is already empty: the game is over")


def _signature(top: Play) -> tuple[str, int | None, int]:
    """What beating a play depends on (R5.21): kind, body rank, body length; kickers never
    count, so two tops with the same signature are one table entry. The kind's ``_value_``:
    its ``value`` is an enum property and the member's own hash is Python code, both slower
    (30 endgames of 7-10 cards, seed 7, back to back: 21.7 -> 19.4 s with ``_value_``; with
    the member, 19.8 -> 26.3 s)."""
    return (top.kind._value_, top.rank, top.length)


class Solver:
    """One query's search: a table and a budget. ``max_ms`` / ``max_nodes`` / ``max_entries``
    None: no limit of that kind."""

    def __init__(
        self,
        profile: RuleProfile,
        *,
        max_ms: float | None = None,
        max_nodes: int | None = None,
        max_entries: int | None = 2_000_000,
    ) -> None:
        self.profile = profile
        self.table: dict[tuple[Any, ...], bool] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.max_entries = max_entries
        self.max_ms = max_ms
        self._deadline = 0.0
        self._next_check = 0
        self._leads: dict[int, list[tuple[Play, int, int]]] = {}
        self._answers: dict[tuple[int, int | None], list[tuple[Play, int, int]]] = {}
        self._tricks: dict[int, int] = {}
        self._raw: dict[int, list[Play]] = {}
        self._signatures: dict[tuple[str, int | None, int], int] = {}

    def _signature_id(self, play: Play) -> int:
        # a small int a signature: the table's and the answers' keys hash it, not a tuple
        # of three (30 endgames of 7-10 cards, the same nodes: 3.43 -> 3.31 s, seed 7;
        # 4.25 -> 4.12 s, seed 8)
        return self._signatures.setdefault(_signature(play), len(self._signatures))

    def _leads_of(self, hand: int) -> list[tuple[Play, int, int]]:
        # a hand's leads cached, in the order of _order, each with its signature and key
        # (what the child's position needs): a hand recurs under many others
        plays = self._leads.get(hand)
        if plays is None:
            ordered = sorted(self._raw_leads(hand), key=self._order(hand))
            plays = [(play, self._signature_id(play), play.key) for play in ordered]
            self._leads[hand] = plays
        return plays

    def _order(self, hand: int) -> Any:
        # the plays that leave the fewest plays to go out first, then most cards: 3 -> 6
        # of 12 endgames of 10-13 cards solved within 400,000 nodes (seed 8), 4,163,398 ->
        # 3,174,237 nodes; 7-10 cards 2,489,676 -> 2,127,097 nodes for the same 16 of 20.
        # A play that empties the hand leaves 0 plays: it comes first (``_search``).
        tricks = self._tricks_of
        return lambda play: (tricks(hand - play.key), *_cards_first(play))

    def _raw_leads(self, hand: int) -> list[Play]:
        plays = self._raw.get(hand)
        if plays is None:
            plays = legal_plays(hand, None, self.profile)
            self._raw[hand] = plays
        return plays

    def _tricks_of(self, hand: int) -> int:
        # the fewest plays that empty the hand: the play that takes its lowest card is one
        # of them, so only those are tried
        if not hand:
            return 0
        known = self._tricks.get(hand)
        if known is None:
            shift = (hand & -hand).bit_length() - 1
            lowest = 0xF << (shift - shift % 4)
            plays = self._raw_leads(hand)
            known = 1 + min(self._tricks_of(hand - p.key) for p in plays if p.key & lowest)
            self._tricks[hand] = known
        return known

    def _answers_of(
        self, hand: int, top: Play, signature: int | None
    ) -> list[tuple[Play, int, int]]:
        # answers cached by hand and the top's signature, as leads are: 129,000 -> 492,000
        # nodes/s on 12 endgames of 7-10 cards (bench/solver_bench.py --deals 0 --seed 7)
        if len(self._answers) >= 1 << 20:  # bounded: a memo, not the table
            self._answers.clear()
        ordered = sorted(legal_plays(hand, top, self.profile), key=self._order(hand))
        found = [(play, self._signature_id(play), play.key) for play in ordered]
        self._answers[(hand, signature)] = found
        return found

    def value(self, position: Position) -> bool:
        """True when the landlord wins; raises _OutOfBudget."""
        h0, h1, h2, turn, signature, top_seat = self._key(position)
        top = None if signature is None else position.top
        return self._search(h0, h1, h2, turn, top, signature, top_seat, position.landlord)

    def _key(self, position: Position) -> tuple[int, int, int, int, int | None, int | None]:
        """The position's table key: the three hands, the seat on turn, the top's signature
        number and its seat (both None at a lead, as when the top is the turn's own)."""
        h0, h1, h2 = position.hands
        top = position.top
        if top is None or position.top_seat == position.turn:
            return (h0, h1, h2, position.turn, None, None)
        return (h0, h1, h2, position.turn, self._signature_id(top), position.top_seat)

    def _search(
        self,
        h0: int,
        h1: int,
        h2: int,
        turn: int,
        top: Play | None,
        signature: int | None,
        top_seat: int | None,
        landlord: int,
    ) -> bool:
        # The three hands, then the seat on turn, the top (its signature's number and its
        # seat: all None at a lead). Each cached play carries its signature and key, the
        # finishing play is found first in the ordered list, the pass and the child's hands
        # are built inline, the hands passed as three ints and the key one flat tuple: 30
        # endgames of 7-10 cards (seed 7), the same nodes, 4.13 -> 3.56 s, then 3.05 s.
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_budget()
        key = (h0, h1, h2, turn, signature, top_seat)
        known = self.table.get(key)
        if known is not None:
            return known
        maximiser = turn == landlord
        hand = h0 if turn == 0 else h1 if turn == 1 else h2
        if top is None:
            plays = self._leads.get(hand)
            if plays is None:
                plays = self._leads_of(hand)
        else:
            plays = self._answers.get((hand, signature))
            if plays is None:
                plays = self._answers_of(hand, top, signature)
        if plays and plays[0][2] == hand:  # it goes out at once (first: ``_order``)
            result = maximiser
        else:
            result = not maximiser
            search = self._search
            nxt = (turn + 1) % 3
            # after a pass the next seat answers the same top, or leads if it holds the top
            pass_top, pass_signature, pass_seat = (
                (top, signature, top_seat) if nxt != top_seat else (None, None, None)
            )
            # a farmer whose partner holds the top passes first: 262 vs 273 ms median on
            # endgames, noise; anyone else passes last
            pass_first = not maximiser and top_seat is not None and top_seat != landlord
            if (
                pass_first
                and search(h0, h1, h2, nxt, pass_top, pass_signature, pass_seat, landlord)
                == maximiser
            ):
                result = maximiser
            else:
                # a copy: a deeper node of the same hand and top may reorder the list
                for entry in plays.copy():
                    play, play_signature, play_key = entry
                    if turn == 0:
                        value = search(
                            h0 - play_key, h1, h2, nxt, play, play_signature, turn, landlord
                        )
                    elif turn == 1:
                        value = search(
                            h0, h1 - play_key, h2, nxt, play, play_signature, turn, landlord
                        )
                    else:
                        value = search(
                            h0, h1, h2 - play_key, nxt, play, play_signature, turn, landlord
                        )
                    if value == maximiser:
                        result = maximiser
                        if plays[0] is not entry:
                            # the refuting play first next time (killer move; the list is
                            # the hand's cached one): 2-3 % fewer nodes, 4,272,202 ->
                            # 4,163,398 on 12 endgames of 10-13 cards (seed 8)
                            plays.remove(entry)
                            plays.insert(0, entry)
                        break
                else:
                    if (
                        top is not None
                        and not pass_first
                        and search(h0, h1, h2, nxt, pass_top, pass_signature, pass_seat, landlord)
                        == maximiser
                    ):
                        result = maximiser
        self.table[key] = result
        return result

    def _check_budget(self) -> None:
        # every 1,024 nodes: a node adds at most one entry, so the table ends at most 1,024
        # entries past ``max_entries`` (checked at every entry: 2-3 % slower on 30
        # endgames of 7-10 cards, seeds 7 and 8)
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.max_entries is not None and len(self.table) >= self.max_entries:
            raise _OutOfBudget
        if self.max_ms is not None and time.perf_counter() > self._deadline:
            raise _OutOfBudget
        self._next_check = self.nodes + 1024

    def solve(self, position: Position) -> Solution:
        """The position's value and a winning line (see the module's docstring)."""
        _check_profile(position, self.profile)
        start = time.perf_counter()
        self._deadline = start + (self.max_ms or 0) / 1000
        self._next_check = 0
        try:
            wins = self.value(position)
            line = self.line(position, wins)
        except _OutOfBudget:
            return Solution(None, (), self.nodes, (time.perf_counter() - start) * 1000)
        return Solution(wins, line, self.nodes, (time.perf_counter() - start) * 1000)

    def _proven(self, position: Position) -> bool | None:
        """The position's value if the table holds it (a side out: its value), else None."""
        done = _winner_is_landlord(position)
        if done is not None:
            return done
        return self.table.get(self._key(position))

    def line(self, position: Position, landlord_wins: bool) -> tuple[Step, ...]:
        """A line in which the winning side goes out: its moves are winning ones, every
        defence is the first in search order."""
        steps: list[Step] = []
        pos = _normal(position)
        while all(pos.hands):
            winning_side = (pos.turn == pos.landlord) == landlord_wins
            chosen: Play | None = None
            found = False
            options = _options(pos, self.profile)
            if winning_side:
                # the move the search proved first: its child is in the table. Searching the
                # options in the generator's order instead cost more than the value itself
                # (30 endgames of 7-10 cards, seed 7: 9.0 s for the lines, 3.9 s for the
                # values; 5 of the 30 over 1 s for the lines alone)
                options.sort(key=lambda move: self._proven(_after(pos, move)) != landlord_wins)
            for move in options:
                child = _after(pos, move)
                if not winning_side or not all(child.hands):
                    chosen, found = move, True
                    break
                if self.value(child) == landlord_wins:
                    chosen, found = move, True
                    break
            if not found:  # cannot happen once the value is known
                raise AssertionError("no winning move in a won position")
            steps.append((pos.turn, chosen))
            pos = _after(pos, chosen)
        return tuple(steps)


def _cards_first(play: Play) -> tuple[int, int]:
    return (-card_count(play.key), play.rank if play.rank is not None else 99)


_NIBBLES = 0x0F0F0F0F0F0F0F0F


def card_count(key: int) -> int:
    """The cards in a multiset key: its nibbles summed, a pair of nibbles a byte, the bytes
    summed by ``% 255`` (exact: at most 54 cards). ``len(ranks_of_key(key))`` built the ranks
    (a third of the time the compiled solver spends preparing a position)."""
    return ((key & _NIBBLES) + ((key >> 4) & _NIBBLES)) % 255


def _normal(position: Position) -> Position:
    if position.top is not None and position.top_seat == position.turn:
        return position._replace(top=None, top_seat=None)
    return position


def _options(position: Position, profile: RuleProfile) -> list[Play | None]:
    """Every move of the seat on turn: its legal plays, then a pass unless it leads."""
    pos = _normal(position)
    options: list[Play | None] = list(legal_plays(pos.hands[pos.turn], pos.top, profile))
    if pos.top is not None:
        options.append(None)
    return options


def _after(position: Position, move: Play | None) -> Position:
    """The position after the seat on turn plays ``move`` (None: passes)."""
    pos = _normal(position)
    nxt = (pos.turn + 1) % 3
    if move is None:
        if nxt == pos.top_seat:
            return pos._replace(turn=nxt, top=None, top_seat=None)
        return pos._replace(turn=nxt)
    hands = list(pos.hands)
    hands[pos.turn] -= move.key
    return Position((hands[0], hands[1], hands[2]), pos.landlord, nxt, move, pos.turn)


def _winner_is_landlord(position: Position) -> bool | None:
    """Who has gone out: True the landlord, False a farmer, None nobody yet."""
    for seat, hand in enumerate(position.hands):
        if not hand:
            return seat == position.landlord
    return None


def solve(
    position: Position,
    profile: RuleProfile,
    *,
    max_ms: float | None = None,
    max_nodes: int | None = None,
    max_entries: int | None = 2_000_000,
    compiled: bool | None = None,
    threads: int | None = None,
) -> Solution:
    """Solve ``position`` within a budget (see ``Solver`` and ``solver_for``)."""
    solver = solver_for(
        position,
        profile,
        max_ms=max_ms,
        max_nodes=max_nodes,
        max_entries=max_entries,
        compiled=compiled,
        threads=threads,
    )
    return solver.solve(position)


def solver_for(
    position: Position,
    profile: RuleProfile,
    *,
    max_ms: float | None = None,
    max_nodes: int | None = None,
    max_entries: int | None = 2_000_000,
    compiled: bool | None = None,
    threads: int | None = None,
) -> Solver:
    """A solver for ``position``: the compiled search (``solver_jit``, numba) when it is
    installed and takes the position, else this module's. ``compiled=False`` asks for this
    module's (the reference); ``compiled=True`` for the compiled one or a SolverError. Left to
    choose, a node budget too small to pay for preparing the compiled search goes to the
    reference (``solver_jit.pays``). ``threads``: the compiled search's (``JitSolver``); the
    reference searches on one."""
    if compiled is not False:
        from referee.rules.solver_jit import JitSolver, pays  # it imports this module

        if JitSolver.takes(position, profile) and (compiled or pays(position, max_nodes)):
            return JitSolver(
                profile,
                max_ms=max_ms,
                max_nodes=max_nodes,
                max_entries=max_entries,
                threads=threads,
            )
        if compiled:
            raise SolverError("the compiled search is not installed or does not take this position")
    return Solver(profile, max_ms=max_ms, max_nodes=max_nodes, max_entries=max_entries)


def brute_force(position: Position, profile: RuleProfile) -> bool:
    """The reference value: plain minimax over every move, every child evaluated, no table,
    no ordering. Exponential: for small positions only."""
    _check_profile(position, profile)
    return _minimax(_normal(position), profile)


def _minimax(position: Position, profile: RuleProfile) -> bool:
    done = _winner_is_landlord(position)
    if done is not None:
        return done
    values = [_minimax(_after(position, m), profile) for m in _options(position, profile)]
    return any(values) if position.turn == position.landlord else all(values)


class LineError(RulesError):
    """A line that does not prove what it claims."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message, code="bad_line")
        self.index = index


def check_line(
    position: Position, line: Sequence[Step], landlord_wins: bool, profile: RuleProfile
) -> None:
    """Re-verify a winning line with ``brute_force``: every step is the turn's seat making a
    legal move, the line ends with the claimed side out, and at every step of the losing
    side every other defence still loses. Raises LineError naming the first bad step."""
    pos = _normal(position)
    for index, (seat, move) in enumerate(line):
        if _winner_is_landlord(pos) is not None:
            raise LineError("the line goes on after the game is over", index)
        if seat != pos.turn:
            raise LineError(f"seat {seat} moves out of turn", index)
        options = _options(pos, profile)
        if move is None and pos.top is None:
            raise LineError("a pass on a lead", index)
        if move is not None and not any(o is not None and o.key == move.key for o in options):
            raise LineError(f"{move.text()} is not a legal move", index)
        if move is not None and pos.top is not None and not beats(move, pos.top):
            raise LineError(f"{move.text()} does not beat {pos.top.text()}", index)
        winning_side = (pos.turn == pos.landlord) == landlord_wins
        if not winning_side:
            for other in options:
                if _minimax(_after(pos, other), profile) != landlord_wins:
                    text = "pass" if other is None else other.text()
                    raise LineError(f"the defence {text} escapes", index)
        pos = _after(pos, move)
    if _winner_is_landlord(pos) is not landlord_wins:
        raise LineError("the line does not end with the claimed side out", len(line))


def hand_text(key: int) -> str:
    """A hand key in canonical rank notation."""
    return format_ranks(ranks_of_key(key))
