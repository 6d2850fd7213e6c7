"""The solver's compiled search (``referee/rules/solver_jit.py``) against the reference search
of ``solver.py``: the same values, lines that prove what they claim, the same budgets."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from referee.rules import solver_jit
from referee.rules.cards import KEY_BITS, NUM_RANKS, SMALL_JOKER, TWO, UNIT, key_of
from referee.rules.moves import legal_plays
from referee.rules.profiles import CLASSIC, COMP2016, RuleProfile
from referee.rules.solver import (
    Position,
    Solver,
    SolverError,
    Step,
    _after,
    _options,
    check_line,
    solve,
    solver_for,
)
from referee.rules.solver_jit import JitSolver, sub_hand_count
from tests.rules.test_solver import PACK, random_position


def _endgame(rng: random.Random, low: int, high: int) -> Position:
    sizes = [rng.randint(low, high) for _ in range(3)]
    cards = rng.sample(PACK, sum(sizes))
    hands = (
        key_of(cards[: sizes[0]]),
        key_of(cards[sizes[0] : sizes[0] + sizes[1]]),
        key_of(cards[sizes[0] + sizes[1] :]),
    )
    landlord = rng.randrange(3)
    return Position(hands, landlord, landlord)


def test_numba_is_installed_where_the_tests_run() -> None:
    # the dev lock carries the accelerator (requirements.lock pins it): these tests run it
    assert solver_jit.available()


def test_the_compiled_search_agrees_with_the_reference_on_endgames() -> None:
    rng = random.Random(41)
    wins = 0
    for index in range(60):
        profile = COMP2016 if index % 2 else CLASSIC
        small = index % 3 == 0
        position = random_position(rng, 4) if small else _endgame(rng, 3, 6)
        reference = solve(position, profile, compiled=False)
        found = solve(position, profile, compiled=True)
        assert found.landlord_wins is reference.landlord_wins is not None, position
        wins += bool(found.landlord_wins)
        # the compiled line is read from the compiled table; it must prove the value too
        if small:  # by the brute force
            check_line(position, found.line, bool(found.landlord_wins), profile)
        else:  # by the reference search: every defence at every step still loses
            _check_line_by_reference(position, found.line, bool(found.landlord_wins), profile)
    assert 5 < wins < 55


def _check_line_by_reference(
    position: Position, line: tuple[Step, ...], landlord_wins: bool, profile: RuleProfile
) -> None:
    pos = position
    for seat, move in line:
        assert seat == pos.turn
        options = _options(pos, profile)
        assert move is None or any(o is not None and o.key == move.key for o in options)
        if (pos.turn == pos.landlord) != landlord_wins:
            for other in options:
                child = _after(pos, other)
                if all(child.hands):
                    assert solve(child, profile, compiled=False).landlord_wins is landlord_wins
                else:
                    assert (child.hands[pos.landlord] == 0) is landlord_wins
        pos = _after(pos, move)
    assert not all(pos.hands) and (pos.hands[pos.landlord] == 0) is landlord_wins


def test_the_compiled_table_grows_and_keeps_its_entries() -> None:
    # an endgame of 7-10 cards a hand may need far more entries than the table's first 65,536
    # slots hold: it grows fourfold (rehashing every entry) and the search starts again
    rng = random.Random(7)
    positions = [_endgame(rng, 7, 10) for _ in range(11)]
    position = positions[10]  # the landlord loses; 540,000 nodes by the reference search
    solver = JitSolver(COMP2016)
    found = solver.solve(position)
    assert solver._table.shape[0] > solver_jit._FIRST_CAPACITY
    assert found.landlord_wins is solve(position, COMP2016, compiled=False).landlord_wins
    assert found.line and found.line[-1][1] is not None  # the winning side goes out


def test_the_compiled_search_answers_unsolved_when_a_budget_runs_out() -> None:
    rng = random.Random(7)
    position = _endgame(rng, 8, 9)
    for budget in ({"max_nodes": 2000}, {"max_entries": 500}, {"max_ms": 1}):
        found = solve(position, COMP2016, compiled=True, **budget)  # type: ignore[arg-type]
        assert found.landlord_wins is None and found.line == (), budget
    found = solve(position, COMP2016, compiled=True, max_nodes=2000)
    assert 2000 < found.nodes <= 2000 + 1024  # checked every 1,024 nodes, as the reference


def test_full_deals_go_to_the_reference_search() -> None:
    rng = random.Random(5)
    cards = rng.sample(PACK, 54)
    hands = (key_of(cards[:20]), key_of(cards[20:37]), key_of(cards[37:]))
    position = Position(hands, 0, 0)
    assert max(sub_hand_count(hand) for hand in hands) > solver_jit.MAX_SUB_HANDS
    assert type(solver_for(position, COMP2016)) is Solver
    with pytest.raises(SolverError):
        solver_for(position, COMP2016, compiled=True)
    assert solve(position, COMP2016, max_nodes=2000).landlord_wins is None


def test_a_node_budget_too_small_to_pay_for_preparing_goes_to_the_reference() -> None:
    rng = random.Random(7)
    position = _endgame(rng, 8, 9)
    prepared = sum(sub_hand_count(hand) for hand in position.hands)
    small = solver_jit.NODES_PER_SUB_HAND * prepared - 1
    assert type(solver_for(position, COMP2016, max_nodes=small)) is Solver
    assert type(solver_for(position, COMP2016, max_nodes=small + 1)) is JitSolver
    assert type(solver_for(position, COMP2016)) is JitSolver
    assert type(solver_for(position, COMP2016, max_nodes=small, compiled=True)) is JitSolver


def test_without_numba_every_position_goes_to_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position = Position((key_of([0]), key_of([1]), key_of([2])), 0, 0)
    assert type(solver_for(position, COMP2016)) is JitSolver
    monkeypatch.setattr(solver_jit, "_NUMBA", False)
    assert type(solver_for(position, COMP2016)) is Solver
    assert solve(position, COMP2016).landlord_wins is True
    with pytest.raises(SolverError):
        solve(position, COMP2016, compiled=True)


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_compiled_answer_list_is_legal_plays_answer_list(rng: random.Random) -> None:
    # the compiled search answers a top with the leads of the hand that beat it
    # (``_beats``, R5.21): exactly the plays ``legal_plays`` lists as answers
    cards = rng.sample(PACK, rng.randint(2, 16))
    cut = rng.randint(1, min(len(cards) - 1, 9))  # the hand's sub-hands are all prepared
    hand, other = key_of(cards[:cut]), key_of(cards[cut:])
    profile = rng.choice([COMP2016, CLASSIC])
    top = rng.choice(legal_plays(other, None, profile))
    solver = JitSolver(profile)
    solver._prepare(Position((hand, other, key_of([])), 0, 0, top, 1))
    data = solver._data
    gid = solver._index[0][hand]  # seat 0's hands come first
    start, end = (data[data[solver_jit._D_START] + gid + i] for i in (0, 1))
    at = {slot: int(data[slot]) for slot in range(solver_jit._D_START, solver_jit._D_SIGS)}
    top_sig = solver._signature_id(top)
    top_class, top_rank = (
        data[at[solver_jit._D_CLASS] + top_sig],
        data[at[solver_jit._D_RANK] + top_sig],
    )
    plays = solver._leads_of(hand)  # the entries, in order (no search has reordered them)
    assert end - start == len(plays)
    found = set()
    for entry in range(start, end):
        sig = int(data[at[solver_jit._D_SIG] + entry])
        play, play_sig, _ = plays[entry - start]
        assert sig == play_sig
        play_class = data[at[solver_jit._D_ECLASS] + entry]
        assert play_class == data[at[solver_jit._D_CLASS] + sig]
        if solver_jit._beats(
            play_class, data[at[solver_jit._D_ERANK] + entry], top_class, top_rank
        ):
            found.add(play.key)
    assert found == {play.key for play in legal_plays(hand, top, profile)}


def _unstoppable(position: Position, profile: RuleProfile) -> bool:
    # the compiled search's run-out check at the position's root, on its prepared arrays
    solver = JitSolver(profile)
    solver._prepare(position)
    data = solver._data
    h0, h1, h2, turn, sig, _ = solver._packed(position)
    top_class = top_rank = -1
    if sig >= 0:
        top_class = data[data[solver_jit._D_CLASS] + sig]
        top_rank = data[data[solver_jit._D_RANK] + sig]
    return bool(
        solver_jit._unstoppable(data, h0, h1, h2, turn, position.landlord, sig, top_class, top_rank)
    )


def test_a_way_out_no_opponent_can_stop_is_a_win_for_its_side() -> None:
    # the run-out check settles a node without searching it: wherever it says "goes out",
    # the reference search (which has no such check) finds the side on turn winning
    rng = random.Random(61)
    claims = 0
    for index in range(600):
        profile = COMP2016 if index % 2 else CLASSIC
        position = random_position(rng, sizes=[rng.randint(2, 6) for _ in range(3)])
        jokers = key_of([13, 14])
        if index % 3 == 0 and not any(hand & jokers for hand in position.hands):
            # a third with the rocket in one hand (the one play whose rank is none)
            hands = list(position.hands)
            hands[rng.randrange(3)] += jokers
            position = Position((hands[0], hands[1], hands[2]), *position[1:])
        if _unstoppable(position, profile):
            claims += 1
            wins = solve(position, profile, compiled=False).landlord_wins
            assert wins is (position.turn == position.landlord), position
    assert claims > 60  # the check fires on a good share of small positions


def test_the_run_out_check_settles_a_node_without_searching_below_it() -> None:
    # the landlord leads a pair of 2s no farmer can beat (no bomb, no rocket, no 2 among
    # them), then his 3: one node, where the search without the check tries his 3 first
    landlord, low = key_of([12, 12, 0]), key_of([1, 2, 3])
    position = Position((landlord, low, key_of([4, 5, 6])), 0, 0)
    assert _unstoppable(position, COMP2016)
    solver = JitSolver(COMP2016)
    assert solver.value(position) is True
    assert solver.nodes == 1
    # a farmer's bomb stops it, and so does a farmer's rocket (whose rank is none: it must
    # still count as held): the check says nothing, the search decides
    for stopper in ([7, 7, 7, 7], [13, 14, 4]):
        stopped = Position((landlord, low, key_of(stopper)), 0, 0)
        assert not _unstoppable(stopped, COMP2016)
        reference = solve(stopped, COMP2016, compiled=False).landlord_wins
        assert JitSolver(COMP2016).value(stopped) is reference


def test_a_forced_pass_is_passed_over_by_the_search_and_by_the_lookup() -> None:
    # seat 1 holds nothing above the landlord's 2: it must pass. The search neither looks
    # such a node up nor stores it; the line's lookup (``_proven``) follows the pass to the
    # node that is stored, so the value is still read from the table
    landlord, two = key_of([12, 0, 1]), legal_plays(key_of([12]), None, COMP2016)[0]
    farmer = key_of([6, 8, 10, 13])  # four plays: searched, so its node is stored
    position = Position((landlord, key_of([3, 4, 5]), farmer), 0, 1, two, 0)
    solver = JitSolver(COMP2016)
    solver._prepare(position)
    h0, h1, h2, turn, sig, _ = solver._packed(position)
    assert solver_jit._forced_pass(solver._data, h0, h1, h2, turn, sig)
    assert not solver_jit._forced_pass(solver._data, h0, h1, h2, 2, sig)  # a joker beats it
    wins = solver.value(position)
    assert wins is solve(position, COMP2016, compiled=False).landlord_wins
    assert solver._proven(position) is wins
    check_line(position, solver.line(position, wins), wins, COMP2016)


_CHAINS = {"straight", "pair_straight", "airplane", "airplane_singles", "airplane_pairs"}


def _chainless(position: Position, profile: RuleProfile) -> bool:
    # no hand holds a chain: read from the reference's own leads, not the compiled arrays
    leads = Solver(profile)._leads_of
    return not any(play.kind in _CHAINS for hand in position.hands for play, _, _ in leads(hand))


def _root_key(position: Position, profile: RuleProfile) -> tuple[int, int]:
    # the compiled table's key of the position's root
    solver = JitSolver(profile)
    solver._prepare(position)
    first, second = solver_jit._key(solver._data, *solver._packed(position))
    return int(first), int(second)


def _relabelled(position: Position, ranks: list[int]) -> Position:
    # the position with rank r (3..2) moved to ``ranks[r]``, the jokers left where they are
    def moved(key: int) -> int:
        out = 0
        for rank in range(NUM_RANKS):
            count = (key >> (KEY_BITS * rank)) & 0xF
            out += count * UNIT[ranks[rank] if rank < SMALL_JOKER else rank]
        return out

    top = position.top
    if top is not None:
        key, kind, length = moved(top.key), top.kind, top.length
        plays = legal_plays(key, None, COMP2016)
        top = next(p for p in plays if p.key == key and p.kind == kind and p.length == length)
    hands = (moved(position.hands[0]), moved(position.hands[1]), moved(position.hands[2]))
    return Position(hands, position.landlord, position.turn, top, position.top_seat)


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([COMP2016, CLASSIC]))
def test_a_chainless_position_is_one_entry_with_its_order_preserving_relabellings(
    rng: random.Random, profile: RuleProfile
) -> None:
    # Without chains a rank matters only by its order among the ranks held (R5.21): a
    # position and any relabelling that keeps the ranks' order share the compiled table's
    # key, and the reference search (whose key is the ranks themselves) gives both the
    # same value. A relabelling that creates a chain is another game: not compared.
    position = random_position(rng, sizes=[rng.randint(1, 5) for _ in range(3)])
    if position.top is not None and position.top.kind in _CHAINS | {"rocket"}:
        position = Position(position.hands, position.landlord, position.turn)
    assume(_chainless(position, profile))
    used = [
        rank
        for rank in range(SMALL_JOKER)
        if any((hand >> (KEY_BITS * rank)) & 0xF for hand in position.hands)
        or (position.top is not None and (position.top.key >> (KEY_BITS * rank)) & 0xF)
    ]
    targets = sorted(rng.sample(range(SMALL_JOKER), len(used)))  # the same order, other ranks
    mapping = dict(zip(used, targets, strict=True))
    order = [mapping.get(rank, 0) for rank in range(SMALL_JOKER)]
    other = _relabelled(position, order)
    assume(_chainless(other, profile))
    event("relabelled" if other != position else "the same ranks")
    assert _root_key(position, profile) == _root_key(other, profile)
    value = solve(position, profile, compiled=False).landlord_wins
    assert solve(other, profile, compiled=False).landlord_wins is value
    assert solve(other, profile, compiled=True).landlord_wins is value


def _runs_kept(rng: random.Random, used: list[int]) -> dict[int, int]:
    # ranks 3..A moved so that their order and their runs of consecutive ranks stay: each
    # run shifted, at least one rank between two runs; the 2 stays (no chain takes it)
    runs: list[list[int]] = []
    for rank in sorted(r for r in used if r < TWO):
        if runs and rank == runs[-1][-1] + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    slack = TWO - sum(len(run) for run in runs) - max(len(runs) - 1, 0)
    cuts = sorted(rng.randint(0, slack) for _ in runs)
    mapping, start = {TWO: TWO}, 0
    for index, run in enumerate(runs):
        start += (cuts[index] - (cuts[index - 1] if index else 0)) + (2 if index else 0)
        for offset, rank in enumerate(run):
            mapping[rank] = start + offset
        start += len(run) - 1
    return mapping


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([COMP2016, CLASSIC]))
def test_a_position_is_one_entry_with_its_relabellings_that_keep_the_runs(
    rng: random.Random, profile: RuleProfile
) -> None:
    # With chains, a rank matters by its order and by which ranks held are consecutive
    # (R5.9-R5.16): a relabelling that keeps both keeps the key and the value
    length = rng.randint(5, 7)  # a straight in one hand, the other cards at random
    low = rng.randint(0, TWO - length)
    straight = list(range(low, low + length))
    pack = [r for r in range(SMALL_JOKER) for _ in range(4)]
    for rank in straight:
        pack.remove(rank)
    cards = rng.sample(pack, rng.randint(2, 7))
    first = rng.randint(0, len(cards) - 2)  # the other two hands hold a card at least
    second = rng.randint(first + 1, len(cards) - 1)
    parts = [cards[:first] + straight, cards[first:second], cards[second:]]
    seat = rng.randrange(3)
    hands = tuple(key_of(parts[(index - seat) % 3]) for index in range(3))
    position = Position(hands, rng.randrange(3), rng.randrange(3))  # type: ignore[arg-type]
    assert not _chainless(position, profile)
    used = [r for r in range(SMALL_JOKER) if any((h >> (KEY_BITS * r)) & 0xF for h in hands)]
    mapping = _runs_kept(rng, used)
    other = _relabelled(position, [mapping.get(rank, 0) for rank in range(SMALL_JOKER)])
    event("relabelled" if other != position else "the same ranks")
    assert _root_key(position, profile) == _root_key(other, profile)
    value = solve(position, profile, compiled=False, max_ms=20_000).landlord_wins
    assert value is not None
    assert solve(other, profile, compiled=False, max_ms=20_000).landlord_wins is value


def test_a_position_with_a_chain_is_keyed_by_its_runs() -> None:
    # 3-4-5-6-7 in seat 0: moving every rank up one keeps the runs, the key and the value;
    # moving its 7 to an 8 breaks the straight, and the key differs
    hands = ([0, 1, 2, 3, 4, 9], [6, 6], [7, 8])
    chained = Position(tuple(key_of(hand) for hand in hands), 0, 0)  # type: ignore[arg-type]
    shifted = Position(tuple(key_of([r + 1 for r in hand]) for hand in hands), 0, 0)  # type: ignore[arg-type]
    assert not _chainless(chained, COMP2016)
    assert _root_key(chained, COMP2016) == _root_key(shifted, COMP2016)
    value = solve(chained, COMP2016, compiled=False).landlord_wins
    assert solve(shifted, COMP2016, compiled=False).landlord_wins is value
    broken = Position((key_of([0, 1, 2, 3, 5, 9]), key_of([6, 6]), key_of([7, 8])), 0, 0)
    assert _root_key(broken, COMP2016) != _root_key(chained, COMP2016)


def test_the_top_is_placed_among_the_ranks_of_the_seats_that_may_answer_it() -> None:
    # seat 0 led a 9 and holds a 10 (or led the 10 and holds the 9): nobody else holds a
    # rank between them, and seat 0 never answers its own top, so the two are one entry,
    # and one value
    nine, ten = (legal_plays(key_of([rank]), None, COMP2016)[0] for rank in (6, 7))
    rest = (key_of([2, 11]), key_of([4, 12]))
    led_nine = Position((key_of([7, 0]), *rest), 1, 1, nine, 0)
    led_ten = Position((key_of([6, 0]), *rest), 1, 1, ten, 0)
    assert _root_key(led_nine, COMP2016) == _root_key(led_ten, COMP2016)
    value = solve(led_nine, COMP2016, compiled=False).landlord_wins
    assert solve(led_ten, COMP2016, compiled=False).landlord_wins is value
    # a farmer's 10 between them is not: seat 1 can beat the 9, not the 10
    between = (key_of([2, 7]), key_of([4, 12]))
    assert _root_key(Position((key_of([8, 0]), *between), 1, 1, nine, 0), COMP2016) != (
        _root_key(
            Position(
                (key_of([6, 0]), *between), 1, 1, legal_plays(key_of([8]), None, COMP2016)[0], 0
            ),
            COMP2016,
        )
    )


def test_the_compiled_search_agrees_with_the_reference_on_chainless_endgames() -> None:
    # the positions whose key is the ranks' order: endgames of singles, pairs and trios
    rng = random.Random(83)
    compared = 0
    while compared < 40:
        position = _endgame(rng, 4, 7)
        profile = COMP2016 if compared % 2 else CLASSIC
        if not _chainless(position, profile):
            continue
        compared += 1
        reference = solve(position, profile, compiled=False)
        found = solve(position, profile, compiled=True)
        assert found.landlord_wins is reference.landlord_wins is not None, position
        _check_line_by_reference(position, found.line, bool(found.landlord_wins), profile)


def test_a_joker_is_a_rank_like_any_other_where_no_hand_holds_the_rocket() -> None:
    # the big joker, a 2 and an ace held as 3 seats hold a 2, an ace and a king: with the
    # jokers in different hands (or one gone) a joker is a single above the 2 and nothing
    # more, so the two positions are one entry and one value
    with_joker = (key_of([14, 0]), key_of([12, 2]), key_of([11, 4]))
    without = (key_of([12, 0]), key_of([11, 2]), key_of([10, 4]))
    for landlord in range(3):
        joker_position = Position(with_joker, landlord, landlord)
        plain = Position(without, landlord, landlord)
        assert _root_key(joker_position, COMP2016) == _root_key(plain, COMP2016)
        value = solve(joker_position, COMP2016, compiled=False).landlord_wins
        assert solve(plain, COMP2016, compiled=False).landlord_wins is value
    # both jokers in one hand are the rocket: not the same as a 2 and an ace
    rocket = Position((key_of([13, 14, 0]), key_of([5, 6]), key_of([7, 8])), 0, 0)
    high = Position((key_of([11, 12, 0]), key_of([5, 6]), key_of([7, 8])), 0, 0)
    assert _root_key(rocket, COMP2016) != _root_key(high, COMP2016)


def test_the_compiled_search_agrees_with_the_reference_where_a_hand_holds_a_straight() -> None:
    # the positions keyed with their runs: a straight of 5-7 in one hand, 3-6 other cards
    # each; the reference keys the hands themselves
    rng = random.Random(97)
    for index in range(40):
        profile = COMP2016 if index % 2 else CLASSIC
        length = rng.randint(5, 7)
        low = rng.randint(0, TWO - length)
        pack = [r for r in range(SMALL_JOKER + 2) for _ in range(4 if r < SMALL_JOKER else 1)]
        for rank in range(low, low + length):
            pack.remove(rank)
        cards = rng.sample(pack, rng.randint(6, 10))
        cut = rng.randint(3, len(cards) - 3)
        parts = [list(range(low, low + length)) + cards[:2], cards[2:cut], cards[cut:]]
        seat = rng.randrange(3)
        hands = tuple(key_of(parts[(place - seat) % 3]) for place in range(3))
        position = Position(hands, rng.randrange(3), rng.randrange(3))  # type: ignore[arg-type]
        assert not _chainless(position, profile)
        reference = solve(position, profile, compiled=False)
        found = solve(position, profile, compiled=True)
        assert found.landlord_wins is reference.landlord_wins is not None, position
        _check_line_by_reference(position, found.line, bool(found.landlord_wins), profile)


def test_the_search_on_two_threads_agrees_with_the_reference() -> None:
    # shared out from the first node (``split_nodes=0``): two threads, one table written with
    # a compare-and-swap; the values are the reference's and every line survives every defence
    rng = random.Random(43)
    wins = 0
    for index in range(40):
        profile = COMP2016 if index % 2 else CLASSIC
        position = random_position(rng, 4) if index % 4 == 0 else _endgame(rng, 4, 7)
        solver = JitSolver(profile, threads=2, split_nodes=0)
        found = solver.solve(position)
        reference = solve(position, profile, compiled=False)
        assert found.landlord_wins is reference.landlord_wins is not None, position
        assert solver.threads_used == 2
        wins += bool(found.landlord_wins)
        _check_line_by_reference(position, found.line, bool(found.landlord_wins), profile)
    assert 4 < wins < 36


def test_two_threads_grow_the_shared_table_and_agree_with_one() -> None:
    # an endgame (169,134 nodes on one thread) whose table grows while both threads search
    # (each stops, the table is rehashed, both start again from the root), shared out from
    # its first node and from its 20,000th (the table and the first thread's killers handed
    # over)
    rng = random.Random(7)
    positions = [_endgame(rng, 7, 10) for _ in range(11)]
    for position, split in ((positions[10], 0), (positions[10], 20_000)):
        one = JitSolver(COMP2016, threads=1)
        two = JitSolver(COMP2016, threads=2, split_nodes=split)
        alone, shared = one.solve(position), two.solve(position)
        assert two.threads_used == 2 and one.threads_used == 1
        assert two._table.shape[0] > solver_jit._FIRST_CAPACITY
        assert shared.landlord_wins is alone.landlord_wins is not None
        assert shared.line and shared.line[-1][1] is not None  # the winning side goes out
        check_line_position = position
        for seat, move in shared.line:  # legal at every step, in turn
            assert seat == check_line_position.turn
            assert move is None or any(
                o is not None and o.key == move.key for o in _options(check_line_position, COMP2016)
            )
            check_line_position = _after(check_line_position, move)
        assert not all(check_line_position.hands)


def test_two_threads_answer_unsolved_when_a_budget_runs_out() -> None:
    rng = random.Random(7)
    position = _endgame(rng, 8, 9)
    for budget in ({"max_nodes": 2000}, {"max_entries": 500}, {"max_ms": 1}):
        solver = JitSolver(COMP2016, threads=2, split_nodes=0, **budget)  # type: ignore[arg-type]
        found = solver.solve(position)
        assert found.landlord_wins is None and found.line == (), budget
    solver = JitSolver(COMP2016, threads=2, split_nodes=0, max_nodes=2000)
    found = solver.solve(position)
    # each thread checks every 1,024 nodes: the one that finds the budget spent, and the
    # other until its next check
    assert 2000 < found.nodes <= 2000 + 3 * 1024


def test_one_thread_searches_the_same_nodes_as_before_threads() -> None:
    # ``threads=1`` is the search of stop 54 node for node: the hand-over never happens
    rng = random.Random(7)
    positions = [_endgame(rng, 7, 10) for _ in range(11)]
    solver = JitSolver(COMP2016, threads=1)
    found = solver.solve(positions[10])
    again = JitSolver(COMP2016, threads=1).solve(positions[10])
    assert found.nodes == again.nodes and solver.threads_used == 1


def test_a_failure_on_the_second_thread_is_the_query_s_not_a_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a helper thread that fails must not leave its slot read as a finished search (False):
    # the other stops at its next check and the failure is raised on the caller's thread
    search = solver_jit._search

    def failing(*args: object) -> bool:
        if args[-2] == 1:  # the second thread
            raise RuntimeError("the second thread failed")
        return bool(search(*args))

    monkeypatch.setattr(solver_jit, "_search", failing)
    rng = random.Random(7)
    positions = [_endgame(rng, 7, 10) for _ in range(11)]
    solver = JitSolver(COMP2016, threads=2, split_nodes=0)
    with pytest.raises(RuntimeError, match="second thread"):
        solver.solve(positions[10])
