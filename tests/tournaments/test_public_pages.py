"""The public pages: what a spectator sees, what stays hidden, and a fixed number of
queries per page whatever the tournament's size."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.public_data import (
    hand_play,
    hand_played,
    page_queries,
    round_draft,
    tournament_with_tables,
)
from tournaments.models import Hand, HandStatus, Round, RoundStatus

pytestmark = pytest.mark.django_db


def _pages(tournament: Any, hand: Hand, entry_id: int) -> dict[str, str]:
    slug = tournament.slug
    return {
        "home": reverse("public:home"),
        "tournament": reverse("public:tournament-detail", args=[slug]),
        "round": reverse("public:round", args=[slug, 1]),
        "live": reverse("public:live", args=[slug]),
        "live-fragment": reverse("public:live", args=[slug]) + "?fragment=1",
        "hand": reverse("public:hand", args=[slug, hand.pk]),
        "player": reverse("public:player", args=[slug, entry_id]),
        "standings": reverse("public:standings", args=[slug]),
        "standings-csv": reverse("public:standings-csv", args=[slug]),
    }


def _queries(client: Any, url: str) -> int:
    """The page's own queries (``page_queries``: not the shared cache's)."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(page_queries(ctx.captured_queries))


def _cache_inserts(client: Any, url: str) -> tuple[int, str]:
    """How many entries the page wrote to the shared cache, and the page."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    table = caches[settings.SHARED_CACHE]._table  # type: ignore[attr-defined]
    inserts = [
        q
        for q in ctx.captured_queries
        if q["sql"].startswith(f'INSERT INTO "{table}"') and "public-live:" in q["sql"]
    ]  # the table cards' (the whole board's bytes are an entry too: page_cache)
    return len(inserts), response.content.decode()


def test_no_page_issues_more_queries_for_a_bigger_tournament(client: Any, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0  # each page reads its version (page_cache) too
    small, small_tables = tournament_with_tables(tables=1)
    small_hand = hand_played(small_tables[0], seed=1)
    big, big_tables = tournament_with_tables(tables=6)
    big_hand = hand_played(big_tables[0], seed=1)
    for n, table in enumerate(big_tables[1:]):
        hand_played(table, seed=10 + n, upto=7 if n % 2 else None)

    small_pages = _pages(small, small_hand, small_tables[0].seats.first().entry_id)
    big_pages = _pages(big, big_hand, big_tables[0].seats.first().entry_id)
    for name, url in small_pages.items():
        few, many = _queries(client, url), _queries(client, big_pages[name])
        assert many == few, f"{name}: {few} queries for 1 table, {many} for 6"
        # at most 8 of the page's own and its version's (page_cache: the tournament's pages
        # one and the live board's five; read once a second per tournament, not per page)
        assert many <= 14, f"{name}: {many} queries"


def test_private_tournaments_and_draft_rounds_are_invisible(client: Any) -> None:
    private, tables = tournament_with_tables(tables=1, is_public=False)
    hand = hand_played(tables[0], seed=3)
    for url in _pages(private, hand, tables[0].seats.first().entry_id).values():
        if url != "/":
            assert client.get(url).status_code == 404, url
    assert private.name not in client.get("/").content.decode()

    public, tables = tournament_with_tables(tables=1)
    draft = round_draft(public, 2)
    draft_table = factories.TableFactory(round=draft, number=1)
    assert client.get(reverse("public:round", args=[public.slug, 2])).status_code == 404
    home = client.get(reverse("public:tournament-detail", args=[public.slug])).content.decode()
    assert reverse("public:round", args=[public.slug, 2]) not in home
    assert reverse("public:round", args=[public.slug, 1]) in home
    draft_hand = factories.HandFactory(table=draft_table, number=1)
    assert client.get(reverse("public:hand", args=[public.slug, draft_hand.pk])).status_code == 404


def test_live_hand_never_shows_unplayed_cards(client: Any) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=11, upto=6)
    assert hand.status == HandStatus.PLAYING
    body = client.get(reverse("public:hand", args=[tournament.slug, hand.pk])).content.decode()
    assert "Cards dealt" not in body
    assert body.count('class="card ') < 30  # only what was played (and the kitty)
    live = client.get(reverse("public:live", args=[tournament.slug])).content.decode()
    assert "Cards dealt" not in live


def test_finished_hand_page_replays_every_action_and_breaks_the_score_down(client: Any) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5)
    assert hand.status == HandStatus.FINISHED
    response = client.get(reverse("public:hand", args=[tournament.slug, hand.pk]))
    body = response.content.decode()
    actions = hand.events.filter(kind__in=["bid", "double", "redouble", "play"]).count()
    assert body.count('<li class="step step-') >= actions
    assert body.count('class="card ') >= 54  # the deal, the kitty and the plays
    for score in hand.scores:
        assert f'<td class="num score">{score}</td>' in body
    assert "×" in body


def test_live_board_answers_304_until_a_hand_changes(client: Any, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0  # every poll reads the board afresh
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=2, upto=3)
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    hand_play(Hand.objects.get(pk=hand.pk), seed=2, start=3, upto=4)  # one more action
    again = client.get(url, headers={"if-none-match": etag})
    assert again.status_code == 200 and again["ETag"] != etag
    assert client.get(url, headers={"if-none-match": again["ETag"]}).status_code == 304


def test_live_board_renders_each_table_once_per_change(client: Any, settings: Any) -> None:
    """The live board's cards are kept in the shared cache: a poll renders (and writes)
    only the tables that changed since, and shows the same board as a fresh render."""
    settings.PUBLIC_BOARD_SECONDS = 0  # no whole board kept: each poll assembles the cards
    tournament, tables = tournament_with_tables(tables=3)
    hands = [hand_played(table, seed=20 + n, upto=3) for n, table in enumerate(tables)]
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    assert _cache_inserts(client, url)[0] == 3
    assert _cache_inserts(client, url)[0] == 0
    hand_play(Hand.objects.get(pk=hands[1].pk), seed=21, start=3, upto=4)  # one more action
    written, polled = _cache_inserts(client, url)
    assert written == 1
    assert _cache_inserts(client, reverse("public:live", args=[tournament.slug]))[0] == 0
    caches[settings.SHARED_CACHE].clear()
    assert _cache_inserts(client, url) == (3, polled)
    assert polled.count('<section class="table-card live"') == 3


def test_live_board_changes_when_its_round_closes(client: Any, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0  # the version read afresh on every poll
    tournament, tables = tournament_with_tables(tables=2)
    hand_played(tables[0], seed=4, upto=3)
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = client.get(url)
    assert first.content.decode().count('<section class="table-card live"') == 2
    Round.objects.filter(tournament=tournament).update(status=RoundStatus.CLOSED)
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "No round is being played." in again.content.decode()
    assert client.get("/t/no-such-event/live/?fragment=1").status_code == 404


def _live_fragment(client: Any, url: str, **headers: str) -> Any:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    response.queries = page_queries(ctx.captured_queries)
    return response


def test_live_board_within_its_window_is_the_same_board(client: Any, settings: Any) -> None:
    """The board's version is kept PUBLIC_BOARD_SECONDS in the shared cache: a poll
    within that window is the same bytes and ETag for no query of the page's own (a cache
    read), even after an action, and a 304 likewise; the next poll after it shows the
    action."""
    settings.PUBLIC_BOARD_SECONDS = 3  # as production's 1, with room for a busy machine
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=2, upto=3)
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = _live_fragment(client, url)
    # its version (the board: tournament, tables, hands, seats), the tournament, the cards'
    # hands: the board read once (the version's, handed over), the cards from the hands' rows
    assert first.status_code == 200 and len(first.queries) == 6
    hand_play(Hand.objects.get(pk=hand.pk), seed=2, start=3, upto=4)  # one more action
    within = _live_fragment(client, url)
    assert within.status_code == 200 and len(within.queries) == 0
    assert within.content == first.content and within["ETag"] == first["ETag"]
    unchanged = _live_fragment(client, url, if_none_match=first["ETag"])
    assert unchanged.status_code == 304 and len(unchanged.queries) == 0
    page = client.get(reverse("public:live", args=[tournament.slug])).content.decode()
    assert first.content.decode() in page  # the page holds the same board
    time.sleep(3.1)
    after = _live_fragment(client, url, if_none_match=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert after.content != first.content
    assert after.content.decode().count('<section class="table-card live"') == 2


def test_live_board_is_kept_per_language_and_rounds(client: Any, settings: Any) -> None:
    """The page cache's key holds the language: a Chinese reader never gets the English
    board; a round that closes shows with the next version read."""
    settings.PUBLIC_BOARD_SECONDS = 0
    tournament, tables = tournament_with_tables(tables=1)
    hand_played(tables[0], seed=4, upto=3)
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    english = client.get(url, headers={"accept-language": "en"})
    chinese = client.get(url, headers={"accept-language": "zh-hans"})
    assert "<h2>Table 1" in english.content.decode()
    assert chinese["ETag"] != english["ETag"]
    assert "<h2>第 1 桌" in chinese.content.decode()
    assert "<h2>Table 1" not in chinese.content.decode()
    Round.objects.filter(tournament=tournament).update(status=RoundStatus.CLOSED)
    closed = client.get(url, headers={"accept-language": "en"})
    assert "No round is being played." in closed.content.decode()


def test_live_board_without_a_window_renders_every_poll(client: Any, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=2, upto=3)
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = client.get(url)
    hand_play(Hand.objects.get(pk=hand.pk), seed=2, start=3, upto=4)  # one more action
    again = client.get(url)
    assert again.content != first.content and again["ETag"] != first["ETag"]


def test_pages_do_without_a_shared_cache_they_cannot_reach(client: Any, settings: Any) -> None:
    """A cache that cannot be read or written (here Redis on a port nobody listens on) costs
    the pages their shortcut, never an answer."""
    tournament, tables = tournament_with_tables(tables=2)
    hand_played(tables[0], seed=6, upto=3)
    settings.CACHES = {
        **settings.CACHES,
        settings.SHARED_CACHE: {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        },
    }
    live = client.get(reverse("public:live", args=[tournament.slug]) + "?fragment=1")
    assert live.status_code == 200
    assert live.content.decode().count('<section class="table-card live"') == 2
    standings = client.get(reverse("public:standings", args=[tournament.slug]))
    assert standings.status_code == 200


def test_pages_read_in_chinese(client: Any) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5)
    body = client.get(
        reverse("public:hand", args=[tournament.slug, hand.pk]),
        headers={"accept-language": "zh-hans"},
    ).content.decode()
    assert "地主" in body and "农民" in body and "叫分" in body
