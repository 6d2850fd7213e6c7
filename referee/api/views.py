"""Referee API v1: one view per operation; services write, selectors read.

Permissions are checked by ``tournaments.common.access`` (which answers with stable codes:
``not_authenticated``, ``not_assigned``, ``round_not_playing``…). Every write needs an
``Idempotency-Key``; hand writes may carry ``If-Match`` (the hand version seen) and
``X-Device-Id``.
"""

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView as DrfApiView

from referee.api import serializers as io
from referee.api.idempotency import (
    KeyAnswered,
    NotKept,
    device_id,
    expected_version,
    idempotency_key,
    idempotent_write,
    recorded_answer,
    refusal_answer,
)
from referee.api.parsers import BoundedJSONParser
from referee.api.permissions import TYPED_BY, IsRefereeOrDirector, typist_check
from tournaments.common import access
from tournaments.common.errors import ApplicationError
from tournaments.common.idempotency import idempotency_retry_check
from tournaments.common.roles import user_is_director, user_is_referee
from tournaments.common.transactions import before_commit_run
from tournaments.hands import card_secrecy, table_selectors
from tournaments.hands import confirmation as hand_confirmation
from tournaments.hands import corrections as hand_corrections
from tournaments.hands import selectors as hand_selectors
from tournaments.hands import wild as hand_wild
from tournaments.hands import write as hands
from tournaments.hands.writing import HandWrite, hand_prelocked
from tournaments.models import Board, Entry, Hand, Penalty, Tournament
from tournaments.tournament import penalties, selectors

ERRORS = {
    code: OpenApiResponse(io.ErrorSerializer, description=text)
    for code, text in (
        (400, "validation, too_deep, invalid_unicode, idempotency_key_required, bad_notation…"),
        (401, "not_authenticated"),
        (403, "not_assigned, permission_denied, typist_mismatch"),
        (404, "not_found"),
        (
            409,
            "version_conflict, idempotency_conflict, hand_closed, round_not_playing, "
            "hand_in_progress, round_hands_done…",
        ),
        (413, "too_large"),
        (415, "unsupported_media_type: bodies are JSON"),
        (422, "A rules rejection (SPEC R9.1): out_of_turn, does_not_beat…"),
    )
}
READ_ERRORS = {code: ERRORS[code] for code in (401, 403, 404)}
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Unique per write; a retry with the same key and body answers the original.",
    pattern=r"^[A-Za-z0-9_.:\-]{1,128}$",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    description='The hand version the device saw, e.g. "7"; a newer hand is version_conflict.',
    pattern=r'^(W/)?"?[0-9]{1,9}"?$',
)
DEVICE = OpenApiParameter(
    "X-Device-Id",
    str,
    OpenApiParameter.HEADER,
    description="The device writing (kept in the hand's audit trail).",
    pattern=r"^[ -~]{0,64}$",
)
TYPIST = OpenApiParameter(
    TYPED_BY,
    str,
    OpenApiParameter.HEADER,
    description="The id of the account that typed the write (a client that keeps writes "
    "for later); another account signed in is 403 typist_mismatch, nothing written.",
    pattern=r"^[0-9]{1,19}$",
)


class APIView(DrfApiView):
    """The v1 views: JSON bodies only (what the schema describes); a write typed by another
    account than the one signed in is refused (``typist_check``)."""

    parser_classes = (BoundedJSONParser,)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        typist_check(request)


def _hand(hand_id: int) -> Hand:
    hand = hand_selectors.hand_get(hand_id=hand_id)
    if hand is None:
        raise ApplicationError("not_found", _("No such hand."))
    return hand


def _validated(serializer_class: type[serializers.Serializer], request: Request) -> Any:
    plain = getattr(serializer_class, "plain_validated", None)
    data = request.data
    found = None if plain is None else plain(data)
    if found is not None:
        return found
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _hand_response(request: Request, hand: Hand) -> dict[str, Any]:
    """The hand as JSON-ready data, with its log (``io.HandOutput``), its cards as
    ``card_secrecy`` allows."""
    shown = card_secrecy.hand_cards_shown(user=request.user, hand=hand)
    return hand_selectors.hand_detail(hand=hand, show_cards=shown)


