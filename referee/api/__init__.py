"""The referee REST API v1 (DRF) under ``/api/v1/``.

- ``views``: one view per operation (services write, selectors read); ``urls``.
- ``serializers``: the input and output shapes (what the OpenAPI schema shows); ``schema``:
  its post-processing.
- ``idempotency``: exactly-once writes (``Idempotency-Key``, ``If-Match``).
- ``auth``, ``authentication``, ``permissions``, ``parsers``: sign-in, tokens, who may call,
  bounded JSON bodies.
- ``exception_handlers``: every refusal as ``{"code", "message", "details"}``; the project's
  404 and 500 handlers.

May import: Django, DRF, ``config``, and from ``tournaments`` the services and selectors of
each concern, ``tournaments.common`` and the ``tournaments.models`` package (never one of its
modules). Never ``referee.console``.
"""
