"""A hand in words, in the reader's language: the one wording of its actions (bids,
doubles, plays, 报牌), of every other event of its log (results, corrections, overrides,
voids, confirmations, disputes, deals written in, keeps, undos), of a result's fields and
of a stake's factors. The public replay and the director's log both read it, so both say
the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from referee.rules.cards import RANK_CHARS, SMALL_JOKER, Card, parse_cards
from referee.rules.errors import RulesError
from referee.rules.scoring import DefenderStake, StakeFactor
from tournaments.common.seat_names import seat_name
from tournaments.common.seats import SEAT_COUNTS
from tournaments.hands.game_words import plays_big3
from tournaments.hands.replay import RULES_MESSAGES, result_replaced
from tournaments.models import RuleProfileKey

# --------------------------------------------------------------------------- actions


def rank_label(rank: int) -> str:
    """A rank as players say it: 3 … 10, J, Q, K, A, 2 (jokers: ``card_words``)."""
    text = RANK_CHARS[rank]
    return "10" if text == "T" else text


def card_words(card: Card) -> str:
    """One card as text: "♠10", "♥3", "3" (suit unknown), the jokers by name."""
    if card.rank == SMALL_JOKER:
        return _("Small joker")
    if card.rank > SMALL_JOKER:
        return _("Big joker")
    return f"{card.suit or ''}{rank_label(card.rank)}"


def cards_words(text: str | None) -> str:
    """Cards as the log writes them, in words ("?" for cards not shown or unreadable)."""
    if text is None:
        return "?"
    try:
        return " ".join(card_words(card) for card in parse_cards(text))
    except (RulesError, ValueError):  # a page shows whatever the log holds
        return text


def action_words(kind: str, value: Any = None) -> str:
    """What a seat did, without the seat: ``kind`` is a replay step's (bid, double,
    redouble, pass, play, announce, announce_missing); ``value`` the bid, the declaration,
    the cards as written or the cards left."""
    if kind == "bid":
        return _("bids %(n)s (叫分)") % {"n": value} if value else _("does not bid (不叫)")
    if kind == "double":
        return _("doubles (加倍)") if value else _("does not double (不加倍)")
    if kind == "redouble":
        return _("redoubles (再加倍)") if value else _("does not redouble")
    if kind == "pass":
        return _("passes (不要)")
    if kind == "forced_dig":  # big3_one_round: nobody bid, the first bidder digs (R12.5.3)
        return _("digs at %(n)s: nobody bid (烂挖)") % {"n": value}
    if kind == "play":
        return _("plays %(cards)s") % {"cards": cards_words(value)}
    if kind == "call":  # six players: the partner card (R13.4), or none: alone (R13.5)
        if value == "none":
            return _("calls no partner card: plays alone (R13.5)")
        return _("calls the partner card %(card)s (叫牌)") % {"card": value}
    if kind == "partner":  # six players, physical cards: shown at the end (R13.8)
        return _("shows the partner card: the partner (暗地主)")
    if kind == "announce":
        return ngettext(
            "announces %(n)s card left (报牌)", "announces %(n)s cards left (报牌)", value or 0
        ) % {"n": value}
    if kind == "announce_missing":
        return ngettext(
            "did not announce %(n)s card left", "did not announce %(n)s cards left", value or 0
        ) % {"n": value}
    return str(kind)


def action_step(action: Mapping[str, Any]) -> tuple[str, Any]:
    """An action's JSON form (the log's payload) as (step kind, value) for ``action_words``."""
    if "bid" in action:
        return "bid", action["bid"]
    if "double" in action:
        return "double", action["double"]
    if "redouble" in action:
        return "redouble", action["redouble"]
    if "call" in action:
        return "call", action["call"]
    if "partner" in action:
        return "partner", True
    if action.get("play") == "pass":
        return "pass", None
    return "play", action.get("play")


def declared_play_words(cards: str | None, declared: str) -> str:
    """ "plays 7 7 K → K K K (癞子)": a play with wild cards and what they stood for (the
    action's ``as``, SPEC §11.2)."""
    return _("plays %(cards)s → %(declared)s (癞子)") % {
        "cards": cards_words(cards),
        "declared": cards_words(declared),
    }


def seat_action_words(action: Mapping[str, Any]) -> str:
    """ "South (南) · seat 1 bids 2 (叫分)": an action with its seat; a declared play
    with what its wild cards stood for."""
    declared = action.get("as")
    if isinstance(declared, str) and action.get("play") not in (None, "pass"):
        words = declared_play_words(action.get("play"), declared)
    else:
        words = action_words(*action_step(action))
    return _("%(seat)s %(action)s") % {"seat": seat_name(action.get("seat")), "action": words}


# --------------------------------------------------------------------------- results

#: A result's fields as the correction form and an override name them.
_FIELDS = {
    "passed_out": lambda: _("passed out (流局)"),
    "landlord": lambda: _("landlord (地主)"),
    "bid": lambda: _("bid (叫分)"),
    "winner": lambda: _("winner"),
    "doubled": lambda: _("doubled (加倍)"),
    "redoubled": lambda: _("redoubled (再加倍)"),
    "bombs": lambda: _("bombs (炸弹)"),
    "rockets": lambda: _("rockets (火箭)"),
    "spring": lambda: _("spring (春天)"),
    "anti_spring": lambda: _("anti-spring (反春)"),
}


def field_words(name: str) -> str:
    """A result field's name in words."""
    label = _FIELDS.get(name)
    return label() if label is not None else name


def value_words(name: str, value: Any) -> str:
    """A result field's value in words: seats by name, the winner by side, yes / no."""
    if value is None:
        return "—"
    if name == "landlord":
        return seat_name(value)
    if name == "winner":
        return _("the landlord") if value == "landlord" else _("the farmers (农民)")
    if name == "doubled":
        seats = [seat_name(seat) for seat, doubled in enumerate(value) if doubled]
        return _(", ").join(seats) if seats else _("nobody")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def change_words(change: Mapping[str, Any]) -> dict[str, str]:
    """An override's change (``HandReplay.override_changes``) in words: the field, what
    the log says and what the override says."""
    name = change["field"]
    return {
        "field": name,
        "label": field_words(name),
        "log": value_words(name, change["log"]),
        "override": value_words(name, change["override"]),
    }


def result_words(result: Mapping[str, Any], profile_key: str | None = None) -> str:
    """A result (a result entry's or a correction's) in one line; a Big Three hand's
    (``profile_key``) in its own words: the digger (挖坑者), the bid, who won."""
    if plays_big3(profile_key):
        won = _("the digger") if result.get("winner") == "landlord" else _("the opponents")
        return _("digger %(seat)s, bid %(bid)s, %(winner)s won") % {
            "seat": seat_name(result.get("landlord")),
            "bid": result.get("bid"),
            "winner": won,
        }
    parts = [
        _("landlord %(seat)s, bid %(bid)s, %(winner)s won")
        % {
            "seat": seat_name(result.get("landlord")),
            "bid": result.get("bid"),
            "winner": value_words("winner", result.get("winner")),
        }
    ]
    doubled = result.get("doubled") or []
    if any(doubled):
        parts.append(_("doubled: %(seats)s") % {"seats": value_words("doubled", doubled)})
    if result.get("redoubled"):
        parts.append(_("redoubled (再加倍)"))
    bombs, rockets = result.get("bombs") or 0, result.get("rockets") or 0
    if bombs:
        parts.append(ngettext("%(n)s bomb (炸弹)", "%(n)s bombs (炸弹)", bombs) % {"n": bombs})
    if rockets:
        parts.append(_("the rocket (火箭)"))
    if result.get("spring"):
        parts.append(_("spring (春天)"))
    if result.get("anti_spring"):
        parts.append(_("anti-spring (反春)"))
    return _("; ").join(parts)


def _scores_words(scores: Any) -> str:
    if not isinstance(scores, list | tuple) or len(scores) not in SEAT_COUNTS:
        return ""
    return _("scores %(scores)s") % {"scores": " / ".join(str(s) for s in scores)}


# --------------------------------------------------------------------------- stakes


def rule_profile_label(key: str) -> str:
    """A rule profile's name in the reader's language; an unknown key as it is."""
    try:
        return str(RuleProfileKey(key).label)
    except ValueError:
        return key


def factor_words(factor: StakeFactor) -> str:
    """What a stake factor stands for: "2 bombs", "spring", "doubled" …"""
    n = factor.count
    if factor.kind == "bombs":
        return ngettext("%(n)s bomb", "%(n)s bombs", n) % {"n": n}
    if factor.kind == "rockets":
        return _("the rocket")
    if factor.kind == "spring":
        return _("spring")
    if factor.kind == "anti_spring":
        return _("anti-spring")
    if factor.kind == "events":
        return ngettext(
            "1 + %(n)s bomb, rocket or spring", "1 + %(n)s bombs, rockets or springs", n
        ) % {"n": n}
    if factor.kind == "soft_bombs":
        return ngettext("%(n)s soft bomb", "%(n)s soft bombs", n) % {"n": n}
    if factor.kind == "hard_bombs":
        return ngettext("%(n)s hard bomb", "%(n)s hard bombs", n) % {"n": n}
    if factor.kind == "pure_wild_bombs":
        return ngettext("%(n)s pure-wild bomb", "%(n)s pure-wild bombs", n) % {"n": n}
    if factor.kind == "doubled":
        return _("doubled")
    if factor.kind == "redoubled":
        return _("redoubled")
    return str(factor.kind)


def stake_words(stake: DefenderStake) -> str:
    """ "2 × 4 (2 bombs) × 2 (spring) = 16": a defender's stake, factor by factor, as the
    hand's rule profile counts them; with the cap where it applies."""
    terms = [_("%(value)s (bid)") % {"value": stake.bid}]
    terms += [
        _("%(value)s (%(what)s)") % {"value": f.value, "what": factor_words(f)}
        for f in stake.factors
    ]
    text = " × ".join(terms)
    if stake.factors:
        text += f" = {stake.product}"
    if stake.capped:
        text += _(", capped at %(cap)s") % {"cap": stake.value}
    return text


# --------------------------------------------------------------------------- the log


@dataclass(frozen=True, slots=True)
class LogLine:
    """One event of a hand's log in words."""

    seq: int
    kind: str
    text: str
    recorded_by: str = ""
    recorded_at: datetime | None = None
    device_id: str = ""


def _reason(payload: Mapping[str, Any]) -> str:
    reason = payload.get("reason")
    return " " + _("Reason: %(reason)s") % {"reason": reason} if reason else ""


def event_words(
    kind: str,
    payload: Mapping[str, Any],
    *,
    actor_seat: int | None = None,
    undone: Mapping[str, Any] | None = None,
    entry_names: Mapping[int, str] | None = None,
    profile_key: str | None = None,
) -> str:
    """One log event in words. ``undone``: for an undo, the payload of the event it took
    back (to say that the hand reopens); ``entry_names``: entry id → name, for a seat
    correction; ``profile_key``: the hand's rules, whose words a result is said in."""
    names = entry_names or {}
    if kind in ("bid", "double", "redouble", "play", "call", "partner"):
        text = seat_action_words(payload.get("action") or {})
        if payload.get("reveals_partner"):  # six players: he is public from here (R13.11)
            text += _(" — the partner (暗地主) is revealed")
        if payload.get("closes"):
            text += _(" — the hand is over")
        return text
    if kind in ("announce", "announce_missing"):
        seat = payload.get("seat", actor_seat)
        return _("%(seat)s %(action)s") % {
            "seat": seat_name(seat),
            "action": action_words(kind, payload.get("cards_left")),
        }
    if kind == "result":
        return (
            _("Result entered: %(result)s; %(scores)s")
            % {
                "result": result_words(payload.get("result") or {}, profile_key),
                "scores": _scores_words(payload.get("scores")),
            }
        ).rstrip("; ")
    if kind == "pass_out":
        return _("Passed out (流局): nobody bid, 0 for every seat.")
    if kind == "void":
        return _("Hand voided.") + _reason(payload)
    if kind == "correction":
        if payload.get("passed_out"):
            text = _("Result corrected: passed out (流局), 0 for every seat.")
        else:
            text = _("Result corrected: %(result)s; %(scores)s") % {
                "result": result_words(payload.get("result") or {}, profile_key),
                "scores": _scores_words(payload.get("scores")),
            }
        if payload.get("override"):
            text = _("Director override of the log. %(correction)s (the log says: %(log)s)") % {
                "correction": text,
                "log": _log_result_words(payload.get("log_result") or {}, profile_key),
            }
        return text + _reason(payload)
    if kind == "undo":
        text = _("Undone: %(action)s.") % {"action": seat_action_words(payload.get("action") or {})}
        if undone is not None and undone.get("closes"):
            text += " " + _("The hand is open again.")
        return text + _reason(payload)
    if kind == "wild":
        return _("Wild rank drawn (癞子): %(rank)s.") % {"rank": cards_words(payload.get("wild"))}
    if kind == "deal":
        return deal_check_words(payload.get("check") or {})
    if kind == "confirm":
        if payload.get("keep"):
            return _("Kept as played, though the deal written in does not fit the log.") + (
                _reason(payload)
            )
        if payload.get("by") == "players":
            seats = [seat_name(s) for s in payload.get("seats") or []]
            return _("Confirmed by the players' PINs: %(seats)s.") % {"seats": _(", ").join(seats)}
        return _("Confirmed by a second official.")
    if kind == "dispute":
        if payload.get("irregular"):
            return _("Held back: the deal written in does not fit the log.")
        return _("Disputed.") + _reason(payload)
    if kind == "seat_correction":
        return _("Seat corrected: table %(table)s, %(seat)s: %(old)s → %(new)s.") % {
            "table": payload.get("table"),
            "seat": seat_name(payload.get("position")),
            "old": _entry(names, payload.get("old_entry")),
            "new": _entry(names, payload.get("new_entry")),
        } + _reason(payload)
    if kind == "note":
        text = payload.get("text") or payload.get("note") or ""
        return _("Note: %(text)s") % {"text": text} if text else _("Note.")
    return str(kind)


def _entry(names: Mapping[int, str], entry_id: Any) -> str:
    if entry_id is None:
        return "—"
    return names.get(entry_id, f"#{entry_id}")


def _log_result_words(logged: Mapping[str, Any], profile_key: str | None = None) -> str:
    if logged.get("passed_out"):
        return _("passed out (流局)")
    return result_words(logged, profile_key)


def deal_check_words(check: Mapping[str, Any]) -> str:
    if check.get("ok"):
        return _("Deal written in: the whole log fits it.")
    explain = RULES_MESSAGES.get(str(check.get("code")))
    return _("Deal written in: action %(index)s does not fit it (%(why)s).") % {
        "index": (check.get("index") or 0) + 1,
        "why": (explain() if explain is not None else str(check.get("rule", ""))).rstrip("。."),
    }


def log_lines(
    events: Iterable[Mapping[str, Any]],
    *,
    entry_names: Mapping[int, str] | None = None,
    profile_key: str | None = None,
) -> list[LogLine]:
    """A hand's log (rows as ``hand_selectors.hand_detail`` gives them) in words, in the
    words of the hand's rules (``profile_key``: Big Three's digger)."""
    rows = list(events)
    by_seq = {row["seq"]: row for row in rows}
    # a confirmation before a later result confirmed an earlier one: history, said so
    replaced = max(
        (row["seq"] for row in rows if result_replaced(row["kind"], row.get("payload") or {})),
        default=0,
    )
    out = []
    for row in rows:
        payload = row.get("payload") or {}
        undone = by_seq.get(payload.get("undone_seq")) if row["kind"] == "undo" else None
        text = event_words(
            row["kind"],
            payload,
            actor_seat=row.get("actor_seat"),
            undone=(undone or {}).get("payload"),
            entry_names=entry_names,
            profile_key=profile_key,
        )
        if row["kind"] == "confirm" and row["seq"] < replaced:
            text += " " + _("(It confirmed an earlier result, since replaced.)")
        out.append(
            LogLine(
                seq=row["seq"],
                kind=row["kind"],
                text=text,
                recorded_by=row.get("recorded_by") or "",
                recorded_at=parse_datetime(row.get("recorded_at") or ""),
                device_id=row.get("device_id") or "",
            )
        )
    return out
