"""The referee console is an app of its own so that Django finds its templates
(``referee/console/templates/``) and static files (``referee/console/static/``) where its
code is: the template names and the ``/static/referee/...`` URLs are those of before."""

from django.apps import AppConfig


class RefereeConsoleConfig(AppConfig):
    name = "referee.console"
    label = "referee_console"
    verbose_name = "Referee console"
