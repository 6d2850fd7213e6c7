"""Template helpers of the public pages: cards shown as cards, seat names, the score chart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from referee.rules.cards import RANK_CHARS, SMALL_JOKER, Card

register = template.Library()

_RED_SUITS = frozenset("♥♦")


def _rank_label(rank: int) -> str:
    text = RANK_CHARS[rank]
    return "10" if text == "T" else text


@register.simple_tag
def card(c: Card) -> SafeString:
    """One card: rank and suit (where known); jokers as 小王/大王 (small/big joker)."""
    if c.rank >= SMALL_JOKER:
        small = c.rank == SMALL_JOKER
        return format_html(
            '<span class="card joker {}" title="{}">{}</span>',
            "small" if small else "big",
            _("small joker (小王)") if small else _("big joker (大王)"),
            _("Small joker") if small else _("Big joker"),
        )
    colour = "red" if c.suit in _RED_SUITS else "black"
    return format_html(
        '<span class="card {}"><b>{}</b>{}</span>',
        colour if c.suit else "nosuit",
        _rank_label(c.rank),
        c.suit or "",
    )


@register.simple_tag
def cards(cs: Iterable[Card] | None) -> SafeString:
    if cs is None:
        return format_html('<span class="muted">?</span>')
    return format_html(
        '<span class="cards">{}</span>', format_html_join("", "{}", ((card(c),) for c in cs))
    )


@register.filter
def player_name(entry: object) -> str:
    """The name as entered: the Chinese name, then the Latin one."""
    player = entry.player  # type: ignore[attr-defined]
    if player.chinese_name and player.chinese_name != player.name:
        return f"{player.chinese_name} {player.name}"
    return str(player.name)


@register.filter
def at(values: Sequence[object] | None, index: int) -> object:
    if values is None or index is None:
        return None
    try:
        return values[index]
    except (IndexError, TypeError):
        return None


@register.simple_tag
def seat_label(position: int) -> str:
    """Seats named as players know them: East, South, West with the seat number."""
    names = (_("East (东)"), _("South (南)"), _("West (西)"))
    return f"{names[position]}" if 0 <= position < 3 else str(position)


@register.simple_tag
def line_chart(
    points: Sequence[int], *, width: int = 640, height: int = 200, label: str = ""
) -> SafeString:
    """A server-rendered SVG line chart of ``points`` (e.g. the running score), with a zero
    line; no script needed, so it prints and works offline."""
    if not points:
        return format_html("")
    pad = 24
    lo, hi = min(0, *points), max(0, *points)
    span = (hi - lo) or 1
    step = (width - 2 * pad) / max(1, len(points) - 1)

    def y(v: int) -> float:
        return round(pad + (hi - v) * (height - 2 * pad) / span, 1)

    coords = " ".join(f"{round(pad + i * step, 1)},{y(v)}" for i, v in enumerate(points))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3"><title>{}: {}</title></circle>',
        ((round(pad + i * step, 1), y(v), i + 1, v) for i, v in enumerate(points)),
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<line class="zero" x1="{pad}" x2="{x2}" y1="{zy}" y2="{zy}"/>'
        '<text x="2" y="{ty}">{hi}</text><text x="2" y="{by}">{lo}</text>'
        '<polyline points="{coords}"/>{dots}</svg>',
        w=width,
        h=height,
        label=label,
        pad=pad,
        x2=width - pad,
        zy=y(0),
        ty=pad,
        by=height - pad + 12,
        hi=hi,
        lo=lo,
        coords=coords,
        dots=dots,
    )


@register.filter
def phase_label(status: str) -> str:
    """A hand's status in the page's language (叫分, 加倍, 出牌 …)."""
    from tournaments.models import HandStatus

    try:
        return str(HandStatus(status).label)
    except ValueError:
        return status


@register.filter
def at_key(mapping: dict[object, object] | None, key: object) -> object:
    return None if mapping is None else mapping.get(key)
