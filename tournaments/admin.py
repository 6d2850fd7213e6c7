"""Django admin for directors (staff).

Writes that carry invariants go through services: the rule profile change
(frozen once a hand exists) and new hands.  Results and the event log are
read-only here; they are recorded by referees through the result service.
"""

from typing import Any

from django import forms
from django.contrib import admin, messages
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
    Player,
    RefereeAssignment,
    Round,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)
from tournaments.services.hands import hand_create
from tournaments.services.tournaments import tournament_update


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ("player",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
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
class TournamentAdmin(admin.ModelAdmin):
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
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "chinese_name", "club", "external_id")
    search_fields = ("name", "chinese_name", "club", "external_id")


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


class RefereeAssignmentInline(admin.TabularInline):
    model = RefereeAssignment
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "status")
    list_filter = ("status", "tournament")
    inlines = (TableInline, RefereeAssignmentInline)


class SeatInlineForm(forms.ModelForm):
    class Meta:
        model = Seat
        fields = ("position", "entry")

    def clean(self) -> dict[str, Any]:
        """Fill the denormalised ``round`` and check one seat per entry per round."""
        cleaned: dict[str, Any] = super().clean() or {}
        seat = self.instance
        seat.round_id = seat.table.round_id
        entry = cleaned.get("entry")
        if entry is not None and (
            Seat.objects.filter(round_id=seat.round_id, entry=entry).exclude(pk=seat.pk).exists()
        ):
            self.add_error("entry", _("This entry already has a seat in this round."))
        return cleaned


class SeatInline(admin.TabularInline):
    model = Seat
    form = SeatInlineForm
    extra = 0
    autocomplete_fields = ("entry",)


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    show_change_link = True
    fields = ("number", "status", "board", "score_0", "score_1", "score_2")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "number")
    list_filter = ("round__tournament",)
    inlines = (SeatInline, HandInline)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "registration_order", "withdrawn")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("player__name", "player__chinese_name")
    autocomplete_fields = ("player",)


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "number", "seed", "first_bidder")
    list_filter = ("tournament",)
    readonly_fields = ("hand_0", "hand_1", "hand_2", "kitty", "first_bidder")


class HandEventInline(admin.TabularInline):
    """The append-only log: visible, never editable from the admin."""

    model = HandEvent
    extra = 0
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
        if (
            board is not None
            and table is not None
            and board.tournament_id != table.round.tournament_id
        ):
            self.add_error("board", _("The board belongs to another tournament."))
        return cleaned


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    add_form = HandAddForm
    list_display = ("__str__", "status", "landlord_seat", "bid", "score_0", "score_1", "score_2")
    list_filter = ("status", "table__round__tournament")
    inlines = (HandEventInline,)
    add_fields = ("table", "number", "board")
    result_fields = (
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
        "version",
    )

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = self.add_form
        return super().get_form(request, obj, change=change, **kwargs)

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else self.inlines

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.add_fields if obj is None else self.add_fields + self.result_fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [] if obj is None else self.add_fields + self.result_fields

    def save_model(self, request: HttpRequest, obj: Hand, form: Any, change: bool) -> None:
        if change:
            return
        hand = hand_create(table=obj.table, number=obj.number, board=obj.board)
        obj.pk = hand.pk
        obj.refresh_from_db()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or not obj.events.exists()


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    list_display = ("tournament", "log_version", "rank", "entry", "total", "computed_at")
    list_filter = ("tournament",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[StandingSnapshot]:
        return super().get_queryset(request).select_related("tournament", "entry__player")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RefereeAssignment)
class RefereeAssignmentAdmin(admin.ModelAdmin):
    list_display = ("user", "round", "table")
    list_filter = ("round__tournament",)
    autocomplete_fields = ("user",)
