"""The JSON archive of a whole tournament, event logs included: one format, out and back in.

- ``export``: the archive read out; the same tournament always gives the same bytes.
- ``restore``: a tournament restored from its archive, every hand's log replayed and every
  score re-checked before anything is written; all or nothing.

May import: ``tournaments.models``, ``tournaments.common``, ``referee.rules``,
``tournaments.hands`` (the replay and the scoring of the write path), the settings checks of
``tournaments.tournament.services`` and ``tournaments.standings.snapshots`` (a restored
tournament's standings).
"""
