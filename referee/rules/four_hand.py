"""One ``four_p`` hand, driven by ``push`` / ``pop`` (SPEC §11.1, PROTOCOL-variants §1.3).

Four seats, two packs dealt 25/25/25/25 + 8; one round of bids from the first bidder (a 3 closes
it at once), no doubling, the landlord takes the kitty (33 cards) and leads; next seat =
(seat + 1) mod 4 and a trick ends after three passes. Deals are rank multisets: two packs hold
two cards of each rank and suit, so suits identify no card.

``FourHandState`` is ``hand.HandState`` with the hooks of ``four_p`` overridden: the deal (two
packs, by rank), the holdings check over two packs, the kinds and what beats what
(``four_combos``), the four jokers counted as a bomb, no 报牌, and its result
(``four_scoring``). The seats, the one-round auction, the missing doubling phase, the kitty
nobody else sees and the three passes that end a trick come from the profile ``FOUR_P``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from referee.rules.actions import Action, four_seat_action_from_json
from referee.rules.cards import (
    counts_of,
    counts_of_key,
    format_ranks,
    key_of,
    parse_cards,
)
from referee.rules.combos import Kind, Play
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError
from referee.rules.four_combos import (
    TWO_PACK_COUNTS,
    beats_four,
    classify_four,
    legal_plays_four,
)
from referee.rules.four_scoring import SEATS, FourResult
from referee.rules.hand import _KEY, _NONE, HandState, Phase, _Core, _Seat
from referee.rules.profiles import FOUR_P, RuleProfile

HAND_CARDS, KITTY_CARDS = 25, 8
_SEATS, _HAND_CARDS, _KITTY_CARDS = SEATS, HAND_CARDS, KITTY_CARDS  # as FourDeal names them


@dataclass(frozen=True, slots=True)
class TwoPackDeal:
    """Hands and a kitty that are together two packs, ranks only (two packs hold two of every
    card), and the seat of the first bidder (the holder of the face-up marker card). A game
    of two packs (``four_p``, ``five_p``) says its name, seats and sizes as class values."""

    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    first_bidder: int = 0

    GAME: ClassVar[str]
    SEATS: ClassVar[int]
    SEATS_WORD: ClassVar[str]
    HAND_CARDS: ClassVar[int]
    KITTY_CARDS: ClassVar[int]

    def __post_init__(self) -> None:
        game, seats = self.GAME, self.SEATS
        sizes = [len(h) for h in self.hands]
        if len(self.hands) != seats or sizes != [self.HAND_CARDS] * seats:
            raise InvalidDeal(
                f"a {game} deal is {seats} hands of {self.HAND_CARDS} cards, got {sizes}"
            )
        if len(self.kitty) != self.KITTY_CARDS:
            raise InvalidDeal(f"a {game} kitty is {self.KITTY_CARDS} cards, got {len(self.kitty)}")
        if type(self.first_bidder) is not int or not 0 <= self.first_bidder < seats:
            raise InvalidDeal(
                f"first bidder must be seat 0..{seats - 1}, got {self.first_bidder!r}"
            )
        everything = [r for h in (*self.hands, self.kitty) for r in h]
        if tuple(counts_of(everything)) != TWO_PACK_COUNTS:
            raise InvalidDeal("the 108 cards are not two packs (wrong count of some rank)")

    # What a hand state reads of its deal (``hand.DealCards``): no suits, two of every card.
    @property
    def keys(self) -> tuple[int, ...]:
        return tuple(key_of(h) for h in self.hands)

    @property
    def kitty_key(self) -> int:
        return key_of(self.kitty)

    @property
    def has_suits(self) -> bool:
        return False

    @property
    def ids(self) -> tuple[frozenset[int], ...]:
        return (_NONE,) * (self.SEATS + 1)

    def to_json(self) -> dict[str, object]:
        return {
            "hands": [format_ranks(h) for h in self.hands],
            "kitty": format_ranks(self.kitty),
            "first_bidder": self.first_bidder,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """Read a deal written as rank text (suits, if written, are read and ignored)."""
        if not isinstance(data, dict):
            raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
        hands, kitty = data.get("hands"), data.get("kitty", "")
        if not isinstance(hands, list) or len(hands) != cls.SEATS:
            raise InvalidDeal(f"a {cls.GAME} deal needs {cls.SEATS_WORD} hands")
        if not all(isinstance(h, str) for h in hands) or not isinstance(kitty, str):
            raise InvalidDeal("hands and kitty must be card text")
        first = data.get("first_bidder", 0)
        if type(first) is not int:
            raise InvalidDeal(f"first_bidder must be a seat number 0..{cls.SEATS - 1}")
        try:
            return cls(
                hands=tuple(_ranks(h) for h in hands), kitty=_ranks(kitty), first_bidder=first
            )
        except NotationError as exc:
            raise InvalidDeal(f"unreadable deal: {exc}") from exc


@dataclass(frozen=True, slots=True)
class FourDeal(TwoPackDeal):
    """Four hands of 25 cards and a kitty of 8 that are together two packs (R11.1.1), and the
    seat of the first bidder (the holder of the face-up marker card, R11.1.2)."""

    GAME, SEATS_WORD = "four_p", "four"
    SEATS, HAND_CARDS, KITTY_CARDS = _SEATS, _HAND_CARDS, _KITTY_CARDS


def _ranks(text: str) -> tuple[int, ...]:
    return tuple(sorted(c.rank for c in parse_cards(text)))


class FourHandState(HandState):
    """One ``four_p`` hand from the deal to the score; ``push`` an action, ``pop`` to take it
    back. Error codes and their order are those of ``HandState`` (PROTOCOL.md, R9.1)."""

    deal: FourDeal  # type: ignore[assignment]
    _also_bomb = Kind.JOKER_BOMB  # R11.1.5: the four jokers are a bomb, not a rocket
    _announces = False
    _replays_checked = True  # two packs: a play is read and classified either way

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        return profile.seats == SEATS

    @staticmethod
    def _read_action(event: object) -> Action:
        return four_seat_action_from_json(event)

    def __init__(self, deal: FourDeal, profile: RuleProfile = FOUR_P) -> None:
        super().__init__(deal, profile)  # type: ignore[arg-type]

    @classmethod
    def from_events(  # type: ignore[override]
        cls,
        deal: FourDeal,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = FOUR_P,
    ) -> FourHandState:
        """Replay an event log; the first illegal event raises, its position in ``index``."""
        return super().from_events(deal, events, profile)  # type: ignore[arg-type, return-value]

    def hand_cards_text(self, seat: int) -> str:
        """What ``seat`` still holds, as ``HandState.hand_cards_text`` says it: ranks, since
        two packs have two of every card (``hand_text``)."""
        return self.hand_text(seat)

    def result(self) -> FourResult | None:  # type: ignore[override]
        c = self._core
        if c.phase is not Phase.FINISHED or c.landlord is None or c.winner is None:
            return None
        return FourResult(
            landlord=c.landlord,
            bid=c.high_bid,
            bombs=c.bombs,
            spring=self.spring,
            anti_spring=self.anti_spring,
            winner=c.winner,
        )

    # ----------------------------------------------------------------- hooks
    def _legal_plays(self, key: int, top: Play | None) -> list[Play]:
        return legal_plays_four(counts_of_key(key), top)

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """The ranks of ``cards`` (suits are read and ignored), which ``seat`` must hold
        (``not_held``): counted rank by rank, since two packs hold eight of a rank."""
        if type(cards) is not str:
            raise NotationError(f"cards must be text, not {cards!r}")
        taken = self._taken(c, seat, cards)
        ranks = taken[0]
        held = counts_of_key(c.seats[seat][_KEY])
        if any(n > h for n, h in zip(counts_of(ranks), held, strict=True)):
            raise IllegalAction("not_held", f"seat {seat} does not hold {format_ranks(ranks)}")
        return taken

    def _taken(
        self, c: _Core, seat: int, cards: str
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        ranks = tuple(card.rank for card in parse_cards(cards))
        key = key_of(ranks)
        seat_key, size, held = c.seats[seat]
        return ranks, (None,) * len(ranks), key, (seat_key - key, size - len(ranks), held)

    def _judge(self, key: int, ranks: tuple[int, ...], top: Play | None) -> Play:
        play = classify_four(counts_of(ranks))
        if play is None:
            raise IllegalAction(
                "invalid_combination", f"{format_ranks(ranks)} is no combination under four_p"
            )
        if top is not None and not beats_four(play, top):
            raise IllegalAction("does_not_beat", f"{play.text()} does not beat {top.text()}")
        return play
