"""Rounds: seat with the engine (preview + explanation), override a seat with a reason,
start, close; referee accounts, assignments and their one-time sign-in links; printouts."""

from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from referee.rules import get_profile
from tournaments.common.errors import ApplicationError
from tournaments.common.seats import seat_positions
from tournaments.director import selectors as director_selectors
from tournaments.director.helpers import (
    as_int,
    attempt,
    confirmed_check,
    flag,
    round_or_404,
    tournament_or_404,
)
from tournaments.director.signin import director_required
from tournaments.hands.gate import round_gate
from tournaments.models import Entry, RefereeAssignment, Seat, Table
from tournaments.rounds import services as round_services
from tournaments.rounds.login_links import link_path
from tournaments.rounds.referees import (
    referee_account_assign,
    referee_password_set,
    referee_tokens_revoke,
)
from tournaments.seating import services as seating_services
from tournaments.tournament import selectors


@director_required
@require_POST
def round_create(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_or_404(slug)
    created = attempt(
        request, lambda: round_services.round_create(tournament=tournament), _("Round added.")
    )
    if created is not None:
        return redirect("director:round", slug=slug, number=created.number)
    return redirect("director:tournament", slug=slug)


def _referee_links(request: HttpRequest, round_: Any) -> list[dict[str, Any]]:
    """Each referee of the round with a one-time sign-in link and its QR code (the same
    link), or, for an account that is not a plain referee account, the refusal instead."""
    out = []
    seen = set()
    for assignment in director_selectors.round_referees(round=round_):
        user = assignment.user
        row: dict[str, Any] = {"assignment": assignment, "url": None, "qr": None}
        try:
            url = request.build_absolute_uri(link_path(user=user))
        except ApplicationError as exc:
            row["refused"] = exc
            out.append(row)
            continue
        row["url"] = url
        if user.pk not in seen:
            row["qr"] = mark_safe(segno.make(url, error="m").svg_inline(scale=3))
            seen.add(user.pk)
        out.append(row)
    return out


@never_cache  # it carries live sign-in links: kept in no cache
@director_required
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    preview = None
    if "preview" in request.GET:
        seed = as_int(request.GET.get("seed"))
        preview = attempt(
            request,
            lambda: seating_services.round_seat_preview(round=round_, seed=seed),
            _("Preview only: nothing is written until you seat the round."),
        )
    context = {
        "tournament": tournament,
        "round": round_,
        "preview": preview,
        "seating_explanation": director_selectors.seating_explanation_text(round=round_),
        "entry_names": {
            e.pk: str(e.player)
            for e in director_selectors.entries_for_director(tournament=tournament)
        },
        "tables": director_selectors.round_tables(round=round_),
        "entries": director_selectors.entries_for_director(tournament=tournament).filter(
            withdrawn=False
        ),
        "referees": _referee_links(request, round_),
        "round_referees": [
            r for r in director_selectors.round_referees(round=round_) if r.table_id is None
        ],
        "unrefereed": round_services.round_tables_unrefereed(round=round_),
        "byes": selectors.round_byes(round=round_),
        "rounds_made": selectors.rounds_made(tournament=tournament),
        "assignable": selectors.user_list_assignable(),
        "link_hours": settings.REFEREE_LINK_HOURS,
        "gate": round_gate(round=round_),
        "gate_back": "round",
        "token_hours": settings.REFEREE_SESSION_HOURS,
    }
    return render(request, "director/round.html", context)


@director_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """seat / override / start / close / reopen / referee / referee_password /
    referee_tokens / add_hand: each one service call."""
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    post = request.POST
    user = request.user
    if action == "seat":
        seed = as_int(post.get("seed"))
        attempt(
            request,
            lambda: seating_services.round_seat(round=round_, seed=seed, recorded_by=user),
            _("Round seated."),
        )
    elif action == "override":
        seat = get_object_or_404(Seat, pk=as_int(post.get("seat")) or 0, round=round_)
        entry = get_object_or_404(Entry, pk=as_int(post.get("entry")) or 0, tournament=tournament)
        attempt(
            request,
            lambda: seating_services.seat_override(
                seat=seat, entry=entry, reason=post.get("reason", ""), recorded_by=user
            ),
            _("Seat changed."),
        )
    elif action == "start":
        # a table no referee covers is refused until the director confirms (the round page
        # warns and offers the box): its hands would show on no referee's phone
        attempt(
            request,
            lambda: round_services.round_start(
                round=round_, recorded_by=user, referees_required=not flag(request, "confirm")
            ),
            _("Round started."),
        )
    elif action == "close":
        attempt(
            request,
            lambda: round_services.round_close(
                round=round_,
                recorded_by=user,
                force=flag(request, "force"),
                reason=post.get("reason", ""),
            ),
            _("Round closed."),
        )
    elif action == "reopen":

        def reopen() -> object:
            confirmed_check(request)
            return round_services.round_reopen(
                round=round_, reason=post.get("reason", ""), recorded_by=user
            )

        attempt(request, reopen, _("Round reopened."))
    elif action == "referee":
        _referee_assign(request, round_, post)
    elif action == "referee_password":

        def password() -> object:
            confirmed_check(request)
            return referee_password_set(
                username=post.get("username", ""),
                password=post.get("password", ""),
                password_again=post.get("password_again", ""),
                recorded_by=user,
            )

        if attempt(request, password, _("Password set.")) is not None:
            messages.warning(
                request,
                _(
                    "%(username)s is signed out of every phone and browser: they sign in "
                    "again with the new password or a sign-in link."
                )
                % {"username": post.get("username", "").strip()},
            )
    elif action == "referee_tokens":

        def revoke() -> object:
            confirmed_check(request)
            return referee_tokens_revoke(username=post.get("username", ""), recorded_by=user)

        attempt(request, revoke, _("API tokens revoked: the referee's apps must sign in again."))
    elif action == "add_hand":
        table = get_object_or_404(Table, pk=as_int(post.get("table")) or 0, round=round_)
        attempt(
            request,
            lambda: round_services.table_hand_add(
                table=table, reason=post.get("reason", ""), recorded_by=user
            ),
            _("One more hand allowed at the table."),
        )
    return redirect("director:round", slug=slug, number=number)


def _referee_assign(request: HttpRequest, round_: Any, post: Any) -> None:
    table_id = as_int(post.get("table"))
    table = get_object_or_404(Table, pk=table_id, round=round_) if table_id else None
    username = (post.get("username") or "").strip()
    done = attempt(
        request,
        lambda: referee_account_assign(round=round_, username=username, table=table),
        _("Referee assigned."),
    )
    if done is not None and done[1]:
        messages.success(request, _("Referee account created."))


@director_required
def round_print(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Table cards, the seating sheet and score slips, ready to print."""
    tournament = tournament_or_404(slug)
    round_ = round_or_404(tournament, number)
    profile = get_profile(tournament.rule_profile)
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": director_selectors.round_tables(round=round_),
        "hand_numbers": range(1, tournament.hands_per_round + 1),
        "positions": seat_positions(tournament.rule_profile),
        "assignments": RefereeAssignment.objects.none(),
        "byes": selectors.round_byes(round=round_),
        # the score slip's columns follow the rules: no doubling in four_p, bombs by class
        # (and the rocket, ×4) in laizi
        "has_doubling": profile.has_doubling,
        "wild_cards": profile.wild_cards,
        # Big Three: no bombs at all (R12.9); the digger (挖坑者), the bid and the winner
        "has_bombs": profile.game != "big3",
        # six players: no bid; the partner card called and the partner (R13.4, R13.8)
        "six_players": profile.game == "six_p",
    }
    return render(request, "director/round_print.html", context)