def _hand_write_response(
    request: Request, written: HandWrite, *, writer: bool = True
) -> dict[str, Any]:
    """What a write answers and its idempotency record keeps (``io.HandWriteOutput``,
    checked by the schema tests and schemathesis): the new state and the event written
    under the request's key. ``writer``: the user passed the table's write check (a
    director or the table's referee), so sees the cards of its live hand; a closed hand's
    cards as ``card_secrecy`` allows (a duplicate board's stay hidden until the board is
    released)."""
    if written.hand.board_id is not None:
        # A board's release reads its hands' rows: this write's, put off until the commit
        # (``before_commit``), reaches them first. A hand of no board is answered from
        # what the write computed, with no read.
        before_commit_run()
    shown = card_secrecy.hand_cards_shown(
        user=request.user, hand=written.hand, table_referee=True if writer else None
    )
    return hand_selectors.hand_write_detail(written=written, show_cards=shown)


#: The hand as read for a write: a ``Hand`` or a ``LockedHand``.
_Found = TypeVar("_Found")


def _for_write(found: tuple[_Found, bool] | None) -> tuple[_Found, bool]:
    """``hand_selectors.hand_get_for_write``'s (or ``hand_lock_for_write``'s) answer, or
    ``not_found``."""
    if found is None:
        raise ApplicationError("not_found", _("No such hand."))
    return found


class MeApi(APIView):
    permission_classes = (IsAuthenticated, IsRefereeOrDirector)

    class AssignmentSerializer(serializers.Serializer):
        tournament = serializers.CharField(source="round.tournament.slug")
        round = serializers.IntegerField(source="round.number")
        table = serializers.IntegerField(source="table.number", allow_null=True, default=None)

    class MeOutput(serializers.Serializer):
        username = serializers.CharField()
        is_referee = serializers.BooleanField()
        is_director = serializers.BooleanField()
        assignments = serializers.ListField(child=serializers.DictField())

    @extend_schema(responses={200: MeOutput, **READ_ERRORS})
    def get(self, request: Request) -> Response:
        user = request.user
        assignments = selectors.referee_assignment_list(user=user)
        data = {
            "username": user.get_username(),
            "is_referee": user_is_referee(user),
            "is_director": user_is_director(user),
            "assignments": self.AssignmentSerializer(assignments, many=True).data,
        }
        return Response(self.MeOutput(data).data)


class AssignmentListApi(APIView):
    """The tables I may write to now (playing rounds), with seats and players."""

    permission_classes = (IsAuthenticated, IsRefereeOrDirector)

    @extend_schema(responses={200: io.AssignmentOutput(many=True), **READ_ERRORS})
    def get(self, request: Request) -> Response:
        return Response(hand_selectors.assignment_tables(user=request.user))


class HandDetailApi(APIView):
    """A hand: state, the phone's buttons and the event log. Public for public
    tournaments, without the unplayed cards of a live hand, and without any card of a
    duplicate board still being played at another table (``card_secrecy``)."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: io.HandOutput, **READ_ERRORS})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = _hand(hand_id)
        access.tournament_read_check(user=request.user, tournament=hand.table.round.tournament)
        body = _hand_response(request, hand)
        # a secret board's hand: no version (how long its log is), so no ETag either
        etag = {} if body["version"] is None else {"ETag": f'"{hand.version}"'}
        return Response(body, headers=etag)


class HandAuditApi(APIView):
    """Who did what to a hand, when, from which device."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: io.EventOutput(many=True), **READ_ERRORS})
    def get(self, request: Request, hand_id: int) -> Response:
        hand = _hand(hand_id)
        user = request.user
        access.authenticated_check(user=user)
        if not (user_is_director(user) or access.referee_assigned(user=user, table=hand.table)):
            raise ApplicationError("not_assigned", _("You are not assigned to this table."))
        shown = card_secrecy.hand_cards_shown(user=user, hand=hand, table_referee=True)
        events = hand_selectors.hand_audit(hand=hand, shown=shown)
        return Response(io.EventOutput(events, many=True).data)


