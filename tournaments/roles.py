"""Roles: director = staff user, referee = member of the "referee" group,
public = anonymous read-only."""

from typing import Any

REFEREE_GROUP = "referee"


def user_is_director(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def user_is_referee(user: Any) -> bool:
    return bool(
        user.is_authenticated and user.is_active and user.groups.filter(name=REFEREE_GROUP).exists()
    )
