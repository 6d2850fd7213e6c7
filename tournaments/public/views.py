"""Public pages (no login): tournaments, rounds and seating, the live tables board.

Thin: each view finds the public tournament, reads through ``tournaments.public.selectors``
and renders. Private tournaments and draft rounds answer 404.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from tournaments.common.roles import user_is_director
from tournaments.hands.card_secrecy import PUBLIC, hands_cards_shown
from tournaments.models import Tournament, TournamentFormat
from tournaments.public import page_cache
from tournaments.public import selectors as ps
from tournaments.season.selectors import seasons_public
from tournaments.templatetags.public_tags import live_card_html
from tournaments.tournament import selectors

logger = logging.getLogger(__name__)


def tournament_or_404(slug: str, request: HttpRequest | None = None) -> Tournament:
    """The public tournament of ``slug``; for a director (``request``'s user is staff), a
    tournament not public yet too: its pages are then a preview, with a banner saying so
    (``public/base_public.html``) and never kept by a shared cache (``preview_private``).
    Anyone else gets the 404 of a tournament that does not exist."""
    tournament = ps.tournament_public(slug=slug)
    if tournament is None and request is not None and user_is_director(request.user):
        tournament = ps.tournament_preview(slug=slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    return tournament


def preview_private(response: HttpResponse, tournament: Tournament) -> HttpResponse:
    """A director's preview of a tournament not public yet is for their browser only."""
    if not tournament.is_public:
        patch_cache_control(response, private=True, no_store=True)
    return response


def revalidate(response: HttpResponse) -> HttpResponse:
    """Caches may keep the page but must ask (conditional GET) before showing it again."""
    patch_cache_control(response, no_cache=True, public=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


#: The site's icon (every page names it in a ``<link rel="icon">``).
FAVICON = "tournaments/icons/favicon.svg"


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, asked for by browsers and tools that read no page: the site's icon
    itself (an SVG), kept for a day, rather than a 404 in every log."""
    path = finders.find(FAVICON)
    if not isinstance(path, str):
        raise Http404("No favicon.")
    with open(path, "rb") as handle:
        response = HttpResponse(handle.read(), content_type="image/svg+xml")
    patch_cache_control(response, public=True, max_age=86400)
    return response


def home(request: HttpRequest) -> HttpResponse:
    """The public tournaments. Not kept in the page cache (it is one small query), but
    shared by the proxy as the other public pages: no CSRF token, so no cookie."""
    request.public_cacheable = page_cache.cacheable(request)  # type: ignore[attr-defined]
    tournaments = selectors.tournament_list_public()
    seasons = seasons_public()
    return render(request, "public/home.html", {"tournaments": tournaments, "seasons": seasons})


@page_cache.public_page("tournament", "home")
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug, request)
    rounds = list(ps.rounds_public(tournament=tournament))
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "current": ps.round_current(rounds=rounds),
        "entry_counts": selectors.tournament_entry_counts(tournament=tournament),
        "duplicate": tournament.format == TournamentFormat.DUPLICATE,
        "boards": tournament.boards.order_by("number").values_list("number", flat=True),
    }
    return preview_private(render(request, "public/tournament_detail.html", context), tournament)


@page_cache.public_page("tournament", "round")
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug, request)
    round = ps.round_public(tournament=tournament, number=number)
    if round is None:
        raise Http404("No such round.")
    boards = ps.round_boards(round=round)
    tables = ps.round_tables(round=round)
    for table in tables:
        board = boards.get((table.section, 1))
        table.first_bidder_now = (  # type: ignore[attr-defined]
            board.first_bidder if board is not None else table.first_bidder
        )
    hands = [hand for table in tables for hand in table.hands.all()]
    shown = hands_cards_shown(user=PUBLIC, hands=hands)
    context = {
        "tournament": tournament,
        "round": round,
        "tables": tables,
        # hands on a board not released: no score shown (card_secrecy)
        "secret_hands": {pk for pk, s in shown.items() if not s.outcome},
        "rounds": list(ps.rounds_public(tournament=tournament)),
        "byes": selectors.round_byes(round=round),
    }
    return preview_private(render(request, "public/round.html", context), tournament)


#: How long a rendered card of the live board is kept: a card is looked up by its content's
#: key (``ps.live_card_key``), so this only bounds how long an unchanged table's card is
#: reused before it is rendered again, and the room old cards take.
LIVE_CARD_SECONDS = 60


def shared_cache_get_many(keys: list[str]) -> dict[str, Any]:
    """The shared cache's values of ``keys``; none when the cache cannot be read (a missing
    cache table, Redis down): a page is then rendered afresh, never refused for it."""
    try:
        return caches[settings.SHARED_CACHE].get_many(keys)
    except Exception:  # any backend's failure: the page does without the cache
        logger.warning("the shared cache could not be read", exc_info=True)
        return {}


def shared_cache_set_many(values: dict[str, Any], timeout: int) -> None:
    """Keep ``values`` in the shared cache, if it can be written (see above)."""
    try:
        caches[settings.SHARED_CACHE].set_many(values, timeout=timeout)
    except Exception:  # any backend's failure: the next request renders again
        logger.warning("the shared cache could not be written", exc_info=True)


def live_cards(
    *, tournament: Tournament, board: ps.LiveBoard | None = None
) -> list[tuple[int, str, str]]:
    """Every table's card of the live board as (table id, card key, html), rendered once per
    state of the table and kept in the shared cache (every process and machine renders a
    card once between them, not once per spectator): the board reads the cards' keys (four
    small queries) and the cards (one cache read), and renders only the tables that changed
    since (two more queries). ``board``: the board this request read already (its version's
    read, ``page_cache.page_version``)."""
    if board is None:
        board = ps.live_board(tournament=tournament)
    found: dict[str, str] = shared_cache_get_many([key for _, key in board.cards])
    missing = [table_id for table_id, key in board.cards if key not in found]
    fresh: dict[int, tuple[str, str]] = {}
    if missing:
        rendered = {}
        for row in ps.live_tables(tournament=tournament, board=board, table_ids=missing):
            html = live_card_html(tournament=tournament, row=row)
            fresh[row.table_id] = (row.key, html)
            rendered[row.key] = html
        shared_cache_set_many(rendered, timeout=LIVE_CARD_SECONDS)
    return [
        (table_id, *fresh[table_id]) if table_id in fresh else (table_id, key, found[key])
        for table_id, key in board.cards
    ]


def conditional(request: HttpRequest, etag: str, page: Callable[[], HttpResponse]) -> HttpResponse:
    """``page()``, or 304 Not Modified when the request's If-None-Match names ``etag``
    (as ``django.views.decorators.http.condition``, whose ETag function would be a second
    read of what the view reads anyway)."""
    etag = quote_etag(etag)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = page()
    if request.method in ("GET", "HEAD"):
        response.headers.setdefault("ETag", etag)
    return response


def live_board_html(
    *, tournament: Tournament, board: ps.LiveBoard | None = None
) -> tuple[str, list[tuple[int, str, str]]]:
    """The live board's fragment, and its cards (``live_cards``)."""
    cards = live_cards(tournament=tournament, board=board)
    html = render_to_string(
        "public/live_board.html",
        {"cards": [mark_safe(c[2]) for c in cards]},  # escaped
    )
    return html, cards


