"""The public standings: served from the latest snapshot, with ETag and conditional GET."""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.models import Tournament
from tournaments.public.views import (
    conditional,
    revalidate,
    shared_cache_get_many,
    shared_cache_set_many,
    tournament_or_404,
)
from tournaments.standings import public_table as ps
from tournaments.standings.csv_export import csv_writer
from tournaments.templatetags.public_tags import standings_rows

STANDINGS_CACHE_SECONDS = 3600


def _etag(request: HttpRequest, key: str) -> str:
    """The snapshot's version and time, the tournament's status and the view's options
    (``key``: ``ps.standings_key``): the page changes only when one of them does."""
    club = request.GET.get("club", "")
    part = "f" if request.GET.get("fragment") else "p"
    return f"{key}-{get_language()}-{part}-{request.GET.get('big', '')}-{_digest(club)}"


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:8]


def _table_and_rows(request: HttpRequest, tournament: Tournament, etag: str) -> tuple[Any, str]:
    """The standings table and its rendered rows, kept in the shared cache under the
    page's ETag: both change only with the snapshot (or the tournament's status), so a
    3,000-row table is built once per snapshot, language and club filter for every process,
    not on every request (bench/pages_bench.py). Only this part is cached, never a whole
    page: pages carry the visitor's CSRF token."""
    club = request.GET.get("club") or None
    key = f"public-standings:{etag}"
    cached = shared_cache_get_many([key]).get(key)
    if cached is None:
        table = ps.standings_table(tournament=tournament, club=club)
        rows = str(standings_rows(table, tournament.slug))
        table.rows, table.movement = [], {}  # rendered above: keep the cached value small
        cached = (table, rows)
        shared_cache_set_many({key: cached}, timeout=STANDINGS_CACHE_SECONDS)
    return cached


def _standings_key(slug: str) -> str:
    key = ps.standings_key(slug=slug)
    if key is None:
        raise Http404("No such public tournament.")
    return key


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings page; ``?fragment=1`` is what the page polls, with If-None-Match: an
    unchanged table costs one query and a 304, a changed one two more (the tournament, the
    cached rows)."""
    etag = _etag(request, _standings_key(slug))

    def page() -> HttpResponse:
        tournament = tournament_or_404(slug)
        table, rows = _table_and_rows(request, tournament, etag)
        context = {
            "tournament": tournament,
            "table": table,
            "rows": mark_safe(rows),  # built by standings_rows, every value escaped
            "club": request.GET.get("club", ""),
        }
        template = (
            "public/standings_table.html"
            if request.GET.get("fragment")
            else "public/standings.html"
        )
        return revalidate(render(request, template, context))

    return conditional(request, etag, page)


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    etag = _etag(request, _standings_key(slug))

    def page() -> HttpResponse:
        tournament = tournament_or_404(slug)
        table = ps.standings_table(tournament=tournament, club=request.GET.get("club") or None)
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        disposition = f'attachment; filename="{tournament.slug}-standings.csv"'
        response["Content-Disposition"] = disposition
        response.write("\ufeff")  # so spreadsheet programs read the Chinese names as UTF-8
        writer = csv_writer(response)
        writer.writerow([str(label) for label in table.csv_header()])
        for row in table.rows:
            writer.writerow(table.csv_row(row))
        return revalidate(response)

    return conditional(request, etag, page)
