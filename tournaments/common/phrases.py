"""Sentences kept before translation, so that a text written once (a round's seating
explanation) reads in each reader's language later. Pure Python, no Django.

A ``Phrase`` is an English catalogue text (its msgid) with ``%(name)s`` values: numbers,
plain texts, seats (``SeatRef``: named by the reader's seat names), other phrases, or
lists of values (joined with the translated ", "); a ``Plural`` chooses its form by its
``%(n)s``. A text is lines of parts; ``render``
translates it, ``to_json`` / ``from_json`` store it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Union


def gettext_noop(text: str) -> str:
    """Marks a catalogue text (makemessages finds it, as Django's own ``gettext_noop``);
    it is translated when rendered."""
    return text


#: The catalogue's list separator (", " in English).
LIST_SEPARATOR = gettext_noop(", ")


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat position, named when the text is rendered (the reader's seat names)."""

    position: int


@dataclass(frozen=True, slots=True)
class Phrase:
    """A catalogue text and its values, translated only when rendered."""

    text: str
    values: tuple[tuple[str, Value], ...] = ()

    @classmethod
    def of(cls, text: str, **values: Value) -> Phrase:
        return cls(text, tuple(values.items()))


@dataclass(frozen=True, slots=True)
class Plural:
    """A catalogue text with its plural (msgid, msgid_plural), chosen by ``n`` when
    rendered."""

    singular: str
    plural: str
    n: int
    values: tuple[tuple[str, Value], ...] = ()


def ngettext_lazy(singular: str, plural: str, n: int, **values: Value) -> Plural:
    """Marks a plural text (makemessages finds it, as Django's own ``ngettext_lazy``); it
    is translated, in the form ``n`` needs, when rendered."""
    return Plural(singular, plural, n, tuple(values.items()))


Value = Union[int, str, Phrase, Plural, SeatRef, tuple["Value", ...]]  # noqa: UP007  # recursive
#: A text: lines, each the concatenation of its parts.
Lines = tuple[tuple[Value, ...], ...]


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def render(
    lines: Lines,
    *,
    translate: Callable[[str], str] = str,
    translate_plural: Callable[[str, str, int], str] = _english_plural,
    seat_name: Callable[[int], str] = lambda position: f"seat {position}",
) -> str:
    """The text in the language ``translate`` and ``translate_plural`` give (Django's
    gettext and ngettext), one line per line."""

    def value(item: Value) -> str:
        if isinstance(item, Phrase):
            return translate(item.text) % {name: value(v) for name, v in item.values}
        if isinstance(item, Plural):
            text = translate_plural(item.singular, item.plural, item.n)
            return text % {"n": item.n, **{name: value(v) for name, v in item.values}}
        if isinstance(item, SeatRef):
            return seat_name(item.position)
        if isinstance(item, tuple):
            return translate(LIST_SEPARATOR).join(value(v) for v in item)
        return str(item)

    return "\n".join("".join(value(part) for part in line) for line in lines)


def _node(item: Value) -> Any:
    if isinstance(item, Phrase):
        return {"t": item.text, "v": {name: _node(v) for name, v in item.values}}
    if isinstance(item, Plural):
        values = {name: _node(v) for name, v in item.values}
        return {"s": item.singular, "p": item.plural, "n": item.n, "v": values}
    if isinstance(item, SeatRef):
        return {"seat": item.position}
    if isinstance(item, tuple):
        return {"list": [_node(v) for v in item]}
    return item


def _value(node: Any) -> Value:
    if isinstance(node, dict):
        if "t" in node:
            values = node.get("v") or {}
            return Phrase(str(node["t"]), tuple((str(k), _value(v)) for k, v in values.items()))
        if "s" in node:
            values = node.get("v") or {}
            return Plural(
                str(node["s"]),
                str(node["p"]),
                int(node["n"]),
                tuple((str(k), _value(v)) for k, v in values.items()),
            )
        if "seat" in node:
            return SeatRef(int(node["seat"]))
        return tuple(_value(v) for v in node["list"])
    if isinstance(node, bool) or not isinstance(node, int | str):
        raise ValueError(f"not a phrase value: {node!r}")
    return node


def to_json(lines: Lines) -> str:
    """The text as JSON (``{"phrases": [...]}``), to store."""
    return json.dumps(
        {"phrases": [[_node(part) for part in line] for line in lines]},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def from_json(text: str) -> Lines | None:
    """The text stored by ``to_json``; None for anything else (a text stored as words)."""
    try:
        data = json.loads(text)
        rows: Sequence[Any] = data["phrases"]
        return tuple(tuple(_value(part) for part in row) for row in rows)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
