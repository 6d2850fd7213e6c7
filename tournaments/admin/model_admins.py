"""Django admin for directors (staff users, see ``tournaments.common.roles``).

Directors use every page here without per-model permissions.  Writes that carry
invariants go through services or their checks: the rule profile change (frozen
once a hand exists), new boards (dealt from their seed), new hands, seats and
referee assignments.  Boards and hands are read-only once created; results and
the event log are recorded by referees through the result service.
"""

from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import models, transaction
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from tournaments.admin import users  # noqa: F401  (registers the user admin)
from tournaments.admin.safety import DatabaseRefusalMixin, SafeAutocompleteMixin
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director
from tournaments.common.seat_names import seat_name
from tournaments.director.selectors import seating_explanation_text
from tournaments.hands.boards import board_create
from tournaments.hands.write import hand_board_check, hand_create
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    Penalty,
    Player,
    RefereeAssignment,
    Round,
    RoundBoard,
    RoundBye,
    RoundLog,
    Seat,
    StandingSnapshot,
    Table,
    Tournament,
)
from tournaments.rounds.services import (
    referee_assignment_check,
    round_close,
    round_create,
    round_reopen,
    round_start,
    table_create,
    table_move,
    table_move_check,
)
from tournaments.seating.services import round_seat, round_seat_preview, table_seats_set
from tournaments.tournament import selectors
from tournaments.tournament.services import LOGGED_SETTINGS, tournament_update
from tournaments.tournament.withdrawals import entry_withdraw


class DirectorModelAdmin(DatabaseRefusalMixin, SafeAutocompleteMixin, admin.ModelAdmin):
    """A model admin that every director may use (subclasses may refuse more). A database
    refusal behind a save or delete is an error message, never a 500."""

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


class DirectorInline(SafeAutocompleteMixin, admin.TabularInline):
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


class _DryRun(Exception):
    """Raised to roll back a service call made only to hear whether it refuses."""


def service_refusal(call: Callable[[], object]) -> ApplicationError | None:
    """Run ``call`` in a savepoint that is always rolled back; return its refusal, if any.

    The admin checks a change with the very service that will make it, so no check is
    written twice and a refusal is a form error before anything is saved.
    """
    try:
        with transaction.atomic():
            call()
            raise _DryRun
    except _DryRun:
        return None
    except ApplicationError as exc:
        return exc


def message_refusal(
    model_admin: admin.ModelAdmin, request: HttpRequest, call: Callable[[], object]
) -> bool:
    """Run ``call``; a refusal becomes an error message.  True when it went through."""
    try:
        with transaction.atomic():
            call()
    except ApplicationError as exc:
        model_admin.message_user(request, exc.message, level=messages.ERROR)
        return False
    return True


class EntryInline(DirectorInline):
    """Registration here; withdrawals through the entry's admin action (the service)."""

    model = Entry
    autocomplete_fields = ("player",)
    readonly_fields = ("withdrawn",)


class RoundInline(DirectorInline):
    """Rounds are created, seated, started and closed on the round's own admin."""

    model = Round
    show_change_link = True
    fields = ("number", "status")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
            "separate_clubs",
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
        """Settings changes go through ``tournament_update``: checked, and written to the
        tournament log with who changed what (old → new)."""
        changed = {f: getattr(obj, f) for f in form.changed_data if f in LOGGED_SETTINGS}
        if changed.get("stake_cap", 1) is None:
            changed["stake_cap"] = 0  # removed: tournament_update's None leaves it
        if not change or not changed:
            super().save_model(request, obj, form, change)
            return
        try:
            tournament_update(tournament=obj, recorded_by=request.user, **changed)
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
    """Only plain referee accounts (never staff, superusers or permission holders: issue
    16), and only tables of the assignment's round."""

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

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        if obj is not None:  # only tables of this round
            table_field = formset.form.base_fields["table"]
            assert isinstance(table_field, forms.ModelChoiceField)
            table_field.queryset = Table.objects.filter(round=obj)
        return formset


class ReadOnlyInline(DirectorInline):
    """Rows written by services, shown on their parent's page."""

    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundByeInline(ReadOnlyInline):
    model = RoundBye
    fields = ("entry",)


class RoundBoardInline(ReadOnlyInline):
    model = RoundBoard
    fields = ("section", "hand_number", "board")


