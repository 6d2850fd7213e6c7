"""Whole variant tournaments through the referee API (issue 20, issue 32): a ``four_p``
tournament of 12 players at four-seat tables, a ``five_p`` tournament of 10 at five-seat tables
and a ``laizi`` tournament of 9 players, two rounds each, every
hand dealt by the server and played from its first bid to its last card by the API's own legal
actions (a seeded choice among them), then the standings. Every hand replays to its stored
result (``hands_audit``), the scores are zero-sum at every table, and each entry's total is
the sum of its seats' scores. Runs on SQLite and, in CI's second pass, on PostgreSQL."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.rules.profiles import capped_profile
from tests.api.helpers import (
    assign,
    client_for,
    play_out,
    play_six_out,
    post,
    referee_user,
    six_state,
)
from tournaments.hands.audit import hands_audit
from tournaments.models import (
    Hand,
    HandSeatResult,
    HandStatus,
    Player,
    RoundBye,
    Seat,
    Table,
    Tournament,
)
from tournaments.rounds.services import round_close, round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.standings.queries import standings_compute
from tournaments.tournament.services import entry_create, tournament_create

pytestmark = pytest.mark.django_db

HANDS_PER_ROUND = 2


def _tournament(
    profile: str, players: int, format: str = "table", stake_cap: int | None = None
) -> Tournament:
    settings: dict[str, Any] = {
        "name": f"{profile} {format}",
        "slug": f"{profile}-{format}",
        "rule_profile": profile,
        "format": format,
        "hands_per_round": HANDS_PER_ROUND,
        "stake_cap": stake_cap,
    }
    tournament = tournament_create(**settings)
    for i in range(players):
        player = Player.objects.create(name=f"{profile} player {i + 1}", club=f"club {i % 5}")
        entry_create(tournament=tournament, player=player)
    return tournament


def _play_hand(client: Any, table: Table, rng: random.Random, deal: str) -> dict[str, Any]:
    """Start a hand at ``table`` (``deal``: "random", dealt by the server, or "board", the
    round's board) and play it to its end with legal actions the API lists (the first bid a
    1, so that few hands are passed out)."""
    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": deal})
    assert started.status_code == 201, started.json()
    if started.json()["rule_profile"] in SIX_PLAYERS:
        return _play_six_hand(client, started.json(), rng)

    def choose(hand: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        if hand["version"] == 0:
            options = [a for a in options if a.get("bid") == 1] or options
        return rng.choice(options)

    hand = play_out(client, started.json(), choose)
    _check_hand_read(hand)
    return hand


SIX_PLAYERS = ("six_p", "six_p_no_kitty")


def _play_six_hand(client: Any, hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A six-player hand played by its referee (``play_six_out``), each answer he reads
    naming no partner before his revealing play and listing no deal and no legal action."""

    def kept(read: dict[str, Any]) -> None:
        assert read["hands"] is None and read["deal"] is None and read["legal_actions"] is None
        _check_partner_kept(read)

    hand = play_six_out(client, hand, rng, kept)
    _check_six_hand(hand["id"])
    assert hand["six"]["partner"] == Hand.objects.get(pk=hand["id"]).partner_seat
    return hand


_six_state = six_state


def _check_partner_kept(read: dict[str, Any]) -> None:
    """R13.11: the row and the referee's read name the partner only from the play that
    reveals him (the event that says so), never before."""
    hand = Hand.objects.get(pk=read["id"])
    revealing = [e.seq for e in hand.events.all() if e.payload.get("reveals_partner")]
    state = _six_state(hand)
    assert len(revealing) <= 1
    if revealing:
        assert hand.partner_seat == state.partner == read["six"]["partner"] is not None
        assert state.revealed_at == read["six"]["revealed_at"] is not None
    else:
        assert hand.partner_seat is None and state.revealed_at is None
        assert read["six"]["partner"] is None and read["six"]["revealed_at"] is None
    assert hand.landlord_seat == state.deal.landlord and hand.bid == 1  # public from the deal


