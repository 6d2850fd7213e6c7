"""Duplicate-board card secrecy, walked over HTTP (issue 16, point 2).

A board's cards (the deal, the hands' cards, the kitty, the seed, the plays of the replay, the
traveller) are hidden from everyone but directors until every table of its section has closed
its hand on it, or the round is closed. Every read path is walked as anonymous, as a referee of
another table playing another board, as the referee of a table that finished the board (who
reads what their table saw of their own hand: issue 28) and as the referee of the table still
playing it; directors see the cards always. ``test_board_secrecy_walk`` walks every route for
everything else the deal decides (the auction, the result, the wild rank…).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests import factories
from tests.api.helpers import assign, referee_user
from tests.public_data import hand_play, tournament_with_tables
from tournaments.hands.write import hand_create
from tournaments.models import Board, Hand, HandStatus, RoundBoard, Table, Tournament
from tournaments.rounds.services import round_close

pytestmark = pytest.mark.django_db

SUITS = "♠♥♣♦"
#: How one card is rendered on a page (public_tags.card).
CARD_HTML = '<span class="card '
BOARD_SEED = 918_273_645_501
OTHER_SEED = 918_273_645_777


@dataclass
class Event:
    tournament: Tournament
    board: Board
    other_board: Board
    tables: list[Table]  # 1-3: section 1 (board 1); 4: section 2 (board 2)
    finished: list[Hand]  # tables 1 and 2, board 1, finished
    users: dict[str, Any]

    @property
    def slug(self) -> str:
        return self.tournament.slug


def _board(tournament: Tournament, number: int, seed: int) -> Board:
    return factories.BoardFactory(tournament=tournament, number=number, seed=seed)


@pytest.fixture
def event() -> Event:
    """Round 1 playing, duplicate: tables 1–3 (section 1) play board 1 as hand 1, table 4
    (section 2) plays board 2. Tables 1 and 2 have finished board 1; table 3 has not started
    it; table 4 has finished board 2."""
    tournament, tables = tournament_with_tables(tables=3, requires_confirmation=True)
    round_ = tables[0].round
    t4 = factories.TableFactory(round=round_, number=4, section=2, first_bidder=0)
    for position in range(3):
        factories.SeatFactory(table=t4, position=position)
    tables.append(t4)
    board = _board(tournament, 1, BOARD_SEED)
    other = _board(tournament, 2, OTHER_SEED)
    RoundBoard.objects.create(round=round_, section=1, hand_number=1, board=board)
    RoundBoard.objects.create(round=round_, section=2, hand_number=1, board=other)
    finished = [hand_play(hand_create(table=t).hand, seed=10 + i) for i, t in enumerate(tables[:2])]
    hand_play(hand_create(table=t4).hand, seed=40)
    assert all(h.board_id == board.pk and h.status == HandStatus.FINISHED for h in finished)
    users = {
        "director": factories.UserFactory(username="director", is_staff=True),
        "referee_other_board": referee_user("referee4"),
        "referee_finished": referee_user("referee1"),
        "referee_live": referee_user("referee3"),
    }
    assign(users["referee_other_board"], t4)
    assign(users["referee_finished"], tables[0])
    assign(users["referee_live"], tables[2])
    return Event(tournament, board, other, tables, finished, users)


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _board_strings(board: Board) -> list[str]:
    return [*board.seat_cards, board.kitty, str(board.seed)]


def _text(response: Any) -> str:
    return response.content.decode()


def _assert_json_hides(data: Any, board: Board) -> None:
    """A hand read (or an event list) with no card of ``board`` in it."""
    text = json.dumps(data, ensure_ascii=False)
    for s in _board_strings(board):
        assert s not in text
    assert not any(suit in text for suit in SUITS), text
    events = data if isinstance(data, list) else data.get("events") or []
    if isinstance(data, dict):
        for key in ("deal", "hands", "kitty", "seed", "top_play", "legal_actions", "ahead"):
            assert data[key] is None, key
        if data.get("event"):
            events = [*events, data["event"]]
    for event in events:
        action = event["payload"].get("action")
        if isinstance(action, dict) and "play" in action:
            assert action["play"] in (None, "pass")


def _assert_json_what_the_table_saw(data: Any, board: Board) -> None:
    """A secret board's closed hand as its own table's referee reads it: the plays, the
    kitty turned and the result (what the table saw), not the other seats' unplayed cards."""
    assert data["secret"] is False and data["scores"] is not None
    assert data["deal"] is None and data["hands"] is None and data["seed"] is None
    assert data["kitty"] == board.kitty
    plays = [e["payload"]["action"].get("play") for e in data["events"] if e["kind"] == "play"]
    assert any(p not in (None, "pass") for p in plays)


