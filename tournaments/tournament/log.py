"""The tournament log (``TournamentLog``): who changed a tournament's settings, withdrew or
reinstated an entry or revoked a penalty, when (the database's clock) and why.  Append-only:
rows are added here, in the caller's transaction, and never changed."""

from typing import Any

from tournaments.models import TournamentLog, TournamentLogKind


def tournament_log_append(
    *,
    tournament_id: int,
    kind: TournamentLogKind,
    recorded_by: Any,
    reason: str = "",
    entry_id: int | None = None,
    changes: dict[str, Any] | None = None,
) -> TournamentLog:
    """Add one line to the tournament's log; call it inside the change's transaction."""
    return TournamentLog.objects.create(
        tournament_id=tournament_id,
        kind=kind,
        entry_id=entry_id,
        reason=reason,
        changes=changes or {},
        recorded_by=recorded_by if getattr(recorded_by, "pk", None) else None,
    )
