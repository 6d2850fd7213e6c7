"""Whole Big Three tournaments through the referee API (issue 31): a ``big3`` tournament and a
``big3_one_round`` one of 9 players, two rounds each, every hand dealt by the server (52 cards,
16 each and a hole of 4, the first bidder the holder of the lowest heart: R12.1, R12.3, R12.4)
and played from its first bid to its last card by the API's own legal actions (a seeded
choice among them), then the standings. Every hand replays to its stored result
(``hands_audit``), scores ±2B / ∓B (R12.11), and each entry's total is the sum of its seats'
scores. Runs on SQLite and, in CI's second pass, on PostgreSQL (``DATABASE_URL``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from referee.rules.big3_combos import RANKS_LOW_TO_HIGH
from referee.rules.cards import parse_cards, parse_ranks
from tests.api.helpers import assign, client_for, play_out, post, referee_user
from tournaments.hands.audit import hands_audit
from tournaments.models import Hand, HandSeatResult, HandStatus, Player, Seat, Table, Tournament
from tournaments.rounds.services import round_close, round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.standings.queries import standings_compute
from tournaments.tournament.services import entry_create, tournament_create

pytestmark = pytest.mark.django_db

HANDS_PER_ROUND = 3
PLAYERS = 9


def _tournament(profile: str, format: str = "table") -> Tournament:
    tournament = tournament_create(
        name=f"{profile} {format}",
        slug=f"{profile.replace('_', '-')}-{format}",
        rule_profile=profile,
        format=format,
        hands_per_round=HANDS_PER_ROUND,
    )
    for i in range(PLAYERS):
        player = Player.objects.create(name=f"{profile} player {i + 1}", club=f"club {i % 4}")
        entry_create(tournament=tournament, player=player)
    return tournament


def _lowest_heart_holder(hearts: list[str]) -> int:
    held = [set(parse_ranks(h)) for h in hearts[:3]]
    return next(seat for rank in RANKS_LOW_TO_HIGH for seat in range(3) if rank in held[seat])


def _check_started(hand: dict[str, Any]) -> None:
    """A Big Three deal as the server dealt it: 16/16/16 and a hole of 4, no joker; its first
    bidder holds the lowest heart, and is on turn."""
    deal = hand["deal"]
    assert [len(parse_cards(h)) for h in deal["hands"]] == [16, 16, 16]
    assert len(parse_cards(deal["kitty"])) == 4
    every = [c for part in (*deal["hands"], deal["kitty"]) for c in parse_cards(part)]
    assert not any(card.is_joker for card in every)
    assert sorted(Counter(c.rank for c in every).values()) == [4] * 13
    assert deal["first_bidder"] == _lowest_heart_holder(deal["hearts"])
    assert hand["turn"] == deal["first_bidder"]
    assert hand["status"] == "bidding" and hand["seats"] == 3


def _check_closed(hand: dict[str, Any], profile: str) -> None:
    """A closed Big Three hand: a digger always (never passed out), his bid, scores ±2B /
    ∓B, the first play the first bidder's, no double, bomb, rocket or spring."""
    assert hand["status"] == "finished", hand["status"]
    digger, bid = hand["landlord"], hand["bid"]
    assert bid in (1, 2, 3)
    won = 1 if hand["winner"] == "landlord" else -1
    assert hand["scores"][digger] == 2 * bid * won
    assert all(hand["scores"][s] == -bid * won for s in range(3) if s != digger)
    assert hand["stakes"] == [None if s == digger else bid for s in range(3)]
    assert hand["doubled"] == [False] * 3 and not hand["redoubled"]
    assert hand["bombs"] == hand["rockets"] == 0 and not hand["spring"] and not hand["anti_spring"]
    first_bidder = hand["deal"]["first_bidder"]
    events = [e["payload"]["action"] for e in hand["events"] if e["kind"] in ("bid", "play")]
    assert not any("double" in e or "redouble" in e for e in events)
    bids = [e for e in events if "bid" in e]
    plays = [e for e in events if "play" in e]
    assert bids[0]["seat"] == first_bidder
    assert plays[0]["seat"] == first_bidder  # the first bidder leads, not the digger (R12.7.1)
    if profile == "big3":
        assert bids[0]["bid"] >= 1  # the compulsory opening (R12.5.1)
    else:
        assert len(bids) <= 3  # one round (R12.5.3)
        if all(b["bid"] == 0 for b in bids):  # 烂挖: the first bidder digs at 1
            assert (digger, bid) == (first_bidder, 1)