#: The live fragment's query, as ``page_cache.page_query`` writes it.
LIVE_FRAGMENT = page_cache.page_query_of({}, {"fragment": "1"})


def live_delta(request: HttpRequest, cards: list[tuple[int, str, str]], version: str) -> str | None:
    """The cards that changed since the version ``?since=`` names (an ETag of the live
    fragment), as a delta fragment; None when the board must be sent whole: no such
    version kept, or other tables (a round started or closed)."""
    since = page_cache.etag_version(request.GET.get(page_cache.SINCE, ""))
    held = page_cache.kept_page("live", since, LIVE_FRAGMENT) if since else None
    if held is None or not isinstance(held.meta, list):
        return None
    before = dict(held.meta)
    if [c[0] for c in cards] != [t for t, _ in held.meta]:
        return None
    changed = [html for table_id, key, html in cards if before.get(table_id) != key]
    return render_to_string(
        "public/live_delta.html",
        {"cards": [mark_safe(html) for html in changed]},  # escaped
    )


def _whole(fragment: HttpResponse, held: list[tuple[int, str]]) -> page_cache.Page:
    """The whole live fragment as the page cache keeps it, with its cards' keys."""
    headers = (("Content-Type", fragment["Content-Type"]),)
    return page_cache.Page(200, fragment.content, None, headers, held)


