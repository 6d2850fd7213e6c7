"""The wild rank of a physical-cards ``laizi`` hand, typed in by its referee (R11.2.1).

A hand dealt by the server (or from a board) knows its wild rank from the deal; a hand played
with physical cards learns it at the table: once the landlord is known, one rank is drawn, and
the referee types it in (a ``wild`` event). No card is played before (``wild_rank_missing``).
Typed wrong, it is typed again while no card has been played; after the first play it is
fixed (``wild_rank_fixed``: undo the plays first).
"""

from typing import Any

from django.utils.translation import gettext as _

from referee.rules.cards import rank_text
from referee.rules.errors import RulesError
from referee.rules.laizi import parse_wild
from referee.rules.profiles import get_profile
from tournaments.common.errors import ApplicationError
from tournaments.common.transactions import hand_write_atomic
from tournaments.hands.replay import HandReplay, rules_error
from tournaments.hands.write import hand_open_check
from tournaments.hands.writing import HandWrite, NewEvent, hand_write
from tournaments.models import Hand, HandEventKind


def wild_rank_text(wild: object) -> str:
    """``wild`` (one rank, 3 … 2, as card text) in canonical text, or the refusal
    (``bad_notation`` or ``invalid_wild_rank``: a joker, several cards)."""
    try:
        return rank_text(parse_wild(wild))
    except RulesError as exc:
        if exc.code == "bad_notation":
            raise rules_error(exc) from exc
        raise ApplicationError(
            "invalid_wild_rank",
            _("The wild rank is one rank from 3 to 2, never a joker (R11.2.1)."),
            extra={"rule": exc.message},
        ) from exc


@hand_write_atomic
def hand_wild_record(
    *,
    hand: Hand,
    wild: object,
    recorded_by: Any = None,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
    device_id: str = "",
) -> HandWrite:
    """Record the wild rank drawn at a physical-cards ``laizi`` table (``"7"``)."""
    profile = get_profile(hand.rule_profile)
    if not profile.wild_cards:
        raise ApplicationError(
            "no_wild_cards",
            _("The %(profile)s rules have no wild cards.") % {"profile": profile.key},
        )
    text = wild_rank_text(wild)

    def decide(locked: Hand, replay: HandReplay) -> NewEvent:
        if not locked.physical_cards:
            raise ApplicationError(
                "wild_rank_dealt",
                _(
                    "This hand's wild rank came with its deal: only a physical-cards hand's "
                    "is typed in."
                ),
            )
        hand_open_check(hand=locked)
        state = replay.state
        if replay.result_event is not None:
            raise ApplicationError("hand_closed", _("The hand's result has been entered."))
        if state is None or state.landlord is None:
            raise ApplicationError(
                "wild_before_landlord",
                _("The wild rank is drawn once the landlord is known (R11.2.1)."),
            )
        if state.plays:
            raise ApplicationError(
                "wild_rank_fixed",
                _("Cards have been played with this wild rank: undo the plays to change it."),
            )
        return NewEvent(HandEventKind.WILD, {"wild": text})

    return hand_write(
        hand=hand,
        idempotency_key=idempotency_key,
        expected_version=expected_version,
        same_request=lambda e: e.kind == HandEventKind.WILD and e.payload.get("wild") == text,
        decide=decide,
        recorded_by=recorded_by,
        device_id=device_id,
    )
