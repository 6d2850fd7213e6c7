"""The rules a tournament plays and a hand is scored by: its rule profile with the event's
stake cap (R13.9, R14.7), from ``referee.rules.profiles``. Every scoring path asks here, so a
capped event's hands are replayed, scored, hashed and shown by one profile."""

from __future__ import annotations

from typing import Protocol

from referee.rules.profiles import RuleProfile, capped_profile


class _Ruled(Protocol):
    rule_profile: str
    stake_cap: int | None


def rules_of(row: _Ruled) -> RuleProfile:
    """The profile a tournament plays, or a hand was started under: its rule profile's
    switches and its stake cap."""
    return capped_profile(row.rule_profile, row.stake_cap)
