"""The public page cache and the caching contract with the proxy (issue 30, points 1 and 2):
every public route says ``public, max-age=1`` to a reader without a session, every private
one (and every signed-in or credentialed request, every answer setting a cookie) ``private,
no-store``; a conditional GET of the current version answers 304 with no query and no
render; each page is rendered once per version and language; the live board's delta."""

from __future__ import annotations

import gzip
import re
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, reverse

from tests import factories
from tests.public_data import hand_play, hand_played, tournament_with_tables
from tournaments.common.cache_control import PRIVATE, PUBLIC, CacheControlMiddleware
from tournaments.hands.boards import board_create
from tournaments.hands.replay import hand_replay
from tournaments.models import Hand, Round, RoundStatus
from tournaments.public import page_cache
from tournaments.public import urls as public_urls
from tournaments.public.page_cache import page_version

pytestmark = pytest.mark.django_db

VARY = {"accept-language", "cookie", "accept-encoding"}


@pytest.fixture
def locmem_shared(settings: Any) -> None:
    """The shared cache in this process's memory (as Redis: no database query), so that
    "no query" means none at all."""
    settings.CACHES = {
        **settings.CACHES,
        settings.SHARED_CACHE: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "public-cache-tests",
        },
    }
    caches[settings.SHARED_CACHE].clear()


def _world() -> dict[str, str]:
    """A tournament with a played hand, a live one and a board; every public route's URL."""
    tournament, tables = tournament_with_tables(tables=2)
    finished = hand_played(tables[0], seed=5)
    hand_played(tables[1], seed=6, upto=3)
    board_create(tournament=tournament, number=1, seed=11)
    slug = tournament.slug
    entry = tables[0].seats.first().entry_id
    return {
        "home": reverse("public:home"),
        "favicon": reverse("public:favicon"),
        "tournament-detail": reverse("public:tournament-detail", args=[slug]),
        "round": reverse("public:round", args=[slug, 1]),
        "standings": reverse("public:standings", args=[slug]),
        "standings-csv": reverse("public:standings-csv", args=[slug]),
        "live": reverse("public:live", args=[slug]),
        "hand": reverse("public:hand", args=[slug, finished.pk]),
        "player": reverse("public:player", args=[slug, entry]),
        "board": reverse("public:board", args=[slug, 1]),
        **_season_urls(),
    }


def _season_urls() -> dict[str, str]:
    """The pages of a public season (issue 34) of one final tournament, its ladder computed."""
    from tests.tournaments.builders import finish, table_of
    from tests.tournaments.season_builders import season_of
    from tournaments.models import Entry, Player
    from tournaments.season.services import season_recompute
    from tournaments.tournament.services import tournament_finish

    people = [Player.objects.create(name=n) for n in ("Ann", "Bo", "Cai")]
    night = factories.TournamentFactory(slug="club-night", name="Club night", hands_per_round=1)
    entries = [
        Entry.objects.create(tournament=night, player=p, registration_order=i + 1)
        for i, p in enumerate(people)
    ]
    finish(table_of(night, 1, 1, entries), landlord=0, bid=1, winner="landlord")
    Round.objects.filter(tournament=night).update(status=RoundStatus.CLOSED)
    tournament_finish(tournament=night, recorded_by=factories.UserFactory(is_staff=True))
    season = season_of("night-season", [night])
    season_recompute(season_id=season.pk)
    return {
        "season": reverse("public:season", args=["night-season"]),
        "season-csv": reverse("public:season-csv", args=["night-season"]),
        "season-player": reverse("public:season-player", args=["night-season", people[0].pk]),
        "season-h2h": reverse("public:season-h2h", args=["night-season"]),
    }


def _public_routes() -> set[str]:
    return {p.name for p in public_urls.urlpatterns if isinstance(p, URLPattern) and p.name}


def _vary(response: Any) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


def test_every_public_route_is_public_for_a_second(client: Any) -> None:
    """Each route of tournaments/public/urls.py (a new one fails here until it is listed),
    read without a session: ``public, max-age=1`` (the favicon a day), the Vary the proxy
    keys on; the tournament's pages with an ETag, and their fragments alike."""
    urls = _world()
    assert set(urls) == _public_routes()
    for name, url in urls.items():
        for target in (url, url + "?fragment=1"):
            response = client.get(target)
            assert response.status_code == 200, (target, response.status_code)
            expected = "public, max-age=86400" if name == "favicon" else PUBLIC
            assert response["Cache-Control"] == expected, target
            assert _vary(response) >= VARY, target
            assert not response.cookies, target
            if name not in ("home", "favicon"):
                assert response.has_header("ETag"), target


