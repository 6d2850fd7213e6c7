"""What the seats after the one on turn may do once the seats before them said "no"
(issue 29): the referee at the table sees a pass, then a play, and records both in one tap.

``legal_ahead(state)`` lists, nearest seat first, the declines (a pass, a bid of nothing,
no double, no redouble) that bring each seat ahead to act and that seat's legal actions
then, as the state itself lists them: nothing here knows a rule of its own. It stops at the
hand's end and once the auction ends (the landlord, or a redeal, is then decided), and
never looks past a full round of seats. The state is pushed and popped back: given back as
it was.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.rules.actions import Action, Bid, Double, Pass, Redouble


class Ahead(NamedTuple):
    """A seat ahead: the ``declines`` before it (in turn), the ``phase`` then, the seat on
    ``turn`` then and its ``legal_actions``."""

    declines: tuple[Action, ...]
    phase: str
    turn: int
    legal_actions: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "declines": [a.to_json() for a in self.declines],
            "phase": self.phase,
            "turn": self.turn,
            "legal_actions": [a.to_json() for a in self.legal_actions],
        }


def is_decline(action: Action) -> bool:
    """A seat's "no": a pass, a bid of nothing (不叫), no double, no redouble."""
    if isinstance(action, Pass):
        return True
    if isinstance(action, Bid):
        return action.value == 0
    if isinstance(action, Double):
        return not action.double
    if isinstance(action, Redouble):
        return not action.redouble
    return False


def legal_ahead(
    state: Any, seats: int | None = None, legal: list[Action] | None = None
) -> list[Ahead]:
    """The seats ahead of the one on turn, nearest first (see the module's docstring).
    ``seats``: the table's (default: the state's ``card_counts``' length); ``legal``: the
    seat on turn's legal actions when the caller has them already."""
    count = seats if seats is not None else len(state.card_counts)
    ahead: list[Ahead] = []
    declines: list[Action] = []
    legal = state.legal_actions() if legal is None else legal
    try:
        for _ in range(count - 1):
            phase = str(state.phase)
            decline = next((a for a in legal if is_decline(a)), None)
            if decline is None:
                break
            state.push(decline)
            declines.append(decline)
            now = str(state.phase)
            if state.is_over or state.turn is None or (phase == "bidding" != now):
                break
            legal = state.legal_actions()  # the entry's, and where the next decline is found
            ahead.append(Ahead(tuple(declines), now, state.turn, tuple(legal)))
    finally:
        for _ in declines:
            state.pop()
    return ahead
