"""API errors: every error answers ``{"code", "message"}`` (plus details for some codes).

``api_exception_handler`` is DRF's exception handler; ``page_not_found`` and
``server_error`` are the project's 404 and 500 handlers, which answer JSON under
``/api/`` and Django's HTML pages elsewhere.
"""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import ApplicationError

API_PREFIX = "/api/"

#: HTTP status per ApplicationError code; anything else is 400.
APPLICATION_ERROR_STATUS = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "permission_denied": status.HTTP_403_FORBIDDEN,
    "idempotency_conflict": status.HTTP_409_CONFLICT,
    "version_conflict": status.HTTP_409_CONFLICT,
    "hand_closed": status.HTTP_409_CONFLICT,
    "rule_profile_frozen": status.HTTP_409_CONFLICT,
}


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


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        body = {"code": exc.code, "message": exc.message, **exc.extra}
        return Response(body, status=APPLICATION_ERROR_STATUS.get(exc.code, 400))
    exc = _as_api_exception(exc)
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "message": "Invalid input.", "fields": exc.detail}
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        response.data = {"code": code, "message": str(exc.detail)}
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        body = {"code": "not_found", "message": "No such API endpoint."}
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        body = {"code": "server_error", "message": "Internal server error."}
        return JsonResponse(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    return defaults.server_error(request)
