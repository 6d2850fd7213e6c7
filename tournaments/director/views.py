"""Director (staff) screens: the dashboard and a tournament's settings."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.director import selectors as director_selectors
from tournaments.director.forms import TournamentForm, TournamentSettingsForm
from tournaments.director.helpers import attempt, tournament_or_404
from tournaments.director.signin import director_required
from tournaments.hands.gate import tournament_gate
from tournaments.standings.public_table import criteria_explained
from tournaments.tournament import selectors
from tournaments.tournament import services as tournament_services


@director_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Director (staff) overview of every tournament, public or not."""
    tournaments = selectors.tournament_list_for_director()
    return render(request, "director/dashboard.html", {"tournaments": tournaments})


@director_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        created = attempt(
            request,
            lambda: tournament_services.tournament_create(**form.cleaned_data),
            _("Tournament created."),
        )
        if created is not None:
            return redirect("director:tournament", slug=created.slug)
    context = {"form": form, "criteria": criteria_explained()}
    # A POST that gets here was refused (form or service): 400, the form shows why.
    status = 400 if request.method == "POST" else 200
    return render(request, "director/tournament_form.html", context, status=status)


@director_required
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's settings (edit) and its rounds."""
    tournament = tournament_or_404(slug)
    initial = {
        f: getattr(tournament, f)
        for f in (
            "name",
            "slug",
            "rule_profile",
            "format",
            "hands_per_round",
            "rounds_planned",
            "stake_cap",
            "requires_confirmation",
            "confirmed_by",
            "separate_clubs",
            "is_public",
        )
    }
    initial["tiebreaks"] = ", ".join(tournament.tiebreaks)
    form = TournamentSettingsForm(request.POST or None, initial=initial)
    form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k not in ("slug", "change_reason")}
        reason = form.cleaned_data["change_reason"].strip()
        if attempt(
            request,
            lambda: tournament_services.tournament_update(
                tournament=tournament, reason=reason, recorded_by=request.user, **data
            ),
            _("Saved."),
        ):
            return redirect("director:tournament", slug=slug)
    context = {
        "tournament": tournament,
        "form": form,
        "rounds": tournament.rounds.all(),
        "criteria": criteria_explained(),
        "history": director_selectors.tournament_history(tournament=tournament),
        "gate": tournament_gate(tournament=tournament),
        "gate_back": "tournament",
    }
    status = 400 if request.method == "POST" else 200  # refused: the form shows why
    return render(request, "director/tournament.html", context, status=status)
