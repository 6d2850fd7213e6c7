"""Helpers shared by the services."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import invalid


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(item) for item in value)
    return False


def _is_int_or_none(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _is_filled_by_caller(field: Any) -> bool:
    """A NOT NULL column that neither the database nor ``save()`` fills in."""
    return not (
        field.null
        or field.primary_key
        or getattr(field, "auto_now", False)
        or getattr(field, "auto_now_add", False)
        or field.db_default is not models.NOT_PROVIDED
    )


def model_validate(
    instance: models.Model, *, exclude: list[str] | None = None, constraints: bool = True
) -> None:
    """Run ``full_clean`` and turn a ValidationError into an ApplicationError.

    Text with a NUL character is refused first: PostgreSQL cannot store it, and Django's
    model validation does not look for it. ``constraints=False`` skips the checks of
    ``Meta.constraints`` (one query each; the database enforces them anyway) for a caller
    that builds the row so that they hold and checks its unique ones itself.
    """
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname, None)
        if _has_nul(value):
            raise invalid(field.name, "must not contain NUL characters.")
        if value is None and _is_filled_by_caller(field):
            # full_clean lets None through for blank=True fields; the NOT NULL column would not.
            raise invalid(field.name, "is required.")
        # full_clean raises OverflowError on an infinite float and takes True for 1.
        if isinstance(field, models.IntegerField) and not _is_int_or_none(value):
            raise invalid(field.name, "must be a whole number.")
    try:
        instance.full_clean(exclude=exclude, validate_constraints=constraints)
    except ValidationError as exc:
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        message = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        raise ApplicationError("invalid", message, extra={"fields": fields}) from exc
