"""The state of one hand, driven by ``push`` / ``pop`` like ``chess.Board`` (SPEC §2–§7).

deal → bidding (叫分) → doubling (加倍 / 再加倍, profiles with doubling) → playing → finished,
or passed_out when nobody bids. Every rejected action raises IllegalAction with the stable code
of SPEC R9.1 and leaves the state exactly as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.rules.actions import Action, Bid, Double, Pass, PlayCards, Redouble, action_from_json
from referee.rules.cards import (
    Card,
    Deal,
    card_order,
    format_ranks,
    key_of,
    parse_cards,
    parse_ranks,
)
from referee.rules.combos import Kind, Play, beats
from referee.rules.errors import IllegalAction
from referee.rules.moves import legal_plays
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.scoring import DealResult, Winner, score_result
from referee.rules.table import play_table


class Phase(StrEnum):
    BIDDING = "bidding"
    DOUBLING = "doubling"
    PLAYING = "playing"
    FINISHED = "finished"
    PASSED_OUT = "passed_out"


ENDED = (Phase.FINISHED, Phase.PASSED_OUT)


@dataclass(frozen=True, slots=True)
class Announcement:
    """报牌 due: ``seat`` went down to ``cards_left`` (2 or 1) with event number ``index``."""

    seat: int
    cards_left: int
    index: int


@dataclass(frozen=True, slots=True)
class PlayedTrick:
    """An accepted play: who, the reading recorded, the cards as physical cards."""

    seat: int
    play: Play
    cards: tuple[Card, ...]


class _Core:
    """The mutable part of a hand state, copied whole on every push (so pop is exact)."""

    __slots__ = (
        "phase", "turn", "bids", "high_bid", "high_bidder", "passes_since_bid", "landlord",
        "doubled", "redoubled", "kitty_taken", "counts", "held", "top", "top_seat",
        "passes", "play_counts", "bombs", "rockets", "winner", "announcements", "plays",
    )  # fmt: skip

    def __init__(self, deal: Deal) -> None:
        self.phase = Phase.BIDDING
        self.turn = deal.first_bidder
        self.bids: list[tuple[int, int]] = []
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.passes_since_bid = 0
        self.landlord: int | None = None
        self.doubled: list[bool | None] = [None, None, None]
        self.redoubled: bool | None = None
        self.kitty_taken = False
        self.counts = [deal.rank_counts(s) for s in range(3)]
        self.held = [list(h) for h in deal.hands]
        self.top: Play | None = None
        self.top_seat: int | None = None
        self.passes = 0
        self.play_counts = [0, 0, 0]
        self.bombs = 0
        self.rockets = 0
        self.winner: Winner | None = None
        self.announcements: list[Announcement] = []
        self.plays: list[PlayedTrick] = []

    def clone(self) -> _Core:
        new = copy.copy(self)
        new.bids = list(self.bids)
        new.doubled = list(self.doubled)
        new.counts = [list(c) for c in self.counts]
        new.held = [list(h) for h in self.held]
        new.play_counts = list(self.play_counts)
        new.announcements = list(self.announcements)
        new.plays = list(self.plays)
        return new


class HandState:
    """One hand from the deal to the score. ``push`` an action, ``pop`` to take it back."""

    def __init__(self, deal: Deal, profile: RuleProfile = COMP2016) -> None:
        self.deal = deal
        self.profile = profile
        self.actions: list[Action] = []
        self._core = _Core(deal)
        self._stack: list[_Core] = []
        self._table = play_table(profile)

    # ----------------------------------------------------------------- building
    @classmethod
    def from_events(
        cls, deal: Deal, events: Iterable[Action | dict[str, Any]], profile: RuleProfile = COMP2016
    ) -> HandState:
        """Replay an event log; the first illegal event raises (its index is ``len(actions)``)."""
        state = cls(deal, profile)
        for event in events:
            state.push(event if not isinstance(event, dict) else action_from_json(event))
        return state

    def to_events(self) -> list[dict[str, Any]]:
        """The event log in the protocol's JSON form (round-trips through ``from_events``)."""
        return [a.to_json() for a in self.actions]

    # ----------------------------------------------------------------- reading
    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def is_over(self) -> bool:
        return self._core.phase in ENDED

    @property
    def turn(self) -> int | None:
        """The seat expected to act next (in doubling: the next undecided declarer)."""
        c = self._core
        if c.phase is Phase.DOUBLING:
            pending = self._pending_doublers()
            return pending[0] if pending else c.landlord
        return None if c.phase in ENDED else c.turn

    @property
    def landlord(self) -> int | None:
        return self._core.landlord

    @property
    def bid(self) -> int | None:
        return self._core.high_bid if self._core.landlord is not None else None

    @property
    def top_play(self) -> Play | None:
        """The play to beat, or None when the seat on turn leads."""
        return self._core.top

    @property
    def top_seat(self) -> int | None:
        return self._core.top_seat

    @property
    def card_counts(self) -> tuple[int, int, int]:
        c = self._core.counts
        return sum(c[0]), sum(c[1]), sum(c[2])

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds (the landlord's include the kitty once taken)."""
        return tuple(sorted(self._core.held[seat], key=card_order))

    def hand_text(self, seat: int) -> str:
        return format_ranks(c.rank for c in self._core.held[seat])

    @property
    def doubled(self) -> tuple[bool | None, bool | None, bool | None]:
        d = self._core.doubled
        return d[0], d[1], d[2]

    @property
    def redoubled(self) -> bool | None:
        return self._core.redoubled

    @property
    def kitty_revealed(self) -> bool:
        return self._core.kitty_taken

    @property
    def bombs(self) -> int:
        return self._core.bombs

    @property
    def rockets(self) -> int:
        return self._core.rockets

    @property
    def winner(self) -> Winner | None:
        return self._core.winner

    @property
    def spring(self) -> bool:
        """春天: the landlord won and neither defender played a card (R7.2)."""
        c = self._core
        return c.winner == "landlord" and sum(c.play_counts) == c.play_counts[c.landlord or 0]

    @property
    def anti_spring(self) -> bool:
        """反春: the defenders won and the landlord played only his opening lead (R7.3)."""
        c = self._core
        return c.winner == "defenders" and c.play_counts[c.landlord or 0] == 1

    @property
    def announcements(self) -> tuple[Announcement, ...]:
        """Every 报牌 due so far (R6.1): a seat went down to 2 or to 1 cards."""
        return tuple(self._core.announcements)

    @property
    def announcement_due(self) -> Announcement | None:
        """The announcement the last action made due, if any."""
        a = self._core.announcements
        return a[-1] if a and a[-1].index == len(self.actions) - 1 else None

    @property
    def plays(self) -> tuple[PlayedTrick, ...]:
        return tuple(self._core.plays)

    def result(self) -> DealResult | None:
        """The hand summed up for scoring, once finished."""
        c = self._core
        if c.phase is not Phase.FINISHED or c.landlord is None or c.winner is None:
            return None
        return DealResult(
            landlord=c.landlord,
            bid=c.high_bid,
            doubled=(c.doubled[0] is True, c.doubled[1] is True, c.doubled[2] is True),
            redoubled=c.redoubled is True,
            bombs=c.bombs,
            rockets=c.rockets,
            spring=self.spring,
            anti_spring=self.anti_spring,
            winner=c.winner,
        )

    def scores(self) -> tuple[int, int, int] | None:
        """Deal scores of seats 0, 1, 2 once the hand has ended (0/0/0 when passed out)."""
        if self._core.phase is Phase.PASSED_OUT:
            return (0, 0, 0)
        result = self.result()
        return None if result is None else score_result(result, self.profile)

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now (for the seat on turn; both defenders in doubling)."""
        c = self._core
        if c.phase is Phase.BIDDING:
            return [Bid(c.turn, v) for v in range(4) if v == 0 or v > c.high_bid]
        if c.phase is Phase.DOUBLING:
            pending = self._pending_doublers()
            if pending:
                seats = pending[:1] if self.profile.doubling_order != "any_order" else pending
                return [Double(s, d) for s in seats for d in (True, False)]
            return [Redouble(c.landlord or 0, r) for r in (True, False)]
        if c.phase is Phase.PLAYING:
            plays = legal_plays(c.counts[c.turn], c.top, self.profile)
            actions: list[Action] = [] if c.top is None else [Pass(c.turn)]
            return actions + [PlayCards(c.turn, p.text()) for p in plays]
        return []

    # ----------------------------------------------------------------- acting
    def push(self, action: Action) -> None:
        """Apply ``action`` or raise IllegalAction / NotationError, leaving the state unchanged."""
        core = self._core.clone()
        if core.phase in ENDED:
            raise IllegalAction("phase", f"the hand has ended ({core.phase.value})")
        if isinstance(action, Bid):
            self._bid(core, action)
        elif isinstance(action, Double):
            self._double(core, action)
        elif isinstance(action, Redouble):
            self._redouble(core, action)
        elif isinstance(action, (PlayCards, Pass)):
            self._play(core, action)
        else:
            raise TypeError(f"not an action: {action!r}")
        self._stack.append(self._core)
        self._core = core
        self.actions.append(action)

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IndexError("no action to take back")
        self._core = self._stack.pop()
        return self.actions.pop()

    # bidding ------------------------------------------------------------------
    def _bid(self, c: _Core, action: Bid) -> None:
        if c.phase is not Phase.BIDDING:
            raise IllegalAction("invalid_bid", "the auction is closed")
        if action.seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} bids now, not seat {action.seat}")
        value = action.value
        if value not in (0, 1, 2, 3):
            raise IllegalAction("invalid_bid", f"a bid is 0 (pass), 1, 2 or 3, not {value}")
        if value and value <= c.high_bid:
            raise IllegalAction(
                "invalid_bid", f"a bid must be higher than the current bid {c.high_bid}"
            )
        c.bids.append((action.seat, value))
        if value:
            c.high_bid, c.high_bidder, c.passes_since_bid = value, action.seat, 0
        else:
            c.passes_since_bid += 1
        c.turn = (c.turn + 1) % 3
        if self._auction_closed(c):
            self._close_auction(c)

    def _auction_closed(self, c: _Core) -> bool:
        if c.high_bid == 3:
            return True
        if self.profile.auction_mode == "single_round":  # R3.2
            return len(c.bids) == 3
        if c.high_bidder is None:  # R3.3: nobody has bid yet
            return c.passes_since_bid == 3
        return c.passes_since_bid == 2

    def _close_auction(self, c: _Core) -> None:
        if c.high_bidder is None:  # R2.4
            c.phase = Phase.PASSED_OUT
            return
        c.landlord = c.high_bidder
        if self.profile.has_doubling:
            c.phase = Phase.DOUBLING
            if self.profile.kitty_reveal == "before_doubling":
                self._take_kitty(c)
        else:
            self._start_play(c)

    # doubling -----------------------------------------------------------------
    def _pending_doublers(self, c: _Core | None = None) -> list[int]:
        c = c or self._core
        if c.landlord is None:
            return []
        d1, d2 = (c.landlord + 1) % 3, (c.landlord + 2) % 3
        return [s for s in (d1, d2) if c.doubled[s] is None]

    def _double(self, c: _Core, action: Double) -> None:
        if not self.profile.has_doubling:
            raise IllegalAction("invalid_double", f"profile {self.profile.key} has no doubling")
        if c.phase is not Phase.DOUBLING:
            raise IllegalAction("invalid_double", "doubling is only between auction and play")
        if action.seat == c.landlord:
            raise IllegalAction("invalid_double", "the landlord redoubles; he does not double")
        pending = self._pending_doublers(c)
        if action.seat not in pending:
            raise IllegalAction("invalid_double", f"seat {action.seat} has already declared")
        if self.profile.doubling_order == "next_defender_first" and action.seat != pending[0]:
            raise IllegalAction("out_of_turn", f"seat {pending[0]} declares first")
        c.doubled[action.seat] = action.double
        if not self._pending_doublers(c) and not any(c.doubled):
            self._start_play(c)

    def _redouble(self, c: _Core, action: Redouble) -> None:
        if not self.profile.has_doubling:
            raise IllegalAction("invalid_double", f"profile {self.profile.key} has no doubling")
        if c.phase is not Phase.DOUBLING:
            raise IllegalAction("invalid_double", "redoubling is only between auction and play")
        if action.seat != c.landlord:
            raise IllegalAction("invalid_double", "only the landlord may redouble")
        if self._pending_doublers(c):
            raise IllegalAction("invalid_double", "both defenders declare before the redouble")
        if not any(c.doubled):
            raise IllegalAction("invalid_double", "a redouble needs a double (R4.3)")
        c.redoubled = action.redouble
        self._start_play(c)

    # play ---------------------------------------------------------------------
    def _take_kitty(self, c: _Core) -> None:
        if c.kitty_taken or c.landlord is None:
            return
        c.kitty_taken = True
        for card in self.deal.kitty:
            c.counts[c.landlord][card.rank] += 1
            c.held[c.landlord].append(card)

    def _start_play(self, c: _Core) -> None:
        self._take_kitty(c)
        c.phase = Phase.PLAYING
        c.turn = c.landlord if c.landlord is not None else 0  # R5.1

    def _play(self, c: _Core, action: PlayCards | Pass) -> None:
        if c.phase is not Phase.PLAYING:
            raise IllegalAction("phase", f"no play during {c.phase.value}")
        if action.seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {action.seat}")
        if isinstance(action, Pass):
            self._pass(c)
            return
        cards = self._read_cards(action.cards)
        if not cards:
            raise IllegalAction("invalid_combination", "a play needs at least one card, or a pass")
        taken = self._take_cards(c, action.seat, cards)
        play = self._reading(cards, c.top)
        counts = c.counts[action.seat]
        for card in cards:
            counts[card.rank] -= 1
        c.held[action.seat] = taken
        c.top, c.top_seat, c.passes = play, action.seat, 0
        c.play_counts[action.seat] += 1
        c.plays.append(PlayedTrick(action.seat, play, cards))
        if play.kind is Kind.BOMB:
            c.bombs += 1
        elif play.kind is Kind.ROCKET:
            c.rockets += 1
        left = sum(counts)
        if left == 0:  # R5.5
            c.phase = Phase.FINISHED
            c.winner = "landlord" if action.seat == c.landlord else "defenders"
            return
        if left in (1, 2):  # R6.1
            c.announcements.append(Announcement(action.seat, left, len(self.actions)))
        c.turn = (c.turn + 1) % 3

    def _pass(self, c: _Core) -> None:
        if c.top is None:
            raise IllegalAction("lead_pass", "the leader must play; he cannot pass (R5.2)")
        c.passes += 1
        c.turn = (c.turn + 1) % 3
        if c.passes == 2:  # R5.3: the trick is over, its winner leads
            c.top, c.passes = None, 0
            c.turn = c.top_seat if c.top_seat is not None else c.turn

    def _read_cards(self, text: str) -> tuple[Card, ...]:
        """Physical-card notation for a deal with suits, rank notation otherwise (R1.7)."""
        if self.deal.has_suits:
            return parse_cards(text)
        return tuple(Card(rank) for rank in parse_ranks(text))

    def _take_cards(self, c: _Core, seat: int, cards: Sequence[Card]) -> list[Card]:
        """The seat's cards after removing ``cards``; raises not_held (R1.7)."""
        remaining = list(c.held[seat])
        # named physical cards first, so that a rank-only card cannot take a named card's place
        for card in sorted(cards, key=lambda k: k.suit is None):
            match = card if card in remaining else None
            if match is None and card.suit is None:
                match = next((h for h in remaining if h.rank == card.rank), None)
            if match is None:
                raise IllegalAction("not_held", f"seat {seat} does not hold {card}")
            remaining.remove(match)
        return remaining

    def _reading(self, cards: Sequence[Card], top: Play | None) -> Play:
        found = self._table.get(key_of(card.rank for card in cards), ())
        if not found:
            raise IllegalAction(
                "invalid_combination",
                f"{format_ranks(c.rank for c in cards)} is no combination under "
                f"{self.profile.key}",
            )
        if top is None:
            return found[0]
        for play in found:
            if beats(play, top):
                return play
        raise IllegalAction(
            "does_not_beat", f"{format_ranks(c.rank for c in cards)} does not beat {top.text()}"
        )

    # ----------------------------------------------------------------- reports
    def summary(self) -> dict[str, Any]:
        """The protocol's replay answer (PROTOCOL.md, op ``replay``)."""
        return {
            "ok": True,
            "phase": self.phase.value,
            "landlord": self.landlord,
            "bid": self.bid,
            "winner": self.winner,
            "bombs": self.bombs,
            "rockets": self.rockets,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "scores": list(s) if (s := self.scores()) is not None else None,
        }
