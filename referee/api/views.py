"""Referee API (minimal for now): who am I and where am I assigned."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.api.permissions import IsRefereeOrDirector
from tournaments import selectors
from tournaments.roles import user_is_director, user_is_referee


class MeApi(APIView):
    permission_classes = (IsAuthenticated, IsRefereeOrDirector)

    class AssignmentSerializer(serializers.Serializer):
        tournament = serializers.CharField(source="round.tournament.slug")
        round = serializers.IntegerField(source="round.number")
        table = serializers.IntegerField(source="table.number", allow_null=True, default=None)

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        is_referee = serializers.BooleanField()
        is_director = serializers.BooleanField()
        assignments = serializers.ListField(child=serializers.DictField())

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        user = request.user
        assignments = selectors.referee_assignment_list(user=user)
        data = {
            "username": user.get_username(),
            "is_referee": user_is_referee(user),
            "is_director": user_is_director(user),
            "assignments": self.AssignmentSerializer(assignments, many=True).data,
        }
        return Response(self.OutputSerializer(data).data)