class RoundLogInline(ReadOnlyInline):
    model = RoundLog
    fields = ("recorded_at", "kind", "reason", "payload", "recorded_by")


class RoundActionForm(forms.Form):
    """What an action on rounds may ask for: a seed to preview, a reason, a forced close."""

    seed = forms.IntegerField(label=_("seed"), required=False, min_value=0)
    reason = forms.CharField(label=_("reason"), required=False, widget=forms.Textarea)
    force = forms.BooleanField(label=_("close even with unfinished hands"), required=False)


class RoundAddForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = ("tournament", "number")

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        tournament, number = cleaned.get("tournament"), cleaned.get("number")
        if tournament is not None and number is not None:
            refusal = service_refusal(partial(round_create, tournament=tournament, number=number))
            if refusal is not None:
                raise forms.ValidationError(refusal.message, code=refusal.code)
        return cleaned


@admin.register(Round)
class RoundAdmin(DirectorModelAdmin):
    """Rounds are created, seated, started, closed and reopened by the services; the
    actions ask for a preview or a reason first."""

    add_form = RoundAddForm

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = self.add_form
        return super().get_form(request, obj, change=change, **kwargs)

    list_display = ("__str__", "tournament", "number", "status", "seed")
    list_filter = ("status", "tournament")
    inlines = (
        TableInline,
        RefereeAssignmentInline,
        RoundByeInline,
        RoundBoardInline,
        RoundLogInline,
    )
    actions = ("seat_action", "start_action", "close_action", "reopen_action")
    shown_fields = ("status", "seed", "how_seated")

    @admin.display(description=_("how the round was seated"))
    def how_seated(self, obj: Round) -> str:
        return seating_explanation_text(round=obj)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (
            ("tournament", "number")
            if obj is None
            else ("tournament", "number", *self.shown_fields)
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return () if obj is None else ("tournament", "number", *self.shown_fields)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return super().get_fieldsets(request, obj)
        description = _(
            "A round stays in its tournament: its hands are played under that tournament's "
            "rule profile, and the database refuses moving a round that has hands."
        )
        return [(None, {"fields": self.get_fields(request, obj), "description": description})]

    def save_model(self, request: HttpRequest, obj: Round, form: Any, change: bool) -> None:
        if change:
            return  # nothing of the round itself is edited here
        obj.pk = round_create(tournament=obj.tournament, number=obj.number).pk
        obj.refresh_from_db()

    def _action_page(
        self, request: HttpRequest, queryset: QuerySet[Round], action: str, title: Any, **extra: Any
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            "rounds": queryset,
            "action": action,
            "form": extra.pop("form", None) or RoundActionForm(),
            **extra,
        }
        return TemplateResponse(request, "admin/tournaments/round/action.html", context)

    @admin.action(description=_("Seat with the engine (preview first)"))
    def seat_action(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        form = RoundActionForm(request.POST if "confirm" in request.POST else None)
        round_ = queryset.order_by("number").first()
        if round_ is None or queryset.count() != 1:
            self.message_user(request, _("Seat one round at a time."), level=messages.ERROR)
            return None
        if form.is_bound and form.is_valid() and form.cleaned_data["seed"] is not None:
            seed = form.cleaned_data["seed"]
            if message_refusal(
                self, request, lambda: round_seat(round=round_, seed=seed, recorded_by=request.user)
            ):
                self.message_user(request, _("%(round)s seated.") % {"round": round_})
            return None
        seed = form.cleaned_data.get("seed") if form.is_bound and form.is_valid() else None
        try:
            preview = round_seat_preview(round=round_, seed=seed)
        except ApplicationError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)
            return None
        return self._action_page(
            request,
            queryset,
            "seat_action",
            _("Seating preview"),
            preview=preview,
            form=RoundActionForm(initial={"seed": preview.seed}),
        )

    @admin.action(description=_("Start"))
    def start_action(self, request: HttpRequest, queryset: QuerySet[Round]) -> None:
        for round_ in queryset.order_by("number"):
            if message_refusal(
                self, request, partial(round_start, round=round_, recorded_by=request.user)
            ):
                self.message_user(request, _("%(round)s started.") % {"round": round_})

    @admin.action(description=_("Close (a reason to force it past unfinished hands)"))
    def close_action(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        if "confirm" not in request.POST:
            return self._action_page(request, queryset, "close_action", _("Close rounds"))
        form = RoundActionForm(request.POST)
        form.is_valid()
        data = form.cleaned_data
        for round_ in queryset.order_by("number"):
            if message_refusal(
                self,
                request,
                partial(
                    round_close,
                    round=round_,
                    recorded_by=request.user,
                    force=bool(data.get("force")),
                    reason=data.get("reason") or "",
                ),
            ):
                self.message_user(request, _("%(round)s closed.") % {"round": round_})
        return None

    @admin.action(description=_("Reopen (with a reason)"))
    def reopen_action(self, request: HttpRequest, queryset: QuerySet[Round]) -> HttpResponse | None:
        if "confirm" not in request.POST:
            return self._action_page(request, queryset, "reopen_action", _("Reopen rounds"))
        form = RoundActionForm(request.POST)
        form.is_valid()
        reason = form.cleaned_data.get("reason") or ""
        for round_ in queryset.order_by("number"):
            if message_refusal(
                self,
                request,
                partial(round_reopen, round=round_, reason=reason, recorded_by=request.user),
            ):
                self.message_user(request, _("%(round)s reopened.") % {"round": round_})
        return None


class SeatInlineForm(forms.ModelForm):
    """A seat row; changing or removing a filled seat needs a reason."""

    reason = forms.CharField(label=_("reason for a change"), required=False, max_length=500)
    #: Set per table by ``SeatInline.get_formset``: entries are offered from it only.
    tournament_id: int | None = None

    class Meta:
        model = Seat
        fields = ("position", "entry")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entry_field = self.fields["entry"]
        if self.tournament_id is not None and isinstance(entry_field, forms.ModelChoiceField):
            entry_field.queryset = Entry.objects.filter(
                tournament_id=self.tournament_id
            ).select_related("player")

    def validate_unique(self) -> None:
        """Seats change as a whole table (a swap passes through a duplicate position):
        ``table_seats_set`` and the constraints decide."""


class SeatInlineFormSet(BaseInlineFormSet):
    """The table's seats as one change, checked and made by ``table_seats_set``."""

    recorded_by: Any = None

    def desired(self) -> tuple[dict[int, Entry], str]:
        """Position → entry after the change, and the reasons given."""
        seats: dict[int, Entry] = {}
        reasons: list[str] = []
        for form in self.forms:
            cleaned = getattr(form, "cleaned_data", None) or {}
            if cleaned.get("reason"):
                reasons.append(cleaned["reason"].strip())
            if cleaned.get("DELETE") or not cleaned:
                continue
            position, entry = cleaned.get("position"), cleaned.get("entry")
            if position is None or entry is None:
                continue
            if position in seats:
                raise forms.ValidationError(
                    _("Two rows give %(seat)s.") % {"seat": seat_name(position)}
                )
            seats[position] = entry
        return seats, "; ".join(dict.fromkeys(r for r in reasons if r))

    def validate_unique(self) -> None:
        """See ``SeatInlineForm.validate_unique``."""

    def clean(self) -> None:
        super().clean()
        table = self.instance
        if any(self.errors) or table.round_id is None:
            return
        seats, reason = self.desired()

        def change() -> None:
            if table.pk is None:  # a new table: try on a copy, rolled back
                target = Table.objects.create(round_id=table.round_id, number=table.number)
            else:  # as stored: the main form may hold a refused change of round
                target = Table.objects.get(pk=table.pk)
            table_seats_set(table=target, seats=seats, reason=reason, recorded_by=self.recorded_by)

        refusal = service_refusal(change)
        if refusal is not None:
            raise forms.ValidationError(refusal.message, code=refusal.code)

    def save(self, commit: bool = True) -> list[Any]:
        seats, reason = self.desired()
        table_seats_set(
            table=self.instance, seats=seats, reason=reason, recorded_by=self.recorded_by
        )
        self.new_objects, self.changed_objects, self.deleted_objects = [], [], []
        return []


class SeatInline(DirectorInline):
    model = Seat
    form = SeatInlineForm
    formset = SeatInlineFormSet

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        if obj is not None:
            kwargs["form"] = type(
                "SeatInlineForm", (SeatInlineForm,), {"tournament_id": obj.round.tournament_id}
            )
        formset = super().get_formset(request, obj, **kwargs)
        return type(formset.__name__, (formset,), {"recorded_by": request.user})


class HandInline(DirectorInline):
    model = Hand
    show_change_link = True
    fields = ("number", "status", "board", "scores")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableAdminForm(forms.ModelForm):
    """A table moves only to another round of its tournament, and only while empty."""

    class Meta:
        model = Table
        fields = ("round", "number")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        round_field = self.fields["round"]
        if self.instance.pk and isinstance(round_field, forms.ModelChoiceField):
            round_field.queryset = Round.objects.filter(
                tournament_id=self.instance.round.tournament_id
            )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        round_ = cleaned.get("round")
        if self.instance.pk and round_ is not None:
            table = Table.objects.get(pk=self.instance.pk)
            add_check_error(self, "round", table_move_check, table=table, round=round_)
        return cleaned


@admin.register(Table)
class TableAdmin(DirectorModelAdmin):
    form = TableAdminForm
    list_display = ("__str__", "round", "number", "first_bidder")
    list_filter = ("round__tournament",)
    readonly_fields = ("section", "first_bidder")
    inlines = (SeatInline, HandInline)

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None:
            return fieldsets
        description = _(
            "Once a hand has been played here, the table stays in its round and its seats "
            "are frozen: changing a seat's player then is a correction with a reason, which "
            "writes a seat-correction event on every hand of the table and moves their "
            "scores with the seat. The database refuses any other change."
        )
        return [(None, {**fieldsets[0][1], "description": description})]

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        if not change:
            obj.pk = table_create(round=obj.round, number=obj.number).pk
            obj.refresh_from_db()
            return
        if "round" in form.changed_data:
            table_move(table=obj, round=obj.round)
        super().save_model(request, obj, form, change)


@admin.register(Entry)
class EntryAdmin(DirectorModelAdmin):
    list_display = ("__str__", "tournament", "registration_order", "withdrawn")
    list_filter = ("tournament", "withdrawn")
    search_fields = ("player__name", "player__chinese_name")
    autocomplete_fields = ("player",)
    readonly_fields = ("withdrawn",)
    actions = ("withdraw_action",)

    @admin.action(description=_("Withdraw (keeps the results played)"))
    def withdraw_action(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.order_by("pk"):
            if message_refusal(
                self, request, partial(entry_withdraw, entry=entry, recorded_by=request.user)
            ):
                self.message_user(request, _("%(entry)s withdrawn.") % {"entry": entry})


@admin.register(Board)
class BoardAdmin(CreatedByServiceAdmin):
    """A board is dealt from its seed by the service and never changes."""

    list_display = ("__str__", "tournament", "number", "seed", "first_bidder")
    list_filter = ("tournament",)
    add_fields = ("tournament", "number", "seed")
    shown_fields = ("seat_cards", "kitty", "first_bidder")

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


HAND_RESULT_FIELDS = (
    "status",
    "rule_profile",
    "rule_profile_hash",
    "deal",
    "landlord_seat",
    "bid",
    "winner",
    "seats",
    "doubled",
    "redoubled",
    "bombs",
    "rockets",
    "spring",
    "anti_spring",
    "scores",
    "confirmation",
    "physical_cards",
    "first_bidder",
    "seed",
    "version",
)
#: Why a hand's result is read-only here (migration 0010 is the database's side of it).
RESULT_READ_ONLY = {
    "fields": HAND_RESULT_FIELDS,
    "description": _(
        "Read-only: a hand's result, scores and status are what its event log replays to, "
        "so they change only with a new event, e.g. a result correction or a void with a "
        "reason (referee console or API). The database refuses any other change, and "
        "scores are zero-sum whenever they are set."
    ),
}


@admin.register(Hand)
class HandAdmin(CreatedByServiceAdmin):
    """Hands are started by the service; the result and the log are read-only here."""

    form = HandAddForm
    list_display = ("__str__", "status", "landlord_seat", "bid", "scores")
    list_filter = ("status", "table__round__tournament")
    inlines = (HandEventInline,)
    add_fields = ("table", "number", "board")
    shown_fields = HAND_RESULT_FIELDS

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return super().get_fieldsets(request, obj)
        return [(None, {"fields": self.add_fields}), (_("Result"), RESULT_READ_ONLY)]

    def create(self, obj: Hand) -> Hand:
        """Without a board given, ``hand_create`` gives a duplicate table its round's board."""
        return hand_create(table=obj.table, number=obj.number, board=obj.board).hand

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
