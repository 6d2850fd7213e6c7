"""The floor endpoints of ``bench/api_floor.py``: what a referee write costs this stack before
any of its own work. Each answers a JSON POST like the referee API's (same middleware, same
token authentication, same JSON parser); none checks a rule or renders a hand.

- ``plain``: a Django view, no database.
- ``drf``: a DRF view with the API's token authentication (one query) and JSON body.
- ``write``: ``drf`` plus the exactly-once write's bare transaction: lock the hand row,
  append one event, bump the hand's version, keep the idempotency record, commit.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.parsers import JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.api.authentication import TokenAuthentication


@csrf_exempt
def plain(request: HttpRequest, hand_id: int) -> JsonResponse:
    return JsonResponse({"id": hand_id, "body": json.loads(request.body)})


class Drf(APIView):
    authentication_classes = (TokenAuthentication,)
    permission_classes = (IsAuthenticated,)
    parser_classes = (JSONParser,)

    def post(self, request: Request, hand_id: int) -> Response:
        return Response({"id": hand_id, "body": request.data})


class Write(Drf):
    def post(self, request: Request, hand_id: int) -> Response:
        answer: dict[str, Any] = {"id": hand_id, "body": request.data}
        body = json.dumps(request.data)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT version FROM floor_hand WHERE id = %s FOR UPDATE", [hand_id])
            (version,) = cursor.fetchone()
            cursor.execute(
                "INSERT INTO floor_event (hand_id, seq, body) VALUES (%s, %s, %s)",
                [hand_id, version + 1, body],
            )
            cursor.execute(
                "UPDATE floor_hand SET version = %s WHERE id = %s", [version + 1, hand_id]
            )
            answer["version"] = version + 1
            cursor.execute(
                "INSERT INTO floor_record (key, status, body) VALUES (%s, 200, %s)",
                [request.headers["Idempotency-Key"], json.dumps(answer)],
            )
        return Response(answer)


urlpatterns = [
    path("floor/plain/<int:hand_id>/", plain),
    path("floor/drf/<int:hand_id>/", Drf.as_view()),
    path("floor/write/<int:hand_id>/", Write.as_view()),
    path("", include("config.urls")),  # /healthz, which start_gunicorn waits for
]
