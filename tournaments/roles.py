"""Roles: director = staff user, referee = member of the "referee" group,
public = anonymous read-only."""

from typing import Any

REFEREE_GROUP = "referee"


def user_is_director(user: Any) -> bool:
    """A signed-in, active staff user (None, the system, is not)."""
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_staff)


def user_is_referee(user: Any) -> bool:
    """A signed-in, active member of the referee group (None, the system, is not)."""
    return bool(
        getattr(user, "is_authenticated", False)
        and user.is_active
        and user.groups.filter(name=REFEREE_GROUP).exists()
    )
