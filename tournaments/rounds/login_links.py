"""One-time sign-in links for referees' phones.

Built on Django's password-reset token: it hashes the user's ``last_login``, so signing
in with the link changes ``last_login`` and the link stops working (one time); it also
hashes the account's staff, superuser and active flags, so a change to any of them voids
the link. It expires ``REFEREE_LINK_HOURS`` after it was made. No table of tokens to keep.

The link is ``/referee/link/#<uid>.<token>``: the part after ``#`` (the *sign-in code*) is
never sent to the server, so it is in no request line, access log or Referer header. The
page that opens reads it (static JS) into a form that the referee POSTs: a chat app's link
preview that fetches the page uses nothing up.

Links are only ever for plain referee accounts (``referee_account_check``), checked when
a link is made and again when it is used.
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import base36_to_int, urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError
from tournaments.rounds.referees import referee_account_check

#: Between the user id and the token in a sign-in code (neither ever contains it).
CODE_SEPARATOR = "."


class _LinkTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "tournaments.login_links.referee"

    def _make_hash_value(self, user: Any, timestamp: int) -> str:
        flags = f"{user.is_staff:d}{user.is_superuser:d}{user.is_active:d}"
        return super()._make_hash_value(user, timestamp) + flags

    def check_token(self, user: Any, token: str | None) -> bool:
        """Django's check (signature, ``PASSWORD_RESET_TIMEOUT``), then this link's own,
        shorter, lifetime."""
        if not super().check_token(user, token):
            return False
        assert token is not None
        made = base36_to_int(token.split("-")[0])
        return self._num_seconds(self._now()) - made <= settings.REFEREE_LINK_HOURS * 3600


_tokens = _LinkTokenGenerator()


def link_path(*, user: Any) -> str:
    """The path of a one-time sign-in link for ``user``, a plain referee account (else the
    ``ApplicationError`` of ``referee_account_check``)."""
    referee_account_check(user=user)
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    code = f"{uidb64}{CODE_SEPARATOR}{_tokens.make_token(user)}"
    return f"{reverse('referee:link-login')}#{code}"


def link_user(*, code: str) -> Any:
    """The account a sign-in code (the part of a link after ``#``) signs in.

    Refused with ``link_invalid`` (malformed, forged, used or expired), or with the code of
    ``referee_account_check`` when the account is no longer a plain referee account."""
    invalid = ApplicationError(
        "link_invalid",
        _("This sign-in link has been used or has expired. Ask the director for a new one."),
    )
    uidb64, _sep, token = (code or "").strip().lstrip("#").partition(CODE_SEPARATOR)
    if not (uidb64 and token) or len(code) > 200:
        raise invalid
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, TypeError, UnicodeDecodeError):
        raise invalid from None
    model = get_user_model()
    if not 0 < pk < 2**63:
        raise invalid
    user = model.objects.filter(pk=pk).first()
    if user is None or not _tokens.check_token(user, token):
        raise invalid
    referee_account_check(user=user)
    return user
