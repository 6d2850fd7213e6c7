"""API errors: every error answers ``{"code", "message", "details"}``.

``api_exception_handler`` is DRF's exception handler; ``bad_request``,
``permission_denied``, ``page_not_found`` and ``server_error`` are the project's 400, 403,
404 and 500 handlers, which answer JSON under ``/api/`` and Django's HTML pages elsewhere.
"""

import sys
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from config.unavailable import (
    RETRY_AFTER_SECONDS,
    database_unavailable_response,
    database_unreachable,
)
from tournaments.common.errors import ApplicationError

API_PREFIX = "/api/"

#: HTTP status per ApplicationError code; anything else is 400.
APPLICATION_ERROR_STATUS = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "permission_denied": status.HTTP_403_FORBIDDEN,
    "idempotency_conflict": status.HTTP_409_CONFLICT,
    "idempotency_key_expired": status.HTTP_409_CONFLICT,
    "version_conflict": status.HTTP_409_CONFLICT,
    "hand_closed": status.HTTP_409_CONFLICT,
    "rule_profile_frozen": status.HTTP_409_CONFLICT,
    "not_authenticated": status.HTTP_401_UNAUTHORIZED,
    "not_assigned": status.HTTP_403_FORBIDDEN,
    "typist_mismatch": status.HTTP_403_FORBIDDEN,
    "board_not_assigned": status.HTTP_403_FORBIDDEN,
    "second_person_required": status.HTTP_403_FORBIDDEN,
    "round_not_playing": status.HTTP_409_CONFLICT,
    "hand_logged_live": status.HTTP_409_CONFLICT,
    "result_from_log": status.HTTP_409_CONFLICT,
    # well-formed (the schema takes any table's seats) but not this table's
    "seat_not_at_table": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "no_wild_cards": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "invalid_wild_rank": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "wild_rank_dealt": status.HTTP_409_CONFLICT,
    "wild_before_landlord": status.HTTP_409_CONFLICT,
    "wild_rank_fixed": status.HTTP_409_CONFLICT,
    "wild_rank_missing": status.HTTP_409_CONFLICT,
    "board_not_for_profile": status.HTTP_409_CONFLICT,
    "hand_not_closed": status.HTTP_409_CONFLICT,
    "not_awaiting_confirmation": status.HTTP_409_CONFLICT,
    "confirmed_by_players": status.HTTP_403_FORBIDDEN,
    "confirmed_by_official": status.HTTP_409_CONFLICT,
    "pin_wrong": status.HTTP_403_FORBIDDEN,
    "pins_locked": status.HTTP_423_LOCKED,
    "nothing_to_undo": status.HTTP_409_CONFLICT,
    "no_announcement_due": status.HTTP_409_CONFLICT,
    "no_deal": status.HTTP_409_CONFLICT,
    "not_physical_cards": status.HTTP_409_CONFLICT,
    "penalty_revoked": status.HTTP_409_CONFLICT,
    "hand_number_taken": status.HTTP_409_CONFLICT,
    "hand_in_progress": status.HTTP_409_CONFLICT,
    "table_not_full": status.HTTP_409_CONFLICT,
    "round_hands_done": status.HTTP_409_CONFLICT,
    "contradicts_log": status.HTTP_409_CONFLICT,
    "hand_live": status.HTTP_409_CONFLICT,
    "hand_not_irregular": status.HTTP_409_CONFLICT,
    "hand_irregular": status.HTTP_409_CONFLICT,
    "results_final": status.HTTP_409_CONFLICT,
    # final means complete (issue 29): a hand does not count yet, or is excluded already
    "results_incomplete": status.HTTP_409_CONFLICT,
    "hand_already_excluded": status.HTTP_409_CONFLICT,
    "hand_counts": status.HTTP_409_CONFLICT,
    "settings_frozen": status.HTTP_409_CONFLICT,
    "board_already_played": status.HTTP_409_CONFLICT,
    "too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
    # well-formed (the schema accepts it) but refused by the rules (SPEC R9.1) or the domain
    **dict.fromkeys(
        (
            "out_of_turn",
            "not_held",
            "invalid_combination",
            "does_not_beat",
            "lead_pass",
            "invalid_bid",
            "invalid_double",
            "invalid_substitution",
            "wild_reading_required",
            "phase",
            "bad_notation",
            "invalid_deal",
            "invalid_result",
            "impossible_result",
            "invalid_penalty",
            "first_bidder_mismatch",
            "entry_not_at_table",
            "board_not_in_tournament",
            "board_and_deal",
            "reason_required",
            "pins_incomplete",
            "no_passed_out",  # Big Three passes out no deal (R12.5.2)
            "first_bidder_from_hearts",  # Big Three: a dealt hand's is the deal's (R12.4)
            "first_bidder_required",  # Big Three, physical cards: the referee names it
            # six players (R13.3, R13.4, R13.10)
            "wrong_partner_card",
            "first_bidder_from_face_up",
            "no_call",
            "partner_required",  # a six-player result names the partner (R13.4)
            "no_partner",  # ... and only a six-player one
            "bid_required",  # every other game's result names the bid
            "no_partner_shown",  # a dealt six-player hand's deal names the partner (R13.10)
            "invalid_partner",  # the seat shown is no partner the log allows (R13.4, R13.8)
        ),
        status.HTTP_422_UNPROCESSABLE_ENTITY,
    ),
}
_RETRY = {"Retry-After": str(RETRY_AFTER_SECONDS)}
#: Codes the API answers under another name (services' model validation is "invalid").
API_CODE = {"invalid": "validation"}


