"""The actions a referee records at the table, as small immutable values.

Each has a protocol form (``docs/rules/PROTOCOL.md``, op ``replay``): ``{"seat": s, "bid": n}``,
``{"seat": s, "double": bool}``, ``{"seat": s, "redouble": bool}``,
``{"seat": s, "play": "<cards>" | "pass"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sized
from typing import Any, NamedTuple, TypeVar

from referee.rules.errors import RulesError


class BadEvent(RulesError):
    """An event object that is not one of the four action shapes."""

    code = "bad_request"


_T = TypeVar("_T", bound=tuple[Any, ...])


def _value_object(cls: type[_T]) -> type[_T]:
    """Actions are tuples (cheap to build while replaying a log) that compare equal only to an
    action of the same type: ``Bid(0, 1) != Double(0, True)``."""

    def __eq__(self: object, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)  # type: ignore[operator]

    def __ne__(self: object, other: object) -> bool:
        return not __eq__(self, other)

    cls.__eq__ = __eq__  # type: ignore[method-assign]
    cls.__ne__ = __ne__  # type: ignore[method-assign]
    cls.__hash__ = tuple.__hash__  # type: ignore[method-assign]
    return cls


@_value_object
class Bid(NamedTuple):
    """叫分: 0 passes (不叫), 1..3 bids."""

    seat: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bid": self.value}


@_value_object
class Double(NamedTuple):
    """加倍: a defender's declaration, doubling (True) or not (False)."""

    seat: int
    double: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "double": self.double}


@_value_object
class Redouble(NamedTuple):
    """再加倍: the landlord's declaration after at least one double."""

    seat: int
    redouble: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "redouble": self.redouble}


@_value_object
class PlayCards(NamedTuple):
    """Cards played, as written (rank notation, or physical cards with suits)."""

    seat: int
    cards: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": self.cards}


@_value_object
class Pass(NamedTuple):
    """过 / 不要: a follower declines to beat the top play."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": "pass"}


#: Build an action from its fields without the generated ``__new__`` frame (replay speed).
_new = tuple.__new__

Action = Bid | Double | Redouble | PlayCards | Pass


def action_from_json(event: object) -> Action:
    """Read one protocol event; raises BadEvent for a malformed shape (not for bad cards)."""
    if type(event) is not dict:
        raise BadEvent("an event must be a JSON object")
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat <= 2:  # type(True) is bool, not int
        raise BadEvent(f"event seat must be 0, 1 or 2, got {seat!r}")
    if len(event) != 2:
        raise BadEvent("an event is a seat and exactly one of bid, double, redouble, play")
    value = event.get("play")
    if value is not None:
        if type(value) is not str:
            raise BadEvent(f"play must be card text or 'pass', got {value!r}")
        if value == "pass" or (len(value) < 16 and value.strip().lower() == "pass"):
            return _new(Pass, (seat,))
        return _new(PlayCards, (seat, value))
    kind = next(k for k in event if k != "seat")
    value = event[kind]
    if kind == "bid":
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadEvent(f"bid must be an integer, got {value!r}")
        return Bid(seat, value)
    if kind in ("double", "redouble"):
        if not isinstance(value, bool):
            raise BadEvent(f"{kind} must be true or false, got {value!r}")
        return Double(seat, value) if kind == "double" else Redouble(seat, value)
    raise BadEvent(f"unknown event field {kind!r}: expected bid, double, redouble or play")


def accepted_action_from_json(event: dict[str, Any]) -> Action:
    """An accepted action from its protocol form (written by ``to_json``: one seat and one
    field), without ``action_from_json``'s shape checks."""
    seat = event["seat"]
    value = event.get("play")
    if value is not None:
        if value == "pass" or (len(value) < 16 and value.strip().lower() == "pass"):
            return _new(Pass, (seat,))
        return _new(PlayCards, (seat, value))
    value = event.get("bid")
    if value is not None:
        return _new(Bid, (seat, value))
    value = event.get("double")
    if value is not None:
        return _new(Double, (seat, value))
    return _new(Redouble, (seat, event["redouble"]))


@_value_object
class DeclaredPlay(NamedTuple):
    """Cards played with a declaration (``laizi``, PROTOCOL-variants §2.2): ``declared`` are the
    cards the play stands for, its wild cards included."""

    seat: int
    cards: str
    declared: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "play": self.cards, "as": self.declared}


def four_seat_action_from_json(event: object) -> Action:
    """``action_from_json`` for the four seats of ``four_p`` (0..3)."""
    seat = event.get("seat") if type(event) is dict else None
    if type(seat) is int and seat == 3 and type(event) is dict:
        return action_from_json({**event, "seat": 0})._replace(seat=3)
    if seat is not None and (type(seat) is not int or not 0 <= seat <= 3):
        raise BadEvent(f"event seat must be 0, 1, 2 or 3, got {seat!r}")
    return action_from_json(event)


def wild_action_from_json(event: object) -> Action | DeclaredPlay:
    """``action_from_json`` for ``laizi``: a play event may carry ``as``; ``as`` beside a pass
    or on any other event is a malformed event (BadEvent)."""
    if type(event) is not dict or "as" not in event:
        return action_from_json(event)
    declared = event["as"]
    action = action_from_json({k: v for k, v in event.items() if k != "as"})
    if type(action) is not PlayCards:
        raise BadEvent("'as' goes with a play of cards, not with a pass, bid or double")
    if type(declared) is not str:
        raise BadEvent(f"'as' must be card text, got {declared!r}")
    return DeclaredPlay(action.seat, action.cards, declared)


def apply_log(
    apply: Callable[[Any], None],
    events: Iterable[object],
    read: Callable[[object], Any],
    applied: Sized,
) -> None:
    """``apply`` each event of a log, an action or its protocol form (read by ``read``); the
    first illegal event raises, its position (``len(applied)`` then) in ``index``. Every
    hand state's ``from_events``."""
    for event in events:
        try:
            apply(event if not isinstance(event, dict) else read(event))
        except RulesError as exc:
            exc.index = len(applied)
            raise
