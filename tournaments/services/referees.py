"""Referee accounts made by a director: no password, signed in from a one-time link."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.errors import ApplicationError
from tournaments.roles import REFEREE_GROUP
from tournaments.services.validation import text_check


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
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:
        raise ApplicationError("username_taken", _("That user name is taken.")) from exc
    user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
    return user
