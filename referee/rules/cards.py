"""Cards, ranks, notation and deals (SPEC §1, §2).

Ranks are small integers in playing order, 3 = 0 … A = 11, 2 = 12, small joker X = 13,
big joker D = 14 (R1.2). Legality only looks at rank multisets (R1.7); suits exist so that a
physical card can be dealt once and checked as held by the player who plays it.

Rank notation, accepted from people (SPEC R1.5, ``docs/rules/PROTOCOL.md``): ``3``–``9``,
``10`` or ``T``, ``J Q K A 2``, ``X`` / ``小王`` (small joker), ``D`` / ``大王`` (big joker); any
case; spaces, commas, ``+`` and ``-`` are ignored; any order. Canonical text: ranks low to high
with no separators, e.g. ``666777AA``.

Physical cards (R1.7) add a suit *symbol* before the rank: ``♠A ♥10 ♣3 ♦2 X D`` (jokers have no
suit); separators are optional, as in rank notation. Suits are never written as letters: ``D``
is the big joker whatever follows it (a diamond letter would make ``DJ`` mean two things), and
``S``, ``H``, ``C`` are refused with a message that shows the symbols. So every text that the rank
notation accepts means exactly those ranks, wherever it is read (classify, legal plays, deals,
replayed events, the command-line tool, the API). Canonical physical form: ``♠3 ♥3 ♠A X``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from referee.rules.errors import InvalidDeal, NotationError

RANK_CHARS = "3456789TJQKA2XD"
NUM_RANKS = 15
THREE, ACE, TWO, SMALL_JOKER, BIG_JOKER = 0, 11, 12, 13, 14
#: ``Card.id`` of the small joker (the big joker's is one more); suited cards are below.
_FIRST_JOKER_ID = 52
#: How many cards of each rank one pack holds.
PACK_COUNTS: tuple[int, ...] = (4,) * 13 + (1, 1)
SUITS = "♠♥♣♦"
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_SEPARATORS = frozenset(" ,+-\t\n")
_RANK_OF_CHAR = {c: i for i, c in enumerate(RANK_CHARS)}

#: Bits per rank in a multiset key (counts 0..4 fit in 3 bits; 4 keep arithmetic simple).
KEY_BITS = 4
UNIT: tuple[int, ...] = tuple(1 << (KEY_BITS * r) for r in range(NUM_RANKS))


def rank_text(rank: int) -> str:
    """One rank in canonical notation (``T`` for ten)."""
    return RANK_CHARS[rank]


def parse_ranks(text: str) -> tuple[int, ...]:
    """Read rank notation (no suits) into ranks sorted low to high.

    Raises NotationError naming the first unreadable token. Does not check that one pack can
    hold the cards (see ``counts_fit_pack``).
    """
    return tuple(sorted(rank for rank, _ in _scan(text, suits=False)))


def format_ranks(ranks: Iterable[int]) -> str:
    """Canonical text of ranks: sorted low to high, no separators."""
    return "".join(RANK_CHARS[r] for r in sorted(ranks))


def counts_of(ranks: Iterable[int]) -> list[int]:
    """How many cards of each rank (a list of 15)."""
    counts = [0] * NUM_RANKS
    for r in ranks:
        counts[r] += 1
    return counts


def key_of(ranks: Iterable[int]) -> int:
    """The multiset key: rank ``r`` counted in bits ``4r..4r+3``. Equal multisets, equal keys."""
    return sum(UNIT[r] for r in ranks)


def key_of_counts(counts: Sequence[int]) -> int:
    return sum(c * u for c, u in zip(counts, UNIT, strict=False))


def counts_of_key(key: int) -> list[int]:
    return [(key >> (KEY_BITS * r)) & 0xF for r in range(NUM_RANKS)]


def ranks_of_key(key: int) -> tuple[int, ...]:
    out: list[int] = []
    for r in range(NUM_RANKS):
        out.extend([r] * ((key >> (KEY_BITS * r)) & 0xF))
    return tuple(out)


def counts_fit_pack(counts: Sequence[int]) -> bool:
    """True if one 54-card pack can hold these cards (no ``XX``, no five 3s)."""
    return all(c <= p for c, p in zip(counts, PACK_COUNTS, strict=True))


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and, for a physical card, a suit (jokers have none)."""

    rank: int
    suit: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.rank < NUM_RANKS:
            raise ValueError(f"rank out of range: {self.rank}")
        if self.suit is not None and (self.suit not in SUITS or self.rank >= SMALL_JOKER):
            raise ValueError(f"bad suit {self.suit!r} for rank {RANK_CHARS[self.rank]}")

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER

    @property
    def id(self) -> int | None:
        """Physical identity 0..53 (see ``card_id``), None without a suit."""
        return card_id(self.rank, self.suit)

    def __str__(self) -> str:
        return (self.suit or "") + RANK_CHARS[self.rank]


