"""Django admin for directors (staff users, see ``tournaments.roles``).

Directors use every page here without per-model permissions.  Writes that carry
invariants go through services or their checks: the rule profile change (frozen
once a hand exists), new boards (dealt from their seed), new hands, seats and
referee assignments.  Boards and hands are read-only once created; results and
the event log are recorded by referees through the result service.
"""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.errors import ApplicationError
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Penalty,
    Player,
    RefereeAssignment,
    Round,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)
from tournaments.roles import user_is_director
from tournaments.services.boards import board_create
from tournaments.services.hands import hand_board_check, hand_create
from tournaments.services.rounds import referee_assignment_check, seat_check
from tournaments.services.tournaments import tournament_update


class DirectorModelAdmin(admin.ModelAdmin):
    """A model admin that every director may use (subclasses may refuse more)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return user_is_director(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return user_is_director(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)


class DirectorInline(admin.TabularInline):
    """An inline that every director may use (subclasses may refuse more)."""

    extra = 0

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return user_is_director(request.user)


class CreatedByServiceAdmin(DirectorModelAdmin):
    """Rows created by a service and read-only afterwards: the add page shows
    ``add_fields``; the (view-only) change page shows those and ``shown_fields``."""

    add_fields: tuple[str, ...] = ()
    shown_fields: tuple[str, ...] = ()

    #: Each subclass defines it: create the row (through its service) from the unsaved ``obj``
    #: that the add form built.
    create: Callable[[Any], models.Model]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.add_fields if obj is None else self.add_fields + self.shown_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.add_fields + self.shown_fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        obj.pk = self.create(obj).pk
        obj.refresh_from_db()


def add_check_error(
    form: forms.BaseForm, field: str, check: Callable[..., None], **kwargs: Any
) -> None:
    """Run a service check; its refusal becomes an error on ``field``."""
    try:
        check(**kwargs)
    except ApplicationError as exc:
        form.add_error(field, forms.ValidationError(exc.message, code=exc.code))


class EntryInline(DirectorInline):
    model = Entry
    autocomplete_fields = ("player",)


class RoundInline(DirectorInline):
    model = Round
    show_change_link = True


class TournamentAdminForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = (
            "name",
            "slug",
            "rule_profile",
            "format",
            "status",
            "hands_per_round",
            "is_public",
        )

    def clean_rule_profile(self) -> str:
        value: str = self.cleaned_data["rule_profile"]
        instance = self.instance
        if (
            instance.pk
            and value != instance.rule_profile
            and selectors.tournament_has_hands(tournament=instance)
        ):
            raise forms.ValidationError(
                _("The rule profile cannot change once a hand has been recorded.")
            )
        return value


@admin.register(Tournament)
class TournamentAdmin(DirectorModelAdmin):
    form = TournamentAdminForm
    list_display = ("name", "slug", "rule_profile", "format", "status", "is_public")
    list_filter = ("status", "format", "rule_profile", "is_public")
    search_fields = ("name", "slug")
    inlines = (EntryInline, RoundInline)

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        return {"slug": ("name",)}

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change or "rule_profile" not in form.changed_data:
            super().save_model(request, obj, form, change)
            return
        try:
            tournament_update(tournament=obj, rule_profile=obj.rule_profile)
        except ApplicationError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)
            return
        super().save_model(request, obj, form, change)


@admin.register(Player)
class PlayerAdmin(DirectorModelAdmin):
    list_display = ("name", "chinese_name", "club", "external_id")
    search_fields = ("name", "chinese_name", "club", "external_id")


class TableInline(DirectorInline):
    model = Table
    show_change_link = True


class RefereeAssignmentForm(forms.ModelForm):
    """Only referees and directors, and only tables of the assignment's round."""

    class Meta:
        model = RefereeAssignment
        fields = ("round", "table", "user")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        user_field = self.fields["user"]
        assert isinstance(user_field, forms.ModelChoiceField)
        user_field.queryset = selectors.user_list_assignable()

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        round_, user = cleaned.get("round"), cleaned.get("user")
        if round_ is not None and user is not None:
            add_check_error(
                self,
                "user" if cleaned.get("table") is None else "table",
                referee_assignment_check,
                round=round_,
                user=user,
                table=cleaned.get("table"),
            )
        return cleaned


class RefereeAssignmentInline(DirectorInline):
    model = RefereeAssignment
    form = RefereeAssignmentForm


@admin.register(Round)
class RoundAdmin(DirectorModelAdmin):
    list_display = ("__str__", "tournament", "number", "status")
    list_filter = ("status", "tournament")
    inlines = (TableInline, RefereeAssignmentInline)


