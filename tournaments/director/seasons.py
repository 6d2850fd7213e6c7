"""Director screens of a club's season (issue 34): likely duplicate players, merge and undo;
seasons: create, choose the tournaments, recompute, close."""

import json

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.director.helpers import as_int, attempt, confirmed_check, flag
from tournaments.director.signin import director_required
from tournaments.models import (
    Player,
    PlayerMerge,
    Season,
    Tournament,
    TournamentFormat,
    offered_rule_profiles,
)
from tournaments.season.exports import season_archive, season_ladder_csv, season_steps_csv
from tournaments.season.merge import player_merge, player_merge_undo, players_likely_duplicates
from tournaments.season.services import (
    season_close,
    season_create,
    season_tournaments_set,
    seasons_request,
)


@director_required
def players(request: HttpRequest) -> HttpResponse:
    context = {
        "pairs": players_likely_duplicates(),
        "merges": PlayerMerge.objects.select_related("kept", "merged").order_by(
            "-recorded_at", "-id"
        )[:100],
    }
    return render(request, "director/players.html", context)


def _player(value: str | None) -> Player:
    pk = as_int(value)
    player = Player.objects.filter(pk=pk).first() if pk is not None else None
    if player is None:
        raise Http404("No such player.")
    return player


@director_required
@require_POST
def merge(request: HttpRequest) -> HttpResponse:
    kept, merged = _player(request.POST.get("kept")), _player(request.POST.get("merged"))

    def call() -> object:
        confirmed_check(request)
        return player_merge(
            kept=kept,
            merged=merged,
            reason=request.POST.get("reason", "")[:500],
            recorded_by=request.user,
        )

    attempt(
        request,
        call,
        _("Players merged: %(merged)s → %(kept)s.") % {"merged": merged, "kept": kept},
    )
    return redirect("director:players")


@director_required
@require_POST
def merge_undo(request: HttpRequest, merge_id: int) -> HttpResponse:
    log = PlayerMerge.objects.filter(pk=merge_id).first()
    if log is None:
        raise Http404("No such merge.")
    attempt(
        request,
        lambda: player_merge_undo(merge=log, recorded_by=request.user),
        _("Merge undone."),
    )
    return redirect("director:players")


@director_required
def seasons(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        attempt(
            request,
            lambda: season_create(
                name=request.POST.get("name", "").strip(),
                slug=request.POST.get("slug", "").strip(),
                club=request.POST.get("club", "").strip(),
                is_public=flag(request, "is_public"),
                profiles=request.POST.getlist("profiles"),
                formats=request.POST.getlist("formats"),
                created_by=request.user,
            ),
            _("Season created."),
        )
        return redirect("director:seasons")
    context = {
        "seasons": Season.objects.order_by("-created_at", "id"),
        "profiles": offered_rule_profiles(),
        "formats": TournamentFormat.choices,
    }
    return render(request, "director/seasons.html", context)


def _season(slug: str) -> Season:
    season = Season.objects.filter(slug=slug).first()
    if season is None:
        raise Http404("No such season.")
    return season


@director_required
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season(slug)
    if request.method == "POST":
        ids = [i for i in (as_int(v) for v in request.POST.getlist("tournaments")) if i]
        chosen = list(Tournament.objects.filter(pk__in=ids))
        attempt(
            request,
            lambda: season_tournaments_set(
                season=season, tournaments=chosen, recorded_by=request.user
            ),
            _("Tournaments of the season saved; the ladder is recomputed."),
        )
        return redirect("director:season", slug=slug)
    chosen_ids = set(season.tournaments.values_list("pk", flat=True))
    context = {
        "season": season,
        "tournaments": Tournament.objects.order_by("-created_at", "id"),
        "chosen": chosen_ids,
    }
    return render(request, "director/season.html", context)


@director_required
@require_POST
def season_recompute_view(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season(slug)
    seasons_request(season_ids=[season.pk])
    messages.success(request, _("Recompute requested: reload in a moment."))
    return redirect("director:season", slug=slug)


@director_required
@require_POST
def season_close_view(request: HttpRequest, slug: str) -> HttpResponse:
    season = _season(slug)

    def call() -> object:
        confirmed_check(request)
        return season_close(season=season, recorded_by=request.user)

    attempt(request, call, _("Season closed: its ladder is final."))
    return redirect("director:season", slug=slug)


@director_required
def season_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """The season's archive (JSON) or its CSV exports, as a download."""
    season = _season(slug)
    if kind == "archive.json":
        response = HttpResponse(
            json.dumps(season_archive(season=season), ensure_ascii=False, indent=1),
            content_type="application/json; charset=utf-8",
        )
    elif kind in ("ladder.csv", "steps.csv"):
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        write = season_ladder_csv if kind == "ladder.csv" else season_steps_csv
        write(season=season, out=response)
    else:
        raise Http404("No such export.")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-{kind}"'
    return response
