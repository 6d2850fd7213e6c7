"""A table as its referee's phone lists it: its seats and every hand it has played this
round, each with its state (the results desk's states), who confirmed it and its scores.

No card is read here: a hand's cards come only through ``hand_selectors.hand_detail``,
as ``card_secrecy`` allows."""

from collections import defaultdict
from typing import Any

from tournaments.hands.gate import hand_desk_state
from tournaments.hands.replay import HandReplay, hand_replay, result_confirm_event
from tournaments.hands.selectors import hand_irregular, hand_mode, seat_row
from tournaments.models import ConfirmedBy, Hand, HandEvent, Seat, Table


def table_hands(*, table: Table) -> dict[str, Any]:
    """``table`` (with its round and tournament) and its hands, oldest first: one query
    for the hands, one for all their events (each hand replayed from them), one for the
    seats."""
    seats = list(
        Seat.objects.filter(table=table).select_related("entry__player").order_by("position")
    )
    hands = list(Hand.objects.filter(table=table).select_related("board").order_by("number"))
    events: dict[int, list[HandEvent]] = defaultdict(list)
    for event in (
        HandEvent.objects.filter(hand__table=table)
        .select_related("recorded_by")
        .order_by("hand_id", "seq")
    ):
        events[event.hand_id].append(event)
    rows = []
    for hand in hands:
        hand.table = table
        rows.append(_hand_row(hand, hand_replay(hand=hand, events=events[hand.pk]), seats))
    return {
        "table_id": table.pk,
        "tournament": table.round.tournament.slug,
        "tournament_name": table.round.tournament.name,
        "round": table.round.number,
        "table": table.number,
        "confirmed_by": table.round.tournament.confirmed_by,
        "seats": [seat_row(seat) for seat in seats],
        "hands": rows,
        "awaiting_confirmation": [
            {"id": row["id"], "number": row["number"]} for row in rows if row["state"] == "awaiting"
        ],
    }


def _hand_row(hand: Hand, replay: HandReplay, seats: list[Seat]) -> dict[str, Any]:
    summary = replay.summary
    state = hand_desk_state(hand, irregular=replay.irregular is not None)
    confirmed_by, confirmer = (
        _confirmation(hand, replay, seats) if state == "confirmed" else (None, "")
    )
    return {
        "id": hand.pk,
        "number": hand.number,
        "board": hand.board.number if hand.board is not None else None,
        "mode": hand_mode(hand),
        "status": summary["status"],
        "confirmation": summary["confirmation"],
        "state": state,
        "counts": hand.counts,
        "landlord": summary["landlord_seat"],
        "winner": summary["winner"] or None,
        "scores": summary["scores"],
        "confirmed_by": confirmed_by,
        "confirmer": confirmer,
        "irregular": hand_irregular(replay=replay),
        "overridden": replay.override is not None,
    }


def _confirmation(hand: Hand, replay: HandReplay, seats: list[Seat]) -> tuple[str, str]:
    """Who confirmed a confirmed hand's current result (``result_confirm_event``):
    ``official`` and the user name (a director's *keep as played* too), or ``players`` and
    their names."""
    event = result_confirm_event(hand=hand, events=replay.events)
    if event is None:
        return ConfirmedBy.OFFICIAL.value, ""
    if event.payload.get("by") == ConfirmedBy.PLAYERS:
        names = {seat.entry.registration_order: seat.entry.player.name for seat in seats}
        registrations = event.payload.get("registrations", [])
        return ConfirmedBy.PLAYERS.value, ", ".join(names.get(n, f"#{n}") for n in registrations)
    user = event.recorded_by
    return ConfirmedBy.OFFICIAL.value, user.get_username() if user is not None else ""
