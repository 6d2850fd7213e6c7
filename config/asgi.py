"""ASGI entry point; builds the rules tables before the first request."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_asgi_application()

from config.warm import warm_rules_tables  # noqa: E402  (after Django is set up)

warm_rules_tables("web")
