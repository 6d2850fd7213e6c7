"""Entries: add one, import a CSV (preview first, nothing written until confirmed),
withdraw."""

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import reason_check
from tournaments.director import selectors as director_selectors
from tournaments.director.forms import ImportForm, PlayerForm
from tournaments.director.helpers import attempt, confirmed_check, tournament_or_404
from tournaments.director.signin import director_required
from tournaments.models import Entry
from tournaments.tournament.entry_import import entries_import, entries_import_preview
from tournaments.tournament.players import player_create
from tournaments.tournament.services import entry_create, entry_duplicate_check
from tournaments.tournament.withdrawals import entry_reinstate, entry_withdraw


@director_required
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():

        @transaction.atomic
        def add() -> object:
            data = form.cleaned_data
            entry_duplicate_check(tournament=tournament, name=data["name"], club=data["club"])
            player = player_create(**data)
            return entry_create(tournament=tournament, player=player)

        if attempt(request, add, _("Player registered.")):
            return redirect("director:entries", slug=slug)
    context = {
        "tournament": tournament,
        "form": form,
        "import_form": ImportForm(),
        "entries": director_selectors.entries_for_director(tournament=tournament),
    }
    return render(request, "director/entries.html", context)


@director_required
@require_POST
def entry_withdraw_view(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    reason = request.POST.get("reason", "")

    def withdraw() -> object:
        reason_check(reason)
        confirmed_check(request)
        return entry_withdraw(entry=entry, reason=reason, recorded_by=request.user)

    attempt(request, withdraw, _("Withdrawn."))
    return redirect("director:entries", slug=slug)


@director_required
@require_POST
def entry_reinstate_view(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    entry = get_object_or_404(Entry, pk=entry_id, tournament=tournament)
    reason = request.POST.get("reason", "")

    def reinstate() -> object:
        reason_check(reason)
        confirmed_check(request)
        return entry_reinstate(entry=entry, reason=reason, recorded_by=request.user)

    attempt(request, reinstate, _("Reinstated."))
    return redirect("director:entries", slug=slug)


def _csv_text(request: HttpRequest, form: ImportForm) -> str:
    upload = form.cleaned_data.get("file")
    if upload is not None:
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise ApplicationError("csv_encoding", _("Save the CSV file as UTF-8.")) from exc
    return str(form.cleaned_data.get("text") or "")


@director_required
@require_http_methods(["GET", "HEAD", "POST"])
def entries_import_view(request: HttpRequest, slug: str) -> HttpResponse:
    """``preview`` shows what would happen row by row; ``confirm`` imports the same text.
    Revisited by GET (a reload, the browser's history): back to the import form, saying
    why, rather than a blank 405."""
    tournament = tournament_or_404(slug)
    if request.method != "POST":
        messages.info(request, _("To import players, choose the CSV file again below."))
        return redirect(reverse("director:entries", args=[tournament.slug]) + "#import")
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a CSV file or paste its text."))
        return redirect("director:entries", slug=slug)
    try:
        text = _csv_text(request, form)
        if "confirm" in request.POST:
            rows = entries_import(tournament=tournament, text=text)
            messages.success(
                request,
                ngettext("%(count)s player imported.", "%(count)s players imported.", len(rows))
                % {"count": len(rows)},
            )
            return redirect("director:entries", slug=slug)
        rows = entries_import_preview(tournament=tournament, text=text)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        rows = exc.extra.get("rows", [])  # type: ignore[assignment]
        if not rows:
            return redirect("director:entries", slug=slug)
        rows = entries_import_preview(tournament=tournament, text=text)
    context = {
        "tournament": tournament,
        "rows": rows,
        "text": text,
        "bad": sum(1 for r in rows if r.error),
    }
    return render(request, "director/entries_import.html", context)
