"""Helpers shared by the services."""

from django.core.exceptions import ValidationError
from django.db import models

from tournaments.errors import ApplicationError


def model_validate(instance: models.Model, *, exclude: list[str] | None = None) -> None:
    """Run ``full_clean`` and turn a ValidationError into an ApplicationError."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        message = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        raise ApplicationError("invalid", message, extra={"fields": fields}) from exc