def _check_six_hand(hand_id: int) -> None:
    """A closed six-player hand: the face-up card's holder was the landlord, the partner is
    public, and every winner took S from every loser (R13.9)."""
    hand = Hand.objects.get(pk=hand_id)
    state = _six_state(hand)
    assert hand.status == HandStatus.FINISHED and state.is_over
    assert hand.landlord_seat == state.deal.landlord
    assert hand.partner_seat == state.partner  # public at the end; None: he played alone
    side = {hand.landlord_seat, hand.partner_seat} - {None}
    m = 2 ** (hand.bombs + (hand.spring or hand.anti_spring))
    stake = m if hand.stake_cap is None else min(m, hand.stake_cap)
    winners = side if hand.winner == "landlord" else set(range(6)) - side
    for seat in range(6):
        won = seat in winners
        expected = stake * (6 - len(winners)) if won else -stake * len(winners)
        assert hand.scores[seat] == expected, (seat, hand.scores, winners)
    rows = {r.position: r for r in HandSeatResult.objects.filter(hand=hand)}
    assert {p for p, r in rows.items() if r.won} == winners
    assert [p for p, r in rows.items() if r.is_landlord] == [hand.landlord_seat]


def _check_hand_read(hand: dict[str, Any]) -> None:
    """What a closed variant hand's read says of its own rules."""
    assert len(hand["scores"]) == hand["seats"] == len(hand["doubled"])
    if hand["hands"] is not None:  # a board's cards stay hidden until its section has played it
        assert len(hand["hands"]) == hand["seats"]
    if hand["status"] == "finished":  # each farmer wins or loses its stake, by the variant's
        landlord = hand["landlord"]  # own factors (R11.1.8, R11.2.4)
        assert hand["stakes"][landlord] is None
        farmers = [seat for seat in range(hand["seats"]) if seat != landlord]
        assert [abs(hand["scores"][s]) for s in farmers] == [hand["stakes"][s] for s in farmers]
    else:  # passed out: no landlord, no stake
        assert hand["stakes"] is None
    if hand["rule_profile"] == "laizi":
        classes = hand["bomb_classes"]
        assert set(classes) == {"soft", "hard", "pure_wild"}
        assert sum(classes.values()) == hand["bombs"]
        if hand["status"] == "finished":
            assert hand["wild"] in list("3456789TJQKA2")
            assert hand["deal"] is None or hand["deal"]["wild"] == hand["wild"]
    else:
        assert hand["wild"] is None and hand["bomb_classes"] is None
        assert not any(hand["doubled"]) and hand["rockets"] == 0


def play_tournament(
    profile: str,
    players: int,
    seed: int,
    format: str = "table",
    rounds: int = 2,
    stake_cap: int | None = None,
) -> Tournament:
    """A tournament of ``profile`` with ``players`` entries, ``rounds`` rounds played through
    the referee API."""
    tournament = _tournament(profile, players, format, stake_cap)
    deal = "board" if format == "duplicate" else "random"
    referee = referee_user(f"referee-{profile}")
    client = client_for(referee)
    rng = random.Random(seed)
    for _ in range(rounds):
        round_ = round_create(tournament=tournament)
        round_seat(round=round_, seed=rng.randrange(2**32))
        round_start(round=round_)
        assign(referee, Table.objects.filter(round=round_).first(), whole_round=True)
        for table in Table.objects.filter(round=round_).order_by("number"):
            for _ in range(HANDS_PER_ROUND):
                _play_hand(client, table, rng, deal)
        round_close(round=round_)
    return tournament


def _check_tournament(tournament: Tournament, seats: int, players: int, rounds: int = 2) -> None:
    hands = list(Hand.objects.filter(table__round__tournament=tournament))
    tables = Table.objects.filter(round__tournament=tournament)
    assert len(hands) == HANDS_PER_ROUND * tables.count()
    assert all(Seat.objects.filter(table=t).count() == seats for t in tables)
    byes = rounds * players - Seat.objects.filter(round__tournament=tournament).count()
    assert byes == rounds * (players % seats)
    for hand in hands:
        assert hand.seats == seats and len(hand.doubled) == seats
        assert hand.status in (HandStatus.FINISHED, HandStatus.PASSED_OUT)
        assert hand.scores is not None and len(hand.scores) == seats and sum(hand.scores) == 0
    assert list(hands_audit(tournament_slugs=[tournament.slug])) == []
    rows = HandSeatResult.objects.filter(tournament=tournament)
    assert rows.count() == seats * len(hands)
    by_entry: Counter[int] = Counter()
    for row in rows:
        by_entry[row.entry_id] += row.score
    standings = standings_compute(tournament=tournament)
    assert len(standings) == players
    assert {s.entry_id: s.total for s in standings} == {
        s.entry_id: by_entry[s.entry_id] for s in standings
    }
    assert sum(s.total for s in standings) == 0
    primary = "mp_percentage" if tournament.format == "duplicate" else "total"
    ranked = [getattr(s, primary) for s in standings]
    assert ranked == sorted(ranked, reverse=True)


