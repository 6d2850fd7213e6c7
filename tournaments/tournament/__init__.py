"""A tournament as a whole and its field: settings, life, log, players, entries, penalties.

- ``services``: create a tournament, change its settings (some frozen once seated), register
  an entry, finish it (the final results) and reopen it.
- ``log``: the tournament log (who changed which setting or entry, when, why); append-only.
- ``players``: players. ``withdrawals``: an entry withdrawn (退赛) or reinstated.
- ``entry_import``: registering players from a CSV file, a preview first.
- ``penalties``: penalties (罚分, SPEC §9) and their revocation.
- ``selectors``: the general reads (tournaments, entries, rounds, boards, referee assignments,
  the seating engine's inputs).
- ``generate``: a complete random tournament for demos and benchmarks, through the services.

May import: ``tournaments.models``, ``tournaments.common``, ``referee.rules`` (profiles, and
the hand state for ``generate``), ``tournaments.hands.results`` (scores changed),
``tournaments.hands.gate`` (the final standings wait for every hand),
``tournaments.standings`` (the criteria, the queries, the snapshots), the seating engine's
types; ``generate`` every service it plays a tournament with.
"""