def test_public_routes_for_a_signed_in_reader_or_a_token_are_never_stored(client: Any) -> None:
    urls = _world()
    client.force_login(factories.UserFactory(username="reader"))
    for url in urls.values():
        assert client.get(url)["Cache-Control"] == PRIVATE, url
    anonymous = client.__class__()
    for url in urls.values():
        response = anonymous.get(url, headers={"authorization": "Token abc"})
        assert response["Cache-Control"] == PRIVATE, url


def test_every_private_route_family_is_never_stored(client: Any) -> None:
    """The referee console and its sign-in, the referee API and its token, the director's
    pages and sign-in, the admin, the API's schema and docs, the health check: private,
    no-store, signed in or not."""
    urls = _world()
    slug = urls["live"].split("/")[2]
    private = [
        reverse("referee:console"),
        reverse("referee:login"),
        reverse("referee:manifest"),
        "/api/v1/assignments/",
        "/api/v1/nothing/",
        reverse("api-token"),
        reverse("schema"),
        reverse("api-docs"),
        reverse("director:dashboard"),
        reverse("director:tournament", args=[slug]),
        "/director/login/",
        "/admin/",
        "/admin/login/",
        "/healthz",
    ]
    for url in private:
        response = client.get(url)
        assert response["Cache-Control"] == PRIVATE, (url, response.status_code)
    client.force_login(factories.UserFactory(username="boss", is_staff=True, is_superuser=True))
    for url in private:
        response = client.get(url)
        assert response["Cache-Control"] == PRIVATE, (url, response.status_code)
    post = client.post(reverse("set-language-public"), {"language": "en", "next": "/"})
    assert post["Cache-Control"] == PRIVATE


def test_an_answer_that_sets_a_cookie_is_never_stored() -> None:
    """Whatever the path: a public page answered with Set-Cookie (a session, a language,
    a CSRF cookie) is private; the same answer without the cookie is public."""

    def view(request: Any) -> HttpResponse:
        response = HttpResponse("page")
        if request.GET.get("cookie"):
            response.set_cookie("django_language", "zh-hans")
        return response

    middleware = CacheControlMiddleware(view)
    factory = RequestFactory()
    assert middleware(factory.get("/t/x/?cookie=1"))["Cache-Control"] == PRIVATE
    assert middleware(factory.get("/t/x/"))["Cache-Control"] == PUBLIC
    assert middleware(factory.post("/t/x/"))["Cache-Control"] == PRIVATE
    session = factory.get("/t/x/")
    session.COOKIES[django_settings.SESSION_COOKIE_NAME] = "abc"
    assert middleware(session)["Cache-Control"] == PRIVATE


def test_admin_sign_in_sets_its_csrf_cookie_privately(client: Any) -> None:
    response = client.get("/admin/login/")
    assert "csrftoken" in response.cookies
    assert response["Cache-Control"] == PRIVATE


@pytest.mark.usefixtures("locmem_shared")
def test_a_conditional_get_of_the_current_version_costs_no_query(
    client: Any, settings: Any
) -> None:
    """The version is read once (one query), then every page's 304, and a kept page's
    bytes, cost no database query and no render (while the version document is kept:
    a minute here, so that a slow machine does not see it expire between two requests)."""
    settings.PUBLIC_BOARD_SECONDS = 60
    urls = _world()
    del urls["home"], urls["favicon"]
    # A season's pages (issue 34) answer a conditional GET from their ETag (one query reads
    # the season's version: tests/tournaments/test_season_pages.py) but are not kept in the
    # shared page cache yet: the tournament's pages are.
    for season_page in ("season", "season-csv", "season-player", "season-h2h"):
        del urls[season_page]
    renders: list[str] = []

    def rendered(sender: Any, template: Any, **kwargs: Any) -> None:
        renders.append(template.name)

    for name, url in urls.items():
        for target in (url, url + "?fragment=1"):
            first = client.get(target)
            assert first.status_code == 200, target
            template_rendered.connect(rendered)
            try:
                with CaptureQueriesContext(connection) as ctx:
                    again = client.get(target, headers={"if-none-match": first["ETag"]})
                    kept = client.get(target)
            finally:
                template_rendered.disconnect(rendered)
            assert again.status_code == 304 and again["ETag"] == first["ETag"], target
            assert again["Cache-Control"] == PUBLIC, target
            assert kept.status_code == 200 and kept.content == first.content, target
            assert ctx.captured_queries == [], (name, [q["sql"] for q in ctx.captured_queries])
            assert renders == [], (target, renders)


