from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from tournaments.health import broker_check, database_check


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 (``degraded``) otherwise."""
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse({"code": "method_not_allowed", "message": "Use GET."}, status=405)
        response["Allow"] = "GET, HEAD"
        return response
    database = database_check()
    broker = broker_check()
    healthy = database["ok"] and broker["ok"]
    body = {"status": "ok" if healthy else "degraded", "database": database, "broker": broker}
    return JsonResponse(body, status=200 if healthy else 503)