def _assert_json_shows(data: Any, board: Board) -> None:
    assert data["seed"] is None  # a board's hand has no seed of its own
    assert data["deal"]["kitty"] == board.kitty
    assert data["kitty"] == board.kitty
    text = json.dumps(data, ensure_ascii=False)
    assert board.seat_cards[0] in text or data["deal"]["hands"][0] == board.seat_cards[0]
    plays = [
        e["payload"]["action"]["play"]
        for e in data["events"]
        if "play" in e["payload"].get("action", {})
    ]
    assert any(p not in (None, "pass") for p in plays)


def _assert_html_hides(response: Any, board: Board) -> None:
    assert response.status_code == 200
    text = _text(response)
    assert CARD_HTML not in text
    assert str(board.seed) not in text
    assert "step-play" not in text  # no replay of the card play


def _public_pages(e: Event) -> list[str]:
    """Every public page of the tournament (the HTML read paths)."""
    slug = e.slug
    hands = Hand.objects.filter(table__round__tournament=e.tournament).order_by("pk")
    entries = e.tournament.entries.order_by("pk")
    return [
        f"/t/{slug}/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/standings.csv",
        f"/t/{slug}/live/",
        f"/t/{slug}/live/?fragment=1",
        f"/t/{slug}/boards/{e.board.number}/",
        *(f"/t/{slug}/hands/{h.pk}/" for h in hands),
        *(f"/t/{slug}/players/{entry.pk}/" for entry in entries),
    ]


def _board_pages(e: Event) -> list[str]:
    hands = Hand.objects.filter(board=e.board).order_by("pk")
    return [
        f"/t/{e.slug}/boards/{e.board.number}/",
        *(f"/t/{e.slug}/hands/{h.pk}/" for h in hands),
    ]


READERS = ("anonymous", "referee_other_board", "referee_finished", "referee_live")


def _walk_hidden(e: Event, *, live_hand: Hand | None = None) -> None:
    """No card of board 1 on any read path for anybody but a director (and the live
    table's referee, for its own live hand only)."""
    board_hands = list(Hand.objects.filter(board=e.board).order_by("pk"))
    # Board 2's pages show board 2 (released): every other page shows no card at all.
    other_board_pages = {
        *(f"/t/{e.slug}/hands/{h.pk}/" for h in Hand.objects.filter(board=e.other_board)),
        f"/t/{e.slug}/boards/{e.other_board.number}/",
    }
    for name in READERS:
        client = _client(e.users.get(name))
        for url in _public_pages(e):
            response = client.get(url)
            assert response.status_code == 200, url
            if url in other_board_pages:
                assert str(e.board.seed) not in _text(response)
            elif "/live/" not in url:
                _assert_html_hides(response, e.board)
            else:  # tables 1-3 play board 1; table 4 board 2 (public)
                sections = _text(response).split('data-table="')[1:]
                assert [s.split('"')[0] for s in sections] == ["1", "2", "3", "4"]
                assert not any(CARD_HTML in s for s in sections[:3])
                assert str(e.board.seed) not in _text(response)
        for hand in board_hands:
            response = client.get(f"/api/v1/hands/{hand.pk}/")
            assert response.status_code == 200
            if name == "referee_live" and hand == live_hand:
                data = response.json()
                assert data["deal"]["kitty"] == e.board.kitty  # their own live hand: as today
                assert data["legal_actions"]
                continue
            if name == "referee_finished" and hand == e.finished[0]:
                _assert_json_what_the_table_saw(response.json(), e.board)
                continue
            _assert_json_hides(response.json(), e.board)
            assert response.json()["secret"] is True
            audit = client.get(f"/api/v1/hands/{hand.pk}/audit/")
            if name == "anonymous":
                assert audit.status_code == 401
            elif audit.status_code == 200 and name == "referee_finished":
                assert not any(
                    a["kind"] == "deal" and "hands" in a["payload"] for a in audit.json()
                )
            elif audit.status_code == 200:
                _assert_json_hides(audit.json(), e.board)
            else:
                assert audit.json()["code"] == "not_assigned"


