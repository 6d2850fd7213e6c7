"""Shared helpers of the rules tests: deals built from rank text, state snapshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.rules import Card, Deal, HandState, parse_ranks

REPO_ROOT = Path(__file__).resolve().parents[2]
#: The repository's copy of the conformance vectors (tests/rules/test_rule_documents.py).
VECTORS_DIR = REPO_ROOT / "docs" / "rules" / "vectors"

ORDER = "3456789TJQKA2XD"
PACK_TEXT = "".join(ch * 4 for ch in ORDER[:13]) + "XD"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card(r) for r in parse_ranks(text))


def remove(pool: list[int], text: str) -> None:
    for r in parse_ranks(text):
        pool.remove(r)  # ValueError: the scenario asks for a card the pack does not have


def build_deal(
    hands: dict[int, str], *, landlord: int = 0, first_bidder: int | None = None
) -> Deal:
    """A rank-only deal from partial hands. ``hands[landlord]`` is written as the landlord's 20
    cards (his 17 plus the kitty: the last three cards written, or the highest cards filled in);
    the other seats get 17. The rest of the pack fills the hands, lowest cards first.
    """
    pool = sorted(parse_ranks(PACK_TEXT))
    full: dict[int, list[int]] = {}
    for seat, text in hands.items():
        remove(pool, text)
        full[seat] = list(parse_ranks(text)) if seat != landlord else list(_written(text))
    for seat in (landlord, (landlord + 1) % 3, (landlord + 2) % 3):
        hand = full.setdefault(seat, [])
        size = 20 if seat == landlord else 17
        assert len(hand) <= size, (seat, hand)
        while len(hand) < size:
            hand.append(pool.pop(0))
    assert not pool
    twenty = full[landlord]
    kitty, full[landlord] = twenty[-3:], twenty[:-3]
    return Deal(
        hands=tuple(tuple(Card(r) for r in sorted(full[s])) for s in range(3)),  # type: ignore[arg-type]
        kitty=tuple(Card(r) for r in kitty),
        first_bidder=landlord if first_bidder is None else first_bidder,
    )


def _written(text: str) -> list[int]:
    """Ranks in the order written (parse_ranks sorts; the kitty is the last three written)."""
    return [r for ch in text.replace("10", "T") for r in parse_ranks(ch)]


def snapshot(state: HandState) -> dict[str, Any]:
    """Everything observable about a hand state."""
    return {
        "summary": state.summary(),
        "phase": state.phase,
        "turn": state.turn,
        "landlord": state.landlord,
        "bid": state.bid,
        "card_counts": state.card_counts,
        "hands": tuple(state.hand_of(s) for s in range(3)),
        "top_play": state.top_play,
        "top_seat": state.top_seat,
        "doubled": state.doubled,
        "redoubled": state.redoubled,
        "kitty_revealed": state.kitty_revealed,
        "announcements": state.announcements,
        "plays": state.plays,
        "events": state.to_events(),
        "legal_actions": state.legal_actions(),
        "result": state.result(),
    }


def as_at_the_table(event: dict[str, Any]) -> dict[str, Any]:
    """A six-player event as a referee at the table writes it: no copy (the backs are
    identical, R13.10)."""
    play = event.get("play")
    if play is None or play == "pass":
        return event
    return {**event, "play": " ".join(card.split("#")[0] for card in play.split())}


def random_six_hand(profile_key: str, seed: int) -> tuple[dict[str, Any], Any, list[Any]]:
    """A six-player deal of ``seed``, a random legal hand on it to its end (its
    ``SixHandState``), and the hand's events as written at the table (``as_at_the_table``)."""
    import random

    from referee.rules.games import six_deal_json, state_new
    from referee.rules.profiles import get_profile

    profile = get_profile(profile_key)
    data = six_deal_json(profile, seed)
    state = state_new(profile, data)
    rng = random.Random(seed)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return data, state, [as_at_the_table(a.to_json()) for a in state.actions]
