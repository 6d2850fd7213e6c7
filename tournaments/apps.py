from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created
        from django.urls import register_converter

        from tournaments.common.converters import IdConverter
        from tournaments.common.db_binding import integers_as_text

        register_converter(IdConverter, "id")

        connection_created.connect(integers_as_text, dispatch_uid="tournaments.integers_as_text")

        from tournaments.common import (  # noqa: F401  (connect their receivers)
            api_tokens,
            referee_sessions,
        )
