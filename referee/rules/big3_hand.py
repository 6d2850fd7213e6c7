"""One Big Three hand (大三 / 挖坑, SPEC §12, PROTOCOL-big3 §3): ``HandState`` with the hooks
of the game overridden.

From the profile (``BIG3``, ``BIG3_ONE_ROUND``): three seats, 16 cards each and a hole of 4,
the auction (a compulsory opening until a bid is followed by two passes, or one round with
烂挖), no doubling, the hole taken unseen, the first bidder's first lead, two passes end a
trick. Overridden here: the deal (52 cards, no joker, the hearts that name the first bidder),
the kinds and what beats what (``big3_combos``), no 报牌, and the result (``big3_scoring``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.rules.actions import Action
from referee.rules.big3_combos import (
    BIG3_PACK_COUNTS,
    ORDER,
    RANKS_LOW_TO_HIGH,
    beats_big3,
    classify_big3,
    legal_plays_big3,
)
from referee.rules.big3_scoring import SEATS, Big3Result
from referee.rules.cards import (
    counts_of,
    key_of,
    parse_cards,
    parse_ranks,
    rank_text,
    ranks_of_key,
)
from referee.rules.combos import Play
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError
from referee.rules.hand import _KEY, _NONE, HandState, Phase
from referee.rules.profiles import BIG3, RuleProfile

HAND_CARDS, HOLE_CARDS = 16, 4  # R12.3


@dataclass(frozen=True, slots=True)
class Big3Deal:
    """Three hands of 16 and a hole (坑) of 4 that are together the 52-card pack (R12.1, R12.3),
    the first bidder, and optionally where each heart lies (``hearts``: the ranks of the
    hearts in hands 0, 1, 2 and in the hole), which must then name the first bidder (R12.4)."""

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    kitty: tuple[int, ...]
    first_bidder: int
    hearts: tuple[tuple[int, ...], ...] | None = None

    def __post_init__(self) -> None:
        sizes = [len(h) for h in self.hands]
        if len(self.hands) != SEATS or sizes != [HAND_CARDS] * SEATS:
            raise InvalidDeal(f"a Big Three deal is 3 hands of 16 cards, got {sizes}")
        if len(self.kitty) != HOLE_CARDS:
            raise InvalidDeal(f"the Big Three hole is 4 cards, got {len(self.kitty)}")
        if type(self.first_bidder) is not int or not 0 <= self.first_bidder < SEATS:
            raise InvalidDeal(f"first bidder must be seat 0..2, got {self.first_bidder!r}")
        everything = [r for part in (*self.hands, self.kitty) for r in part]
        if tuple(counts_of(everything)) != BIG3_PACK_COUNTS:
            raise InvalidDeal("the 52 cards are not the Big Three pack (no joker, four a rank)")
        if self.hearts is not None:
            self._check_hearts(self.hearts)

    def _check_hearts(self, hearts: tuple[tuple[int, ...], ...]) -> None:
        """PROTOCOL-big3 §3: 13 hearts, each once, each where it is said to lie, and the
        first bidder holds the lowest heart of the three hands (R12.4, R12.4.1)."""
        if len(hearts) != SEATS + 1:
            raise InvalidDeal("hearts are four rank strings: hands 0, 1, 2 and the hole")
        named = sorted(r for part in hearts for r in part)
        if named != list(range(13)):
            raise InvalidDeal("hearts must name each of the 13 ranks exactly once")
        for where, (part, cards) in enumerate(zip(hearts, (*self.hands, self.kitty), strict=True)):
            if any(rank not in cards for rank in part):
                place = "the hole" if where == SEATS else f"hand {where}"
                raise InvalidDeal(f"{place} does not hold the hearts said to lie there")
        held = [(ORDER[r], seat) for seat, part in enumerate(hearts[:SEATS]) for r in part]
        if min(held)[1] != self.first_bidder:
            raise InvalidDeal(
                f"seat {min(held)[1]} holds the lowest heart and bids first (R12.4), "
                f"not seat {self.first_bidder}"
            )

    # What a hand state reads of its deal (``hand.DealCards``): ranks only.
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
        return (_NONE,) * (SEATS + 1)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "hands": [format_big3(h) for h in self.hands],
            "kitty": format_big3(self.kitty),
            "first_bidder": self.first_bidder,
        }
        if self.hearts is not None:
            data["hearts"] = [format_big3(part) for part in self.hearts]
        return data

    @classmethod
    def from_json(cls, data: object) -> Big3Deal:
        """Read a deal written as card text (suits, if written, are read and ignored)."""
        if not isinstance(data, dict):
            raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
        hands, kitty = data.get("hands"), data.get("kitty")
        if not isinstance(hands, list) or len(hands) != SEATS:
            raise InvalidDeal("a Big Three deal needs three hands")
        if not all(isinstance(h, str) for h in hands) or not isinstance(kitty, str):
            raise InvalidDeal("hands and kitty must be card text")
        hearts = data.get("hearts")
        if hearts is not None and (
            not isinstance(hearts, list) or not all(isinstance(h, str) for h in hearts)
        ):
            raise InvalidDeal("hearts are four rank strings: hands 0, 1, 2 and the hole")
        try:
            h0, h1, h2 = (_ranks(h) for h in hands)
            read_hearts = None if hearts is None else tuple(parse_ranks(h) for h in hearts)
            return cls(
                hands=(h0, h1, h2),
                kitty=_ranks(kitty),
                first_bidder=data.get("first_bidder", 0),
                hearts=read_hearts,
            )
        except NotationError as exc:
            raise InvalidDeal(f"unreadable deal: {exc}") from exc


def _ranks(text: str) -> tuple[int, ...]:
    return tuple(sorted(card.rank for card in parse_cards(text)))


def format_big3(ranks: Iterable[int]) -> str:
    """Ranks low to high in the Big Three order ``456789TJQKA23`` (PROTOCOL-big3 §1)."""
    return "".join(rank_text(r) for r in sorted(ranks, key=_order))


def _order(rank: int) -> int:
    return ORDER[rank] if rank < len(ORDER) else rank


class Big3HandState(HandState):
    """One Big Three hand from the deal to the score; ``push`` an action, ``pop`` to take it
    back. The digger (挖坑者) is ``landlord``, his opponents the defenders."""

    deal: Big3Deal  # type: ignore[assignment]
    _announces = False  # no 报牌 in Big Three (SPEC §12 has none)
    _replays_checked = True  # one lookup a play: the checks cost nothing worth skipping

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        return profile.game == "big3"

    def __init__(self, deal: Big3Deal, profile: RuleProfile = BIG3) -> None:
        super().__init__(deal, profile)  # type: ignore[arg-type]

    @classmethod
    def from_events(  # type: ignore[override]
        cls,
        deal: Big3Deal,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = BIG3,
    ) -> Big3HandState:
        """Replay an event log; the first illegal event raises, its position in ``index``."""
        return super().from_events(deal, events, profile)  # type: ignore[arg-type, return-value]

    def hand_text(self, seat: int) -> str:
        """What ``seat`` still holds, low to high in the Big Three order."""
        return format_big3(ranks_of_key(self._core.seats[seat][_KEY]))

    def hand_cards_text(self, seat: int) -> str:
        return self.hand_text(seat)

    @property
    def spring(self) -> bool:
        """Big Three has no spring (R12.10)."""
        return False

    @property
    def anti_spring(self) -> bool:
        """Nor an anti-spring (R12.10)."""
        return False

    def result(self) -> Big3Result | None:  # type: ignore[override]
        c = self._core
        if c.phase is not Phase.FINISHED or c.landlord is None or c.winner is None:
            return None
        return Big3Result(landlord=c.landlord, bid=c.high_bid, winner=c.winner)

    # ----------------------------------------------------------------- hooks
    def _legal_plays(self, key: int, top: Play | None) -> list[Play]:
        return list(legal_plays_big3(key, top))

    def _judge(self, key: int, ranks: tuple[int, ...], top: Play | None) -> Play:
        play = classify_big3(key)
        if play is None:
            raise IllegalAction(
                "invalid_combination", f"{format_big3(ranks)} is no Big Three combination"
            )
        if top is not None and not beats_big3(play, top):
            raise IllegalAction(
                "does_not_beat", f"{format_big3(ranks)} does not beat {format_big3(top.ranks)}"
            )
        return play


def first_bidder_of(hearts: Sequence[Sequence[int]]) -> int:
    """The seat holding the lowest heart of the three hands (R12.4), from the ranks of the
    hearts in hands 0, 1, 2."""
    for rank in RANKS_LOW_TO_HIGH:
        for seat, part in enumerate(hearts[:SEATS]):
            if rank in part:
                return seat
    raise InvalidDeal("no heart in any hand")
