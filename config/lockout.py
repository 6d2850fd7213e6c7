"""The answer to a locked-out sign-in (django-axes): 429, JSON under /api/."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import ngettext

LOCKED_OUT_CODE = "locked_out"


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = ngettext(
        "Too many failed sign-in attempts for this account from this address; "
        "try again in %(minutes)d minute or ask a director to unlock it.",
        "Too many failed sign-in attempts for this account from this address; "
        "try again in %(minutes)d minutes or ask a director to unlock it.",
        minutes,
    ) % {"minutes": minutes}
    if request.path_info.startswith("/api/"):
        body = {"code": LOCKED_OUT_CODE, "message": message, "details": {"minutes": minutes}}
        return JsonResponse(body, status=429)
    return HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
