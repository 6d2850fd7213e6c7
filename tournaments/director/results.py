"""The results desk: every table of a round with its state; a hand with its log, and its
correction, voiding and penalties (each a service call with a reason)."""

import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from referee.rules.profiles import get_profile
from tournaments.director import selectors as director_selectors
from tournaments.director.forms import CorrectionForm, PenaltyForm, ReasonForm
from tournaments.director.helpers import (
    as_int,
    attempt,
    confirmed_check,
    round_or_404,
    tournament_or_404,
)
from tournaments.director.signin import director_required
from tournaments.hands import confirmation as hand_confirmation
from tournaments.hands import corrections as hand_corrections
from tournaments.hands import exclusions
from tournaments.hands import selectors as hand_selectors
from tournaments.hands import write as hands
from tournaments.hands.gate import hand_desk_state, round_gate
from tournaments.hands.write import passed_out_possible, result_entry_fields
from tournaments.models import Entry, Hand, Penalty, Table, Tournament
from tournaments.tournament import penalties


def _desk_context(slug: str, number: int) -> dict[str, Any]:
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    desk = director_selectors.results_desk(round=round_)
    return {
        "tournament": tournament,
        "round": round_,
        "desk": desk,
        "awaiting": director_selectors.awaiting_confirmation(round=round_),
        "gate": round_gate(round=round_),
        "gate_back": "desk",
        # hands whose written-in deal failed its check: not counted until a director decides
        "irregular": {
            line.hand.pk
            for row in desk
            for line in row.lines
            if line.hand is not None and line.state == "irregular"
        },
    }