def _walk_shown(e: Event) -> None:
    for name in READERS:
        client = _client(e.users.get(name))
        for hand in Hand.objects.filter(board=e.board):
            data = client.get(f"/api/v1/hands/{hand.pk}/").json()
            _assert_json_shows(data, e.board)
            page = _text(client.get(f"/t/{e.slug}/hands/{hand.pk}/"))
            assert CARD_HTML in page
            assert "step-play" in page
        traveller = _text(client.get(f"/t/{e.slug}/boards/{e.board.number}/"))
        assert CARD_HTML in traveller


def _walk_director(e: Event) -> None:
    client = _client(e.users["director"])
    for hand in Hand.objects.filter(board=e.board):
        data = client.get(f"/api/v1/hands/{hand.pk}/").json()
        assert data["deal"]["kitty"] == e.board.kitty
        assert [*data["deal"]["hands"]] == e.board.seat_cards
        audit = client.get(f"/api/v1/hands/{hand.pk}/audit/").json()
        assert any(a["payload"].get("action", {}).get("play") not in (None, "pass") for a in audit)
        page = _text(client.get(f"/director/t/{e.slug}/hands/{hand.pk}/"))
        assert any(suit in page for suit in SUITS)  # the log's plays


def _start_and_play_some(table: Table, *, seed: int) -> Hand:
    """Start the table's next hand (the round's board) and play into the card play, so the
    kitty is turned and some cards are on the table."""
    hand = hand_create(table=table).hand
    while hand.status != HandStatus.PLAYING or _actions(hand, ("play",)) < 2:
        hand = hand_play(hand, seed=seed, start=_actions(hand), upto=_actions(hand) + 1)
    assert hand.status == HandStatus.PLAYING
    return hand


def _actions(hand: Hand, kinds: tuple[str, ...] = ("bid", "double", "redouble", "play")) -> int:
    return hand.events.filter(kind__in=kinds).count()


def test_board_cards_hidden_until_every_table_of_the_section_closed_it(event: Event) -> None:
    e = event
    # Table 3 has not started board 1: it counts as not closed.
    _walk_hidden(e)
    _walk_director(e)
    # Table 3 is in the middle of board 1.
    live = _start_and_play_some(e.tables[2], seed=30)
    _walk_hidden(e, live_hand=live)
    _walk_director(e)
    # A second person at another table confirms a finished hand: the answer hides the cards.
    confirm = _client(e.users["referee_other_board"]).post(
        f"/api/v1/hands/{e.finished[0].pk}/confirm/",
        {},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="secrecy-confirm-1",
    )
    assert confirm.status_code == 200, confirm.content
    _assert_json_hides(confirm.json(), e.board)
    # Table 3 finishes: the last table of the section has closed its hand on board 1.
    hand_play(live, seed=30, start=_actions(live))
    _walk_shown(e)
    _walk_director(e)


def test_board_released_when_the_round_closes(event: Event) -> None:
    e = event
    live = _start_and_play_some(e.tables[2], seed=31)
    _walk_hidden(e, live_hand=live)
    round_close(
        round=e.tables[0].round,
        force=True,
        reason="table 3 abandoned",
        recorded_by=e.users["director"],
    )
    for name in READERS:
        client = _client(e.users.get(name))
        data = client.get(f"/api/v1/hands/{e.finished[0].pk}/").json()
        _assert_json_shows(data, e.board)
        traveller = _text(client.get(f"/t/{e.slug}/boards/{e.board.number}/"))
        assert CARD_HTML in traveller


