"""Public pages (no login): tournaments, rounds and seating, the live tables board.

Thin: each view finds the public tournament, reads through ``tournaments.public.selectors``
and renders. Private tournaments and draft rounds answer 404.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournaments.models import Tournament, TournamentFormat
from tournaments.public import selectors as ps
from tournaments.tournament import selectors


def tournament_or_404(slug: str) -> Tournament:
    tournament = ps.tournament_public(slug=slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    return tournament


def revalidate(response: HttpResponse) -> HttpResponse:
    """Caches may keep the page but must ask (conditional GET) before showing it again."""
    patch_cache_control(response, no_cache=True, public=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def home(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list_public()
    return render(request, "public/home.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    rounds = list(ps.rounds_public(tournament=tournament))
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "current": ps.round_current(rounds=rounds),
        "entry_counts": selectors.tournament_entry_counts(tournament=tournament),
        "duplicate": tournament.format == TournamentFormat.DUPLICATE,
        "boards": tournament.boards.order_by("number").values_list("number", flat=True),
    }
    return render(request, "public/tournament_detail.html", context)


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
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
    context = {
        "tournament": tournament,
        "round": round,
        "tables": tables,
        "rounds": list(ps.rounds_public(tournament=tournament)),
    }
    return render(request, "public/round.html", context)


def _live_etag(request: HttpRequest, slug: str) -> str | None:
    tournament = ps.tournament_public(slug=slug)
    if tournament is None:
        return None
    part = "f" if request.GET.get("fragment") else "p"
    return f"{ps.live_etag(tournament=tournament)}-{get_language()}-{part}"


@condition(etag_func=_live_etag)
def live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live tables board; ``?fragment=1`` is what the page polls (with If-None-Match, so
    an unchanged board costs one small query and a 304)."""
    tournament = tournament_or_404(slug)
    context: dict[str, Any] = {
        "tournament": tournament,
        "tables": ps.live_tables(tournament=tournament),
    }
    template = "public/live_board.html" if request.GET.get("fragment") else "public/live.html"
    return revalidate(render(request, template, context))