def test_a_four_player_tournament_of_twelve_played_through_the_api() -> None:
    tournament = play_tournament("four_p", 12, seed=4)
    _check_tournament(tournament, seats=4, players=12)
    hand = Hand.objects.filter(table__round__tournament=tournament).first()
    assert hand is not None and len(hand.deal["hands"]) == 4
    assert [len(h.split()) for h in hand.deal["hands"]] == [25, 25, 25, 25]


def test_a_five_player_tournament_of_ten_played_through_the_api() -> None:
    """``five_p`` (SPEC §14): two packs dealt 21 each and a kitty of 3 (R14.2), one round of
    bids, one landlord against four; each farmer wins or loses bid x M, the landlord four
    times that (R14.7)."""
    tournament = play_tournament("five_p", 10, seed=5)
    _check_tournament(tournament, seats=5, players=10)
    hands = list(Hand.objects.filter(table__round__tournament=tournament))
    for hand in hands:
        assert [len(h.split()) for h in hand.deal["hands"]] == [21] * 5
        assert len(hand.deal["kitty"].split()) == 3
        if hand.status == HandStatus.FINISHED:
            farmers = [s for s in range(5) if s != hand.landlord_seat]
            each = hand.scores[farmers[0]]
            assert all(hand.scores[s] == each for s in farmers)
            assert hand.scores[hand.landlord_seat] == -4 * each
            assert abs(each) == hand.bid * 2 ** (hand.bombs + (hand.spring or hand.anti_spring))
    assert any(h.status == HandStatus.FINISHED for h in hands)


def test_a_capped_five_player_tournament_scores_each_hand_at_most_bid_times_the_cap() -> None:
    """The event's stake cap (R14.7: *M* = min(2^(bombs + spring), cap)) reaches every hand
    through the API: each hand keeps the cap it started under, its scores and the read's
    stakes stop at bid x cap, its profile hash is the capped profile's, and the audit
    replays every hand to its stored, capped result."""
    uncapped = capped_profile("five_p", None).content_hash
    tournament = play_tournament("five_p", 10, seed=5, stake_cap=2)
    _check_tournament(tournament, seats=5, players=10)
    finished = list(
        Hand.objects.filter(table__round__tournament=tournament, status=HandStatus.FINISHED)
    )
    assert finished
    for hand in finished:
        assert hand.stake_cap == 2
        assert hand.rule_profile_hash == capped_profile("five_p", 2).content_hash != uncapped
        farmer = next(s for s in range(5) if s != hand.landlord_seat)
        m = 2 ** (hand.bombs + (hand.spring or hand.anti_spring))
        assert abs(hand.scores[farmer]) == hand.bid * min(m, 2)
    # the same seed without a cap has hands whose multiplier went past 2 (bombs are frequent)
    assert any(2 ** (h.bombs + (h.spring or h.anti_spring)) > 2 for h in finished)


def test_a_wild_card_tournament_of_nine_played_through_the_api() -> None:
    tournament = play_tournament("laizi", 9, seed=9)
    _check_tournament(tournament, seats=3, players=9)
    declared = [
        e
        for hand in Hand.objects.filter(table__round__tournament=tournament)
        for e in hand.events.filter(kind="play")
        if "as" in e.payload["action"]
    ]
    assert declared, "no play declared a wild card"