def live_fragment_kept(
    tournament: Tournament, version: str, board: ps.LiveBoard | None = None
) -> page_cache.Page:
    """The live fragment of ``version``, rendered now and kept (``page_cache``)."""
    html, cards = live_board_html(tournament=tournament, board=board)
    whole = _whole(HttpResponse(html), [(table_id, key) for table_id, key, _ in cards])
    page_cache.keep_page("live", version, LIVE_FRAGMENT, whole)
    return whole


@page_cache.public_page("live", "live")
def live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live tables board; ``?fragment=1`` is what the page polls (with If-None-Match, so
    a board unchanged since the spectator's last poll costs a 304), ``&since=<ETag>`` the
    tables changed since the board of that ETag (``X-Live-Delta: 1``), or the whole board
    when that one is no longer kept (no header). Served from the page cache
    (``page_cache``): each version is rendered once between every process."""
    tournament = tournament_or_404(slug, request)
    version: str | None = getattr(request, "public_version", None)
    if version is None:  # a signed-in reader: rendered for them, with a conditional GET
        etag = ps.live_version(slug=slug) or ""
        part = "f" if request.GET.get("fragment") else "p"
        return conditional(
            request, f"{etag}-{get_language()}-{part}", lambda: live_page(request, tournament)
        )
    return live_page(request, tournament, version)


def _board_read(request: HttpRequest) -> ps.LiveBoard | None:
    """The live board this request's version read found (``page_cache.page_version``):
    read a moment ago, it need not be read again (at 334 tables: 27 ms CPU of a board's
    render, once a second at bench/event_load.py's pace; bench/poll_bench.py)."""
    board = getattr(request, "public_read", {}).get("live_board")
    return board if isinstance(board, ps.LiveBoard) else None


def live_page(
    request: HttpRequest, tournament: Tournament, version: str | None = None
) -> HttpResponse:
    board = _board_read(request)
    if version is not None and not request.GET.get("fragment"):
        # the page holds the board of its version, the very fragment its polls start from
        kept = page_cache.kept_page("live", version, LIVE_FRAGMENT)
        if kept is None:
            kept = live_fragment_kept(tournament, version, board)
        context = {
            "tournament": tournament,
            "board": mark_safe(kept.body.decode()),  # rendered escaped
            "etag": page_cache.page_etag("live", version, LIVE_FRAGMENT),
        }
        return revalidate(render(request, "public/live.html", context))
    html, cards = live_board_html(tournament=tournament, board=board)
    if not request.GET.get("fragment"):
        context = {
            "tournament": tournament,
            "board": mark_safe(html),  # rendered escaped
            "etag": page_cache.page_etag("live", version, LIVE_FRAGMENT) if version else "",
        }
        return revalidate(render(request, "public/live.html", context))
    fragment = revalidate(HttpResponse(html))
    held = [(table_id, key) for table_id, key, _ in cards]
    fragment.page_meta = held  # type: ignore[attr-defined]  # kept with it: live_delta
    if version is None or not request.GET.get(page_cache.SINCE):
        return fragment
    # a delta: the whole fragment of this version is kept too, for the deltas from it
    if page_cache.kept_page("live", version, LIVE_FRAGMENT) is None:
        page_cache.keep_page("live", version, LIVE_FRAGMENT, _whole(fragment, held))
    delta = live_delta(request, cards, version)
    if delta is None:
        return fragment
    response = revalidate(HttpResponse(delta))
    response["X-Live-Delta"] = "1"
    return response
