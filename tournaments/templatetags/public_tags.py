"""Template helpers of the public pages: cards shown as cards, seat names, the score chart."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from referee.rules.cards import RANK_CHARS, SMALL_JOKER, Card
from referee.rules.scoring import DefenderStake
from tournaments.common.player_names import display_name
from tournaments.common.seat_names import seat_name
from tournaments.hands.game_words import game_word as game_word_text
from tournaments.hands.game_words import plays_big3
from tournaments.hands.replay import six_state
from tournaments.hands.words import (
    action_words,
    change_words,
    deal_check_words,
    rank_label,
    rule_profile_label,
    stake_words,
)
from tournaments.standings.public_table import percentage_text, tiebreak_text

register = template.Library()

_RED_SUITS = frozenset("♥♦")


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
        rank_label(c.rank),
        c.suit or "",
    )


@register.simple_tag
def cards(cs: Iterable[Card] | None) -> SafeString:
    if cs is None:
        return format_html('<span class="muted">{}</span>', "?")
    return format_html(
        '<span class="cards">{}</span>', format_html_join("", "{}", ((card(c),) for c in cs))
    )


@register.filter
def player_name(entry: object) -> str:
    player = entry.player  # type: ignore[attr-defined]
    return display_name(player.name, player.chinese_name)


@register.simple_tag
def standings_rows(table: Any, slug: str) -> SafeString:
    """The standings' body rows (``standings_row_list``), one a line."""
    return mark_safe("\n".join(standings_row_list(table, slug)))  # each row escaped


def standings_row_list(table: Any, slug: str) -> list[str]:
    """The standings' body rows, one string each, built in Python: the template engine
    spends about a millisecond per row of a dozen cells, too slow for a 3,000-player page
    (bench/pages_bench.py); here every value is still escaped."""
    player_url = reverse("public:player", args=[slug, 0])[:-2]  # ".../players/" + id + "/"
    movement = table.movement
    duplicate = table.duplicate
    tiebreaks = table.tiebreaks
    out = []
    for row in table.rows:
        cells = [f'<tr><td class="num rank">{row["rank"]}</td>']
        if movement:
            move = movement.get(row["entry_id"])
            if move is None:
                cells.append("<td></td>")
            elif move > 0:
                cells.append(f'<td class="num"><span class="move-up">▲{move}</span></td>')
            elif move < 0:
                cells.append(f'<td class="num"><span class="move-down">▼{-move}</span></td>')
            else:
                cells.append('<td class="num"><span class="muted">=</span></td>')
        cells.append(
            f'<td class="player"><a href="{player_url}{row["entry_id"]}/">'
            f"{escape(display_name(row['name'], row['chinese_name']))}</a></td>"
            f'<td class="club">{escape(row["club"])}</td>'
            f'<td class="num total">{row["total"]}</td>'
        )
        if duplicate:
            cells.append(f'<td class="num">{percentage_text(row["mp_percentage"])}</td>')
        cells.append(
            f'<td class="num">{row["hands_played"]}</td>'
            f'<td class="num">{row["landlord_wins"]}/{row["landlord_hands"]}</td>'
        )
        values = row["tiebreaks"] or {}
        for name in tiebreaks:
            text = escape(tiebreak_text(name, values.get(name)))
            cells.append(f'<td class="num tiebreak">{text}</td>')
        cells.append("</tr>")
        out.append("".join(cells))
    return out  # every value above is escaped or a number


@register.filter
def at(values: Sequence[object] | None, index: int) -> object:
    if values is None or index is None:
        return None
    try:
        return values[index]
    except (IndexError, TypeError):
        return None


@register.simple_tag
def seat_label(position: int | None) -> str:
    """A seat as every page names it: its wind and its number (``seat_names``)."""
    return seat_name(position)


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
        pass
    # a secret board's hand: only in play or closed (card_secrecy.status_shown)
    secret = {"in_play": pgettext("hand", "in play"), "closed": pgettext("hand", "played")}
    return secret.get(status, status)


@register.simple_tag
def players_count(active: int, withdrawn: int = 0, *, noun: bool = True) -> str:
    """Players who play, and the withdrawn apart: "12 players (1 withdrawn)" ("12 (1
    withdrawn)" without ``noun``, under a "Players" heading)."""
    text = (
        ngettext("%(n)s player", "%(n)s players", active) % {"n": active} if noun else str(active)
    )
    if withdrawn:
        text = _("%(players)s (%(n)s withdrawn)") % {"players": text, "n": withdrawn}
    return text


