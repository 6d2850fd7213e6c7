"""The public pages (no sign-in, read-only): tournaments, rounds, live tables, hands,
players, boards and standings of public tournaments.

- ``urls``; ``views`` (tournaments, rounds, the live board), ``hands`` (hands, players,
  boards), ``standings`` (the standings page and its CSV, with conditional GET).
- ``page_cache``: each page kept as bytes in the shared cache per version and language, a
  304 with no query (and the Cache-Control contract, ``tournaments.common.cache_control``).
- ``selectors``: reads of public tournaments and rounds past their draft only, a fixed number
  of queries per page.

Templates in ``templates/public/``, template helpers in ``tournaments/templatetags/``.

May import: ``tournaments.models``, ``tournaments.common``, ``referee.rules`` (cards),
``tournaments.hands`` (replay, card secrecy, a hand's state and the exclusions),
``tournaments.standings`` (the public table, CSV), ``tournaments.tournament.selectors`` and
``tournaments.templatetags``.
"""
