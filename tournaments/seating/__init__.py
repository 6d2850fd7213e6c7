"""Who sits where (排座): the engine and the services that run it.

- ``engine``: pure Python, no Django, no database: entries + history + seed -> tables, seat
  positions, byes and an explanation (SPEC §10.5, R10.8.6, R10.8.7). Same inputs, same seating.
- ``services``: preview a round's seating, write it with its seed, override a seat before
  the table's hands, correct it after (a seat-correction event on each affected hand).

The engine's inputs are read by ``tournaments.tournament.selectors`` (``seating_entries``,
``seating_history``, ``entry_order_for_seating``).

May import: ``engine`` the standard library only; ``services`` also ``tournaments.models``,
``tournaments.common``, ``tournaments.hands`` (boards, the one hand-write skeleton
``hands.writing.hand_write``, the per-seat results), ``tournaments.rounds`` and
``tournaments.tournament.selectors``.
"""
