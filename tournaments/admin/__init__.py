"""Django admin for directors (placeholder docstring; see the package docstring step)."""

from tournaments.admin import model_admins  # noqa: F401  (registers the model admins)