def _choose(profile: str, rng: random.Random, all_pass: bool):  # type: ignore[no-untyped-def]
    def choose(hand: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        if hand["status"] == "bidding":
            passes = [a for a in options if a.get("bid") == 0]
            if all_pass and passes:
                return passes[0]
            low = [a for a in options if a.get("bid") not in (None, 0, 3)]
            return rng.choice(low or options)  # bids of 3 less often: longer auctions
        return rng.choice(options)

    return choose


def play_big3_tournament(
    profile: str, seed: int, rounds: int = 2, format: str = "table"
) -> Tournament:
    """A Big Three tournament of 9 players, ``rounds`` rounds played through the API (a
    duplicate one plays the round's boards). Under ``big3_one_round`` the first hand of
    every table is passed round (烂挖)."""
    tournament = _tournament(profile, format)
    deal = "board" if format == "duplicate" else "random"
    referee = referee_user(f"referee-{profile}")
    client = client_for(referee)
    rng = random.Random(seed)
    played: list[int] = []
    for _ in range(rounds):
        round_ = round_create(tournament=tournament)
        round_seat(round=round_, seed=rng.randrange(2**32))
        round_start(round=round_)
        assign(referee, Table.objects.filter(round=round_).first(), whole_round=True)
        for table in Table.objects.filter(round=round_).order_by("number"):
            for number in range(HANDS_PER_ROUND):
                started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": deal})
                assert started.status_code == 201, started.json()
                _check_started(started.json())
                all_pass = profile == "big3_one_round" and number == 0
                hand = play_out(client, started.json(), _choose(profile, rng, all_pass))
                played.append(hand["id"])
        round_close(round=round_)
    for hand_id in played:  # read once every table has played (a board's cards shown)
        read = client.get(f"/api/v1/hands/{hand_id}/")
        assert read.status_code == 200
        _check_closed(read.json(), profile)
    return tournament


def _check_tournament(tournament: Tournament, rounds: int = 2) -> None:
    hands = list(Hand.objects.filter(table__round__tournament=tournament))
    tables = Table.objects.filter(round__tournament=tournament)
    assert tables.count() == rounds * PLAYERS // 3
    assert len(hands) == HANDS_PER_ROUND * tables.count()
    assert all(Seat.objects.filter(table=t).count() == 3 for t in tables)
    for hand in hands:
        assert hand.rule_profile == tournament.rule_profile and hand.seats == 3
        assert hand.status == HandStatus.FINISHED
        assert hand.scores is not None and sum(hand.scores) == 0
        assert sorted(abs(s) for s in hand.scores) == [hand.bid, hand.bid, 2 * hand.bid]
    # every hand replays, from its deal and log, to the summary and snapshot it stores
    assert list(hands_audit(tournament_slugs=[tournament.slug])) == []
    rows = HandSeatResult.objects.filter(tournament=tournament)
    assert rows.count() == 3 * len(hands)
    by_entry: Counter[int] = Counter()
    for row in rows:
        by_entry[row.entry_id] += row.score
    standings = standings_compute(tournament=tournament)
    assert len(standings) == PLAYERS
    assert {s.entry_id: s.total for s in standings} == {
        s.entry_id: by_entry[s.entry_id] for s in standings
    }
    assert sum(s.total for s in standings) == 0
    primary = "mp_percentage" if tournament.format == "duplicate" else "total"
    ranked = [getattr(s, primary) for s in standings]
    assert ranked == sorted(ranked, reverse=True)


def test_a_big_three_tournament_of_nine_played_through_the_api() -> None:
    tournament = play_big3_tournament("big3", seed=31)
    _check_tournament(tournament)
    # the auction went on past a pass at least once (until two passes, R12.5.1)
    logs = [
        [e.payload["action"] for e in hand.events.filter(kind="bid").order_by("seq")]
        for hand in Hand.objects.filter(table__round__tournament=tournament)
    ]
    assert any(len(bids) > 3 for bids in logs), "no auction went round more than once"


def test_a_one_round_big_three_tournament_with_lan_wa() -> None:
    """``big3_one_round``: each seat bids once; three passes make the first bidder the
    digger at 1 (烂挖, R12.5.3), and that hand is played and scored like any other."""
    tournament = play_big3_tournament("big3_one_round", seed=13)
    _check_tournament(tournament)
    lan_wa = [
        hand
        for hand in Hand.objects.filter(table__round__tournament=tournament)
        if all(e.payload["action"]["bid"] == 0 for e in hand.events.filter(kind="bid"))
    ]
    assert len(lan_wa) == 2 * PLAYERS // 3  # the first hand of each table
    for hand in lan_wa:
        assert hand.bid == 1 and hand.landlord_seat == hand.deal["first_bidder"]


def test_a_duplicate_big_three_tournament_plays_the_same_boards_at_every_table() -> None:
    """Duplicate (R10.4, R12.12.1): every table of a round plays the round's boards, the
    same cards and the same first bidder (the board's lowest heart); results are compared
    by (board, seat position)."""
    tournament = play_big3_tournament("big3", seed=7, format="duplicate")
    _check_tournament(tournament)
    hands = Hand.objects.filter(table__round__tournament=tournament).select_related("board")
    by_board: dict[int, list[Hand]] = {}
    for hand in hands:
        assert hand.board is not None and hand.deal is None
        by_board.setdefault(hand.board.number, []).append(hand)
        first = hand.events.filter(kind="bid").order_by("seq").first()
        assert first is not None and first.actor_seat == hand.board.first_bidder
    assert all(len(group) == PLAYERS // 3 for group in by_board.values())
    standings = standings_compute(tournament=tournament)
    tables = PLAYERS // 3
    assert all(s.boards_scored == 2 * HANDS_PER_ROUND for s in standings)
    assert sum(s.matchpoints for s in standings) == 3 * len(by_board) * tables * (tables - 1)
