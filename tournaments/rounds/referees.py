"""Referee accounts made by a director: no password, signed in from a one-time link.

A director may hand out a sign-in link for, or assign to a round, only a *plain referee
account*: active, in the referee group, neither staff nor superuser, holding no Django
permission. A link signs its holder in as that account, so a link for any other account
would let a director act as somebody with more rights than a referee (issue 16)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.common.api_tokens import api_tokens_revoke
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP, user_is_director, user_is_privileged
from tournaments.common.usernames import (
    USERNAME_TAKEN,
    user_by_username,
    username_check_free,
    username_taken_message,
)
from tournaments.common.validation import text_check
from tournaments.models import RefereeAssignment, Round, Table


def referee_account_check(*, user: Any) -> None:
    """Refuse any account but a plain referee account (see the module docstring).

    Codes: ``privileged_account`` (staff, superuser or any permission),
    ``inactive_account``, ``not_a_referee_account`` (not in the referee group)."""
    if user_is_privileged(user):
        raise ApplicationError(
            "privileged_account",
            _(
                "%(username)s is a staff, superuser or permission-holding account: only a "
                "plain referee account can be assigned or get a sign-in link."
            )
            % {"username": user.get_username()},
        )
    if not user.is_active:
        raise ApplicationError(
            "inactive_account",
            _("%(username)s is an inactive account.") % {"username": user.get_username()},
        )
    if not user.groups.filter(name=REFEREE_GROUP).exists():
        raise ApplicationError(
            "not_a_referee_account",
            _("%(username)s is not a referee account.") % {"username": user.get_username()},
        )


@transaction.atomic
def referee_account_create(*, username: str) -> Any:
    """A referee account (in the "referee" group) without a usable password."""
    model = get_user_model()
    text_check("username", username, max_length=150)
    user = model(username=username.strip())
    user.set_unusable_password()
    try:
        user.full_clean(exclude=["password"])
    except ValidationError as exc:
        raise ApplicationError("invalid", " ".join(exc.messages)) from exc
    username_check_free(user.get_username())
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:  # made at the same moment: the database's unique index
        raise ApplicationError(USERNAME_TAKEN, username_taken_message()) from exc
    user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
    return user


@transaction.atomic
def referee_account_assign(
    *, round: Round, username: str, table: Table | None = None
) -> tuple[RefereeAssignment, bool]:
    """Assign the account named ``username`` to ``round`` (or one of its tables), making a
    new referee account if there is none by that name: the director's round-page form.
    Returns the assignment and whether the account is new. Any refusal writes nothing."""
    from tournaments.rounds.services import referee_assign  # rounds imports this module

    user = user_by_username((username or "").strip())
    created = user is None
    if user is None:
        user = referee_account_create(username=username)
    return referee_assign(round=round, user=user, table=table), created


#: Django's password column holds a hash; the password itself is bounded for the hasher.
PASSWORD_MAX_LENGTH = 128


@transaction.atomic
def referee_password_set(
    *, username: str, password: str, password_again: str, recorded_by: Any
) -> Any:
    """A director sets the password of a plain referee account (``referee_account_check``:
    never a staff, superuser or permission-holding account), e.g. for a referee who signs
    in without a link.  The password passes the site's validators; the referee's other
    sessions are signed out (Django's session hash follows the password) and the account's
    API tokens revoked (``tournaments.common.api_tokens``)."""
    if not user_is_director(recorded_by):
        raise ApplicationError(
            "director_required", _("Only a director can set a referee's password.")
        )
    text_check("username", username, max_length=150)
    text_check("password", password, max_length=PASSWORD_MAX_LENGTH)
    text_check("password_again", password_again, max_length=PASSWORD_MAX_LENGTH)
    found = user_by_username(username.strip())
    model = get_user_model()
    user = None if found is None else model.objects.select_for_update().get(pk=found.pk)
    if user is None:
        raise ApplicationError("not_found", _("No account by that user name."))
    referee_account_check(user=user)
    if password != password_again:
        raise ApplicationError("passwords_differ", _("The two passwords differ."))
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise ApplicationError("weak_password", " ".join(exc.messages)) from exc
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


@transaction.atomic
def referee_tokens_revoke(*, username: str, recorded_by: Any) -> int:
    """A director revokes the API tokens of a referee account (a lost phone, a referee
    who left): every script or app signed in with it must sign in again. Never an account
    with more rights than a referee (``privileged_account``), which a director may not act
    on. Returns how many tokens there were (0 is no refusal: nothing was live)."""
    if not user_is_director(recorded_by):
        raise ApplicationError(
            "director_required", _("Only a director can revoke a referee's API tokens.")
        )
    text_check("username", username, max_length=150)
    model = get_user_model()
    user = model.objects.filter(**{model.USERNAME_FIELD: username.strip()}).first()
    if user is None:
        raise ApplicationError("not_found", _("No account by that user name."))
    if user_is_privileged(user):
        raise ApplicationError(
            "privileged_account",
            _(
                "%(username)s is a staff, superuser or permission-holding account: a director "
                "revokes the API tokens of referee accounts only."
            )
            % {"username": user.get_username()},
        )
    return api_tokens_revoke(user_ids=[user.pk])
