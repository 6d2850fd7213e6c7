"""Export downloads of the director screens: the JSON archive, the hands CSV and the
standings CSV, of the whole tournament or of one round (the files the management commands
``tournament_export`` and ``tournament_export_csv`` write)."""

import io

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.archive.export import archive_dumps, round_archive, tournament_archive
from tournaments.director.helpers import round_or_404, tournament_or_404
from tournaments.director.signin import director_required
from tournaments.models import Tournament
from tournaments.standings.csv_export import hands_csv_write, standings_csv_write
from tournaments.standings.snapshots import standings_snapshot_update

#: The file kinds, as they end the download's address and name.
KINDS = ("archive.json", "hands.csv", "standings.csv")


def _download(text: str, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text.encode("utf-8"), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _export(tournament: Tournament, kind: str, round_number: int | None) -> HttpResponse:
    stem = tournament.slug if round_number is None else f"{tournament.slug}-round-{round_number}"
    if kind == "archive.json":
        data = (
            tournament_archive(tournament=tournament)
            if round_number is None
            else round_archive(tournament=tournament, round_number=round_number)
        )
        return _download(
            archive_dumps(data),
            filename=f"{stem}.json",
            content_type="application/json; charset=utf-8",
        )
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheet programs then read Chinese names
    if kind == "hands.csv":
        hands_csv_write(tournament=tournament, out=out, round_number=round_number)
    else:
        if round_number is None:
            # The standings of the current log version (stored once, as the command does).
            standings_snapshot_update(tournament_id=tournament.pk)
        standings_csv_write(tournament=tournament, out=out, round_number=round_number)
    return _download(
        out.getvalue(), filename=f"{stem}-{kind}", content_type="text/csv; charset=utf-8"
    )


@never_cache
@director_required
@require_GET
def tournament_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    if kind not in KINDS:
        raise Http404("No such export.")
    return _export(tournament, kind, None)


@never_cache
@director_required
@require_GET
def round_export(request: HttpRequest, slug: str, number: int, kind: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    if kind not in KINDS:
        raise Http404("No such export.")
    return _export(tournament, kind, round_.number)
