from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import selectors


def home(request: HttpRequest) -> HttpResponse:
    tournaments = selectors.tournament_list_public()
    return render(request, "public/home.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get_public(slug=slug)
    if tournament is None:
        raise Http404("No such public tournament.")
    context = {
        "tournament": tournament,
        "entries": selectors.entry_list(tournament=tournament),
        "rounds": selectors.round_list_with_tables(tournament=tournament),
    }
    return render(request, "public/tournament_detail.html", context)