class TableApi(APIView):
    """A table as its referee sees it: seats, who confirms, and its hands this round, each
    with its state (playing, awaiting confirmation, confirmed and by whom, disputed,
    irregular, voided, finished) and scores. No card (read a hand for them). Directors and
    the table's referees (of the table or its round) only."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: io.TableOutput, **READ_ERRORS})
    def get(self, request: Request, table_id: int) -> Response:
        access.authenticated_check(user=request.user)
        table = hand_selectors.table_get(table_id=table_id)
        if table is None:
            raise ApplicationError("not_found", _("No such table."))
        access.table_referee_check(user=request.user, table=table)
        return Response(io.TableOutput(table_selectors.table_hands(table=table)).data)


class HandStartApi(APIView):
    """Start the next hand at a table."""

    permission_classes = (AllowAny,)

    @extend_schema(
        request=io.HandStartInput,
        parameters=[IDEMPOTENCY_KEY, DEVICE, TYPIST],
        responses={201: io.HandWriteOutput, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> HttpResponse:
        found = hand_selectors.table_get_for_write(table_id=table_id, user=request.user)
        if found is None:
            raise ApplicationError("not_found", _("No such table."))
        table, assigned = found
        access.table_write_check(user=request.user, table=table, assigned=assigned)
        key = idempotency_key(request)
        device_id(request)
        data = _validated(io.HandStartInput, request)

        def perform() -> tuple[int, dict[str, Any]]:
            board = None
            if data["deal"] == "board" and "board" in data:
                board = Board.objects.filter(
                    tournament_id=table.round.tournament_id, number=data.get("board", 0)
                ).first()
                if board is None:
                    raise ApplicationError("not_found", _("No such board in this tournament."))
                card_secrecy.board_start_check(user=request.user, table=table, board=board)
            written = hands.hand_create(
                table=table,
                board=board,
                random_deal=data["deal"] == "random",
                physical_cards=data["deal"] == "physical",
                first_bidder=data.get("first_bidder"),
                # deal=board without a number: the board the round's movement assigns.
                board_from_movement=data["deal"] == "board" and board is None,
            )
            return 201, _hand_write_response(request, written)

        return idempotent_write(request, key, perform)


class HandWriteApi(APIView):
    """A write to one hand: permission, idempotency key, input, then the service."""

    permission_classes = (AllowAny,)
    input_serializer: ClassVar[type[serializers.Serializer]] = io.EmptyInput
    #: Live writes need a playing round even for directors (see ``access``).
    live: ClassVar[bool] = True
    #: Whether passing ``check`` means the user may write to (and see) the table.
    table_writer: ClassVar[bool] = True

    def check(self, request: Request, hand: Hand, *, assigned: bool) -> None:
        access.table_write_check(
            user=request.user, table=hand.table, live=self.live, assigned=assigned
        )

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        raise NotImplementedError

    def post(self, request: Request, hand_id: int) -> HttpResponse:
        access.authenticated_check(user=request.user)  # before any lock
        key = idempotency_key(request)

        def perform() -> tuple[int, dict[str, Any]]:
            # The hand is read for the permission check with its row locked, in the write's
            # transaction: the write takes that lock (``hand_prelocked``), one statement
            # fewer. A refusal of the check is not kept under the key (``NotKept``), as
            # when it came before the transaction.
            found = hand_selectors.hand_lock_for_write(
                hand_id=hand_id, user=request.user, idempotency_key=key
            )
            try:
                locked, assigned = _for_write(found)
                hand = locked.hand
                self.check(request, hand, assigned=assigned)
            except ApplicationError as refusal:
                raise NotKept(refusal) from refusal
            write = {
                "idempotency_key": key,
                "expected_version": expected_version(request),
                "device_id": device_id(request),
                "recorded_by": request.user,
            }
            data = _validated(self.input_serializer, request)
            with hand_prelocked(locked, key):
                written = self.perform(request, hand, data, **write)
            if written.retried and written.event is not None:
                # The key's record answers (``KeyAnswered``), unless it has expired.
                idempotency_retry_check(recorded_at=written.event.recorded_at)
                raise KeyAnswered
            return 200, _hand_write_response(request, written, writer=self.table_writer)

        # Every hand service finds a retry in the hand's log (``hands.writing.hand_write``).
        return idempotent_write(request, key, perform, perform_finds_retries=True)


def _hand_write_schema(input_serializer: type[serializers.Serializer]) -> Callable[[Any], Any]:
    return extend_schema(
        request=input_serializer,
        parameters=[IDEMPOTENCY_KEY, IF_MATCH, DEVICE, TYPIST],
        responses={200: io.HandWriteOutput, **ERRORS},
    )


class HandActionApi(HandWriteApi):
    """Record a bid, double, redouble, play or pass, checked by the rules."""

    input_serializer = io.ActionInput

    @_hand_write_schema(io.ActionInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_action_record(hand=hand, action=dict(data), **write)


class HandAnnouncementApi(HandWriteApi):
    """Confirm a due 报牌 (SPEC R6.1), or log it as missing (R6.2)."""

    input_serializer = io.AnnouncementInput

    @_hand_write_schema(io.AnnouncementInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_announcement_record(
            hand=hand, seat=data["seat"], made=data["made"], **write
        )


class HandWildApi(HandWriteApi):
    """Enter the wild rank drawn at a physical-cards laizi table, once the landlord is known
    and before the first play (R11.2.1)."""

    input_serializer = io.WildInput

    @_hand_write_schema(io.WildInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hand_wild.hand_wild_record(hand=hand, wild=data["wild"], **write)


class HandUndoApi(HandWriteApi):
    """Undo the last action (an entry mistake), with a reason."""

    input_serializer = io.ReasonInput

    @_hand_write_schema(io.ReasonInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_action_undo(hand=hand, reason=data["reason"], **write)


class HandResultApi(HandWriteApi):
    """Result-only entry for tables that do not log plays."""

    input_serializer = io.ResultInput

    @_hand_write_schema(io.ResultInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_record_result(hand=hand, **_result_fields(data), **write)


def _result_fields(data: Any) -> dict[str, Any]:
    fields = {k: v for k, v in data.items() if k != "reason"}
    fields["doubled"] = data.get("doubled")  # None: nobody doubled
    return fields


class HandResultPreviewApi(APIView):
    """What saving this result-only entry would record (the per-seat scores), checked and
    scored as ``result/`` does, or its refusal (``details.rule``). Writes nothing, so it
    needs no Idempotency-Key; allowed to whoever may write the result."""

    permission_classes = (AllowAny,)

    @extend_schema(
        request=io.ResultInput,
        responses={
            200: io.ResultPreviewOutput,
            **{code: ERRORS[code] for code in (400, 401, 403, 404, 409, 413, 415, 422)},
        },
    )
    def post(self, request: Request, hand_id: int) -> Response:
        hand, assigned = _for_write(
            hand_selectors.hand_get_for_write(hand_id=hand_id, user=request.user)
        )
        access.table_write_check(user=request.user, table=hand.table, assigned=assigned)
        data = _validated(io.ResultInput, request)
        preview = hands.hand_result_preview(hand=hand, **_result_fields(data))
        return Response(io.ResultPreviewOutput(preview).data)


class HandPassedOutApi(HandWriteApi):
    """Result-only entry of a hand nobody bid (流局, R2.4): 0 for every seat (R10.4.5)."""

    input_serializer = io.EmptyInput

    @_hand_write_schema(io.EmptyInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_record_passed_out(hand=hand, **write)


class HandDealApi(HandWriteApi):
    """Write in the deal of a physical-cards hand; the log is checked against it."""

    input_serializer = io.DealInput
    live = False

    @_hand_write_schema(io.DealInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hands.hand_deal_record(hand=hand, deal=dict(data), **write)


class HandVoidApi(HandWriteApi):
    """Void a hand, with a reason (its log is kept)."""

    input_serializer = io.ReasonInput
    live = False

    @_hand_write_schema(io.ReasonInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hand_corrections.hand_void(hand=hand, reason=data["reason"], **write)


class HandCorrectionApi(HandWriteApi):
    """Correct a finished hand's result, with a reason."""

    input_serializer = io.CorrectionInput
    live = False

    @_hand_write_schema(io.CorrectionInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return super().post(request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        if data.get("override") and not user_is_director(request.user):
            raise ApplicationError(
                "permission_denied", _("Only a director overrides a hand's log.")
            )
        return hand_corrections.hand_result_correct(
            hand=hand, reason=data["reason"], **_result_fields(data), **write
        )


class HandConfirmApi(HandWriteApi):
    """Confirm a finished hand: a second person (another referee of the round, or a
    director) with an empty body; or, under ``confirmed_by: players``, the players at the
    table with ``pins`` on the table referee's phone (one PIN of each side)."""

    input_serializer: ClassVar[type[serializers.Serializer]] = io.ConfirmInput
    table_writer = False  # a second referee of the round may sit at another table

    def check(self, request: Request, hand: Hand, *, assigned: bool) -> None:
        access.round_second_person_check(user=request.user, table=hand.table)

    @_hand_write_schema(io.ConfirmInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        if isinstance(request.data, dict) and "pins" in request.data:
            return self._post_pins(request, hand_id)
        return super().post(request, hand_id)

    def _post_pins(self, request: Request, hand_id: int) -> Response:
        """Players' PINs: the table's own referee (or a director) holds the phone. Not in
        the idempotency record's transaction: a wrong PIN stays counted; a retry is found
        in the hand's log by its key, a kept refusal's in the records (``refusal_answer``)."""
        hand, assigned = _for_write(
            hand_selectors.hand_get_for_write(hand_id=hand_id, user=request.user)
        )
        access.table_write_check(user=request.user, table=hand.table, live=False, assigned=assigned)
        key = idempotency_key(request)
        data = _validated(io.ConfirmInput, request)
        version, device = expected_version(request), device_id(request)
        recorded = recorded_answer(request, key)  # a refusal kept under the key
        if recorded is not None:
            return recorded
        try:
            written = hand_confirmation.hand_confirm_by_pins(
                hand=hand,
                pins=data["pins"],
                idempotency_key=key,
                expected_version=version,
                device_id=device,
                recorded_by=request.user,
            )
        except ApplicationError as refusal:
            return refusal_answer(request, key, refusal)
        return Response(_hand_write_response(request, written))

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hand_confirmation.hand_confirm(hand=hand, **write)


class HandDisputeApi(HandConfirmApi):
    """Dispute a finished hand's result, with a reason."""

    input_serializer = io.ReasonInput

    @_hand_write_schema(io.ReasonInput)
    def post(self, request: Request, hand_id: int) -> HttpResponse:
        return HandWriteApi.post(self, request, hand_id)

    def perform(self, request: Request, hand: Hand, data: Any, **write: Any) -> HandWrite:
        return hand_confirmation.hand_dispute(hand=hand, reason=data["reason"], **write)


class PenaltyCreateApi(APIView):
    """A penalty (SPEC §9) on an entry: directors; a table's referee for a hand there."""

    permission_classes = (AllowAny,)

    @extend_schema(
        request=io.PenaltyInput,
        parameters=[IDEMPOTENCY_KEY, DEVICE, TYPIST],
        responses={201: io.PenaltyOutput, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> HttpResponse:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise ApplicationError("not_found", _("No such tournament."))
        access.authenticated_check(user=request.user)
        key = idempotency_key(request)
        data = _validated(io.PenaltyInput, request)
        entry = Entry.objects.filter(tournament=tournament, pk=data["entry"]).first()
        if entry is None:
            raise ApplicationError("not_found", _("No such entry in this tournament."))
        hand = None
        if "hand" in data:
            hand = _hand(data["hand"])
            if hand.table.round.tournament_id != tournament.pk:
                raise ApplicationError("not_found", _("No such hand."))
            access.table_write_check(user=request.user, table=hand.table, live=False)
        else:
            access.director_check(user=request.user)

        def perform() -> tuple[int, dict[str, Any]]:
            penalty = penalties.penalty_create(
                entry=entry,
                points=data["points"],
                reason=data["reason"],
                hand=hand,
                recorded_by=request.user,
                idempotency_key=key,
            )
            return 201, dict(io.PenaltyOutput(penalty).data)

        return idempotent_write(request, key, perform)


class PenaltyRevokeApi(APIView):
    """Revoke a penalty with a reason (directors); the record stays."""

    permission_classes = (AllowAny,)

    @extend_schema(
        request=io.ReasonInput,
        parameters=[IDEMPOTENCY_KEY, DEVICE, TYPIST],
        responses={200: io.PenaltyOutput, **ERRORS},
    )
    def post(self, request: Request, penalty_id: int) -> HttpResponse:
        access.director_check(user=request.user)
        penalty = Penalty.objects.select_related("tournament").filter(pk=penalty_id).first()
        if penalty is None:
            raise ApplicationError("not_found", _("No such penalty."))
        key = idempotency_key(request)
        data = _validated(io.ReasonInput, request)

        def perform() -> tuple[int, dict[str, Any]]:
            revoked = penalties.penalty_revoke(
                penalty=penalty, reason=data["reason"], recorded_by=request.user
            )
            return 200, dict(io.PenaltyOutput(revoked).data)

        return idempotent_write(request, key, perform)
