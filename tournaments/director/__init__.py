"""The director's screens (``/director/``, staff users).

- ``urls``; one module of views per screen family, thin (services write, selectors read):
  ``views`` (the dashboard, a tournament's settings), ``entries``, ``rounds`` (seating,
  referees, printouts), ``results`` (the results desk, a hand), ``standings``, ``exports``.
- ``forms``: fields parsed and labelled; every rule is the services'.
- ``helpers``: staff only, a tournament or round from the path, a service call whose refusal
  is shown as a message.
- ``selectors``: the director's reads (the results desk, a hand's desk state, the history).

Templates in ``templates/director/``, static files in ``tournaments/static/director/``.

May import: the services and selectors of every concern, ``tournaments.models`` and
``tournaments.common``.
"""
