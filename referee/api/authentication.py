"""Token authentication of every API request (DRF's, with the token's user in one
hand-written query: ``tournaments.common.rows``).

Kept apart from ``referee.api.auth`` (the sign-in view): DRF imports authentication classes
while ``rest_framework.views`` is still loading, so this module imports no views.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from tournaments.common.rows import Columns, column, fetch_one, table_name

_TOKEN = Columns(Token, "k")
_USER = Columns(Token._meta.get_field("user").related_model, "u")
_TOKEN_SQL = (
    f"SELECT {_TOKEN.sql}, {_USER.sql} FROM {table_name(Token)} k"
    f" JOIN {table_name(_USER.model)} u"
    f" ON u.{column(_USER.model, 'id')} = k.{column(Token, 'user')}"
    f" WHERE k.{column(Token, 'key')} = %s"
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``TokenAuthentication`` with the same checks and messages."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        row = fetch_one(_TOKEN_SQL, [key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = _TOKEN.instance(row)
        token.user = _USER.instance(row, _TOKEN.width)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
