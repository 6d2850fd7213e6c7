from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from tournaments.common.health import health_status


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 (``degraded``) otherwise; the answer
    is at most a few seconds old (``age_seconds``)."""
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse({"code": "method_not_allowed", "message": "Use GET."}, status=405)
        response["Allow"] = "GET, HEAD"
        return response
    body = health_status()
    return JsonResponse(body, status=200 if body["status"] == "ok" else 503)
