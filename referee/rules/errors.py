"""Typed errors of the rules library.

Two causes are kept apart, as python-chess does: bad notation (the referee typed something that
is not a card) and an illegal action (readable, but the rules forbid it now). Every error has a
stable machine-readable ``code`` from SPEC R9.1 / ``docs/rules/PROTOCOL.md``.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules library raises on bad input."""

    code = "rules_error"
    #: Where replaying a log, the 0-based position of the event that failed.
    index: int | None = None

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class NotationError(RulesError):
    """Text that cannot be read as cards; ``token`` is the offending piece."""

    code = "bad_notation"

    def __init__(self, message: str, *, token: str = "") -> None:
        super().__init__(message)
        self.token = token


class IllegalAction(RulesError):
    """A readable action that the rules forbid in the current state (SPEC R9.1).

    ``code`` is one of: out_of_turn, not_held, invalid_combination, does_not_beat, lead_pass,
    invalid_bid, invalid_double, phase.
    """

    code = "illegal_action"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


class InvalidDeal(RulesError):
    """A deal that is not one 54-card pack split 17/17/17/3."""

    code = "invalid_deal"


class InvalidResult(RulesError):
    """A hand result that cannot have happened (result-only scoring); ``rule`` names the
    rule it breaks (``"R7.2"``) where one does."""

    code = "invalid_result"

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class BadResult(RulesError):
    """A result object that is not ``DealResult``'s JSON form: ``field`` is missing or of the
    wrong type (whether its values can have happened is InvalidResult's question)."""

    code = "bad_request"

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class ImpossibleResult(InvalidResult):
    """A result that reads consistently but that no deal of one pack can give: more bombs or
    rockets than the cards allow (SPEC R5.24, R7.1-R7.3)."""

    code = "impossible_result"


class UnknownProfile(RulesError):
    """No rule profile has this key."""

    code = "unknown_profile"