@director_required
def results_desk(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The desk; its table refreshes by itself (``director/desk.js`` polls the fragment)."""
    return render(request, "director/results.html", _desk_context(slug, number))


@director_required
def results_desk_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The desk's tables alone, for the page to poll."""
    response = render(request, "director/_desk.html", _desk_context(slug, number))
    response["Cache-Control"] = "no-store"
    return response


#: Where the exclusion form sends the director back to: the page it was on.
_GATE_PAGES = {
    "desk": "director:results",
    "standings": "director:standings",
    "tournament": "director:tournament",
}


@director_required
@require_POST
def hand_exclude(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Exclude a hand the results gate lists, with a reason (``hand_exclude``)."""
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    table = get_object_or_404(Table, pk=as_int(request.POST.get("table")) or 0, round=round_)
    hand_number = as_int(request.POST.get("hand"))
    attempt(
        request,
        lambda: exclusions.hand_exclude(
            table=table,
            number=hand_number,
            reason=request.POST.get("reason", ""),
            recorded_by=request.user,
        ),
        _("Table %(table)s, hand %(hand)s excluded.")
        % {"table": table.number, "hand": hand_number},
    )
    page = _GATE_PAGES.get(request.POST.get("back", ""), "director:round")
    if page in ("director:standings", "director:tournament"):
        return redirect(page, slug=slug)
    return redirect(page, slug=slug, number=number)


@director_required
@require_POST
def table_confirm(request: HttpRequest, slug: str, number: int, table_id: int) -> HttpResponse:
    """Confirm every hand of a table awaiting confirmation at once; any refused is named."""
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    table = get_object_or_404(Table, pk=table_id, round=round_)
    done = hand_confirmation.table_hands_confirm(
        hands=list(table.hands.all()), recorded_by=request.user
    )
    if done.confirmed:
        messages.success(
            request,
            ngettext(
                "Table %(table)s: %(count)d hand confirmed.",
                "Table %(table)s: %(count)d hands confirmed.",
                len(done.confirmed),
            )
            % {"table": table.number, "count": len(done.confirmed)},
        )
    for hand, exc in done.refused:
        messages.error(request, f"{_('Hand')} {hand.number}: {exc.message}", extra_tags=exc.code)
    if not done.confirmed and not done.refused:
        messages.info(request, _("No hand of this table awaits confirmation."))
    return redirect("director:results", slug=slug, number=number)


def _hand(slug: str, hand_id: int) -> tuple[Tournament, Hand]:
    tournament = tournament_or_404(slug)
    hand = director_selectors.hand_for_director(tournament=tournament, hand_id=hand_id)
    if hand is None:
        raise Http404("No such hand.")
    return tournament, hand


@director_required
def hand_detail(request: HttpRequest, slug: str, hand_id: int) -> HttpResponse:
    tournament, hand = _hand(slug, hand_id)
    detail = hand_selectors.hand_detail(hand=hand, show_cards=True, audit=True)
    initial = CorrectionForm.initial_of(detail)
    context = {
        "tournament": tournament,
        "hand": hand,
        "desk_state": hand_desk_state(hand),
        "confirmed_by": director_selectors.confirmers(hands=[hand]).get(hand.pk, ""),
        "detail": detail,
        "log": director_selectors.hand_log(events=detail["events"], profile_key=hand.rule_profile),
        "seats": list(hand.table.seats.select_related("entry__player").order_by("position")),
        "correct_form": CorrectionForm(initial=initial, **_correction_kwargs(hand)),
        "passed_out_possible": passed_out_possible(hand.rule_profile),
        # the result as it stands, for the page's "old → new" preview (data- attributes)
        "current": initial,
        "closed": hand.status in ("finished", "passed_out"),
        "result_only_open": detail["mode"] == "result_only" and detail["status"] == "bidding",
        "void_form": ReasonForm(),
        "penalty_form": PenaltyForm(),
        "penalties": Penalty.objects.filter(hand=hand).select_related(
            "entry__player", "revoked_by"
        ),
    }
    return render(request, "director/hand.html", context)


#: The hand actions that take only a reason: the service, and what the desk says when done.
_REASONED: dict[str, tuple[Any, Any]] = {
    "dispute": (hand_confirmation.hand_dispute, _lazy("Hand disputed.")),
    "keep": (hand_corrections.hand_irregular_keep, _lazy("Hand kept as played.")),
    "void": (hand_corrections.hand_void, _lazy("Hand voided.")),
}


def _correction_kwargs(hand: Hand) -> dict[str, Any]:
    """The correction form of ``hand``: its seats, the result's fields its rules ask, and
    whether it can be passed out (not in Big Three)."""
    return {
        "seats": hand.seats,
        "result_fields": result_entry_fields(hand.rule_profile),
        "passed_out": passed_out_possible(hand.rule_profile),
        "big3": get_profile(hand.rule_profile).game == "big3",
    }


@director_required
@require_POST
def hand_action(request: HttpRequest, slug: str, hand_id: int, action: str) -> HttpResponse:
    """confirm / dispute / correct / passed_out / keep / void / penalty / revoke (a
    penalty), with a fresh idempotency key per form. ``back=desk``: answer with the desk."""
    tournament, hand = _hand(slug, hand_id)
    key = request.POST.get("idempotency_key") or f"director-{uuid.uuid4()}"
    user = request.user
    if action == "confirm":
        attempt(
            request,
            lambda: hand_confirmation.hand_confirm(
                hand=hand, recorded_by=user, idempotency_key=key
            ),
            _("Hand confirmed."),
        )
    elif action == "correct":
        form: Any = CorrectionForm(request.POST, **_correction_kwargs(hand))
        if form.is_valid():
            data = form.result_fields()
            attempt(
                request,
                lambda: hand_corrections.hand_result_correct(
                    hand=hand, recorded_by=user, idempotency_key=key, **data
                ),
                _("Result corrected."),
            )
        else:
            _form_errors(request, form)
    elif action == "passed_out":
        attempt(
            request,
            lambda: hands.hand_record_passed_out(hand=hand, recorded_by=user, idempotency_key=key),
            _("Recorded as passed out (0 for every seat)."),
        )
    elif action in _REASONED:
        service, done = _REASONED[action]
        form = ReasonForm(request.POST)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            attempt(
                request,
                lambda: service(hand=hand, reason=reason, recorded_by=user, idempotency_key=key),
                done,
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
    else:
        raise Http404("No such action.")
    if request.POST.get("back") == "desk":
        return redirect("director:results", slug=slug, number=hand.table.round.number)
    return redirect("director:hand", slug=slug, hand_id=hand.pk)


def _form_errors(request: HttpRequest, form: Any) -> None:
    for field, errors in form.errors.items():
        messages.error(
            request,
            f"{form.fields[field].label if field in form.fields else ''}: {' '.join(errors)}",
        )
