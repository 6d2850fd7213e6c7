"""Standings: the latest snapshot, recompute (the Celery task), publish the final ones."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.director.helpers import attempt, confirmed_check, tournament_or_404
from tournaments.director.signin import director_required
from tournaments.hands.gate import tournament_gate
from tournaments.standings.public_table import final_revision
from tournaments.standings.queries import standings_latest
from tournaments.standings.snapshots import standings_request
from tournaments.tournament.services import tournament_finish, tournament_reopen


@director_required
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    rows = list(standings_latest(tournament=tournament))
    version = rows[0].log_version if rows else None
    context = {
        "tournament": tournament,
        "rows": rows,
        "snapshot_version": version,
        "stale": version is None or version < tournament.log_version or tournament.inputs_changed,
        "revision": final_revision(tournament=tournament),
        "gate": tournament_gate(tournament=tournament),
        "gate_back": "standings",
    }
    return render(request, "director/standings.html", context)


@director_required
@require_POST
def standings_recompute(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    if standings_request(tournament_id=tournament.pk):
        messages.success(request, _("Recompute requested: reload in a moment."))
    else:
        messages.info(request, _("A recompute is already waiting."))
    return redirect("director:standings", slug=slug)


@director_required
@require_POST
def standings_publish(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    attempt(
        request,
        lambda: tournament_finish(tournament=tournament, recorded_by=request.user),
        _("Final standings published."),
    )
    return redirect("director:standings", slug=slug)


@director_required
@require_POST
def standings_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """Reopen the final results for a correction: a reason and a ticked confirmation."""
    tournament = tournament_or_404(slug)

    def reopen() -> object:
        confirmed_check(request)
        return tournament_reopen(
            tournament=tournament,
            reason=request.POST.get("reason", ""),
            recorded_by=request.user,
        )

    attempt(request, reopen, _("The final results are reopened: correct, then publish again."))
    return redirect("director:standings", slug=slug)
