"""A player's season as a picture: rating and ladder rank after each tournament, one
server-rendered SVG (no script: it prints, works offline and passes the CSP), described for
screen readers by its title and description; the page puts the same numbers in a table
beside it (the chart is a view of the table, never the only place a number is)."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

WIDTH, PANEL, GAP, PAD_X, PAD_Y = 640, 150, 40, 48, 18


@dataclass(frozen=True)
class ChartPoint:
    label: str
    rating: float
    sigma: float
    rank: int


def _scale(lo: float, hi: float, top: float, height: float, value: float) -> float:
    span = (hi - lo) or 1.0
    return round(top + (hi - value) * height / span, 1)


def season_chart(points: Sequence[ChartPoint], *, ladder_size: int, chart_id: str) -> SafeString:
    """The SVG: the rating μ (its band of ± σ shaded) above, the ladder rank
    below (first at the top)."""
    if not points:
        return format_html("")
    n = len(points)
    step = (WIDTH - 2 * PAD_X) / max(1, n - 1)
    xs = [round(PAD_X + i * step, 1) if n > 1 else WIDTH / 2 for i in range(n)]
    lows = [p.rating - p.sigma for p in points]
    highs = [p.rating + p.sigma for p in points]
    lo, hi = min(lows), max(highs)
    top1, top2 = PAD_Y, PAD_Y + PANEL + GAP

    def ry(v: float) -> float:
        return _scale(lo, hi, top1, PANEL, v)

    def ky(rank: int) -> float:  # rank 1 at the top
        return _scale(-ladder_size, -1, top2, PANEL, -rank)

    band = " ".join(f"{x},{ry(h)}" for x, h in zip(xs, highs, strict=True))
    band += " " + " ".join(f"{x},{ry(v)}" for x, v in reversed(list(zip(xs, lows, strict=True))))
    rating_line = " ".join(f"{x},{ry(p.rating)}" for x, p in zip(xs, points, strict=True))
    rank_line = " ".join(f"{x},{ky(p.rank)}" for x, p in zip(xs, points, strict=True))
    title = _("Rating and ladder rank after each tournament")
    last = points[-1]
    desc = _(
        "%(n)s tournaments. Rating from %(first)s to %(last)s; ladder rank from %(rank1)s "
        "to %(rank2)s of %(size)s. The table beside the chart lists every number."
    ) % {
        "n": n,
        "first": f"{points[0].rating:.1f}",
        "last": f"{last.rating:.1f}",
        "rank1": points[0].rank,
        "rank2": last.rank,
        "size": ladder_size,
    }
    rating_dots = format_html_join(
        "",
        '<circle class="rating" cx="{}" cy="{}" r="4"><title>{}: {} {}</title></circle>',
        (
            (x, ry(p.rating), p.label, _("rating"), f"{p.rating:.1f}")
            for x, p in zip(xs, points, strict=True)
        ),
    )
    rank_dots = format_html_join(
        "",
        '<circle class="rank" cx="{}" cy="{}" r="4"><title>{}: {} {}</title></circle>',
        ((x, ky(p.rank), p.label, _("rank"), p.rank) for x, p in zip(xs, points, strict=True)),
    )
    return format_html(
        '<svg class="season-chart" id="{id}" viewBox="0 0 {w} {h}" role="img" '
        'aria-labelledby="{id}-title {id}-desc">'
        '<title id="{id}-title">{title}</title><desc id="{id}-desc">{desc}</desc>'
        '<text class="axis" x="4" y="{t1}">{rating_label}</text>'
        '<text class="axis" x="4" y="{hi_y}">{hi}</text>'
        '<text class="axis" x="4" y="{lo_y}">{lo}</text>'
        '<polygon class="band" points="{band}"/>'
        '<polyline class="rating" points="{rating_line}"/>{rating_dots}'
        '<text class="axis" x="4" y="{t2}">{rank_label}</text>'
        '<text class="axis" x="4" y="{one_y}">1</text>'
        '<text class="axis" x="4" y="{last_y}">{size}</text>'
        '<polyline class="rank" points="{rank_line}"/>{rank_dots}</svg>',
        id=chart_id,
        w=WIDTH,
        h=2 * PANEL + GAP + 2 * PAD_Y,
        title=title,
        desc=desc,
        t1=top1 - 4,
        rating_label=_("Rating μ, shaded: μ ± σ"),
        hi_y=top1 + 12,
        hi=f"{hi:.0f}",
        lo_y=top1 + PANEL,
        lo=f"{lo:.0f}",
        band=band,
        rating_line=rating_line,
        rating_dots=rating_dots,
        t2=top2 - 4,
        rank_label=_("Ladder rank"),
        one_y=top2 + 12,
        last_y=top2 + PANEL,
        size=ladder_size,
        rank_line=rank_line,
        rank_dots=rank_dots,
    )
