"""Helpers shared by the services."""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from tournaments.common.errors import ApplicationError
from tournaments.common.validation import invalid, text_flaw


def _text_flaw(value: Any) -> str | None:
    """Why text in ``value`` (a string, or JSON holding strings) cannot be stored, or None."""
    if isinstance(value, str):
        return text_flaw(value)
    if isinstance(value, dict):
        items: Any = (*value.keys(), *value.values())
    elif isinstance(value, list | tuple):
        items = value
    else:
        return None
    return next((flaw for item in items if (flaw := _text_flaw(item)) is not None), None)


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

    Text that cannot be stored (``text_flaw``: a NUL character, a lone surrogate) is
    refused first: the database driver would raise, and Django's model validation does
    not look for it. ``constraints=False`` skips the checks of
    ``Meta.constraints`` (one query each; the database enforces them anyway) for a caller
    that builds the row so that they hold and checks its unique ones itself.
    """
    for field in instance._meta.concrete_fields:
        value = getattr(instance, field.attname, None)
        flaw = _text_flaw(value)
        if flaw is not None:
            raise invalid(field.name, flaw)
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
