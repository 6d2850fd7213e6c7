"""One ``four_p`` hand, driven by ``push`` / ``pop`` (SPEC §11.1, PROTOCOL-variants §1.3).

Four seats, two packs dealt 25/25/25/25 + 8; one round of bids from the first bidder (a 3 closes
it at once), no doubling, the landlord takes the kitty (33 cards) and leads; next seat =
(seat + 1) mod 4 and a trick ends after three passes. Deals are rank multisets: two packs hold
two cards of each rank and suit, so suits identify no card.

The state is one immutable value (``FourCore``) replaced by every action; ``push`` keeps the
one before, so a rejected action leaves the state as it was and ``pop`` puts it back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.rules.actions import (
    Action,
    BadEvent,
    Bid,
    Double,
    Pass,
    PlayCards,
    Redouble,
    apply_log,
    four_seat_action_from_json,
)
from referee.rules.cards import (
    counts_of,
    counts_of_key,
    format_ranks,
    key_of,
    parse_cards,
    ranks_of_key,
)
from referee.rules.combos import Play
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError
from referee.rules.four_combos import (
    TWO_PACK_COUNTS,
    beats_four,
    classify_four,
    is_bomb,
    legal_plays_four,
)
from referee.rules.four_scoring import SEATS, FourResult, score_four
from referee.rules.hand import ENDED, HandReadings, Phase, check_bid
from referee.rules.profiles import FOUR_P, RuleProfile
from referee.rules.scoring import Winner

HAND_CARDS, KITTY_CARDS = 25, 8


@dataclass(frozen=True, slots=True)
class FourDeal:
    """Four hands of 25 cards and a kitty of 8 that are together two packs (R11.1.1), and the
    seat of the first bidder (the holder of the face-up marker card, R11.1.2)."""

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    kitty: tuple[int, ...]
    first_bidder: int = 0

    def __post_init__(self) -> None:
        sizes = [len(h) for h in self.hands]
        if len(self.hands) != SEATS or sizes != [HAND_CARDS] * SEATS:
            raise InvalidDeal(f"a four_p deal is 4 hands of 25 cards, got {sizes}")
        if len(self.kitty) != KITTY_CARDS:
            raise InvalidDeal(f"a four_p kitty is 8 cards, got {len(self.kitty)}")
        if type(self.first_bidder) is not int or not 0 <= self.first_bidder < SEATS:
            raise InvalidDeal(f"first bidder must be seat 0..3, got {self.first_bidder!r}")
        everything = [r for h in (*self.hands, self.kitty) for r in h]
        if tuple(counts_of(everything)) != TWO_PACK_COUNTS:
            raise InvalidDeal("the 108 cards are not two packs (wrong count of some rank)")

    def to_json(self) -> dict[str, object]:
        return {
            "hands": [format_ranks(h) for h in self.hands],
            "kitty": format_ranks(self.kitty),
            "first_bidder": self.first_bidder,
        }

    @classmethod
    def from_json(cls, data: object) -> FourDeal:
        """Read a deal written as rank text (suits, if written, are read and ignored)."""
        if not isinstance(data, dict):
            raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
        hands, kitty = data.get("hands"), data.get("kitty", "")
        if not isinstance(hands, list) or len(hands) != SEATS:
            raise InvalidDeal("a four_p deal needs four hands")
        if not all(isinstance(h, str) for h in hands) or not isinstance(kitty, str):
            raise InvalidDeal("hands and kitty must be card text")
        first = data.get("first_bidder", 0)
        if type(first) is not int:
            raise InvalidDeal("first_bidder must be a seat number 0..3")
        try:
            h0, h1, h2, h3 = (_ranks(h) for h in hands)
            return cls(hands=(h0, h1, h2, h3), kitty=_ranks(kitty), first_bidder=first)
        except NotationError as exc:
            raise InvalidDeal(f"unreadable deal: {exc}") from exc


def _ranks(text: str) -> tuple[int, ...]:
    return tuple(sorted(c.rank for c in parse_cards(text)))


@dataclass(frozen=True, slots=True)
class FourCore:
    """Everything that changes during a ``four_p`` hand, as one value."""

    phase: Phase
    turn: int
    bids: tuple[tuple[int, int], ...] = ()
    high_bid: int = 0
    high_bidder: int | None = None
    landlord: int | None = None
    holdings: tuple[int, ...] = ()  # each seat's multiset key
    sizes: tuple[int, ...] = ()
    top: Play | None = None
    top_seat: int | None = None
    passes: int = 0
    bombs: int = 0
    winner: Winner | None = None
    plays: tuple[tuple[int, Play], ...] = ()


class FourHandState(HandReadings):
    """One ``four_p`` hand from the deal to the score; ``push`` an action, ``pop`` to take it
    back. Error codes and their order are those of ``HandState`` (PROTOCOL.md, R9.1)."""

    def __init__(self, deal: FourDeal, profile: RuleProfile = FOUR_P) -> None:
        if profile.seats != SEATS:
            raise ValueError(f"FourHandState plays four seats; {profile.key} has {profile.seats}")
        self.deal = deal
        self.profile = profile
        self.actions: list[Action] = []
        self._stack: list[FourCore] = []
        self._core: FourCore = FourCore(
            phase=Phase.BIDDING,
            turn=deal.first_bidder,
            holdings=tuple(key_of(h) for h in deal.hands),
            sizes=(HAND_CARDS,) * SEATS,
        )

    @classmethod
    def from_events(
        cls,
        deal: FourDeal,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = FOUR_P,
    ) -> FourHandState:
        """Replay an event log; the first illegal event raises, its position in ``index``."""
        state = cls(deal, profile)
        apply_log(state.push, events, four_seat_action_from_json, state.actions)
        return state

    def to_events(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self.actions]

    # ----------------------------------------------------------------- reading
    @property
    def turn(self) -> int | None:
        return None if self.is_over else self._core.turn

    @property
    def card_counts(self) -> tuple[int, ...]:
        return self._core.sizes

    def hand_text(self, seat: int) -> str:
        return format_ranks(ranks_of_key(self._core.holdings[seat]))

    def hand_cards_text(self, seat: int) -> str:
        """What ``seat`` still holds, as ``HandState.hand_cards_text`` says it: ranks, since
        two packs have two of every card (``hand_text``)."""
        return self.hand_text(seat)

    # What ``HandState`` reads that four_p does not have: no doubling (R11.1.3), no rocket
    # (the four jokers are a bomb, R11.1.5), no 报牌 and a kitty nobody else sees.
    @property
    def doubled(self) -> tuple[None, ...]:
        return (None,) * SEATS

    @property
    def redoubled(self) -> None:
        return None

    @property
    def rockets(self) -> int:
        return 0

    @property
    def announcements(self) -> tuple[()]:
        return ()

    @property
    def kitty_revealed(self) -> bool:
        return False

    @property
    def plays(self) -> tuple[tuple[int, Play], ...]:
        return self._core.plays

    @property
    def spring(self) -> bool:
        """The landlord won and none of the three defenders played a card (R7.2)."""
        c = self._core
        return c.winner == "landlord" and all(seat == c.landlord for seat, _ in c.plays)

    @property
    def anti_spring(self) -> bool:
        """The defenders won and the landlord made one play (R7.3)."""
        c = self._core
        return c.winner == "defenders" and sum(seat == c.landlord for seat, _ in c.plays) == 1

    def result(self) -> FourResult | None:
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

    def scores(self) -> tuple[int, int, int, int] | None:
        """Scores of seats 0..3 once the hand has ended (all 0 when passed out)."""
        if self._core.phase is Phase.PASSED_OUT:
            return (0, 0, 0, 0)
        result = self.result()
        return None if result is None else score_four(result)

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now for the seat on turn."""
        c = self._core
        if c.phase is Phase.BIDDING:
            return [Bid(c.turn, v) for v in range(4) if v == 0 or v > c.high_bid]
        if c.phase is not Phase.PLAYING:
            return []
        plays = legal_plays_four(counts_of_key(c.holdings[c.turn]), c.top)
        actions: list[Action] = [] if c.top is None else [Pass(c.turn)]
        return actions + [PlayCards(c.turn, p.text()) for p in plays]

    def summary(self) -> dict[str, Any]:
        """The protocol's replay answer (PROTOCOL-variants §1.3)."""
        scores = self.scores()
        return {
            "ok": True,
            "phase": self.phase.value,
            "landlord": self.landlord,
            "bid": self.bid,
            "winner": self.winner,
            "bombs": self.bombs,
            "rockets": 0,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "scores": list(scores) if scores is not None else None,
        }

    # ----------------------------------------------------------------- acting
    def push(self, action: Action) -> None:
        """Apply ``action`` or raise a RulesError, leaving the state unchanged."""
        c = self._core
        if c.phase in ENDED:
            raise IllegalAction("phase", f"the hand has ended ({c.phase.value})")
        seat = getattr(action, "seat", None)
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise BadEvent(f"an action's seat is 0..3, not {seat!r}")
        if isinstance(action, Bid):
            after = self._bid(c, action)
        elif isinstance(action, Double | Redouble):
            raise IllegalAction("invalid_double", "four_p has no doubling (SPEC §11.1)")
        elif isinstance(action, Pass):
            after = self._pass(c, action)
        elif isinstance(action, PlayCards):
            after = self._play(c, action)
        else:
            raise BadEvent(f"not an action: {action!r}")
        self._stack.append(c)
        self._core = after
        self.actions.append(action)

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IndexError("no action to take back")
        self._core = self._stack.pop()
        return self.actions.pop()

    def _bid(self, c: FourCore, action: Bid) -> FourCore:
        value = check_bid(c, action)
        bids = (*c.bids, (action.seat, value))
        high_bid, high_bidder = (value, action.seat) if value else (c.high_bid, c.high_bidder)
        after = dataclasses.replace(
            c, bids=bids, high_bid=high_bid, high_bidder=high_bidder, turn=(c.turn + 1) % SEATS
        )
        if high_bid == 3 or len(bids) == SEATS:  # R11.1.2: one round, a 3 closes it
            if high_bidder is None:
                return dataclasses.replace(after, phase=Phase.PASSED_OUT)
            holdings = list(after.holdings)
            holdings[high_bidder] += key_of(self.deal.kitty)
            sizes = list(after.sizes)
            sizes[high_bidder] += KITTY_CARDS
            return dataclasses.replace(
                after,
                phase=Phase.PLAYING,
                landlord=high_bidder,
                turn=high_bidder,
                holdings=tuple(holdings),
                sizes=tuple(sizes),
            )
        return after

    def _laid(self, c: FourCore, seat: int, cards: str) -> tuple[int, ...]:
        """The ranks of ``cards``, which ``seat`` must hold (``not_held``)."""
        ranks = tuple(card.rank for card in parse_cards(cards))
        held = counts_of_key(c.holdings[seat])
        if any(n > h for n, h in zip(counts_of(ranks), held, strict=True)):
            raise IllegalAction("not_held", f"seat {seat} does not hold {format_ranks(ranks)}")
        return ranks

    def _pass(self, c: FourCore, action: Pass) -> FourCore:
        if c.phase is not Phase.PLAYING:
            raise IllegalAction("phase", f"no pass during {c.phase.value}")
        if action.seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {action.seat}")
        if c.top is None:
            raise IllegalAction("lead_pass", "the leader must play; he cannot pass (R5.2)")
        passes = c.passes + 1
        if passes == SEATS - 1:  # R5.3: three passes end the trick, its winner leads
            leader = c.top_seat if c.top_seat is not None else c.turn
            return dataclasses.replace(c, top=None, passes=0, turn=leader)
        return dataclasses.replace(c, passes=passes, turn=(c.turn + 1) % SEATS)

    def _play(self, c: FourCore, action: PlayCards) -> FourCore:
        if c.phase is not Phase.PLAYING:
            raise IllegalAction("phase", f"no play during {c.phase.value}")
        seat = action.seat
        if seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {seat}")
        if type(action.cards) is not str:
            raise NotationError(f"cards must be text, not {action.cards!r}")
        ranks = self._laid(c, seat, action.cards)
        counts = counts_of(ranks)
        if not ranks:
            raise IllegalAction("invalid_combination", "a play needs at least one card, or a pass")
        play = classify_four(counts)
        if play is None:
            raise IllegalAction(
                "invalid_combination", f"{format_ranks(ranks)} is no combination under four_p"
            )
        if c.top is not None and not beats_four(play, c.top):
            raise IllegalAction("does_not_beat", f"{play.text()} does not beat {c.top.text()}")
        holdings = list(c.holdings)
        holdings[seat] -= play.key
        sizes = list(c.sizes)
        sizes[seat] -= len(ranks)
        after = dataclasses.replace(
            c,
            holdings=tuple(holdings),
            sizes=tuple(sizes),
            top=play,
            top_seat=seat,
            passes=0,
            bombs=c.bombs + is_bomb(play),
            plays=(*c.plays, (seat, play)),
            turn=(seat + 1) % SEATS,
        )
        if sizes[seat] == 0:  # R5.5
            winner: Winner = "landlord" if seat == c.landlord else "defenders"
            return dataclasses.replace(after, phase=Phase.FINISHED, winner=winner)
        return after