def card_id(rank: int, suit: str | None) -> int | None:
    """The one card-id formula: ``rank * 4 + suit`` (suits in ♠♥♣♦ order), the jokers 52 and
    53; None for a card written without its suit."""
    if rank >= SMALL_JOKER:
        return _FIRST_JOKER_ID + rank - SMALL_JOKER
    return None if suit is None else rank * 4 + _SUIT_INDEX[suit]


#: ``card_id`` of every physical card by its rank and suit (a joker's suit is None).
_ID_OF_RANK_SUIT: dict[tuple[int, str | None], int | None] = {
    (rank, suit): card_id(rank, suit)
    for rank in range(NUM_RANKS)
    for suit in ((None,) if rank >= SMALL_JOKER else SUITS)
}


def card_ids(cards: Iterable[Card]) -> list[int | None]:
    """``Card.id`` of each card (None for a card written without its suit)."""
    return [_ID_OF_RANK_SUIT.get((c.rank, c.suit)) for c in cards]


def card_order(card: Card) -> tuple[int, int]:
    """Sort key: by rank, then suit in ♠♥♣♦ order (unknown suit first)."""
    return (card.rank, SUITS.index(card.suit) if card.suit else -1)


def full_pack() -> tuple[Card, ...]:
    """The 54 physical cards of one pack, in ``Card.id`` order."""
    cards = [Card(r, s) for r in range(13) for s in SUITS]
    return (*cards, Card(SMALL_JOKER), Card(BIG_JOKER))


#: Every physical card by its id, and by its canonical text (``♠3``, ``X``): the service writes
#: cards this way, so reading them back is one lookup per card.
CARD_OF_ID: dict[int, Card] = {c.id: c for c in full_pack() if c.id is not None}
CARD_OF_TEXT: dict[str, Card] = {str(c): c for c in CARD_OF_ID.values()}
#: Each physical card's canonical text by its id (``Card.id`` order is ``card_order``).
CARD_TEXT_OF_ID = tuple(str(CARD_OF_ID[i]) for i in range(len(CARD_OF_ID)))
#: A card of each rank without its suit, by its canonical rank character (``T`` for ten).
_UNSUITED_OF_CHAR: dict[str, Card] = {ch: Card(rank) for rank, ch in enumerate(RANK_CHARS)}


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read physical-card notation (suit first, optional) into cards, in the order written.

    A token without a suit gives a card of unknown suit, so rank notation is also accepted.
    """
    if not isinstance(text, str):
        raise NotationError(f"cards must be text, got {type(text).__name__}", token=repr(text))
    try:  # the canonical form, as the service writes it: "♠3 ♥3 ♦3 X"
        return tuple(CARD_OF_TEXT[token] for token in text.split())
    except KeyError:
        pass
    try:  # canonical rank text, as boards without suits hold it: "3345TTJ2X"
        return tuple(_UNSUITED_OF_CHAR[ch] for ch in text)
    except KeyError:
        pass
    return tuple(Card(rank, suit) for rank, suit in _scan(text, suits=True))


def _scan(text: str, *, suits: bool) -> list[tuple[int, str | None]]:
    """(rank, suit) of each card written in ``text``; suits are read only when ``suits``."""
    if not isinstance(text, str):
        raise NotationError(f"cards must be text, got {type(text).__name__}", token=repr(text))
    text = text.replace("小王", "X").replace("大王", "D")
    out: list[tuple[int, str | None]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        suit: str | None = None
        if suits and ch in SUITS:  # a suit symbol, never a letter: see the module docstring
            suit, i = ch, i + 1
            if i >= n:
                raise NotationError(f"suit {ch!r} without a rank in {text!r}", token=ch)
        if text.startswith("10", i):
            rank, i = _RANK_OF_CHAR["T"], i + 2
        else:
            token = text[i]
            found = _RANK_OF_CHAR.get(token.upper())
            if found is None:
                where = f"position {i + 1} of {text!r}"
                hint = "; suits are written ♠ ♥ ♣ ♦, e.g. ♠A" if token.upper() in "SHC" else ""
                raise NotationError(f"{token!r} is not a card ({where}){hint}", token=token)
            rank, i = found, i + 1
        if suit is not None and rank >= SMALL_JOKER:
            token = f"{suit}{RANK_CHARS[rank]}"
            raise NotationError(f"a joker has no suit: {token}", token=token)
        out.append((rank, suit))
    return out


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of physical cards: low to high, suits in ♠♥♣♦ order, space separated."""
    return " ".join(str(c) for c in sorted(cards, key=card_order))


