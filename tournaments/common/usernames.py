"""Account names are one name whatever their case: ``BOSS`` beside ``boss`` is refused.

A referee types a name on a phone that capitalises the first letter; a director reads names
aloud. Two accounts whose names differ only in case would be two people for the site and one
for everybody at the venue. So:

- no account is created or renamed to a name that another account has in any case
  (``username_check_free``: the director's screens, the admin's forms, the archive import and
  ``load_demo``), and the database refuses it anyway (the unique index on
  ``UPPER(username)``, migration ``tournaments.0024``: ``createsuperuser`` and anything else);
- signing in, and every lookup of an account by the name a person typed
  (``user_by_username``), ignores case;
- django-axes counts failures per name in lower case (``axes_username``), so the case
  variants of one name are not each a fresh allowance of guesses.

Case is compared as each database compares it (Django's ``iexact``, ``UPPER`` in the index):
PostgreSQL folds every script, SQLite ASCII letters only.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.common.errors import ApplicationError

USERNAME_TAKEN = "username_taken"


def username_taken_message() -> str:
    return _("That user name is taken (user names differ by more than upper and lower case).")


def _named(username: str) -> Any:
    model = get_user_model()
    return model._default_manager.filter(**{f"{model.USERNAME_FIELD}__iexact": username})


def user_by_username(username: str) -> Any:
    """The account named ``username`` in any case, or None. The exact name wins should
    the database still hold two (only before migration 0024, which refuses them)."""
    matches = list(_named(username).order_by("pk")[:2])
    exact = [user for user in matches if user.get_username() == username]
    return (exact or matches or [None])[0]


def username_check_free(username: str, *, other_than: Any = None) -> None:
    """Refuses ``username`` (``username_taken``) when another account than ``other_than``
    has it in any case."""
    others = _named(username)
    if other_than is not None and other_than.pk is not None:
        others = others.exclude(pk=other_than.pk)
    if others.exists():
        raise ApplicationError(USERNAME_TAKEN, username_taken_message())


class CaseInsensitiveModelBackend(ModelBackend):
    """Django's password sign-in, the account found by its name in any case.

    Its refusal of a name and password is final (``PermissionDenied``: Django stops asking
    the backends after it, and still sends ``user_login_failed`` for django-axes): Django's
    own ``ModelBackend`` stays listed after it only so that sessions it signed in remain
    valid, and must not hash the same wrong password a second time."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        model = get_user_model()
        if username is None:
            username = kwargs.get(model.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = user_by_username(username)
        if user is None:
            # As Django's: hash anyway, so an unknown name takes as long as a wrong password.
            model().set_password(password)
        elif user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied


def axes_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The name django-axes counts failures under: the one typed, in lower case."""
    if credentials and credentials.get("username") is not None:
        name = credentials.get("username")
    else:
        data = getattr(request, "data", None) or getattr(request, "POST", {})
        name = data.get("username")
    return name.lower() if isinstance(name, str) else name