class SeatInlineForm(forms.ModelForm):
    class Meta:
        model = Seat
        fields = ("position", "entry")

    def clean(self) -> dict[str, Any]:
        """Fill the denormalised ``round``; one seat per entry per round, and only
        entries of the table's tournament that have not withdrawn."""
        cleaned: dict[str, Any] = super().clean() or {}
        seat = self.instance
        table = cleaned.get("table") or seat.table  # the parent (inline foreign key)
        seat.round_id = table.round_id
        entry = cleaned.get("entry")
        if entry is None:
            return cleaned
        if Seat.objects.filter(round_id=seat.round_id, entry=entry).exclude(pk=seat.pk).exists():
            self.add_error("entry", _("This entry already has a seat in this round."))
        else:
            add_check_error(self, "entry", seat_check, table=table, entry=entry)
        return cleaned


class SeatInline(DirectorInline):
    model = Seat
    form = SeatInlineForm
    autocomplete_fields = ("entry",)


class HandInline(DirectorInline):
    model = Hand
    show_change_link = True
    fields = ("number", "status", "board", "score_0", "score_1", "score_2")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(DirectorModelAdmin):
    list_display = ("__str__", "round", "number")
    list_filter = ("round__tournament",)
    inlines = (SeatInline, HandInline)


@admin.register(Entry)
class EntryAdmin(DirectorModelAdmin):
    list_display = ("__str__", "tournament", "registration_order", "withdrawn")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("player__name", "player__chinese_name")
    autocomplete_fields = ("player",)


@admin.register(Board)
class BoardAdmin(CreatedByServiceAdmin):
    """A board is dealt from its seed by the service and never changes."""

    list_display = ("__str__", "tournament", "number", "seed", "first_bidder")
    list_filter = ("tournament",)
    add_fields = ("tournament", "number", "seed")
    shown_fields = ("hand_0", "hand_1", "hand_2", "kitty", "first_bidder")

    def create(self, obj: Board) -> Board:
        return board_create(tournament=obj.tournament, number=obj.number, seed=obj.seed)


class HandEventInline(DirectorInline):
    """The append-only log: visible, never editable from the admin."""

    model = HandEvent
    can_delete = False
    fields = ("seq", "kind", "payload", "actor_seat", "recorded_by", "recorded_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class HandAddForm(forms.ModelForm):
    class Meta:
        model = Hand
        fields = ("table", "number", "board")

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        table, board = cleaned.get("table"), cleaned.get("board")
        if board is not None and table is not None:
            add_check_error(self, "board", hand_board_check, table=table, board=board)
        return cleaned


@admin.register(Hand)
class HandAdmin(CreatedByServiceAdmin):
    """Hands are started by the service; the result and the log are read-only here."""

    form = HandAddForm
    list_display = ("__str__", "status", "landlord_seat", "bid", "score_0", "score_1", "score_2")
    list_filter = ("status", "table__round__tournament")
    inlines = (HandEventInline,)
    add_fields = ("table", "number", "board")
    shown_fields = (
        "status",
        "rule_profile",
        "rule_profile_hash",
        "deal",
        "landlord_seat",
        "bid",
        "winner",
        "doubled_0",
        "doubled_1",
        "doubled_2",
        "redoubled",
        "bombs",
        "rockets",
        "spring",
        "anti_spring",
        "score_0",
        "score_1",
        "score_2",
        "confirmation",
        "physical_cards",
        "first_bidder",
        "seed",
        "version",
    )

    def create(self, obj: Hand) -> Hand:
        return hand_create(table=obj.table, number=obj.number, board=obj.board)

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.inlines

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Only a hand without events: the log is never deleted."""
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or not obj.events.exists())


@admin.register(Penalty)
class PenaltyAdmin(DirectorModelAdmin):
    """Read-only: penalties are recorded and revoked through the services (the API)."""

    list_display = ("tournament", "entry", "points", "reason", "hand", "recorded_at", "revoked_at")
    list_filter = ("tournament",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Penalty]:
        return super().get_queryset(request).select_related("tournament", "entry__player", "hand")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(DirectorModelAdmin):
    list_display = ("tournament", "log_version", "rank", "entry", "total", "computed_at")
    list_filter = ("tournament",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[StandingSnapshot]:
        return super().get_queryset(request).select_related("tournament", "entry__player")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RefereeAssignment)
class RefereeAssignmentAdmin(DirectorModelAdmin):
    form = RefereeAssignmentForm
    list_display = ("user", "round", "table")
    list_filter = ("round__tournament",)