@register.filter
def rank_text_label(text: str) -> str:
    """A rank written in notation ("T", "7": a laizi hand's wild rank) as players say it
    ("10", "7"); anything else as it is."""
    if isinstance(text, str) and len(text) == 1 and text in RANK_CHARS:
        return rank_label(RANK_CHARS.index(text))
    return str(text)


@register.simple_tag
def action_text(kind: str, value: object = None) -> str:
    """A replay step's action in words (``hand_words``: the director's log says the same)."""
    return action_words(kind, value)


@register.simple_tag
def stake_calc(stake: DefenderStake) -> str:
    """A farmer's stake factor by factor: "2 (bid) × 4 (2 bombs) × 2 (spring) = 16"."""
    return stake_words(stake)


@register.filter
def override_change(change: dict[str, object]) -> dict[str, str]:
    """An override's change in words: ``label``, ``log``, ``override``."""
    return change_words(change)


@register.filter
def deal_check(check: dict[str, object]) -> str:
    """A written-in deal's check in words."""
    return deal_check_words(check)


@register.simple_tag
def game_word(name: str, profile_key: str | None) -> str:
    """A word as the game of the rule profile says it: the landlord (地主) or, in Big Three,
    the digger (挖坑者); the kitty (底牌) or the hole (坑) … (``hands.game_words``)."""
    return game_word_text(name, profile_key)


@register.filter
def is_big3(profile_key: str | None) -> bool:
    """Whether the rule profile plays Big Three (大三 / 挖坑, SPEC §12)."""
    return plays_big3(profile_key)


@register.filter
def profile_label(key: str) -> str:
    """A rule profile's name in the page's language (comp2016 → 竞技规则 2016 …)."""
    return rule_profile_label(key)


@register.filter
def absolute(value: int) -> int:
    """|value|: what a signed number's noun agrees with ("−1 point", "−5 points")."""
    return abs(value)


@register.filter
def at_key(mapping: dict[object, object] | None, key: object) -> object:
    return None if mapping is None else mapping.get(key)


@register.simple_tag
def round_of(number: int, planned: int) -> str:
    """A round's place in the plan: "Round 2 of 5"; beyond the plan, or none, "Round 7"
    (and how many were planned)."""
    if not planned:
        return _("Round %(number)s") % {"number": number}
    if number <= planned:
        return _("Round %(number)s of %(planned)s") % {"number": number, "planned": planned}
    return _("Round %(number)s (%(planned)s planned)") % {"number": number, "planned": planned}


@register.simple_tag
def rounds_left(made: int, planned: int) -> str:
    """What is left of the plan: "3 rounds of 5 made, 2 to go"; "" when not planned."""
    if not planned:
        return ""
    left = max(0, planned - made)
    return ngettext(
        "%(made)s of %(planned)s rounds made, %(left)s to go",
        "%(made)s of %(planned)s rounds made, %(left)s to go",
        left,
    ) % {"made": made, "planned": planned, "left": left}


@register.filter
def signed(value: object) -> str:
    """A score with its sign: "+12", "-18", "0" (a value that is no number as it is)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}" if value else "0"
    return "" if value is None else str(value)


@register.simple_tag
def seat_scores(scores: Sequence[int] | None) -> SafeString:
    """A hand's scores seat by seat, signed: "East (东) · seat 0 +12 · South (南) · seat 1
    -6 …" (``seat_name``, ``signed``); "—" before the hand has scores."""
    if scores is None:
        return format_html('<span class="muted">{}</span>', "—")
    return format_html(
        '<span class="seat-scores">{}</span>',
        format_html_join(
            " · ",
            '<span class="seat-score" data-position="{}">{} <b class="num">{}</b></span>',
            (
                (position, seat_name(position), signed(score))
                for position, score in enumerate(scores)
            ),
        ),
    )


