"""Par of duplicate boards and where each hand left it (issue 33, ``docs/solver.md``).

- ``analysis``: what is computed, from a deal and a log (the rules library's solver);
- ``services``: the writes (queue, run, re-run, cancel an analysis);
- ``selectors``: the reads, which show nothing of a board that is not released.

May import: the models, the plumbing (``tournaments.common``), the hands' reads (the replay,
the card secrecy), the rules library. Never a screen.
"""
