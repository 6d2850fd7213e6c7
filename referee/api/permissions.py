from typing import Any

from django.utils.translation import gettext as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import user_is_director, user_is_referee

#: The account a write was typed by (its id), as a client that keeps writes for later
#: (the console's offline queue) declares it.
TYPED_BY = "X-Typed-By"


class IsRefereeOrDirector(BasePermission):
    """Members of the "referee" group and staff (directors)."""

    message = "Only referees and directors may use the referee API."

    def has_permission(self, request: Any, view: Any) -> bool:
        return user_is_referee(request.user) or user_is_director(request.user)


def typist_check(request: Any) -> None:
    """A write that says who typed it (``X-Typed-By``: the console's queue names the account
    its page was shown to) is refused unless that account is the one signed in, so that a
    write queued on a shared phone is never recorded as the next referee's (issue 28): 403
    ``typist_mismatch``, which the queue answers by keeping the write for its typist. A write
    that names nobody (an API client) is not checked; nor one without a signed-in user, which
    its view refuses (``not_authenticated``)."""
    typed_by = request.headers.get(TYPED_BY)
    if typed_by is None or request.method in SAFE_METHODS or not request.user.is_authenticated:
        return
    if typed_by.strip() != str(request.user.pk):
        raise ApplicationError(
            "typist_mismatch",
            _(
                "This write was typed by another account than the one signed in: it is kept "
                "for that account to send."
            ),
        )
