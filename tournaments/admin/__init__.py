"""Django admin for directors (staff users; ``tournaments.common.roles``).

- ``model_admins``: every model's admin page. Writes that carry invariants go through the
  services; the pages are registered when this package is imported (Django's admin
  autodiscovery imports ``tournaments.admin``).
- ``users``: Django's user admin, refusing a name another account has in any case
  (``tournaments.common.usernames``; registered when ``model_admins`` is imported).
- ``safety``: a director's bad input never becomes a 500 (a refusal behind a save or a delete
  is a message; autocomplete never compares a non-integer with an id).

May import: the services and selectors of every concern, ``tournaments.models`` and
``tournaments.common``. Nothing imports the admin.
"""

from tournaments.admin import model_admins  # noqa: F401  (registers the model admins)