@dataclass(frozen=True, slots=True)
class Deal:
    """Three 17-card hands, a 3-card kitty (底牌) and the first bidder's seat (首叫)."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    kitty: tuple[Card, ...]
    first_bidder: int = 0
    #: Worked out once from the cards (a hand state starts from them):
    #: the multiset key of each hand and of the kitty, and whether every card has its suit.
    keys: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    kitty_key: int = field(init=False, repr=False, compare=False)
    has_suits: bool = field(init=False, repr=False, compare=False)
    #: With suits: the physical card ids (``Card.id``) of each hand and of the kitty.
    ids: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)
    #: The canonical texts of the hands and the kitty, written on the first ``to_json``.
    _texts: tuple[str, ...] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        parts = (*self.hands, self.kitty)
        ranks = [[c.rank for c in part] for part in parts]
        ids = [card_ids(part) for part in parts]
        _deal_check(self, ranks, ids)
        object.__setattr__(self, "keys", (key_of(ranks[0]), key_of(ranks[1]), key_of(ranks[2])))
        object.__setattr__(self, "kitty_key", key_of(ranks[3]))
        object.__setattr__(self, "has_suits", all(None not in part for part in ids))
        sets = tuple(frozenset(i for i in part if i is not None) for part in ids)
        object.__setattr__(self, "ids", sets)

    def to_json(self) -> dict[str, object]:
        """The deal as text (physical cards when suits are known, else ranks)."""
        texts = self._texts
        if texts is None:  # the deal is a value: its text is written once
            if self.has_suits:  # id order is card order
                texts = tuple(
                    " ".join(CARD_TEXT_OF_ID[i] for i in sorted(part)) for part in self.ids
                )
            else:
                texts = tuple(_rank_text_of_cards(cards) for cards in (*self.hands, self.kitty))
            object.__setattr__(self, "_texts", texts)
        return {"hands": list(texts[:3]), "kitty": texts[3], "first_bidder": self.first_bidder}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Deal:
        """Read a deal written as rank text (PROTOCOL.md) or as physical cards."""
        if not isinstance(data, dict):
            raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
        hands = data.get("hands")
        if not isinstance(hands, list) or len(hands) != 3:
            raise InvalidDeal("a deal needs three hands")
        first = data.get("first_bidder", 0)
        if not isinstance(first, int) or isinstance(first, bool):
            raise InvalidDeal("first_bidder must be a seat number 0..2")
        kitty = data.get("kitty")
        try:
            h0, h1, h2 = (parse_cards(_as_text(h)) for h in hands)
            return cls(hands=(h0, h1, h2), kitty=parse_cards(_as_text(kitty)), first_bidder=first)
        except NotationError as exc:
            raise InvalidDeal(f"unreadable deal: {exc}") from exc


def _as_text(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidDeal("hands and kitty must be card text")
    return value


def _rank_text_of_cards(cards: Iterable[Card]) -> str:
    return format_ranks(c.rank for c in cards)


def validate_deal(deal: Deal) -> None:
    """One 54-card pack split 17/17/17/3 (R2.1); each physical card at most once."""
    parts = (*deal.hands, deal.kitty)
    _deal_check(deal, [[c.rank for c in part] for part in parts], [card_ids(p) for p in parts])


def _deal_check(deal: Deal, ranks: list[list[int]], ids: list[list[int | None]]) -> None:
    """``validate_deal`` on the ranks and card ids of the deal's hands and kitty."""
    sizes = [len(part) for part in ranks]
    if sizes != [17, 17, 17, 3]:
        raise InvalidDeal(f"a deal is 17/17/17 + 3 cards, got {sizes[:3]} + {sizes[3]}")
    if type(deal.first_bidder) is not int or deal.first_bidder not in (0, 1, 2):
        raise InvalidDeal(f"first bidder must be seat 0..2, got {deal.first_bidder}")
    if counts_of(r for part in ranks for r in part) != list(PACK_COUNTS):
        raise InvalidDeal("the 54 cards are not one pack (wrong count of some rank)")
    suited = [i for part in ids for i in part if i is not None and i < _FIRST_JOKER_ID]
    if len(set(suited)) != len(suited):
        raise InvalidDeal("the same physical card appears twice")


def deal_from_seed(seed: int, *, first_bidder: int | None = None) -> Deal:
    """A shuffled deal with suits, reproducible from ``seed`` (boards record their seed).

    Without ``first_bidder`` the seed also picks the first bidder.
    """
    rng = random.Random(seed)
    pack = list(full_pack())
    rng.shuffle(pack)
    if first_bidder is None:
        first_bidder = rng.randrange(3)

    def part(a: int, b: int) -> tuple[Card, ...]:
        return tuple(sorted(pack[a:b], key=card_order))

    hands = (part(0, 17), part(17, 34), part(34, 51))
    return Deal(hands=hands, kitty=part(51, 54), first_bidder=first_bidder)
