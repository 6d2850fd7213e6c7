"""Standings (排名): computed from the per-seat result rows, stored as snapshots, shown, exported.

- ``ranking``: pure Python, no ORM: ranks and tie-breaks over aggregated rows (SPEC §10.6,
  §10.8), the criteria a tie-break chain names.
- ``queries``: the SQL aggregates over the per-seat rows, and the snapshots read back.
- ``snapshots``: ``standings_request`` (queued on commit after every score change; at most one
  task waiting), ``standings_snapshot_update`` (the task's body, once per log version) and
  ``standings_sweep`` (beat's catch-up).
- ``public_table``: the public standings table from the latest snapshot, with movements.
- ``csv_export``: the standings and per-hand results as CSV (formula cells neutralised).

The Celery tasks themselves are in ``tournaments/tasks.py`` (where Celery's autodiscovery looks;
their names are fixed).

May import: ``ranking`` the standard library only; the others ``tournaments.models``,
``tournaments.common`` and ``tournaments.tasks`` (to send the recompute). Never
``tournaments.hands``: the hands tell the standings that scores changed, not the other way.
"""
