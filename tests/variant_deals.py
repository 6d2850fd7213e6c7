"""Deals written for the variant tests (issue 20)."""

from typing import Any

from referee.rules.cards import SUITS, Card, card_order, format_cards


def laizi_soft_bomb_deal() -> dict[str, Any]:
    """Wild rank 7. Seat 0 (first bidder, the landlord) holds ♠5 ♥5 ♣5 and one wild card,
    ♠7, to lead the soft bomb 5557 as 5555; seat 1 holds the other 7s and ♦5; the rest in
    order (the kitty: the top three cards)."""
    pack = [Card(rank, suit) for rank in range(13) for suit in SUITS] + [Card(13), Card(14)]
    seat0 = [Card(2, "♠"), Card(2, "♥"), Card(2, "♣"), Card(4, "♠")]
    rest = [c for c in pack if c not in seat0]
    seat1 = [c for c in rest if c.rank == 4] + [Card(2, "♦")]
    pool = sorted((c for c in rest if c not in seat1), key=card_order)
    seat0 += pool[:13]
    seat1 += pool[13:26]
    return {
        "hands": [format_cards(seat0), format_cards(seat1), format_cards(pool[26:43])],
        "kitty": format_cards(pool[43:]),
        "first_bidder": 0,
        "wild": "7",
    }
