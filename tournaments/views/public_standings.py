"""The public standings: served from the latest snapshot, with ETag and conditional GET."""

from __future__ import annotations

import csv
import hashlib

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import condition

from tournaments import public_standings as ps
from tournaments.views.public import revalidate, tournament_or_404


def _etag(request: HttpRequest, slug: str) -> str | None:
    """The snapshot's version and time, the tournament's status and the view's options: the
    page changes only when one of them does (one query)."""
    key = ps.standings_key(slug=slug)
    if key is None:
        return None
    club = request.GET.get("club", "")
    part = "f" if request.GET.get("fragment") else "p"
    return f"{key}-{get_language()}-{part}-{request.GET.get('big', '')}-{_digest(club)}"


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:8]


@condition(etag_func=_etag)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    table = ps.standings_table(tournament=tournament, club=request.GET.get("club") or None)
    context = {"tournament": tournament, "table": table, "club": request.GET.get("club", "")}
    template = (
        "public/standings_table.html" if request.GET.get("fragment") else "public/standings.html"
    )
    return revalidate(render(request, template, context))


@condition(etag_func=_etag)
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    table = ps.standings_table(tournament=tournament, club=request.GET.get("club") or None)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.csv"'
    response.write("\ufeff")  # so spreadsheet programs read the Chinese names as UTF-8
    writer = csv.writer(response)
    writer.writerow([str(label) for label in table.csv_header()])
    for row in table.rows:
        writer.writerow(table.csv_row(row))
    return revalidate(response)