@pytest.mark.parametrize(
    ("profile", "players", "seats"), [("four_p", 8, 4), ("five_p", 10, 5), ("laizi", 6, 3)]
)
def test_duplicate_variant_tournaments_compare_boards_by_seat_position(
    profile: str, players: int, seats: int
) -> None:
    """Duplicate (R10.4): every table of a round plays the round's boards, the same cards
    (and wild rank) at each; results are compared by (board, seat position), matchpoints
    over the tables' results."""
    tournament = play_tournament(profile, players, seed=seats, format="duplicate")
    _check_tournament(tournament, seats=seats, players=players)
    hands = Hand.objects.filter(table__round__tournament=tournament).select_related("board")
    by_board: dict[int, list[Hand]] = {}
    for hand in hands:
        assert hand.board is not None and len(hand.board.seat_cards) == seats
        assert (hand.board.wild_rank is not None) == (profile == "laizi")
        by_board.setdefault(hand.board.number, []).append(hand)
    assert all(len(group) == players // seats for group in by_board.values())
    standings = standings_compute(tournament=tournament)
    tables = players // seats
    # each entry's boards were each compared with the other tables' results at its position
    assert all(s.boards_scored == 2 * HANDS_PER_ROUND for s in standings)
    assert all(s.matchpoint_top == 2 * HANDS_PER_ROUND * 2 * (tables - 1) for s in standings)
    assert sum(s.matchpoints for s in standings) == seats * len(by_board) * tables * (tables - 1)


def test_a_fifth_seat_is_compared_on_its_own_board_not_the_next() -> None:
    """The standings meet each per-seat row and its matchpoints on one key, board × seats +
    position: with a factor of 4 a fifth seat's key (board b, position 4) was board b + 1's
    first seat, and this deal (seed 10) gave two entries a third hand and other points."""
    tournament = play_tournament("five_p", 10, seed=10, format="duplicate", rounds=1)
    _check_tournament(tournament, seats=5, players=10, rounds=1)
    rows = Counter(
        HandSeatResult.objects.filter(tournament=tournament).values_list("entry_id", flat=True)
    )
    assert {s.entry_id: s.hands_played for s in standings_compute(tournament=tournament)} == rows


@pytest.mark.parametrize(("profile", "players", "seats"), [("four_p", 6, 4), ("five_p", 7, 5)])
def test_byes_at_larger_tables_rotate_over_a_swiss_tournament(
    profile: str, players: int, seats: int
) -> None:
    """Six entries at four-seat tables, seven at five-seat tables: two byes a round (R10.5),
    never a second bye to an entry while another has had none."""
    tournament = play_tournament(profile, players, seed=players, format="swiss", rounds=3)
    byes = Counter(
        RoundBye.objects.filter(round__tournament=tournament).values_list("entry_id", flat=True)
    )
    assert sorted(byes.values()) == [1] * 6
    _check_tournament(tournament, seats=seats, players=players, rounds=3)


@pytest.mark.parametrize(("profile", "cap"), [("six_p", 64), ("six_p_no_kitty", None)])
def test_a_six_player_tournament_of_twelve_played_through_the_api(
    profile: str, cap: int | None
) -> None:
    """``six_p`` (SPEC §13): three packs, 26 each and a kitty of 6 (or 27 each), the face-up
    card's holder the landlord, his call naming a secret partner whom the row names only
    from his revealing play (R13.11); every winner settles with every loser (R13.9), capped
    when the event caps. Two rounds of two tables, through the API from the deal to the
    standings, every hand replaying."""
    tournament = play_tournament(profile, 12, seed=6, stake_cap=cap)
    _check_tournament(tournament, seats=6, players=12)
    hands = list(Hand.objects.filter(table__round__tournament=tournament))
    size = 26 if profile == "six_p" else 27
    for hand in hands:
        assert [len(h.split()) for h in hand.deal["hands"]] == [size] * 6
        assert (
            len(hand.deal["kitty"].split()) == 32 - size if size == 26 else hand.deal["kitty"] == ""
        )
        assert hand.stake_cap == cap
    assert any(h.partner_seat is not None for h in hands)
    revealed = [e for h in hands for e in h.events.all() if e.payload.get("reveals_partner")]
    assert revealed and all(e.kind == "play" for e in revealed)


def test_a_six_player_duplicate_round_plays_each_board_at_both_tables() -> None:
    """Duplicate six players: a board keeps its face-up card (its first bidder is the
    landlord, R13.3); both tables play it from the same cards, the same landlord and the
    same partner, and the standings compare them by seat position."""
    tournament = play_tournament("six_p", 12, seed=7, format="duplicate", rounds=1, stake_cap=16)
    _check_tournament(tournament, seats=6, players=12, rounds=1)
    boards = {}
    for hand in Hand.objects.filter(table__round__tournament=tournament).select_related("board"):
        board = hand.board
        assert board is not None and board.face_up
        state = _six_state(hand)
        assert board.first_bidder == state.deal.landlord == hand.landlord_seat
        boards.setdefault(board.pk, set()).add((hand.landlord_seat, hand.partner_seat))
    assert len(boards) == HANDS_PER_ROUND
    assert all(len(sides) == 1 for sides in boards.values())  # one deal, one partner