def test_other_section_board_is_independent(event: Event) -> None:
    """Board 2 (section 2, its only table finished) is public while board 1 is secret."""
    e = event
    client = _client(None)
    hand = Hand.objects.get(board=e.other_board)
    _assert_json_shows(client.get(f"/api/v1/hands/{hand.pk}/").json(), e.other_board)
    assert CARD_HTML in _text(client.get(f"/t/{e.slug}/boards/{e.other_board.number}/"))
    _assert_html_hides(client.get(f"/t/{e.slug}/boards/{e.board.number}/"), e.board)


def test_live_hand_plays_are_public_when_not_a_board(event: Event) -> None:
    """A table's own random deal keeps today's rule: the public sees what has been played,
    never the unplayed cards."""
    e = event
    table = e.tables[3]
    hand = hand_create(table=table, seed=5).hand
    while hand.status != HandStatus.PLAYING or _actions(hand, ("play",)) < 2:
        hand = hand_play(hand, seed=50, start=_actions(hand), upto=_actions(hand) + 1)
    data = _client(None).get(f"/api/v1/hands/{hand.pk}/").json()
    assert data["status"] == HandStatus.PLAYING
    assert data["deal"] is None and data["hands"] is None and data["seed"] is None
    assert data["kitty"] is not None
    plays = [ev["payload"].get("action", {}).get("play") for ev in data["events"]]
    assert any(p not in (None, "pass") for p in plays)


def _start(client: Client, table: Table, board: Board, key: str) -> Any:
    return client.post(
        f"/api/v1/tables/{table.pk}/hands/",
        {"deal": "board", "board": board.number},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_a_referee_cannot_start_a_board_the_round_plays_elsewhere(event: Event) -> None:
    """Starting a hand on a board shows its referee every card: a board a round assigns is
    started only as its table's next board, except by a director."""
    e = event
    t3, t4 = e.tables[2], e.tables[3]
    before = Hand.objects.count()
    refused = [
        (e.users["referee_other_board"], t4, e.board),  # board 1 is section 1's
        (e.users["referee_live"], t3, e.other_board),  # board 2 is section 2's
    ]
    for n, (user, table, board) in enumerate(refused):
        response = _start(_client(user), table, board, f"peek-{n}")
        assert response.status_code == 403, response.content
        assert response.json()["code"] == "board_not_assigned"
        assert Hand.objects.count() == before
    assert _start(_client(None), t3, e.board, "peek-anon").status_code == 401
    other_table = _start(_client(e.users["referee_finished"]), t3, e.board, "peek-other")
    assert other_table.json()["code"] == "not_assigned"
    assert Hand.objects.count() == before
    # Table 3's next board is board 1: its referee starts it and sees its cards.
    started = _start(_client(e.users["referee_live"]), t3, e.board, "start-3")
    assert started.status_code == 201, started.content
    assert started.json()["deal"]["kitty"] == e.board.kitty
    # A director may start any board anywhere.
    by_director = _start(_client(e.users["director"]), t4, e.board, "director-4")
    assert by_director.status_code == 201, by_director.content
    assert Hand.objects.count() == before + 2


def test_the_demo_reproduction() -> None:
    """The report: hand 6 (table 3, board 2) is bidding; hand 2 (table 1, board 2, finished)
    showed hand 6's deal to anybody. Board 1, which every table has finished, stays public."""
    call_command("load_demo", stdout=io.StringIO(), allow_production=True)
    bidding = Hand.objects.get(status=HandStatus.BIDDING)
    board = bidding.board
    assert board is not None
    finished = Hand.objects.filter(board=board, status=HandStatus.FINISHED)
    assert finished.exists()
    slug = bidding.table.round.tournament.slug
    client = _client(None)
    for hand in [*finished, bidding]:
        _assert_json_hides(client.get(f"/api/v1/hands/{hand.pk}/").json(), board)
        _assert_html_hides(client.get(f"/t/{slug}/hands/{hand.pk}/"), board)
    _assert_html_hides(client.get(f"/t/{slug}/boards/{board.number}/"), board)
    played = Hand.objects.exclude(board=board).filter(board__isnull=False).first()
    assert played is not None and played.board is not None
    _assert_json_shows(client.get(f"/api/v1/hands/{played.pk}/").json(), played.board)