@pytest.mark.usefixtures("locmem_shared")
def test_gzip_bytes_for_a_client_that_takes_them(client: Any) -> None:
    urls = _world()
    plain = client.get(urls["standings"])
    packed = client.get(urls["standings"], headers={"accept-encoding": "gzip, br"})
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content
    assert packed["ETag"] == plain["ETag"] and "accept-encoding" in _vary(packed)
    refused = client.get(urls["standings"], headers={"accept-encoding": "gzip;q=0"})
    assert "Content-Encoding" not in refused


@pytest.mark.usefixtures("locmem_shared")
def test_each_page_is_rendered_once_per_version_and_language(client: Any, settings: Any) -> None:
    settings.PUBLIC_BOARD_SECONDS = 0  # the version read on every request
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=2, upto=3)
    renders: list[str] = []

    def rendered(sender: Any, template: Any, **kwargs: Any) -> None:
        renders.append(template.name)

    pages = {
        reverse("public:round", args=[tournament.slug, 1]): "public/round.html",
        reverse("public:live", args=[tournament.slug]) + "?fragment=1": "public/live_board.html",
        reverse("public:standings", args=[tournament.slug]): "public/standings.html",
    }
    template_rendered.connect(rendered)
    try:
        for url, template in pages.items():
            for language in ("en", "zh-hans", "en", "zh-hans", "en"):
                assert client.get(url, headers={"accept-language": language}).status_code == 200
            assert renders.count(template) == 2, (url, renders)
            renders.clear()
        hand_play(Hand.objects.get(pk=hand.pk), seed=2, start=3, upto=4)  # a new version
        for url in list(pages)[:2]:
            for _ in range(3):
                client.get(url)
            assert renders.count(pages[url]) == 1, url
            renders.clear()
    finally:
        template_rendered.disconnect(rendered)


