from typing import Any

from rest_framework.permissions import BasePermission

from tournaments.common.roles import user_is_director, user_is_referee


class IsRefereeOrDirector(BasePermission):
    """Members of the "referee" group and staff (directors)."""

    message = "Only referees and directors may use the referee API."

    def has_permission(self, request: Any, view: Any) -> bool:
        return user_is_referee(request.user) or user_is_director(request.user)
