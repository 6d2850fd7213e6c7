"""DRF exception handler: every error answers ``{"code", "message"}``."""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import ApplicationError

#: HTTP status per ApplicationError code; anything else is 400.
APPLICATION_ERROR_STATUS = {
    "not_found": status.HTTP_404_NOT_FOUND,
    "permission_denied": status.HTTP_403_FORBIDDEN,
    "idempotency_conflict": status.HTTP_409_CONFLICT,
    "version_conflict": status.HTTP_409_CONFLICT,
    "hand_closed": status.HTTP_409_CONFLICT,
    "rule_profile_frozen": status.HTTP_409_CONFLICT,
}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        body = {"code": exc.code, "message": exc.message, **exc.extra}
        return Response(body, status=APPLICATION_ERROR_STATUS.get(exc.code, 400))
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)

    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"code": "invalid", "message": "Invalid input.", "fields": exc.detail}
    else:
        response.data = {"code": str(exc.get_codes()), "message": str(exc.detail)}
    return response
