"""The results desk: every table of a round with its state; a hand with its log, and its
correction, voiding and penalties (each a service call with a reason)."""

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import director_selectors, hand_selectors
from tournaments.models import Entry, Hand, Penalty, Tournament
from tournaments.services import hand_corrections, penalties
from tournaments.views.director_common import (
    as_int,
    attempt,
    confirmed_check,
    round_or_404,
    tournament_or_404,
)
from tournaments.views.director_forms import PenaltyForm, ReasonForm, ResultForm


@staff_member_required
def results_desk(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    context = {
        "tournament": tournament,
        "round": round_,
        "desk": director_selectors.results_desk(round=round_),
    }
    return render(request, "director/results.html", context)


def _hand(slug: str, hand_id: int) -> tuple[Tournament, Hand]:
    tournament = tournament_or_404(slug)
    hand = director_selectors.hand_for_director(tournament=tournament, hand_id=hand_id)
    if hand is None:
        raise Http404("No such hand.")
    return tournament, hand


@staff_member_required
def hand_detail(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    tournament, hand = _hand(slug, hand_id)
    detail = hand_selectors.hand_detail(hand=hand, show_cards=True, audit=True)
    initial = {
        "landlord": detail["landlord"] or 0,
        "bid": detail["bid"] or 1,
        "winner": detail["winner"] or "landlord",
        "bombs": detail["bombs"],
        "rockets": detail["rockets"],
    }
    context = {
        "tournament": tournament,
        "hand": hand,
        "detail": detail,
        "seats": list(hand.table.seats.select_related("entry__player").order_by("position")),
        "correct_form": ResultForm(initial=initial),
        "void_form": ReasonForm(),
        "penalty_form": PenaltyForm(),
        "penalties": Penalty.objects.filter(hand=hand).select_related(
            "entry__player", "revoked_by"
        ),
    }
    return render(request, "director/hand.html", context)


@staff_member_required
@require_POST
def hand_action(request: HttpRequest, slug: str, hand_id: int, action: str) -> HttpResponse:
    """correct / void / penalty / revoke (a penalty), with a fresh idempotency key per form."""
    tournament, hand = _hand(slug, hand_id)
    key = request.POST.get("idempotency_key") or f"director-{uuid.uuid4()}"
    user = request.user
    if action == "correct":
        form: Any = ResultForm(request.POST)
        if form.is_valid():
            data = dict(form.cleaned_data)
            doubled = (data.pop("doubled_0"), data.pop("doubled_1"), data.pop("doubled_2"))
            attempt(
                request,
                lambda: hand_corrections.hand_result_correct(
                    hand=hand, doubled=doubled, recorded_by=user, idempotency_key=key, **data
                ),
                _("Result corrected."),
            )
        else:
            _form_errors(request, form)
    elif action == "void":
        form = ReasonForm(request.POST)
        if form.is_valid():
            attempt(
                request,
                lambda: hand_corrections.hand_void(
                    hand=hand,
                    reason=form.cleaned_data["reason"],
                    recorded_by=user,
                    idempotency_key=key,
                ),
                _("Hand voided."),
            )
        else:
            _form_errors(request, form)
    elif action == "penalty":
        form = PenaltyForm(request.POST)
        if form.is_valid():
            # The entry by its registration number, as every screen shows it.
            entry = Entry.objects.filter(
                tournament=tournament, registration_order=form.cleaned_data["entry"]
            ).first()
            if entry is None:
                messages.error(
                    request,
                    _("No entry #%(number)s in this tournament.")
                    % {"number": form.cleaned_data["entry"]},
                    extra_tags="unknown_entry",
                )
                return redirect("director:hand", slug=slug, hand_id=hand.pk)
            attempt(
                request,
                lambda: penalties.penalty_create(
                    entry=entry,
                    points=form.cleaned_data["points"],
                    reason=form.cleaned_data["reason"],
                    hand=hand,
                    recorded_by=user,
                    idempotency_key=key,
                ),
                _("Penalty recorded."),
            )
        else:
            _form_errors(request, form)
    elif action == "revoke":
        form = ReasonForm(request.POST)
        pk = as_int(request.POST.get("penalty"))
        penalty = None
        if pk is not None and 0 < pk < 2**63:  # a bigint: never ask the database to overflow
            penalty = Penalty.objects.filter(hand=hand, pk=pk).first()
        if penalty is None:
            raise Http404("No such penalty.")
        if form.is_valid():

            def revoke() -> object:
                confirmed_check(request)
                return penalties.penalty_revoke(
                    penalty=penalty, reason=form.cleaned_data["reason"], recorded_by=user
                )

            attempt(request, revoke, _("Penalty revoked."))
        else:
            _form_errors(request, form)
    return redirect("director:hand", slug=slug, hand_id=hand.pk)


def _form_errors(request: HttpRequest, form: Any) -> None:
    for field, errors in form.errors.items():
        messages.error(
            request,
            f"{form.fields[field].label if field in form.fields else ''}: {' '.join(errors)}",
        )
