"""The players confirm a hand on the referee's phone (Bridgemate style): a server-rendered
page, no console script. The referee hands the phone round; one player of each side types
the PIN printed on their entry's table card (``hand_confirmation.hand_confirm_by_pins``).
"""

import re
import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from tournaments.common import access
from tournaments.common.errors import ApplicationError
from tournaments.director import selectors as director_selectors
from tournaments.hands import confirmation as hand_confirmation
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.gate import hand_desk_state
from tournaments.models import Hand, Seat

_PIN = re.compile(r"^[0-9]{4}$")
_KEY = re.compile(r"^[A-Za-z0-9_.:\-]{1,128}$")

#: The page's answer to each refusal (the API's codes; a wrong PIN is not a server error).
_STATUS = {
    "not_authenticated": 401,
    "not_assigned": 403,
    "permission_denied": 403,
    "pin_wrong": 403,
    "pins_locked": 423,
    "confirmed_by_official": 409,
    "not_awaiting_confirmation": 409,
    "round_not_playing": 409,
    "version_conflict": 409,
    "idempotency_conflict": 409,
}


@never_cache
@sensitive_post_parameters("pin_0", "pin_1", "pin_2")
@login_required(login_url=reverse_lazy("referee:login"))
def hand_confirm_pins(request: HttpRequest, hand_id: int) -> HttpResponse:
    """GET: the hand's result and a PIN field per seat. POST: confirm with the PINs."""
    found = hand_selectors.hand_get_for_write(hand_id=hand_id, user=request.user)
    if found is None:
        raise Http404("No such hand.")
    hand, assigned = found
    context: dict[str, Any] = {"hand": hand, "key": f"pins-{uuid.uuid4()}"}
    try:
        access.table_write_check(user=request.user, table=hand.table, live=False, assigned=assigned)
    except ApplicationError as exc:
        return _refused(request, context, exc)
    if request.method == "POST":
        try:
            pins = _pins(request, hand)
            key = request.POST.get("idempotency_key", "")
            hand = hand_confirmation.hand_confirm_by_pins(
                hand=hand,
                pins=pins,
                recorded_by=request.user,
                idempotency_key=key if _KEY.match(key) else None,
                device_id="confirm-page",
            ).hand
        except ApplicationError as exc:
            return _refused(request, _page(context, hand), exc)
        context["done"] = True
        hand.refresh_from_db()
    return render(request, "referee/confirm.html", _page(context, hand))


def _pins(request: HttpRequest, hand: Hand) -> dict[int, str]:
    pins = {}
    for position in range(hand.seats):
        value = request.POST.get(f"pin_{position}", "").strip()
        if value == "":
            continue
        if not _PIN.match(value):
            raise ApplicationError("validation", _("A PIN is 4 digits."))
        pins[position] = value
    return pins


def _page(context: dict[str, Any], hand: Hand) -> dict[str, Any]:
    seats = list(
        Seat.objects.filter(table_id=hand.table_id)
        .select_related("entry__player")
        .order_by("position")
    )
    return {
        **context,
        "hand": hand,
        "seats": seats,
        "seat_scores": [(seat, hand.score_of(seat.position)) for seat in seats],
        "state": hand_desk_state(hand),
        "confirmed_by": director_selectors.confirmers(hands=[hand]).get(hand.pk, ""),
        "players_confirm": hand.table.round.tournament.confirmed_by == "players",
    }


def _refused(request: HttpRequest, context: dict[str, Any], exc: ApplicationError) -> HttpResponse:
    context = {**context, "error": exc.message, "code": exc.code}
    if "seats" not in context:  # refused before the page was built: show nothing of it
        return render(request, "referee/confirm_refused.html", context, status=_status(exc))
    return render(request, "referee/confirm.html", context, status=_status(exc))


def _status(exc: ApplicationError) -> int:
    return _STATUS.get(exc.code, 400)
