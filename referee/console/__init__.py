"""The referee console: the referee's phone screens under ``/referee/``.

- ``views``: sign-in and sign-out, the one-time sign-in link's page, the console shell and its
  service worker.
- ``confirm``: the players confirm a hand with their PINs on the referee's phone
  (server-rendered, no script).
- ``strings``: the console's words, translated on the server and handed to the JS as JSON.
- ``urls``: every path under ``/referee/``.
- ``templates/referee/`` and ``static/referee/``: the pages, and the ES modules
  (``static/referee/console/``) that send every action to the referee API v1 over HTTP. The
  console is an app of its own (``apps.py``, label ``referee_console``) so that Django finds
  them here, under the template names and ``/static/referee/...`` URLs of before.

May import: Django, ``config``, and from ``tournaments`` the services and selectors of each
concern (the confirm page shows a hand's desk state with ``tournaments.director.selectors``),
``tournaments.common`` and the ``tournaments.models`` package (never one of its modules). Never
``referee.api`` (the console talks to it over HTTP).
"""
