"""Public pages of hands, players and duplicate boards."""

from __future__ import annotations

from itertools import accumulate

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.hands.card_secrecy import (
    PUBLIC,
    board_cards_visible,
    hands_cards_shown,
    status_shown,
)
from tournaments.par.selectors import board_par_shown, hand_par_shown
from tournaments.public import page_cache
from tournaments.public import selectors as ps
from tournaments.public.views import preview_private, tournament_or_404
from tournaments.standings.public_table import entry_rank_history
from tournaments.standings.queries import entry_totals
from tournaments.tournament import selectors


@page_cache.public_page("tournament", "hand")
def hand_detail(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    tournament = tournament_or_404(slug, request)
    hand = ps.hand_public(tournament=tournament, hand_id=hand_id)
    if hand is None:
        raise Http404("No such hand.")
    page = ps.hand_page(hand=hand)
    # the board's par and where this hand left it: nothing while the board is secret
    par = None if page.secret else hand_par_shown(user=PUBLIC, hand=hand)
    context = {"tournament": tournament, "page": page, "par": par}
    if par is not None:
        context["lost"] = par.analysis
        context["against"] = par.board.against(hand)
    return preview_private(render(request, "public/hand.html", context), tournament)


@page_cache.public_page("tournament", "player")
def player_detail(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = tournament_or_404(slug, request)
    entry = ps.entry_public(tournament=tournament, entry_id=entry_id)
    if entry is None:
        raise Http404("No such player.")
    results = ps.entry_hand_results(entry=entry)
    context = {
        "tournament": tournament,
        "entry": entry,
        "results": results,
        "running": list(accumulate(r.score for r in results)),
        # the standings' own sums: deal points plus penalties (one total everywhere)
        "totals": entry_totals(entry=entry),
        "penalties": ps.entry_penalties(entry=entry),
        "ranks": entry_rank_history(tournament=tournament, entry_id=entry.pk),
        "bye_rounds": selectors.entry_bye_rounds(entry=entry, public=True),
    }
    return preview_private(render(request, "public/player.html", context), tournament)


@page_cache.public_page("tournament", "board")
def board_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug, request)
    board = ps.board_public(tournament=tournament, number=number)
    if board is None:
        raise Http404("No such board.")
    hands = ps.board_hands(board=board)
    # a board not released shows which tables played it, nothing of how (card_secrecy)
    shown = hands_cards_shown(user=PUBLIC, hands=hands)
    hands_shown = [h for h in hands if shown[h.pk].outcome]
    positions = range(len(board.seat_cards))
    by_position = [ps.matchpoints([h.score_of(p) for h in hands_shown]) for p in positions]
    mp = {h.pk: [by_position[p][i] for p in positions] for i, h in enumerate(hands_shown)}
    nothing = [None for _ in positions]
    par = board_par_shown(user=PUBLIC, board=board)
    rows = [
        {
            "hand": hand,
            "seats": list(hand.table.seats.all()),
            "secret": not shown[hand.pk].outcome,
            "status": status_shown(hand.status, shown[hand.pk]),
            "landlord": hand.landlord_seat if shown[hand.pk].outcome else None,
            "scores": [hand.score_of(p) for p in positions] if shown[hand.pk].outcome else nothing,
            "mp": mp.get(hand.pk, nothing),
            # the table's score against par, seat by seat, and whether its landlord's seat
            # wins at par (nothing while the board is secret: ``par`` is not done then)
            "against": par.against(hand) if shown[hand.pk].outcome else None,
            "landlord_par": par.landlord_par(hand) if shown[hand.pk].outcome else None,
        }
        for hand in hands
    ]
    context = {
        "tournament": tournament,
        "board": board,
        "par": par,
        "rows": rows,
        "positions": positions,
        "columns": 3 + 3 * len(positions),  # round, table, name/score/MP a seat, par
        "top": 2 * (sum(1 for h in hands_shown if h.scores is not None) - 1),
        # hidden until every table that plays the board has closed its hand on it (or its
        # round is closed): card_secrecy; public pages show what anybody may see
        "deal": (
            ps.hand_deal_cards(board=board)
            if board_cards_visible(user=PUBLIC, board=board)
            else None
        ),
    }
    return preview_private(render(request, "public/board.html", context), tournament)
