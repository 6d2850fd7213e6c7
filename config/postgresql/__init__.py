"""The PostgreSQL backend of the service: Django's, with a health check that costs no round
trip (``base.DatabaseWrapper``)."""
