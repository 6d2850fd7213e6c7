"""Shared bits of the director screens: staff only, a tournament from its slug, and a
service call whose refusal is shown as a message."""

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.director import selectors as director_selectors
from tournaments.models import Round, Tournament

T = TypeVar("T")


def tournament_or_404(slug: str) -> Tournament:
    tournament = director_selectors.tournament_get(slug=slug)
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def round_or_404(tournament: Tournament, number: int) -> Round:
    round_ = director_selectors.round_get(tournament=tournament, number=number)
    if round_ is None:
        raise Http404("No such round.")
    return round_


def attempt(request: HttpRequest, call: Callable[[], T], done: str) -> T | None:
    """Run a service call; on success say ``done``, on refusal show the service's message."""
    try:
        result = call()
    except ApplicationError as exc:
        # the rule the refusal names (details.rule: "R7.2: in a spring…") follows the message
        rule = exc.extra.get("rule")
        text = f"{exc.message} — {rule}" if rule else exc.message
        messages.error(request, text, extra_tags=exc.code)
        return None
    messages.success(request, done)
    return result


def confirmed_check(request: HttpRequest) -> None:
    """The confirmation step of an irreversible-looking director action: the form's
    "I confirm" box must be ticked (``confirmation_required`` otherwise)."""
    if not flag(request, "confirm"):
        raise ApplicationError("confirmation_required", _("Tick the confirmation box to go ahead."))


def flag(request: HttpRequest, name: str) -> bool:
    return request.POST.get(name) in ("on", "1", "true")


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
