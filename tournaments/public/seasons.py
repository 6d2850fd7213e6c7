"""Public season pages (issue 34): the ladder, a player's season with its chart, two players
head to head, the ladder as CSV.  Public unless the club made the season private (then only
directors see it, never kept by a shared cache)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition

from tournaments.common.roles import user_is_director
from tournaments.models import Player, Season
from tournaments.public import page_cache
from tournaments.season import selectors
from tournaments.season.chart import ChartPoint, season_chart
from tournaments.season.exports import season_ladder_csv


def _id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 19 else None


def _season_or_404(request: HttpRequest, slug: str) -> Season:
    season = selectors.season_get(slug=slug, director=user_is_director(request.user))
    if season is None:
        raise Http404("No such season.")
    # Shared by the proxy as the other public pages: no CSRF token, so no cookie.
    request.public_cacheable = season.is_public and page_cache.cacheable(request)  # type: ignore[attr-defined]
    return season


def _etag(request: HttpRequest, slug: str, **kwargs: object) -> str | None:
    """A public season's version: its last computation, per language, page and query (a
    private season's pages carry none: they are answered afresh, or 404)."""
    row = (
        Season.objects.filter(slug=slug, is_public=True)
        .values_list("pk", "computed_at", "status")
        .first()
    )
    if row is None:
        return None
    at = row[1].timestamp() if row[1] else 0
    lang = getattr(request, "LANGUAGE_CODE", "")
    return f"season-{row[0]}-{at}-{row[2]}-{lang}-{request.GET.urlencode()}-{kwargs}"


def _private(response: HttpResponse, season: Season) -> HttpResponse:
    if not season.is_public:
        patch_cache_control(response, private=True, no_store=True)
    return response


@condition(etag_func=_etag)
def season_ladder(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    context = {
        "season": season,
        "ladder": selectors.season_ladder(season=season),
        "state": selectors.season_state(season=season),
        "choices": selectors.ladder_players(season=season),
    }
    return _private(render(request, "public/season_ladder.html", context), season)


@condition(etag_func=_etag)
def season_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    season = _season_or_404(request, slug)
    found = selectors.player_season(season=season, player_id=player_id)
    if found is None:
        raise Http404("No such player in this season.")
    ladder_size = season.ratings.count()
    points = [
        ChartPoint(label=s.tournament.name, rating=s.mu, sigma=s.sigma, rank=s.rank)
        for s in found.steps
    ]
    context = {
        "season": season,
        "found": found,
        "name": selectors.player_label(found.player),
        "chart": season_chart(points, ladder_size=ladder_size, chart_id="season-chart"),
        "ladder_size": ladder_size,
    }
    return _private(render(request, "public/season_player.html", context), season)


@condition(etag_func=_etag)
def season_head_to_head(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    a, b = _id(request.GET.get("a")), _id(request.GET.get("b"))
    choices = selectors.ladder_players(season=season)
    ids = {p for p, _ in choices}
    result = None
    error = ""
    if a is not None and b is not None:
        if a == b or a not in ids or b not in ids:
            error = "choose"
        else:
            first, second = Player.objects.get(pk=a), Player.objects.get(pk=b)
            result = selectors.head_to_head(season=season, first=first, second=second)
    context = {
        "season": season,
        "choices": choices,
        "a": a,
        "b": b,
        "result": result,
        "error": error,
        "names": {p: n for p, n in choices},
    }
    status = 400 if error else 200
    return _private(render(request, "public/season_h2h.html", context, status=status), season)


@condition(etag_func=_etag)
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season_or_404(request, slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-ladder.csv"'
    season_ladder_csv(season=season, out=response)
    return _private(response, season)