def live_card_html(*, tournament: Any, row: Any) -> str:
    """One table's card of the live board (``views.live_cards``), built in Python as the
    standings' rows are: with the template engine, a board of 334 tables of which a fifth
    moved (what moves in a second at ``event_load.py``'s pace) took 99 ms of CPU, here 53 ms;
    all 334 moved: 451 -> 233 ms (``bench/poll_bench.py --tables 334``, moved 66 and 334).
    Every value is escaped here."""
    profile = tournament.rule_profile
    summary = row.replay.summary if row.replay is not None else {}
    landlord = summary.get("landlord_seat")
    partner = summary.get("partner_seat")  # six players: public only (R13.11)
    state = row.replay.state if row.replay is not None else None
    six_hand = six_state(state)  # dealt, or from physical cards
    six = six_hand.public_view() if six_hand is not None else None
    hand = row.hand
    title = escape(_("Table %(number)s") % {"number": row.number})
    out = [
        f'<section class="table-card live" data-table="{row.number}" '
        f'data-table-id="{row.table_id}">\n<h2>{title}'
    ]
    if hand is not None:
        url = reverse("public:hand", args=[tournament.slug, hand.pk])
        number = escape(_("hand %(number)s") % {"number": hand.number})
        out.append(
            f' <small>· <a href="{url}">{number}</a> · '
            f'<span class="phase">{escape(phase_label(row.status))}</span></small>'
        )
    out.append("</h2>\n<table>\n<tbody>\n")
    cards_left_title = escape(_("cards left"))
    for seat in row.seats:
        is_landlord = landlord == seat.position
        is_partner = partner is not None and partner == seat.position
        badge = (
            f' <span class="badge">{escape(game_word_text("landlord", profile))}</span>'
            if is_landlord
            else f' <span class="badge partner">{escape(_("partner (暗地主)"))}</span>'
            if is_partner
            else ""
        )
        left = at(row.cards_left, seat.position)
        out.append(
            (
                '<tr class="landlord">'
                if is_landlord
                else '<tr class="partner">'
                if is_partner
                else "<tr>"
            )
            + f"<th>{escape(seat_name(seat.position))}</th>"
            f"<td>{escape(seat.name)}{badge}</td>"
            f'<td class="num cards-left" title="{cards_left_title}">'
            f"{'' if left is None else escape(left)}</td></tr>\n"
        )
    out.append("</tbody>\n</table>\n")
    if row.secret:
        text = escape(_("This board is shown once every table has played it."))
        out.append(f'<p class="muted board-secret">{text}</p>\n')
    elif hand is not None:
        out.append('<p class="live-facts">\n')
        if six is not None:  # no bid: the face-up card and the call (R13.3, R13.4)
            facts = []
            if six["face_up"] is not None:  # physical cards: not entered
                face_up = escape(_("Face-up card"))
                facts.append(f'{face_up}: <b class="face-up">{escape(six["face_up"])}</b>')
            if six["alone"]:
                facts.append(f'<span class="alone">{escape(_("the landlord plays alone"))}</span>')
            elif six["partner_card"]:
                called = escape(_("Partner card"))
                facts.append(f'{called}: <b class="partner-card">{escape(six["partner_card"])}</b>')
            out.append(" · ".join(facts))
        elif summary.get("bid"):
            out.append(f'{escape(_("Bid"))}: <b class="bid">{escape(summary["bid"])}</b>')
            if row.stakes:
                stakes = " ·".join(
                    f' <span class="stake" data-seat="{stake.seat}" '
                    f'title="{escape(stake_words(stake))}">'
                    f"{escape(seat_name(stake.seat))} <b>{stake.value}</b></span>"
                    for stake in row.stakes
                )
                out.append(f" · {escape(game_word_text('stake', profile))}:{stakes}")
        else:
            no_landlord = escape(game_word_text("no_landlord", profile))
            out.append(f'<span class="muted">{no_landlord}</span>')
        if row.wild:
            wild = escape(rank_text_label(row.wild))
            out.append(f' · {escape(_("Wild (癞子)"))}: <b class="wild">{wild}</b>')
        out.append("\n</p>\n")
        if row.last_play:
            seat, played = row.last_play
            out.append(
                f'<p class="last-play">{escape(_("Last play"))} '
                f"({escape(seat_name(seat))}): {cards(played)}"
            )
            if row.last_declared:
                title = escape(_("what the wild cards stood for"))
                out.append(
                    f' <span class="declared" title="{title}">→ {cards(row.last_declared)}</span>'
                )
            if row.passes:
                passes = ngettext("%(n)s pass", "%(n)s passes", row.passes) % {"n": row.passes}
                out.append(f' <span class="muted">{escape(passes)}</span>')
            out.append("</p>\n")
        if hand.scores is not None:
            scores = escape(" / ".join(str(s) for s in hand.scores))
            out.append(f'<p class="scores">{escape(_("Scores"))}: {scores}</p>\n')
    else:
        out.append(f'<p class="muted">{escape(_("Waiting for the first hand."))}</p>\n')
    out.append("</section>\n")
    return "".join(out)
