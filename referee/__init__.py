"""The referee's side of the service.

- ``rules``: the whole game in pure Python, no Django (cards, combinations, moves, the hand,
  physical cards, scoring, profiles, errors, the ``python -m referee.rules`` tool).
- ``api``: the referee REST API v1 (DRF).
- ``console``: the referee's phone screens, which call the API.
"""
