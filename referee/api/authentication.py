"""Token authentication of every API request (DRF's, with the token's user in one query).

Kept apart from ``referee.api.auth`` (the sign-in view): DRF imports authentication classes
while ``rest_framework.views`` is still loading, so this module imports no views.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``TokenAuthentication`` with the same checks and messages."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        try:
            token = Token.objects.select_related("user").get(pk=key)
        except Token.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
