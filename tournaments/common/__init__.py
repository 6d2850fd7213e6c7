"""Shared plumbing: used by every concern, knowing none of them.

- Who may do what: ``roles`` (director, referee, public), ``access`` (the permission checks,
  with stable codes), ``referee_sessions`` (a referee's session ends after a fixed time),
  ``api_tokens`` (an API token lasts as long, and is revoked when its account changes).
- Accounts: ``usernames`` (a user name is one name whatever its case: the check, the lookup,
  the sign-in backend).
- Refusals and arguments: ``errors`` (``ApplicationError``), ``validation`` (a service's plain
  arguments), ``model_validation`` (a model's fields), ``limits`` (the largest numbers).
- The database: ``transactions`` (a hand write's transaction), ``rows`` (the hand write's
  hottest reads and writes as plain SQL on public APIs), ``db_binding`` (integers
  bound as text), ``db_roles`` and ``sql/`` (the application role and its grants),
  ``idempotency`` (how long API answers are kept), ``converters`` (``<id:…>`` in paths).
- Tables: ``seats`` (a table's seat count, from its rule profile), ``json_arrays`` (SQL over
  the per-seat arrays, for their checks).
- Duplicate boards: ``board_release`` (when a board is released: the card secrecy of the
  hands and the standings both ask it).
- The broker and health: ``broker_publish`` (Celery messages off the request's path),
  ``health`` and ``health_selectors`` (the checks of /healthz), ``heartbeat`` (the worker's),
  ``healthz`` (the view).

May import: Django, ``config``, the broker and database clients, ``tournaments.models`` and
the rules library's profiles (``referee.rules.profiles``, for the seat count); never another
package of ``tournaments`` nor the rest of ``referee``.
"""
