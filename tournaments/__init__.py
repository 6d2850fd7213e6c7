"""The tournaments app (label ``tournaments``): everything around a hand's rules.

One package per concern: ``hands`` (the one hand-write path), ``seating``, ``standings``,
``archive``, ``tournament`` (a tournament and its field), ``rounds``; the screens of each
audience: ``director``, ``public`` (the referee's are ``referee.console``) and ``admin``;
``common``, the shared plumbing; ``models``, the data and its database constraints. Where
Django or Celery looks for them: ``tasks.py`` (thin Celery tasks), ``management/commands/``,
``templatetags/``, ``migrations/``, ``locale/``, ``static/``.
"""
