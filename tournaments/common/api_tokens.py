"""API tokens (DRF's ``authtoken`` ``Token``, one per account; issue 28): how long one
lasts, how one is issued, and when it is revoked.

- A token lasts ``REFEREE_SESSION_HOURS`` from when it was issued (its ``created``): the
  same fixed end as a referee's session (``referee_sessions``), whoever holds it. Past it
  the API answers 401 ``token_expired`` and the token endpoint issues a new one.
- It is revoked (deleted; the next sign-in at the token endpoint issues a new one) when the
  account's password hash changes by any path that saves the user (``set_password`` or
  ``set_unusable_password`` then ``save``: the admin, the director's round page,
  ``manage.py changepassword``, a password reset), when the account is deactivated or
  leaves the referee group (or the group is deleted), and when a director revokes it
  (``tournaments.rounds.referees.referee_tokens_revoke``). A write around ``save`` (a
  ``QuerySet.update`` of the password column) is not seen.

Why DRF's own token with a lifetime rather than a library (django-rest-knox): knox hashes
tokens at rest and keeps several per account, but its lifetime is one global setting, its
sign-in view expects another authentication first, and it knows nothing of passwords or
groups either, so these receivers would stay; the token's ``created`` already holds all
the expiry needs, with no new table, dependency or migration.
"""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models.signals import m2m_changed, post_save, pre_delete, pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP


def api_token_lifetime() -> timedelta:
    return timedelta(hours=settings.REFEREE_SESSION_HOURS)


def api_token_expires_at(*, token: Token) -> datetime:
    return token.created + api_token_lifetime()


def api_token_expired(*, token: Token, now: datetime | None = None) -> bool:
    return (now or timezone.now()) >= api_token_expires_at(token=token)


@transaction.atomic
def api_token_issue(*, user: Any) -> Token:
    """The token of ``user``, just signed in with its password: the live one, else a new
    one (an expired token is replaced).

    Under the account's row lock, the account must still have the password hash it was
    signed in with and be active: a password change that commits between the password
    check and here has revoked the account's tokens, and must not be outrun by a token
    issued for the old password (``invalid_credentials``)."""
    model = get_user_model()
    current = (
        model._default_manager.select_for_update()
        .filter(pk=user.pk)
        .values_list("password", "is_active")
        .first()
    )
    if current != (user.password, True):
        raise ApplicationError("invalid_credentials", _("Wrong username or password."))
    token = Token.objects.filter(user_id=user.pk).first()
    if token is not None and api_token_expired(token=token):
        token.delete()
        token = None
    if token is None:
        token = Token.objects.create(user=user)
    return token


def api_tokens_revoke(*, user_ids: Any) -> int:
    """Delete the API tokens of these accounts; how many there were."""
    deleted, _per_model = Token.objects.filter(user_id__in=list(user_ids)).delete()
    return deleted


# --- Revocation when the account changes ------------------------------------------------

#: Set by ``_account_saving`` (which sees the stored row) for ``_account_saved`` (which
#: runs after the UPDATE, in the same transaction, so that no token issued for the old
#: password between the two survives): one save's finding, as Django's own ``_password``
#: carries a new password to the validators' ``password_changed`` after the save.
_REVOKE_AFTER_SAVE = "_api_tokens_revoke_after_save"
_WATCHED = {"password", "is_active"}


@receiver(pre_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="api_tokens.account_saving")
def _account_saving(sender: Any, instance: Any, raw: bool, **kwargs: Any) -> None:
    update_fields = kwargs.get("update_fields")
    if raw or instance.pk is None:
        return
    if update_fields is not None and not _WATCHED & set(update_fields):
        return  # e.g. a sign-in's last_login: no query
    stored = (
        sender._default_manager.filter(pk=instance.pk).values_list("password", "is_active").first()
    )
    if stored is None:
        return
    password, active = stored
    if password != instance.password or (active and not instance.is_active):
        setattr(instance, _REVOKE_AFTER_SAVE, True)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="api_tokens.account_saved")
def _account_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.__dict__.pop(_REVOKE_AFTER_SAVE, False):
        api_tokens_revoke(user_ids=[instance.pk])


@receiver(m2m_changed, dispatch_uid="api_tokens.groups_changed")
def _groups_changed(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kwargs: Any
) -> None:
    """An account leaves the referee group: from the account's side (``user.groups``,
    ``pk_set`` the groups) or the group's (``group.user_set``, ``pk_set`` the accounts)."""
    if sender is not get_user_model().groups.through or action not in ("post_remove", "pre_clear"):
        return
    clearing = action == "pre_clear"
    if not reverse:
        groups = instance.groups.all() if clearing else Group.objects.filter(pk__in=pk_set)
        if groups.filter(name=REFEREE_GROUP).exists():
            api_tokens_revoke(user_ids=[instance.pk])
    elif instance.name == REFEREE_GROUP:
        users = instance.user_set.values_list("pk", flat=True) if clearing else pk_set
        api_tokens_revoke(user_ids=users)


@receiver(pre_delete, sender=Group, dispatch_uid="api_tokens.group_deleted")
def _group_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.name == REFEREE_GROUP:
        api_tokens_revoke(user_ids=instance.user_set.values_list("pk", flat=True))
