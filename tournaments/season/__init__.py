"""A club's season (赛季): one person one player (``merge``: find, merge and undo duplicate
registrations), seasons and what they count (``services``), the rating ladder and season
points (``rating``: OpenSkill's Weng-Lin model, pure Python over plain values; ``inputs``:
those values read from the stored results or replayed from the hand logs alone;
``services.season_recompute`` stores them; ``rebuild`` compares), the pages' reads
(``selectors``), the chart (``chart``: server-rendered SVG) and the exports (``exports``).

May import: ``tournaments.models``, ``tournaments.common``, ``tournaments.hands.replay`` (to
replay a hand's log), ``tournaments.tasks`` (to queue a recompute) and ``openskill``.
"""
