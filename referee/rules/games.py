"""What each rule profile plays, behind one door for a caller that keeps deals as JSON: the
deal dealt from a seed or read and checked, and the hand state that plays it.

* ``comp2016``, ``classic``: ``HandState`` on a one-pack ``Deal`` (R2.1).
* ``four_p``: ``FourHandState`` on a two-pack ``FourDeal`` (R11.1.1); dealt with suits, read by
  rank (two packs have two of every card).
* ``big3``, ``big3_one_round``: ``Big3HandState`` on a ``Big3Deal`` (52 cards, 16/16/16 + a
  hole of 4, R12.3), read by rank; dealt from a seed with suits, its JSON carries ``hearts``
  and the first bidder is the holder of the lowest heart (R12.4).
* ``six_p``, ``six_p_no_kitty``: ``SixHandState`` on a ``SixDeal`` (three packs, every card with
  its copy, 26 each + 6 or 27 each, the face-up card that names the landlord, R13.2, R13.3,
  R13.10); dealt from a seed, the face-up card is a random one of the 156 (162) drawn cards.
* ``five_p``: ``FiveHandState`` on a ``FiveDeal`` (two packs, 21 each + 3, R14.2), read by
  rank like ``four_p``.
* ``laizi``: ``LaiziHandState`` on a one-pack ``Deal`` whose JSON names the wild rank
  (``"wild": "7"``, PROTOCOL-variants §2.5). Dealt from a seed, the wild rank comes from the same
  seed: the caller keeps it from everybody until the landlord is known (R11.2.1), which is a
  draw after the auction to anybody at the table, and a duplicate board gives every table the
  same wild rank.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from referee.rules.actions import (
    Action,
    DeclaredPlay,
    action_from_json,
    four_seat_action_from_json,
    wild_action_from_json,
)
from referee.rules.big3_combos import RANKS_LOW_TO_HIGH
from referee.rules.big3_hand import HAND_CARDS as BIG3_HAND
from referee.rules.big3_hand import HOLE_CARDS, Big3Deal, Big3HandState
from referee.rules.cards import (
    CARD_OF_ID,
    TWO,
    Deal,
    card_order,
    deal_from_seed,
    format_cards,
    parse_cards,
    rank_text,
)
from referee.rules.errors import InvalidDeal, NotationError
from referee.rules.five_hand import FiveDeal, FiveHandState, five_seat_action_from_json
from referee.rules.four_hand import HAND_CARDS, KITTY_CARDS, FourDeal, FourHandState
from referee.rules.four_scoring import SEATS as FOUR_SEATS
from referee.rules.hand import HandState
from referee.rules.laizi_hand import LaiziHandState, wild_of_deal
from referee.rules.profiles import RuleProfile
from referee.rules.six_hand import (
    NUM_IDS,
    SixDeal,
    SixHandState,
    format_six,
    id_text,
    six_action_from_json,
)

#: A hand state of any profile: every game's is a ``HandState`` (python-chess's one ``Board``).
AnyState = HandState
#: The key of a ``laizi`` deal's wild rank in its JSON.
WILD = "wild"
#: The ranks a wild rank is drawn from: 3 … 2, never a joker (R11.2.1).
WILD_RANKS = tuple(range(TWO + 1))
FIVE_SEATS, FIVE_HAND = 5, 21
#: Cards of two packs, by id 0 … 107 (id mod 54 is the card of one pack).
_TWO_PACK_IDS = 2 * len(CARD_OF_ID)


def deal_json_from_seed(
    profile: RuleProfile, seed: int, *, first_bidder: int | None = None
) -> dict[str, Any]:
    """A shuffled deal of ``profile`` with suits, reproducible from ``seed``, as JSON.
    Without ``first_bidder`` the seed also picks the first bidder."""
    if profile.game == "big3":
        return _big3_deal_json(seed)
    if profile.game == "six_p":
        return six_deal_json(profile, seed)
    if profile.seats == FIVE_SEATS:
        return _five_deal_json(seed, first_bidder)
    if profile.seats == FOUR_SEATS:
        return _four_deal_json(seed, first_bidder)
    data = deal_from_seed(seed, first_bidder=first_bidder).to_json()
    if profile.wild_cards:
        data[WILD] = rank_text(wild_from_seed(seed))
    return data


def wild_from_seed(seed: int) -> int:
    """The wild rank a seed draws (3 … 2, never a joker: R11.2.1), apart from its deal."""
    return random.Random(f"wild {seed}").choice(WILD_RANKS)


def _four_deal_json(seed: int, first_bidder: int | None) -> dict[str, Any]:
    rng = random.Random(seed)
    ids = list(range(_TWO_PACK_IDS))
    rng.shuffle(ids)
    if first_bidder is None:
        first_bidder = rng.randrange(FOUR_SEATS)
    cards = [CARD_OF_ID[i % len(CARD_OF_ID)] for i in ids]

    def part(start: int, size: int) -> str:
        return format_cards(sorted(cards[start : start + size], key=card_order))

    hands = [part(seat * HAND_CARDS, HAND_CARDS) for seat in range(FOUR_SEATS)]
    kitty = part(FOUR_SEATS * HAND_CARDS, KITTY_CARDS)
    return {"hands": hands, "kitty": kitty, "first_bidder": first_bidder}


def six_deal_json(profile: RuleProfile, seed: int) -> dict[str, Any]:
    """A ``six_p`` deal from ``seed``: the 162 cards shuffled, ``hand_size`` to each seat and
    the rest to the kitty (R13.2); the face-up card is one of the drawn cards (R13.3)."""
    rng = random.Random(f"six {seed}")
    ids = list(range(NUM_IDS))
    rng.shuffle(ids)
    size = profile.hand_size
    hands = [sorted(ids[seat * size : (seat + 1) * size]) for seat in range(6)]
    face_up = rng.choice(ids[: 6 * size])
    return {
        "hands": [format_six(h) for h in hands],
        "kitty": format_six(ids[6 * size :]),
        "face_up": id_text(face_up),
    }


def _five_deal_json(seed: int, first_bidder: int | None) -> dict[str, Any]:
    """A ``five_p`` deal from ``seed``: two packs, 21 each and 3 (R14.2), with suits."""
    rng = random.Random(seed)
    ids = list(range(_TWO_PACK_IDS))
    rng.shuffle(ids)
    if first_bidder is None:
        first_bidder = rng.randrange(FIVE_SEATS)
    cards = [CARD_OF_ID[i % len(CARD_OF_ID)] for i in ids]

    def part(start: int, size: int) -> str:
        return format_cards(sorted(cards[start : start + size], key=card_order))

    hands = [part(seat * FIVE_HAND, FIVE_HAND) for seat in range(FIVE_SEATS)]
    return {"hands": hands, "kitty": part(FIVE_SEATS * FIVE_HAND, 3), "first_bidder": first_bidder}


def _big3_deal_json(seed: int) -> dict[str, Any]:
    """A Big Three deal from ``seed``: the 52 cards without jokers (R12.1), 16 each and a
    hole of 4 (R12.3); the first bidder holds the lowest heart (R12.4), so a seed picks it
    and ``hearts`` records where each heart lies."""
    rng = random.Random(seed)
    pack = [card for card in CARD_OF_ID.values() if not card.is_joker]
    rng.shuffle(pack)
    parts = [pack[seat * BIG3_HAND : (seat + 1) * BIG3_HAND] for seat in range(3)]
    parts.append(pack[3 * BIG3_HAND : 3 * BIG3_HAND + HOLE_CARDS])
    hearts = [[c.rank for c in part if c.suit == "♥"] for part in parts]
    first = next(seat for rank in RANKS_LOW_TO_HIGH for seat in range(3) if rank in hearts[seat])
    texts = [format_cards(sorted(part, key=card_order)) for part in parts]
    return {
        "hands": texts[:3],
        "kitty": texts[3],
        "first_bidder": first,
        "hearts": ["".join(rank_text(r) for r in sorted(part)) for part in hearts],
    }


def big3_hearts(hands: Iterable[str], kitty: str) -> list[str] | None:
    """Where each heart of a Big Three deal written with suits lies (PROTOCOL-big3 §3
    ``hearts``: the ranks of the hearts in hands 0, 1, 2 and in the hole), or None when a
    card is written without its suit (NotationError for unreadable text)."""
    parts = [parse_cards(text) for text in (*hands, kitty)]
    if any(card.suit is None for part in parts for card in part):
        return None
    hearts = [sorted(card.rank for card in part if card.suit == "♥") for part in parts]
    return ["".join(rank_text(rank) for rank in part) for part in hearts]


def deal_json_checked(profile: RuleProfile, data: object) -> dict[str, Any]:
    """``data`` as a deal of ``profile`` in canonical text; InvalidDeal (a RulesError) when it
    is not one (wrong cards, sizes, first bidder, hearts or wild rank)."""
    if profile.game == "big3":
        return Big3Deal.from_json(data).to_json()
    if profile.game == "six_p":
        return SixDeal.from_json(data, no_kitty=profile.kitty_size == 0).to_json()
    if profile.seats in (FOUR_SEATS, FIVE_SEATS):
        (FourDeal if profile.seats == FOUR_SEATS else FiveDeal).from_json(
            data
        )  # checks the two packs, sizes and first bidder
        assert isinstance(data, dict)
        try:
            texts = [_sorted_text(h) for h in data["hands"]]
            kitty = _sorted_text(data["kitty"])
        except NotationError as exc:
            raise InvalidDeal(f"unreadable deal: {exc}") from exc
        return {"hands": texts, "kitty": kitty, "first_bidder": data.get("first_bidder", 0)}
    if not isinstance(data, dict):
        raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
    out = Deal.from_json(data).to_json()
    if profile.wild_cards:
        out[WILD] = rank_text(wild_of_deal(data))
    return out


def _sorted_text(text: str) -> str:
    return format_cards(sorted(parse_cards(text), key=card_order))


def action_reader(profile: RuleProfile) -> Callable[[object], Action | DeclaredPlay]:
    """How an action of ``profile`` is read from its JSON form: four seats in ``four_p``, a
    declaration (``"as"``) in ``laizi`` (BadEvent, NotationError: a RulesError)."""
    if profile.game == "six_p":
        return six_action_from_json  # type: ignore[return-value]
    if profile.seats == FIVE_SEATS:
        return five_seat_action_from_json
    if profile.seats == FOUR_SEATS:
        return four_seat_action_from_json
    if profile.wild_cards:
        return wild_action_from_json
    return action_from_json


def state_new(profile: RuleProfile, data: dict[str, Any]) -> AnyState:
    """The hand state of ``profile`` before its first action, on the deal ``data``."""
    return state_replayed(profile, data, ())


def state_replayed(
    profile: RuleProfile,
    data: dict[str, Any],
    actions: Iterable[Action | dict[str, Any]],
    *,
    checked: bool = True,
) -> AnyState:
    """The hand state of ``profile`` after ``actions`` on the deal ``data``: each action
    checked (``checked``), or re-applied as accepted once (three players)."""
    if profile.game == "big3":
        return Big3HandState.from_events(Big3Deal.from_json(data), actions, profile)
    if profile.game == "six_p":
        six = SixDeal.from_json(data, no_kitty=profile.kitty_size == 0)
        return SixHandState.from_events(six, actions, profile)
    if profile.seats == FIVE_SEATS:
        return FiveHandState.from_events(FiveDeal.from_json(data), actions, profile)
    if profile.seats == FOUR_SEATS:
        return FourHandState.from_events(FourDeal.from_json(data), actions, profile)
    deal = Deal.from_json(data)
    if profile.wild_cards:
        return LaiziHandState.from_events(deal, actions, profile, wild=wild_of_deal(data))
    rebuild = HandState.from_events if checked else HandState.replay
    return rebuild(deal, actions, profile)


__all__ = [
    "WILD",
    "WILD_RANKS",
    "AnyState",
    "action_reader",
    "big3_hearts",
    "deal_json_checked",
    "deal_json_from_seed",
    "six_deal_json",
    "state_new",
    "state_replayed",
    "wild_from_seed",
]