def _as_api_exception(exc: Exception) -> Exception:
    """Django's own exceptions as their DRF counterparts (which carry a code)."""
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    return exc


def application_error_answer(exc: ApplicationError) -> tuple[int, dict[str, Any]]:
    """The status and body that answer ``exc`` (what a refused write's idempotency record
    keeps too: ``referee.api.idempotency``)."""
    code = API_CODE.get(exc.code, exc.code)
    body = {"code": code, "message": exc.message, "details": exc.extra}
    return APPLICATION_ERROR_STATUS.get(code, 400), body


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database went away (restart, failover): nothing was recorded, or the write
        # committed and only its answer was lost; a retry with the same idempotency key is
        # safe either way.
        body = {
            "code": "database_unavailable",
            "message": _("The database is unavailable; retry with the same idempotency key."),
            "details": {},
        }
        return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=_RETRY)
    if isinstance(exc, RequestDataTooBig):
        exc = ApplicationError("too_large", _("The request body is too large."))
    if isinstance(exc, ApplicationError):
        status_code, body = application_error_answer(exc)
        return Response(body, status=status_code)
    exc = _as_api_exception(exc)
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "validation",
            "message": _("Invalid input."),
            "details": {"fields": exc.detail},
        }
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        details: dict[str, Any] = {}
        wait = getattr(exc, "wait", None) if isinstance(exc, exceptions.Throttled) else None
        if wait is not None:
            details["retry_after"] = max(1, round(wait))
        response.data = {"code": code, "message": str(exc.detail), "details": details}
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _api_not_found() -> JsonResponse:
    body = {"code": "not_found", "message": _("No such API endpoint."), "details": {}}
    return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return _api_not_found()
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """A request Django refuses before any view (``SuspiciousOperation``: a host not
    allowed, too many fields…)."""
    if _is_api(request):
        message = str(exceptions.ParseError.default_detail)  # DRF's words, translated
        body = {"code": "bad_request", "message": message, "details": {}}
        return JsonResponse(body, status=status.HTTP_400_BAD_REQUEST)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's ``PermissionDenied`` raised outside a DRF view (a middleware)."""
    if _is_api(request):
        message = str(exceptions.PermissionDenied.default_detail)  # DRF's words, translated
        body = {"code": "permission_denied", "message": message, "details": {}}
        return JsonResponse(body, status=status.HTTP_403_FORBIDDEN)
    return defaults.permission_denied(request, exception)


def api_unknown_path(request: HttpRequest, rest: str = "") -> HttpResponse:
    """The last pattern under /api/: an address no endpoint matches answers the JSON 404
    with DEBUG on too (Django's debug 404 page is HTML), whatever the method."""
    return _api_not_found()


def server_error(request: HttpRequest) -> HttpResponse:
    # Called while the exception is handled: one raised in a middleware (past
    # DatabaseUnavailableMiddleware) that says the database cannot be reached is a 503 too.
    if database_unreachable(sys.exc_info()[1]):
        return database_unavailable_response(request)
    if _is_api(request):
        body = {"code": "server_error", "message": _("Internal server error."), "details": {}}
        return JsonResponse(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    return defaults.server_error(request)
