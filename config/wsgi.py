"""WSGI entry point (gunicorn config.wsgi); builds the rules tables before the first request."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.warm import warm_rules_tables  # noqa: E402  (after Django is set up)

warm_rules_tables("web")

from django.urls import get_resolver  # noqa: E402

# Import the URLconf (every view, DRF, the schema generator) now, not on the first request.
get_resolver().url_patterns  # noqa: B018
