"""Token authentication of every API request (DRF's, its one query compiled once).

Kept apart from ``referee.api.auth`` (the sign-in view): DRF imports authentication classes
while ``rest_framework.views`` is still loading, so this module imports no views.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from tournaments.common.compiled import CompiledGet

#: The token and its user, compiled once per connection (``tournaments.common.compiled``).
_token_with_user = CompiledGet(
    "token_with_user", lambda key: Token.objects.select_related("user").filter(pk=key)
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``TokenAuthentication`` with the same checks and messages."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = _token_with_user(key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
