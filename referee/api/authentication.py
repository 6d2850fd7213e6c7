"""Token authentication of every API request (DRF's, with the token's user in one
hand-written query: ``tournaments.common.rows``), and the token's lifetime
(``tournaments.common.api_tokens``): an expired token is 401 ``token_expired``.

Kept apart from ``referee.api.auth`` (the sign-in view): DRF imports authentication classes
while ``rest_framework.views`` is still loading, so this module imports no views.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from tournaments.common.api_tokens import api_token_expired, api_token_lifetime
from tournaments.common.rows import Columns, column, fetch_one, table_name

#: By hand: 470–2,600 µs a call against the ORM's ``select_related`` get at 1,660–5,200 µs,
#: saving 1,190–2,580 µs on every API request (``bench/write_sql_bench.py``, two runs on the
#: shared 2-core machine).
_TOKEN = Columns(Token, "k")
_USER = Columns(Token._meta.get_field("user").related_model, "u")
_TOKEN_SQL = (
    f"SELECT {_TOKEN.sql}, {_USER.sql} FROM {table_name(Token)} k"
    f" JOIN {table_name(_USER.model)} u"
    f" ON u.{column(_USER.model, 'id')} = k.{column(Token, 'user')}"
    f" WHERE k.{column(Token, 'key')} = %s"
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's ``TokenAuthentication`` with the same checks and messages, and one more: a
    token past its lifetime is refused with the code ``token_expired``."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        row = fetch_one(_TOKEN_SQL, [key])
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token = _TOKEN.instance(row)
        token.user = _USER.instance(row, _TOKEN.width)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if api_token_expired(token=token):
            hours = int(api_token_lifetime().total_seconds() // 3600)
            raise exceptions.AuthenticationFailed(
                ngettext(
                    "This API token has expired (a token lasts %(hours)s hour). Sign in "
                    "again at /api/v1/auth/token/ for a new one.",
                    "This API token has expired (a token lasts %(hours)s hours). Sign in "
                    "again at /api/v1/auth/token/ for a new one.",
                    hours,
                )
                % {"hours": hours},
                code="token_expired",
            )
        return (token.user, token)
