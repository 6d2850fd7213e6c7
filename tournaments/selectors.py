"""Read operations.  Views, templates and the API read through these."""

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Prefetch, Q, QuerySet

from tournaments.models import (
    Entry,
    Hand,
    HandEvent,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.roles import REFEREE_GROUP


def tournament_list_public() -> QuerySet[Tournament]:
    return Tournament.objects.filter(is_public=True).annotate(
        entry_count=Count("entries", distinct=True)
    )


def tournament_list_for_director() -> QuerySet[Tournament]:
    return Tournament.objects.annotate(
        entry_count=Count("entries", distinct=True),
        round_count=Count("rounds", distinct=True),
    )


def tournament_get_public(*, slug: str) -> Tournament | None:
    return Tournament.objects.filter(is_public=True, slug=slug).first()


def tournament_has_hands(*, tournament: Tournament) -> bool:
    """True once any hand exists: from then on the rule profile is frozen."""
    return Hand.objects.filter(table__round__tournament=tournament).exists()


def entry_next_registration_order(*, tournament: Tournament) -> int:
    last = Entry.objects.filter(tournament=tournament).aggregate(last=Max("registration_order"))
    return (last["last"] or 0) + 1


def entry_list(*, tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player")


def round_list_with_tables(*, tournament: Tournament) -> QuerySet[Round]:
    """Rounds with tables, seated players and hands, for one page render."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    hands = Hand.objects.select_related("board").order_by("number")
    tables = Table.objects.order_by("number").prefetch_related(
        Prefetch("seats", queryset=seats), Prefetch("hands", queryset=hands)
    )
    return (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .prefetch_related(Prefetch("tables", queryset=tables))
    )


def hand_event_list(*, hand: Hand) -> QuerySet[HandEvent]:
    return HandEvent.objects.filter(hand=hand).order_by("seq")


def referee_assignment_list(*, user: Any) -> QuerySet[RefereeAssignment]:
    return RefereeAssignment.objects.filter(user=user).select_related("round__tournament", "table")


def user_list_assignable() -> QuerySet[Any]:
    """Active referees and directors: the users a round or table can be assigned to."""
    return (
        get_user_model()
        .objects.filter(Q(is_staff=True) | Q(groups__name=REFEREE_GROUP), is_active=True)
        .distinct()
        .order_by("username")
    )