def test_a_tournaments_pages_take_a_new_version_every_refresh_bucket(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a page's fingerprint does not see (a player's name…) is refreshed every
    ``PAGE_REFRESH_SECONDS``: the tournament family's version changes at the end of each
    bucket, and only there (the other tests keep one bucket: ``one_page_refresh_bucket``)."""
    monkeypatch.setattr(page_cache, "PAGE_REFRESH_SECONDS", 300)
    tournament, _ = tournament_with_tables(tables=1)
    clock = [1_800_000_000.0]  # a bucket's start (300 divides it)
    monkeypatch.setattr(page_cache, "time", type("Clock", (), {"time": lambda: clock[0]}))
    start = page_version("tournament", tournament.slug)
    clock[0] += 299.9
    assert page_version("tournament", tournament.slug) == start
    clock[0] += 0.1
    later = page_version("tournament", tournament.slug)
    assert later is not None and later != start
    assert later.rsplit(".", 1)[0] == start.rsplit(".", 1)[0]  # the same data's version


def _sections(html: str) -> list[str]:
    return re.findall(r'data-table-id="(\d+)"', html)


@pytest.mark.usefixtures("locmem_shared")
def test_the_live_board_sends_the_tables_changed_since_the_board_held(
    client: Any, settings: Any
) -> None:
    """``?fragment=1&since=<ETag>``: the cards of the tables that moved (X-Live-Delta), the
    same cards as the whole board shows; the whole board when that board is no longer
    kept or other tables are shown (a round closed)."""
    settings.PUBLIC_BOARD_SECONDS = 0
    tournament, tables = tournament_with_tables(tables=3)
    hands = [hand_played(table, seed=30 + n, upto=3) for n, table in enumerate(tables)]
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    page = client.get(reverse("public:live", args=[tournament.slug])).content.decode()
    whole = client.get(url)
    held = whole["ETag"].replace('"', "&quot;")
    assert f'data-etag="{held}"' in page  # the page's polls start from its board
    assert _sections(whole.content.decode()) == [str(t.pk) for t in tables]
    unchanged = client.get(
        url + "&since=" + whole["ETag"], headers={"if-none-match": whole["ETag"]}
    )
    assert unchanged.status_code == 304
    hand_play(Hand.objects.get(pk=hands[1].pk), seed=31, start=3, upto=4)
    delta = client.get(url + "&since=" + whole["ETag"], headers={"if-none-match": whole["ETag"]})
    assert delta.status_code == 200 and delta["X-Live-Delta"] == "1"
    assert _sections(delta.content.decode()) == [str(tables[1].pk)]
    now = client.get(url)
    assert now["ETag"] == delta["ETag"] and "X-Live-Delta" not in now
    card = re.search(r"<section.*?</section>", delta.content.decode(), re.S)
    assert card is not None and card.group(0) in now.content.decode()
    stranger = client.get(url + '&since="live.0000.en.0000"')
    assert stranger.status_code == 200 and "X-Live-Delta" not in stranger
    assert _sections(stranger.content.decode()) == [str(t.pk) for t in tables]
    Round.objects.filter(tournament=tournament).update(status=RoundStatus.CLOSED)
    closed = client.get(url + "&since=" + now["ETag"])
    assert "X-Live-Delta" not in closed
    assert "No round is being played." in closed.content.decode()


@pytest.mark.usefixtures("locmem_shared")
def test_kept_pages_carry_no_csrf_token_and_their_language_form_works(client: Any) -> None:
    urls = _world()
    body = client.get(urls["standings"]).content.decode()
    assert "csrfmiddlewaretoken" not in body
    assert reverse("set-language-public") in body
    strict = client.__class__(enforce_csrf_checks=True)
    response = strict.post(
        reverse("set-language-public"), {"language": "zh-hans", "next": urls["standings"]}
    )
    assert response.status_code == 302
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    chinese = strict.get(urls["standings"])
    assert chinese["Content-Language"] == "zh-hans"
    client.force_login(factories.UserFactory(username="reader"))
    signed_in = client.get(urls["standings"]).content.decode()
    assert "csrfmiddlewaretoken" in signed_in  # rendered for them: the protected form


@pytest.mark.usefixtures("locmem_shared")
def test_a_query_the_page_does_not_read_selects_no_other_entry(client: Any, settings: Any) -> None:
    """``?x=<random>`` and a ``since`` naming no kept board are served the kept page: a
    stranger cannot make the pages render again, nor fill the shared cache, by varying
    what the page never reads."""
    settings.PUBLIC_BOARD_SECONDS = 0
    tournament, tables = tournament_with_tables(tables=2)
    hand_played(tables[0], seed=2, upto=3)
    shared = caches[django_settings.SHARED_CACHE]
    renders: list[str] = []

    def rendered(sender: Any, template: Any, **kwargs: Any) -> None:
        renders.append(template.name)

    standings = reverse("public:standings", args=[tournament.slug])
    fragment = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = client.get(standings)
    whole = client.get(fragment)
    entries = len(shared._cache)  # type: ignore[attr-defined]
    template_rendered.connect(rendered)
    try:
        for n in range(5):
            junk = client.get(f"{standings}?utm_source=x{n}&_={n}")
            assert junk.status_code == 200 and junk.content == first.content
            stranger = client.get(f'{fragment}&_={n}&since="live.{n:016x}.en.{n:016x}"')
            assert stranger.status_code == 200 and "X-Live-Delta" not in stranger
            assert stranger.content == whole.content
    finally:
        template_rendered.disconnect(rendered)
    assert renders == []
    assert len(shared._cache) == entries  # type: ignore[attr-defined]
    # what the page reads still selects its own entry
    assert client.get(f"{standings}?big=1").status_code == 200
    assert len(shared._cache) > entries  # type: ignore[attr-defined]


@pytest.mark.usefixtures("locmem_shared")
def test_a_new_board_reads_its_tables_once_and_no_hand_log(client: Any, settings: Any) -> None:
    """A live board at a new version: the tables and their card keys are read once (by the
    version's read, handed to the render of the same request), the cards of the tables
    that moved from their hands' rows (the snapshot the writes keep), never from the log;
    the cards of the others come from the shared cache."""
    settings.PUBLIC_BOARD_SECONDS = 1  # the version read here, then kept a second
    tournament, tables = tournament_with_tables(tables=3)
    hands = [hand_played(table, seed=50 + n, upto=8) for n, table in enumerate(tables)]
    url = reverse("public:live", args=[tournament.slug]) + "?fragment=1"
    first = client.get(url).content.decode()
    hand_play(Hand.objects.get(pk=hands[2].pk), seed=52, start=8, upto=9)
    caches[django_settings.SHARED_CACHE].delete(
        f"public-version:live:{page_cache._digest(tournament.slug)}"
    )
    with CaptureQueriesContext(connection) as ctx:
        moved = client.get(url)
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not [q for q in sql if "tournaments_handevent" in q], sql
    seats_read = [q for q in sql if q.startswith("SELECT") and 'FROM "tournaments_seat"' in q]
    assert len(seats_read) == 1, sql  # the board once: the version's read
    html = moved.content.decode()
    cards = re.findall(r"<section.*?</section>", html, re.S)
    before = re.findall(r"<section.*?</section>", first, re.S)
    assert cards[:2] == before[:2] and cards[2] != before[2]
    # the moved card shows what its log, replayed and checked again, says
    logged = hand_replay(hand=Hand.objects.get(pk=hands[2].pk))
    assert logged.state is not None
    left = re.findall(r'class="num cards-left"[^>]*>(\d*)<', cards[2])
    assert [int(n) for n in left] == list(logged.state.card_counts)
    assert '<span class="phase">' in cards[2] and "Last play" in cards[2]
