"""The public standings: served from the latest snapshot, with ETag and conditional GET, in
pages of ``STANDINGS_PAGE`` entries."""

from __future__ import annotations

import hashlib
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from tournaments.hands.exclusions import exclusions_shown
from tournaments.models import Tournament
from tournaments.public import page_cache
from tournaments.public.views import (
    conditional,
    revalidate,
    shared_cache_get_many,
    shared_cache_set_many,
    tournament_or_404,
)
from tournaments.standings import public_table as ps
from tournaments.standings.csv_export import csv_writer
from tournaments.templatetags.public_tags import standings_row_list

STANDINGS_CACHE_SECONDS = 3600
#: Entries a page of the standings shows (``?page=n``, the first by default): a poll of a
#: 1,000-player table sends a tenth of it. ``?page=all``, the big screen (which cycles
#: through the rows itself) and the CSV show every entry.
STANDINGS_PAGE = 100


def _rows_key(request: HttpRequest, key: str) -> str:
    """The snapshot's version and time, the tournament's status (``key``:
    ``ps.standings_key``), the language and the club filter: what the rows depend on."""
    return f"{key}-{get_language()}-{_digest(request.GET.get('club', ''))}"


def _etag(request: HttpRequest, key: str) -> str:
    """The rows' key and the view's options: the page changes only when one of them does."""
    part = "f" if request.GET.get("fragment") else "p"
    options = f"{request.GET.get('big', '')}-{_digest(request.GET.get('page', ''))}"
    return f"{_rows_key(request, key)}-{part}-{options}"


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:8]


def _table_and_rows(
    request: HttpRequest, tournament: Tournament, rows_key: str
) -> tuple[Any, list[str]]:
    """The standings table and its rendered rows, kept in the shared cache: both change
    only with the snapshot (or the tournament's status), so a 3,000-row table is built once
    per snapshot, language and club filter for every process and page, not on every
    request (bench/pages_bench.py). Only this part is cached, never a whole page: pages
    carry the visitor's CSRF token."""
    club = request.GET.get("club") or None
    key = f"public-standings-rows:{rows_key}"
    cached = shared_cache_get_many([key]).get(key)
    if cached is None:
        table = ps.standings_table(tournament=tournament, club=club)
        rows = standings_row_list(table, tournament.slug)
        table.rows, table.movement = [], {}  # rendered above: keep the cached value small
        cached = (table, rows)
        shared_cache_set_many({key: cached}, timeout=STANDINGS_CACHE_SECONDS)
    return cached


def standings_page(rows: list[str], asked: str, *, everyone: bool) -> tuple[list[str], int, int]:
    """The rows of the page ``asked`` (``?page=``), its number (0: every row) and the number
    of pages. A page past the last is the last; one that is no number is the first."""
    pages = max(1, -(-len(rows) // STANDINGS_PAGE))
    if everyone or asked == "all":
        return rows, 0, pages
    number = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 7 else 1
    number = min(max(number, 1), pages)
    start = (number - 1) * STANDINGS_PAGE
    return rows[start : start + STANDINGS_PAGE], number, pages


def _page_links(rows: int, pages: int) -> list[tuple[int, str]]:
    """(page number, the positions it holds: "101–200") of every page, for the pager."""
    return [
        (n, f"{(n - 1) * STANDINGS_PAGE + 1}–{min(n * STANDINGS_PAGE, rows)}")
        for n in range(1, pages + 1)
    ]


def _standings_key(slug: str) -> str:
    key = ps.standings_key(slug=slug)
    if key is None:
        raise Http404("No such public tournament.")
    return key


@page_cache.public_page("standings", "standings")
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings page; ``?fragment=1`` is what the page polls, with If-None-Match: an
    unchanged table costs one query and a 304, a changed one two more (the tournament, the
    cached rows)."""
    key = _standings_key(slug)

    def page() -> HttpResponse:
        tournament = tournament_or_404(slug)
        table, rows = _table_and_rows(request, tournament, _rows_key(request, key))
        shown, number, pages = standings_page(
            rows, request.GET.get("page", ""), everyone=bool(request.GET.get("big"))
        )
        context = {
            "tournament": tournament,
            "table": table,
            "rows": mark_safe("\n".join(shown)),  # built by standings_row_list, escaped
            "club": request.GET.get("club", ""),
            "page": number,
            "page_param": number or "all",
            "pages": _page_links(len(rows), pages) if pages > 1 else [],
            "everyone": f"1–{len(rows)}",
            # hands a director excluded (issue 29): every reader sees what does not count
            "exclusions": list(exclusions_shown(tournament=tournament)),
        }
        template = (
            "public/standings_table.html"
            if request.GET.get("fragment")
            else "public/standings.html"
        )
        return revalidate(render(request, template, context))

    return conditional(request, _etag(request, key), page)


@page_cache.public_page("standings", "standings-csv")
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
