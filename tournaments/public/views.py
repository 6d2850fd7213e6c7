"""Public pages (no login): tournaments, rounds and seating, the live tables board.

Thin: each view finds the public tournament, reads through ``tournaments.public.selectors``
and renders. Private tournaments and draft rounds answer 404.
"""

from __future__ import annotations

import hashlib
import logging
import time
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
from tournaments.public import selectors as ps
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
    tournaments = selectors.tournament_list_public()
    return render(request, "public/home.html", {"tournaments": tournaments})


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


def live_cards(*, tournament: Tournament) -> list[str]:
    """Every table's card of the live board, rendered once per state of the table and kept
    in the shared cache (every process and machine renders a card once between them, not
    once per spectator): a poll reads the cards' keys (four small queries) and the cards
    (one cache read), and renders only the tables that changed since (two more queries)."""
    board = ps.live_board(tournament=tournament)
    found: dict[str, str] = shared_cache_get_many([key for _, key in board.cards])
    missing = [table_id for table_id, key in board.cards if key not in found]
    fresh: dict[int, str] = {}
    if missing:
        rendered = {}
        for row in ps.live_tables(tournament=tournament, board=board, table_ids=missing):
            html = render_to_string(
                "public/live_table.html", {"tournament": tournament, "row": row}
            )
            fresh[row.table_id] = rendered[row.key] = html
        shared_cache_set_many(rendered, timeout=LIVE_CARD_SECONDS)
    return [
        mark_safe(fresh[table_id] if table_id in fresh else found[key])  # rendered escaped
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


def live_board_key(*, scope: tuple[Any, ...]) -> str:
    """The shared cache's key of a tournament's assembled live board: everything that
    decides what the board may show besides the hands' moves (``ps.live_board_scope``: the
    tournament, its rounds and their statuses), the page's language, and whom it is
    rendered for (always the public: ``card_secrecy.PUBLIC``, whoever is signed in)."""
    text = repr(("public", scope, get_language()))
    return "public-live-board:" + hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


#: How long one process may take to render a board whose window has passed while the others
#: keep serving the board before it (so a poll that finds the window over costs one render
#: between them, not one each): a spectator sees a board at most the window and one render
#: old, this long at worst if that render fails.
LIVE_BOARD_RENDER_SECONDS = 5


def shared_cache_add(key: str, timeout: int) -> bool:
    """Whether this request took ``key`` (``cache.add``: only the first of several does);
    True when the cache cannot be reached (every request then renders, as without it)."""
    try:
        return bool(caches[settings.SHARED_CACHE].add(key, 1, timeout=timeout))
    except Exception:  # any backend's failure: render, as without the cache
        logger.warning("the shared cache could not be written", exc_info=True)
        return True


def shared_cache_delete(key: str) -> None:
    """Drop ``key`` from the shared cache, if it can be written."""
    try:
        caches[settings.SHARED_CACHE].delete(key)
    except Exception:  # any backend's failure: the key expires by itself
        logger.warning("the shared cache could not be written", exc_info=True)


def live_board_html(*, slug: str) -> tuple[Tournament, str, str] | None:
    """The public tournament, its live board's fragment and the version that shows
    (``ps.live_etag``). The fragment is kept whole in the shared cache for
    ``settings.PUBLIC_BOARD_SECONDS`` (0: rendered every time): the spectators polling
    within that window cost one query and one cache read each, not a render; after it, one
    request renders the board again while the others keep the one before
    (``LIVE_BOARD_RENDER_SECONDS``). None for no public tournament."""
    found = ps.live_board_scope(slug=slug)
    if found is None:
        return None
    tournament, scope = found
    seconds = settings.PUBLIC_BOARD_SECONDS
    key = live_board_key(scope=scope) if seconds > 0 else ""
    if key:
        cached = shared_cache_get_many([key]).get(key)
        if cached is not None:
            html, version, made = cached
            fresh = time.time() - made < seconds
            if fresh or not shared_cache_add(f"{key}:rendering", LIVE_BOARD_RENDER_SECONDS):
                return tournament, html, version
    made = time.time()
    # the version first: cards read after it may be newer than it, never older, so a
    # spectator's ETag never stands for a board older than the one they were sent
    version = ps.live_etag(slug=slug)
    if version is None:  # no longer public since the first query
        return None
    html = render_to_string("public/live_board.html", {"cards": live_cards(tournament=tournament)})
    if key:
        shared_cache_set_many(
            {key: (html, version, made)}, timeout=seconds + LIVE_BOARD_RENDER_SECONDS
        )
        shared_cache_delete(f"{key}:rendering")
    return tournament, html, version


def live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live tables board; ``?fragment=1`` is what the page polls (with If-None-Match, so
    a board unchanged since the spectator's last poll costs a 304)."""
    board = live_board_html(slug=slug)
    if board is None:
        raise Http404("No such public tournament.")
    tournament, html, version = board
    part = "f" if request.GET.get("fragment") else "p"

    def page() -> HttpResponse:
        fragment = mark_safe(html)  # rendered escaped
        if part == "f":
            return revalidate(HttpResponse(fragment))
        context = {"tournament": tournament, "board": fragment}
        return revalidate(render(request, "public/live.html", context))

    return conditional(request, f"{version}-{get_language()}-{part}", page)
