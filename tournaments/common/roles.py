"""Roles: director = staff user, referee = member of the "referee" group,
public = anonymous read-only."""

from typing import Any

from django.contrib.auth.models import Permission
from django.db.models import Q

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


def user_is_privileged(user: Any) -> bool:
    """Staff, superuser, or holding any Django permission (its own or through a group):
    an account that can do more than a referee, so a director may never act as it."""
    if user.is_staff or user.is_superuser:
        return True
    return (
        user.pk is not None
        and Permission.objects.filter(Q(user=user) | Q(group__user=user)).exists()
    )
