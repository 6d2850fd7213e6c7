"""One-time sign-in links for referees' phones.

Built on Django's password-reset token: it hashes the user's ``last_login``, so signing
in with the link changes ``last_login`` and the link stops working (one time), and it
expires after ``PASSWORD_RESET_TIMEOUT``. No table of tokens to keep."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode


class _LinkTokenGenerator(PasswordResetTokenGenerator):
    key_salt = "tournaments.login_links.referee"


_tokens = _LinkTokenGenerator()


def link_path(*, user: Any) -> str:
    """The path of a one-time sign-in link for ``user``."""
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse(
        "referee:link-login", kwargs={"uidb64": uidb64, "token": _tokens.make_token(user)}
    )


def link_user(*, uidb64: str, token: str) -> Any | None:
    """The active user the link signs in, or None (bad, used or expired)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, TypeError, UnicodeDecodeError):
        return None
    user = get_user_model().objects.filter(pk=pk, is_active=True).first()
    if user is None or not _tokens.check_token(user, token):
        return None
    return user
