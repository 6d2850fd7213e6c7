"""Physical-cards mode: a hand refereed from the cards laid on the table, the deal unknown.

Without the deal the referee cannot know what a seat holds, so ``not_held`` is only checked as
far as the cards seen allow: no seat plays more than its 17 cards (the landlord 20, with the
kitty 底牌), no rank is played more than four times, each joker at most once and each physical
card (when written with its suit) at most once. Everything else — turn order, the auction, the
doubling, combinations, beating (SPEC §3–§5) — is checked exactly as for a dealt hand: the
auction and doubling are the library's ``HandState`` (they never look at the cards), the plays
go through ``classify`` and ``beats``.

If the deal is written in afterwards, ``check_deal`` replays the log against it and names the
first action that the deal makes illegal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from referee.rules.actions import (
    Action,
    Pass,
    PlayCards,
    accepted_action_from_json,
    action_from_json,
)
from referee.rules.cards import (
    Card,
    Deal,
    counts_fit_pack,
    deal_from_seed,
    format_ranks,
    parse_cards,
)
from referee.rules.combos import Kind, Play, beats, classify
from referee.rules.errors import IllegalAction, RulesError
from referee.rules.hand import Announcement, HandState, Phase
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.scoring import DealResult, Winner, score_result

#: What physical-cards mode cannot check without the deal (a read of the hand says so).
IMPOSSIBLE_CHECKS = ("cards_held", "kitty")
_HAND_SIZE = 17
_KITTY_SIZE = 3


class SeenPlay(NamedTuple):
    """A play accepted in physical-cards mode: the seat, its reading and the cards as written."""

    seat: int
    play: Play
    cards: tuple[Card, ...]


class PhysicalHandState:
    """A hand without its deal, driven by ``push`` like ``HandState``."""

    def __init__(self, first_bidder: int = 0, profile: RuleProfile = COMP2016) -> None:
        self.profile = profile
        self.first_bidder = first_bidder
        self.actions: list[Action] = []
        # The auction and doubling never look at the cards: any deal with this first bidder
        # drives them exactly (SPEC §3, §4).
        self._auction = HandState(deal_from_seed(0, first_bidder=first_bidder), profile)
        self._counts = [_HAND_SIZE, _HAND_SIZE, _HAND_SIZE]
        self._rank_counts = [0] * 15
        self._card_ids: set[int] = set()
        self._turn: int | None = None
        self._top: SeenPlay | None = None
        self._passes = 0
        self._plays: list[SeenPlay] = []
        self._bombs = 0
        self._rockets = 0
        self._winner: Winner | None = None
        self._announcements: list[Announcement] = []

    @classmethod
    def from_events(
        cls,
        first_bidder: int,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = COMP2016,
    ) -> PhysicalHandState:
        """Replay a log; the first illegal event raises, its position in ``index``."""
        state = cls(first_bidder, profile)
        for event in events:
            try:
                state.push(event if not isinstance(event, dict) else action_from_json(event))
            except RulesError as exc:
                exc.index = len(state.actions)
                raise
        return state

    @classmethod
    def replay(
        cls,
        first_bidder: int,
        actions: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = COMP2016,
    ) -> PhysicalHandState:
        """Re-apply actions already accepted, without the legality checks (see
        ``HandState.replay``): the caller vouches for each action."""
        state = cls(first_bidder, profile)
        auction = state._auction
        for item in actions:
            action = accepted_action_from_json(item) if isinstance(item, dict) else item
            kind = type(action)
            if kind is PlayCards and state._turn is not None:
                state._play_accepted(action)  # type: ignore[arg-type]
            elif kind is Pass and state._turn is not None:
                state._pass_accepted(action.seat)
            else:
                auction._push_accepted(action)
                if auction.phase is Phase.PLAYING and state._turn is None:
                    state._start_play()
            state.actions.append(action)
        return state

    def to_events(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self.actions]

    # ----------------------------------------------------------------- reading
    @property
    def phase(self) -> Phase:
        if self._winner is not None:
            return Phase.FINISHED
        return self._auction.phase

    @property
    def is_over(self) -> bool:
        return self.phase in (Phase.FINISHED, Phase.PASSED_OUT)

    @property
    def turn(self) -> int | None:
        if self.phase is Phase.PLAYING:
            return self._turn
        return None if self.is_over else self._auction.turn

    @property
    def landlord(self) -> int | None:
        return self._auction.landlord

    @property
    def bid(self) -> int | None:
        return self._auction.bid

    @property
    def doubled(self) -> tuple[bool | None, bool | None, bool | None]:
        return self._auction.doubled

    @property
    def redoubled(self) -> bool | None:
        return self._auction.redoubled

    @property
    def top_play(self) -> Play | None:
        return self._top.play if self._top is not None else None

    @property
    def top_seat(self) -> int | None:
        return self._top.seat if self._top is not None else None

    @property
    def card_counts(self) -> tuple[int, int, int]:
        return self._counts[0], self._counts[1], self._counts[2]

    @property
    def bombs(self) -> int:
        return self._bombs

    @property
    def rockets(self) -> int:
        return self._rockets

    @property
    def winner(self) -> Winner | None:
        return self._winner

    @property
    def spring(self) -> bool:
        """春天 (R7.2): the landlord won and neither defender played a card."""
        return self._winner == "landlord" and all(p.seat == self.landlord for p in self._plays)

    @property
    def anti_spring(self) -> bool:
        """反春 (R7.3): the defenders won and the landlord played only his opening lead."""
        landlord_plays = sum(p.seat == self.landlord for p in self._plays)
        return self._winner == "defenders" and landlord_plays == 1

    @property
    def announcements(self) -> tuple[Announcement, ...]:
        return tuple(self._announcements)

    @property
    def plays(self) -> tuple[SeenPlay, ...]:
        return tuple(self._plays)

    def result(self) -> DealResult | None:
        landlord, bid = self.landlord, self.bid
        if self._winner is None or landlord is None or bid is None:
            return None
        d = self.doubled
        return DealResult(
            landlord=landlord,
            bid=bid,
            doubled=(d[0] is True, d[1] is True, d[2] is True),
            redoubled=self.redoubled is True,
            bombs=self._bombs,
            rockets=self._rockets,
            spring=self.spring,
            anti_spring=self.anti_spring,
            winner=self._winner,
        )

    def scores(self) -> tuple[int, int, int] | None:
        if self.phase is Phase.PASSED_OUT:
            return (0, 0, 0)
        result = self.result()
        return None if result is None else score_result(result, self.profile)

    def legal_actions(self) -> list[Action]:
        """The actions known to be legal: the auction's, and a pass when following.
        Plays cannot be listed without the seat's cards."""
        if self.phase is Phase.PLAYING:
            return [Pass(self._turn)] if self._top is not None and self._turn is not None else []
        return [] if self.is_over else self._auction.legal_actions()

    # ----------------------------------------------------------------- acting
    def push(self, action: Action) -> None:
        """Apply ``action`` or raise a RulesError, leaving the state unchanged."""
        if self.phase is Phase.FINISHED:
            raise IllegalAction("phase", "the hand has ended (finished)")
        if self._auction.phase is Phase.PLAYING and isinstance(action, PlayCards | Pass):
            if type(action.seat) is not int or not 0 <= action.seat <= 2:
                raise IllegalAction("out_of_turn", f"seat {action.seat!r} is not a seat")
            if isinstance(action, Pass):
                self._pass(action)
            else:
                self._play(action)
        else:  # bids, doubles, redoubles, and anything out of its phase: the library decides
            self._auction.push(action)
            if self._auction.phase is Phase.PLAYING and self._turn is None:
                self._start_play()
        self.actions.append(action)

    def _start_play(self) -> None:
        landlord = self._auction.landlord
        assert landlord is not None
        self._counts[landlord] += _KITTY_SIZE
        self._turn = landlord  # R5.1

    def _play(self, action: PlayCards) -> None:
        seat = action.seat
        if seat != self._turn:
            raise IllegalAction("out_of_turn", f"seat {self._turn} plays now, not seat {seat}")
        if type(action.cards) is not str:
            raise IllegalAction("invalid_combination", "cards must be text")
        cards = parse_cards(action.cards)
        if not cards:
            raise IllegalAction("invalid_combination", "a play needs at least one card, or a pass")
        self._check_seen(seat, cards)
        top = self._top.play if self._top is not None else None
        ranks = [c.rank for c in cards]
        play = classify(ranks, self.profile, previous=top)
        if play is None:
            raise IllegalAction(
                "invalid_combination",
                f"{format_ranks(ranks)} is no combination under {self.profile.key}",
            )
        if top is not None and not beats(play, top):
            raise IllegalAction(
                "does_not_beat", f"{format_ranks(ranks)} does not beat {top.text()}"
            )
        self._play_effect(seat, cards, play)

    def _play_accepted(self, action: PlayCards) -> None:
        """``_play`` for a play already accepted: its reading, without the checks."""
        cards = parse_cards(action.cards)
        top = self._top.play if self._top is not None else None
        play = classify([c.rank for c in cards], self.profile, previous=top)
        assert play is not None, "an accepted play has a reading"
        self._play_effect(action.seat, cards, play)

    def _play_effect(self, seat: int, cards: tuple[Card, ...], play: Play) -> None:
        """What an accepted play changes: the cards seen, the trick, the counts, the turn."""
        for card in cards:
            self._rank_counts[card.rank] += 1
            if card.id is not None:
                self._card_ids.add(card.id)
        self._counts[seat] -= len(cards)
        seen = SeenPlay(seat, play, cards)
        self._plays.append(seen)
        self._top, self._passes = seen, 0
        if play.kind is Kind.BOMB:
            self._bombs += 1
        elif play.kind is Kind.ROCKET:
            self._rockets += 1
        left = self._counts[seat]
        if left == 0:  # R5.5
            self._winner = "landlord" if seat == self.landlord else "defenders"
            self._turn = None
            return
        if left <= 2:  # R6.1
            self._announcements.append(Announcement(seat, left, len(self.actions)))
        self._turn = (seat + 1) % 3

    def _check_seen(self, seat: int, cards: tuple[Card, ...]) -> None:
        """``not_held`` as far as the cards seen so far can tell (R1.7)."""
        if len(cards) > self._counts[seat]:
            raise IllegalAction(
                "not_held", f"seat {seat} has {self._counts[seat]} cards, not {len(cards)}"
            )
        counts = list(self._rank_counts)
        for card in cards:
            counts[card.rank] += 1
        if not counts_fit_pack(counts):
            raise IllegalAction("not_held", "one pack has no more of these cards")
        ids = [c.id for c in cards if c.id is not None]
        if len(set(ids)) != len(ids) or self._card_ids.intersection(ids):
            raise IllegalAction("not_held", "the same physical card was played twice")

    def _pass(self, action: Pass) -> None:
        if action.seat != self._turn:
            raise IllegalAction(
                "out_of_turn", f"seat {self._turn} plays now, not seat {action.seat}"
            )
        if self._top is None:
            raise IllegalAction("lead_pass", "the leader must play; he cannot pass (R5.2)")
        self._pass_accepted(action.seat)

    def _pass_accepted(self, seat: int) -> None:
        self._passes += 1
        self._turn = (seat + 1) % 3
        if self._passes == 2 and self._top is not None:  # R5.3: the trick is over, its winner leads
            self._turn, self._top, self._passes = self._top.seat, None, 0


def check_deal(
    deal: Deal, events: Iterable[Action | dict[str, Any]], profile: RuleProfile = COMP2016
) -> RulesError | None:
    """Replay a physical-cards log against the deal written in afterwards.

    Returns None when every action is legal with that deal, else the first error (its
    ``index`` is the action's position in the log).
    """
    try:
        HandState.from_events(deal, events, profile)
    except RulesError as exc:
        return exc
    return None
