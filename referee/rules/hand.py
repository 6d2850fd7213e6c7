"""The state of one hand, driven by ``push`` / ``pop`` like ``chess.Board`` (SPEC §2–§7).

deal → bidding (叫分) → doubling (加倍 / 再加倍, profiles with doubling) → playing → finished,
or passed_out when nobody bids. Every rejected action raises IllegalAction with the stable code
of SPEC R9.1 and leaves the state exactly as it was.

One design for every profile, as python-chess keeps one ``Board`` and makes each variant a
subclass (``chess.variant``). What the profile says is read from it: the seats and the hand
sizes (from the deal), the kitty, the auction (one round or until two passes, a compulsory
opening, what three passes do), the doubling phase, who leads first, and the trick's end after
every other seat has passed. What a game changes beyond its switches is a hook a subclass
overrides (``laizi_hand``, ``four_hand``, ``big3_hand``, ``physical``):

* ``_plays_profile`` — which profiles the class plays;
* ``_read_action`` — how a logged action is read from JSON;
* ``_take`` / ``_taken`` — the cards a play takes from the seat (checked / as accepted);
* ``_judge`` — the reading a play is recorded with, or why it is illegal (kinds, beating);
* ``_legal_plays`` — the plays the seat on turn may make, ``_plays_text`` how they are written;
* ``_also_bomb``, ``_announces`` — what else counts as a bomb, whether 报牌 is due;
* ``result`` (and ``_scored_result``) — what the hand sums up to, scored by the one entry
  point ``scoring.score_hand``, which dispatches by profile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from functools import lru_cache
from operator import attrgetter
from typing import Any, ClassVar, Final, NamedTuple, Protocol, TypeVar

from referee.rules.actions import (
    Action,
    BadEvent,
    Bid,
    DeclaredPlay,
    Double,
    Pass,
    PlayCards,
    Redouble,
    accepted_action_from_json,
    action_from_json,
    apply_log,
)
from referee.rules.cards import (
    CARD_OF_ID,
    CARD_OF_TEXT,
    CARD_TEXT_OF_ID,
    KEY_BITS,
    NUM_RANKS,
    UNIT,
    Card,
    Deal,
    counts_fit_pack,
    counts_of,
    format_cards,
    format_ranks,
    parse_cards,
    parse_ranks,
    ranks_of_key,
)
from referee.rules.combos import Kind, Play, beats, first_beating
from referee.rules.errors import IllegalAction, NotationError
from referee.rules.moves import legal_plays
from referee.rules.profiles import COMP2016, RuleProfile
from referee.rules.scoring import DealResult, Winner, score_hand
from referee.rules.table import Readings, play_table


class Phase(StrEnum):
    CALLING = "calling"  # six_p: the landlord is known, his partner card not yet called (R13.4)
    BIDDING = "bidding"
    DOUBLING = "doubling"
    PLAYING = "playing"
    FINISHED = "finished"
    PASSED_OUT = "passed_out"
    # six_p, physical cards: the hand ended before the partner played the partner card, so
    # who he is (and the scores) waits for the referee to name him (R13.8, R13.10)
    NAMING = "naming"


ENDED = (Phase.FINISHED, Phase.PASSED_OUT)
#: The members the action appliers compare with, once per action: reading an enum member
#: from its class costs some 80 ns on Python 3.11 (ten times a module global), and a replay
#: makes several such reads per action.
_BIDDING, _PLAYING, _BOMB, _ROCKET = Phase.BIDDING, Phase.PLAYING, Kind.BOMB, Kind.ROCKET
_T = TypeVar("_T")
#: The physical card ids of each rank, lowest first (ranks written without a suit take these).
_IDS_OF_RANK = tuple(
    tuple(i for i, card in CARD_OF_ID.items() if card.rank == rank) for rank in range(NUM_RANKS)
)


@lru_cache(maxsize=1 << 16)
def _rank_counts(key: int) -> tuple[tuple[int, int], ...]:
    """A multiset key's (rank, count) pairs, lowest rank first (a pure function of the key,
    kept for the keys a process meets most)."""
    return tuple(
        (rank, count) for rank in range(NUM_RANKS) if (count := (key >> (KEY_BITS * rank)) & 0xF)
    )


#: Bit 3 of every rank's field in a multiset key: set after a subtraction only where a rank
#: went below zero (counts are at most 4, so a field never reaches 8 otherwise).
_BORROWED = sum(8 << (KEY_BITS * r) for r in range(NUM_RANKS))


class Announcement(NamedTuple):
    """报牌 due: ``seat`` went down to ``cards_left`` (2 or 1) with event ``event_index``."""

    seat: int
    cards_left: int
    event_index: int


class PlayedTrick(NamedTuple):
    """An accepted play: who, the reading recorded, and the cards (ranks, and physical ids
    0..53 where the cards were written with suits)."""

    seat: int
    play: Play
    ranks: tuple[int, ...]
    card_ids: tuple[int | None, ...]


class _Core:
    """The changing part of a hand state, one slot per field. Every field holds an immutable
    value (ints, tuples, frozensets, Plays) that is replaced, never changed in place, so the
    tuple of the field values (``_snapshot``, one C-level ``attrgetter`` call) is an exact copy
    of the state, and ``_restore`` puts one back."""

    __slots__ = _FIELDS = (
        "phase", "turn", "bids", "high_bid", "high_bidder", "passes_since_bid", "landlord",
        "doubled", "redoubled", "kitty_taken", "seats", "top", "top_seat",
        "passes", "bombs", "rockets", "winner", "announcements", "plays",
    )  # fmt: skip

    phase: Phase
    turn: int
    bids: tuple[tuple[int, int], ...]
    high_bid: int
    high_bidder: int | None
    passes_since_bid: int
    landlord: int | None
    doubled: tuple[bool | None, ...]
    redoubled: bool | None
    kitty_taken: bool
    seats: _Seats
    top: Play | None
    top_seat: int | None
    passes: int
    bombs: int
    rockets: int
    winner: Winner | None
    announcements: tuple[Announcement, ...]
    plays: tuple[tuple[int, Play, tuple[int, ...], tuple[int | None, ...]], ...]

    @classmethod
    def start(cls, deal: DealCards) -> _Core:
        c = cls()
        seats = len(deal.hands)
        c.phase, c.turn = Phase.BIDDING, deal.first_bidder
        c.bids, c.high_bid, c.high_bidder, c.passes_since_bid = (), 0, None, 0
        c.landlord, c.doubled, c.redoubled, c.kitty_taken = None, (None,) * seats, None, False
        ids = deal.ids[:seats] if deal.has_suits else (_NONE,) * seats
        hands = zip(deal.keys, deal.hands, ids, strict=True)
        c.seats = tuple((key, len(hand), held) for key, hand, held in hands)
        c.top, c.top_seat, c.passes = None, None, 0
        c.bombs, c.rockets, c.winner = 0, 0, None
        c.announcements, c.plays = (), ()
        return c


#: The fields' values as one tuple: what ``push`` keeps to restore on rejection or on ``pop``.
_snapshot = attrgetter(*_Core._FIELDS)


def _restore(core: _Core, saved: tuple[Any, ...]) -> None:
    for name, value in zip(_Core._FIELDS, saved, strict=True):
        setattr(core, name, value)


_Seat = tuple[int, int, frozenset[int]]  # a seat's cards: multiset key, count, physical ids
_Seats = tuple[_Seat, ...]
_KEY: Final = 0
_SIZE: Final = 1
_HELD: Final = 2
_NONE: frozenset[int] = frozenset()  # no physical ids: a deal written with ranks only


def _replace(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _with_seat(seats: _Seats, seat: int, value: _Seat) -> _Seats:
    if len(seats) != 3:
        return (*seats[:seat], value, *seats[seat + 1 :])
    # three seats spelt out: 0.32 us a call against 0.98 us with the slices (each seat in
    # turn, best of 5 x 200,000, python 3.11 on the shared VM); every play makes one
    if seat == 0:
        return (value, seats[1], seats[2])
    return (seats[0], value, seats[2]) if seat == 1 else (seats[0], seats[1], value)


@lru_cache(maxsize=4096)
def _read_play(text: str, suited: bool) -> tuple[tuple[int, ...], tuple[int | None, ...], int]:
    """Ranks, physical ids (None for a card written without its suit) and multiset key of a
    play's text: physical-card notation for a deal with suits, rank notation otherwise (R1.7)."""
    try:  # the canonical physical form "♠3 ♥3 X", as the service writes it
        cards = [_CANONICAL[token] for token in text.split()] if suited else None
    except KeyError:
        cards = None
    if cards is None:
        read = parse_cards(text) if suited else [Card(r) for r in parse_ranks(text)]
        cards = [(c.rank, c.id if suited else None, UNIT[c.rank]) for c in read]
    ranks = tuple(c[0] for c in cards)
    ids = tuple(c[1] for c in cards)
    key = sum(c[2] for c in cards)
    if len(cards) > 4 and not counts_fit_pack(counts_of(ranks)):  # five 3s: nobody holds them
        raise IllegalAction("not_held", f"one pack has no {format_ranks(ranks)}")
    return ranks, ids, key


#: ``cards.CARD_OF_TEXT`` as what a play needs of each card (rank, id, key), looked up once per
#: card of a canonical text: replaying a log reads every play, most of them for the first time.
_CANONICAL = {text: (c.rank, c.id, UNIT[c.rank]) for text, c in CARD_OF_TEXT.items()}


def _pass_accepted(c: _Core, seats: int) -> None:
    """What a pass changes: the turn, and the trick once every other seat has passed."""
    c.passes += 1
    c.turn = (c.turn + 1) % seats
    if c.passes == seats - 1:  # R5.3, R11.1, R12.7.3: the trick is over, its winner leads
        c.top, c.passes = None, 0
        c.turn = c.top_seat if c.top_seat is not None else c.turn


class DealCards(Protocol):
    """What a hand state reads of its deal (``Deal``, ``four_hand.FourDeal``,
    ``big3_hand.Big3Deal``): the hands, the kitty, each as a multiset key, the first bidder, and
    the physical card ids where the deal has suits."""

    @property
    def hands(self) -> Sequence[Sequence[object]]: ...
    @property
    def kitty(self) -> Sequence[object]: ...
    @property
    def first_bidder(self) -> int: ...
    @property
    def keys(self) -> tuple[int, ...]: ...
    @property
    def kitty_key(self) -> int: ...
    @property
    def has_suits(self) -> bool: ...
    @property
    def ids(self) -> tuple[frozenset[int], ...]: ...
    def to_json(self) -> dict[str, object]: ...


class _CoreFields(Protocol):
    """What ``HandReadings`` reads of a hand's changing part (``_Core``)."""

    @property
    def phase(self) -> Phase: ...
    @property
    def turn(self) -> int: ...
    @property
    def landlord(self) -> int | None: ...
    @property
    def high_bid(self) -> int: ...
    @property
    def top(self) -> Play | None: ...
    @property
    def top_seat(self) -> int | None: ...
    @property
    def bombs(self) -> int: ...
    @property
    def winner(self) -> Winner | None: ...


def check_bid(c: _CoreFields, action: Bid) -> int:
    """The value of a bid the auction accepts (R3: the seat on turn bids 0 to pass, or more
    than the highest bid so far, up to 3), else IllegalAction."""
    if c.phase is not _BIDDING:
        raise IllegalAction("invalid_bid", "the auction is closed")
    if action.seat != c.turn:
        raise IllegalAction("out_of_turn", f"seat {c.turn} bids now, not seat {action.seat}")
    value = action.value
    if type(value) is not int or value not in (0, 1, 2, 3):
        raise IllegalAction("invalid_bid", f"a bid is 0 (pass), 1, 2 or 3, not {value}")
    if value and value <= c.high_bid:
        raise IllegalAction(
            "invalid_bid", f"a bid must be higher than the current bid {c.high_bid}"
        )
    return value


class HandReadings:
    """The read-only accessors of a hand state over the changing part of the hand it keeps in
    ``_core`` (``HandState`` and every game's subclass)."""

    _core: _CoreFields

    @property
    def phase(self) -> Phase:
        return self._core.phase

    @property
    def is_over(self) -> bool:
        return self._core.phase in ENDED

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
    def bombs(self) -> int:
        """Bombs played (in ``four_p`` the four-joker bomb included, R11.1.8)."""
        return self._core.bombs

    @property
    def winner(self) -> Winner | None:
        return self._core.winner


class HandState(HandReadings):
    """One hand from the deal to the score. ``push`` an action, ``pop`` to take it back.

    Two ways in, one per use: ``push`` (a referee acting live) keeps a snapshot of the state per
    action, so a rejected action and ``pop`` restore it at once; ``from_events`` (replaying a
    stored log, far more frequent than taking an action back) keeps none. ``_stack`` holds the
    snapshot of each action, or None for a replayed one, whose ``pop`` replays the log up to it.
    """

    #: A kind counted as a bomb besides ``Kind.BOMB`` (four_p's four jokers, R11.1.5).
    _also_bomb: ClassVar[Kind | None] = None
    #: Whether going down to 2 or 1 cards makes 报牌 due (R6.1; not in four_p, nor big3).
    _announces: ClassVar[bool] = True
    #: Whether ``replay`` goes through the checks (a game without an unchecked way in).
    _replays_checked: ClassVar[bool] = False

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        """Whether this class plays ``profile`` (a hook): here Dou Dizhu for three without
        wild cards."""
        return profile.is_three_player

    @staticmethod
    def _read_action(event: object) -> Action | DeclaredPlay:
        """How a logged action is read from its JSON form (a hook: four seats, declarations)."""
        return action_from_json(event)

    def __init__(self, deal: Deal, profile: RuleProfile = COMP2016) -> None:
        if not self._plays_profile(profile):
            raise ValueError(
                f"{type(self).__name__} does not play {profile.key}; games.state_new picks the "
                "hand state of each profile"
            )
        self.deal = deal
        self.profile = profile
        self.actions: list[Action] = []
        self._seats = profile.seats
        self._suited = deal.has_suits
        self._core: _Core = _Core.start(deal)
        self._stack: list[tuple[Any, ...] | None] = []
        self._table = play_table(profile) if profile.is_three_player else {}

    # ----------------------------------------------------------------- building
    @classmethod
    def from_events(
        cls, deal: Deal, events: Iterable[Action | dict[str, Any]], profile: RuleProfile = COMP2016
    ) -> HandState:
        """Replay an event log; the first illegal event raises, its position in ``index``.

        Replaying keeps no snapshots (a log is replayed far more often than taken back): a
        later ``pop`` of a replayed action rebuilds the state from the log instead.
        """
        state = cls(deal, profile)
        apply_log(state._advance, events, cls._read_action, state.actions)
        return state

    @classmethod
    def replay(
        cls, deal: Deal, actions: Iterable[Action | dict[str, Any]], profile: RuleProfile = COMP2016
    ) -> HandState:
        """Re-apply actions already accepted, without the legality checks (``chess.Board.push``
        to ``from_events``' ``push_san``): the caller vouches that each action was legal where
        it stands, as a log written by ``push`` is. Everything the state tracks is updated as
        ``push`` would (holdings, trick, turn, passes, bombs, rockets, phase, declarations,
        announcements); an action that was not legal gives a state no rule describes. Actions
        in the protocol's JSON form are read without ``action_from_json``'s shape checks.
        """
        if cls._replays_checked:
            return cls.from_events(deal, actions, profile)
        state = cls(deal, profile)
        state._reapply(actions)
        return state

    def to_events(self) -> list[dict[str, Any]]:
        """The event log in the protocol's JSON form (round-trips through ``from_events``)."""
        return [a.to_json() for a in self.actions]

    # ----------------------------------------------------------------- reading
    @property
    def turn(self) -> int | None:
        """The seat expected to act next (in doubling: the next undecided declarer)."""
        c = self._core
        if c.phase is Phase.DOUBLING:
            pending = self._pending_doublers()
            return pending[0] if pending else c.landlord
        return None if c.phase in ENDED else c.turn

    @property
    def card_counts(self) -> tuple[int, ...]:
        """How many cards each seat holds, seat by seat."""
        return tuple(seat[_SIZE] for seat in self._core.seats)

    def hand_of(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` still holds (the landlord's include the kitty once taken);
        physical cards when the deal has suits."""
        if self._suited:
            held = self._core.seats[seat][_HELD]
            return tuple(CARD_OF_ID[i] for i in sorted(held))  # id order is card order
        return tuple(Card(r) for r in ranks_of_key(self._core.seats[seat][_KEY]))

    def hand_cards_text(self, seat: int) -> str:
        """``format_cards(hand_of(seat))``: the physical cards ``seat`` still holds (ranks
        only when the deal has no suits), written from the held card ids."""
        if self._suited:
            return " ".join(CARD_TEXT_OF_ID[i] for i in sorted(self._core.seats[seat][_HELD]))
        return format_cards(self.hand_of(seat))

    def hand_text(self, seat: int) -> str:
        """The rank text of what ``seat`` still holds, e.g. ``3345QQ2``."""
        return format_ranks(ranks_of_key(self._core.seats[seat][_KEY]))

    @property
    def doubled(self) -> tuple[bool | None, ...]:
        """Each seat's double: None undecided (or no doubling), True, False."""
        return self._core.doubled

    @property
    def redoubled(self) -> bool | None:
        return self._core.redoubled

    @property
    def kitty_revealed(self) -> bool:
        """The kitty (底牌) has been shown and joined the landlord's hand (R2.5); never in a
        profile whose kitty nobody else sees (four_p R11.1.2, big3's hole R12.6)."""
        return self._core.kitty_taken and self.profile.kitty_visible_to_all

    @property
    def redeal_first_bidder(self) -> int | None:
        """After a passed-out hand: who bids first on the redeal (R2.4, switch ``all_pass``).

        None when there is no redeal (a duplicate board scores 0/0/0) or no pass-out.
        """
        if self._core.phase is not Phase.PASSED_OUT or self.profile.all_pass == "score_zero":
            return None
        first = self.deal.first_bidder
        advance = self.profile.all_pass == "redeal_advance_first_bidder"
        return (first + 1) % self._seats if advance else first

    @property
    def rockets(self) -> int:
        return self._core.rockets

    @property
    def spring(self) -> bool:
        """春天: the landlord won and neither defender played a card (R7.2)."""
        c = self._core
        return c.winner == "landlord" and all(p[0] == c.landlord for p in c.plays)

    @property
    def anti_spring(self) -> bool:
        """反春: the defenders won and the landlord played only his opening lead (R7.3)."""
        c = self._core
        return c.winner == "defenders" and sum(p[0] == c.landlord for p in c.plays) == 1

    @property
    def announcements(self) -> tuple[Announcement, ...]:
        """Every 报牌 due so far (R6.1): a seat went down to 2 or to 1 cards."""
        return self._core.announcements

    @property
    def announcement_due(self) -> Announcement | None:
        """The announcement the last action made due, if any."""
        a = self._core.announcements
        return a[-1] if a and a[-1].event_index == len(self.actions) - 1 else None

    @property
    def plays(self) -> tuple[PlayedTrick, ...]:
        """Every accepted play, in order."""
        return tuple(PlayedTrick(*p) for p in self._core.plays)

    def result(self) -> DealResult | None:
        """The hand summed up for scoring, once finished (a hook: each game its own result)."""
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

    def _scored_result(self) -> Any:
        """What ``scores`` scores: ``result`` (a hook; laizi's carries its bomb classes)."""
        return self.result()

    def scores(self) -> tuple[int, ...] | None:
        """Deal scores, seat by seat, once the hand has ended (all 0 when passed out), by
        the one scoring entry point (``score_hand``)."""
        if self._core.phase is Phase.PASSED_OUT:
            return (0,) * self._seats
        result = self._scored_result()
        return None if result is None else score_hand(result, self.profile)

    def legal_actions(self) -> list[Action]:
        """Every action the rules allow now (for the seat on turn; both defenders in doubling)."""
        c = self._core
        if c.phase is Phase.BIDDING:
            may_pass = c.bids or not self.profile.compulsory_opening  # R12.5.1
            return [Bid(c.turn, v) for v in range(4) if (v == 0 and may_pass) or v > c.high_bid]
        if c.phase is Phase.DOUBLING:
            pending = self._pending_doublers()
            if pending:
                seats = pending[:1] if self.profile.doubling_order != "any_order" else pending
                return [Double(s, d) for s in seats for d in (True, False)]
            return [Redouble(c.landlord or 0, r) for r in (True, False)]
        if c.phase is Phase.PLAYING:
            plays = self._legal_plays(c.seats[c.turn][_KEY], c.top)
            actions: list[Action] = [] if c.top is None else [Pass(c.turn)]
            return actions + [PlayCards(c.turn, text) for text in self._plays_text(c.turn, plays)]
        return []

    def _legal_plays(self, key: int, top: Play | None) -> list[Play]:
        """The plays a hand of multiset ``key`` may make over ``top`` (a hook)."""
        return legal_plays(key, top, self.profile)

    def _plays_text(self, seat: int, plays: list[Play]) -> list[str]:
        """How to write each of ``plays`` from ``seat``'s hand: the physical cards (the lowest
        suits of each rank first) when the deal has suits, else the canonical rank text.

        Each rank's held cards are written once for all the plays, and each play's ranks
        read from its key once per process (``_rank_counts``): a state's ``legal_actions``
        took 8.1-11.6 us against 28.6-29.1 us before (200 random mid-hand states of
        ``deal_from_seed`` deals, best of 7, two runs each)."""
        if not self._suited:
            return [play.text() for play in plays]
        held = self._core.seats[seat][_HELD]
        lowest: dict[int, list[str]] = {}
        texts: list[str] = []
        for play in plays:
            words: list[str] = []
            for rank, count in _rank_counts(play.key):
                of_rank = lowest.get(rank)
                if of_rank is None:
                    of_rank = lowest[rank] = [
                        CARD_TEXT_OF_ID[i] for i in _IDS_OF_RANK[rank] if i in held
                    ]
                words.extend(of_rank[:count])
            texts.append(" ".join(words))  # rank order is card id order
        return texts

    # ----------------------------------------------------------------- acting
    def push(self, action: Action) -> None:
        """Apply ``action`` or raise a RulesError (IllegalAction, NotationError, BadEvent for a
        malformed action), leaving the state unchanged."""
        core = self._core
        apply = self._applier(action)
        saved = _snapshot(core)  # fields are replaced, never changed in place
        try:
            apply(self, core, action)
        except BaseException:
            _restore(core, saved)
            raise
        self._stack.append(saved)
        self.actions.append(action)

    def _advance(self, action: Action) -> None:
        """``push`` without a snapshot, for replays. The appliers check everything before they
        change anything, so a rejected action still leaves the state as it was."""
        self._applier(action)(self, self._core, action)
        self._stack.append(None)
        self.actions.append(action)

    def _reapply(self, actions: Iterable[Action | dict[str, Any]]) -> None:
        """``replay``'s re-apply, for this state and for one that wraps it
        (``physical.PhysicalHandState.replay``)."""
        push = self._push_accepted
        for item in actions:
            push(accepted_action_from_json(item) if isinstance(item, dict) else item)

    def _push_accepted(self, action: Action) -> None:
        """Re-apply one action already accepted, without its checks (see ``replay``)."""
        c = self._core
        kind = type(action)
        if kind is PlayCards:
            self._play_accepted(c, action)  # type: ignore[arg-type]
        elif kind is Pass:
            _pass_accepted(c, self._seats)
        elif kind is Bid:
            self._bid_accepted(c, action.seat, action.value)  # type: ignore[union-attr]
        elif kind is Double:
            self._double_accepted(c, action.seat, action.double)  # type: ignore[union-attr]
        else:
            self._redouble_accepted(c, action.redouble)  # type: ignore[union-attr]
        self._stack.append(None)
        self.actions.append(action)

    def _applier(self, action: Action) -> Callable[[HandState, _Core, Any], None]:
        """The method that applies ``action``, once the hand is open and the action well formed."""
        if self._core.phase in ENDED:
            raise IllegalAction("phase", f"the hand has ended ({self._core.phase.value})")
        apply = self._APPLY.get(type(action))
        if apply is None:
            raise BadEvent(f"not an action: {action!r}")
        if type(action.seat) is not int or not 0 <= action.seat < self._seats:
            raise BadEvent(f"an action's seat is 0..{self._seats - 1}, not {action.seat!r}")
        return apply

    def pop(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IndexError("no action to take back")
        saved = self._stack.pop()
        action = self.actions.pop()
        if saved is not None:
            _restore(self._core, saved)
        else:  # replayed without a snapshot: replay the log up to here again
            log = self.actions
            self.actions, self._stack, self._core = [], [], _Core.start(self.deal)
            for earlier in log:
                self._advance(earlier)
        return action

    # bidding ------------------------------------------------------------------
    def _bid(self, c: _Core, action: Bid) -> None:
        value = check_bid(c, action)
        if not value and not c.bids and self.profile.compulsory_opening:
            raise IllegalAction("invalid_bid", "the first bidder must bid 1, 2 or 3 (R12.5.1)")
        self._bid_accepted(c, action.seat, value)

    def _bid_accepted(self, c: _Core, seat: int, value: int) -> None:
        c.bids = (*c.bids, (seat, value))
        if value:
            c.high_bid, c.high_bidder, c.passes_since_bid = value, seat, 0
        else:
            c.passes_since_bid += 1
        c.turn = (c.turn + 1) % self._seats
        if self._auction_closed(c):
            self._close_auction(c)

    def _auction_closed(self, c: _Core) -> bool:
        if c.high_bid == 3:
            return True
        seats = self._seats
        if self.profile.auction_mode == "single_round":  # R3.2, R11.1.2, R12.5.3
            return len(c.bids) == seats
        if c.high_bidder is None:  # R3.3: nobody has bid yet
            return c.passes_since_bid == seats
        return c.passes_since_bid == seats - 1  # R3.3, R12.5.1

    def _close_auction(self, c: _Core) -> None:
        if c.high_bidder is None:
            if self.profile.all_pass != "first_bidder_digs":  # R2.4
                c.phase = Phase.PASSED_OUT
                return
            # R12.5.3 烂挖: the first bidder digs at 1
            c.high_bid, c.high_bidder = 1, self.deal.first_bidder
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
        seats = self._seats
        later = ((c.landlord + step) % seats for step in range(1, seats))
        return [s for s in later if c.doubled[s] is None]

    def _double(self, c: _Core, action: Double) -> None:
        if type(action.double) is not bool:
            raise BadEvent(f"a double is true or false, not {action.double!r}")
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
        self._double_accepted(c, action.seat, action.double)

    def _double_accepted(self, c: _Core, seat: int, double: bool) -> None:
        c.doubled = _replace(c.doubled, seat, double)
        if not self._pending_doublers(c) and not any(c.doubled):
            self._start_play(c)

    def _redouble(self, c: _Core, action: Redouble) -> None:
        if type(action.redouble) is not bool:
            raise BadEvent(f"a redouble is true or false, not {action.redouble!r}")
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
        self._redouble_accepted(c, action.redouble)

    def _redouble_accepted(self, c: _Core, redouble: bool) -> None:
        c.redoubled = redouble
        self._start_play(c)

    # play ---------------------------------------------------------------------
    def _take_kitty(self, c: _Core) -> None:
        if c.kitty_taken or c.landlord is None:
            return
        c.kitty_taken = True
        seat = c.landlord
        kitty_key = self.deal.kitty_key
        key, size, held = c.seats[seat]
        if self._suited:
            held = held | self.deal.ids[-1]
        c.seats = _with_seat(c.seats, seat, (key + kitty_key, size + len(self.deal.kitty), held))

    def _start_play(self, c: _Core) -> None:
        self._take_kitty(c)
        c.phase = Phase.PLAYING
        c.turn = c.landlord if c.landlord is not None else 0  # R5.1
        if self.profile.first_lead == "first_bidder":  # R12.7.1
            c.turn = self.deal.first_bidder

    def _play(self, c: _Core, action: PlayCards) -> None:
        """R5.2 turn and lead, R5.21 / R5.22 the reading that beats: the play phase's checks,
        for a dealt hand and for one refereed from the cards laid (``physical.PhysicalHandState``)
        alike. Only what the seat holds is checked by the mode (``_take``); what the play then
        changes is ``_play_effect``, shared with the unchecked replay (``_play_accepted``)."""
        if c.phase is not _PLAYING:
            raise IllegalAction("phase", f"no play during {c.phase.value}")
        seat = action.seat
        if seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {seat}")
        ranks, ids, key, after = self._take(c, seat, action.cards)
        if not ranks:
            raise IllegalAction("invalid_combination", "a play needs at least one card, or a pass")
        self._play_effect(c, seat, self._judge(key, ranks, c.top), ranks, ids, after)

    def _judge(self, key: int, ranks: tuple[int, ...], top: Play | None) -> Play:
        """The reading the play of multiset ``key`` is recorded with over ``top`` (R5.21,
        R5.22), else IllegalAction (invalid_combination, does_not_beat). A hook: each game
        has its own kinds and what beats what."""
        found = self._table.get(key)
        if found is None or (top is not None and not beats(found[0], top)):
            return self._reading(found, ranks, top)  # another reading, or the reason why not
        return found[0]

    def _play_accepted(self, c: _Core, action: PlayCards) -> None:
        """``_play`` for a play already accepted: the reading it was accepted with (the first
        that beats the top play) and the cards it took (``_taken``), without the checks."""
        seat = action.seat
        ranks, ids, key, after = self._taken(c, seat, action.cards)
        found = self._table[key]
        top = c.top
        play = found[0]
        if top is not None and not beats(play, top):
            play = first_beating(found, top) or play
        self._play_effect(c, seat, play, ranks, ids, after)

    def _play_effect(
        self,
        c: _Core,
        seat: int,
        play: Play,
        ranks: tuple[int, ...],
        ids: tuple[int | None, ...],
        after: _Seat,
    ) -> None:
        """What an accepted play changes (R5.3 the trick, R5.5 the hand's end, R6.1 the
        announcements): ``seat``'s cards become ``after``, the trick, the counts, the turn."""
        c.seats = _with_seat(c.seats, seat, after)
        c.top, c.top_seat, c.passes = play, seat, 0
        c.plays = (*c.plays, (seat, play, ranks, ids))
        kind = play.kind
        if kind is _BOMB or kind is self._also_bomb:
            c.bombs += 1
        elif kind is _ROCKET:
            c.rockets += 1
        left = after[_SIZE]
        if left == 0:  # R5.5, R12.10
            c.phase = Phase.FINISHED
            c.winner = "landlord" if seat == c.landlord else "defenders"
            return
        if left <= 2 and self._announces:  # R6.1
            c.announcements = (*c.announcements, Announcement(seat, left, len(self.actions)))
        c.turn = (c.turn + 1) % self._seats

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """The play's ranks, physical ids and multiset key, and ``seat``'s cards after it;
        raises not_held (R1.7) for cards the seat does not hold, checking nothing else."""
        if type(cards) is not str:
            raise NotationError(f"cards must be text, not {cards!r}", token=repr(cards))
        ranks, ids, key = _read_play(cards, self._suited)
        seat_key, size, held = c.seats[seat]
        rest = seat_key - key
        if rest < 0 or rest & _BORROWED:  # some rank went below zero: not held (R1.7)
            raise IllegalAction("not_held", f"seat {seat} does not hold {format_ranks(ranks)}")
        return ranks, ids, key, (rest, size - len(ranks), self._held_after(held, ranks, ids, seat))

    def _taken(
        self, c: _Core, seat: int, cards: str
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """``_take`` for a play already accepted: the same answer, without the check."""
        ranks, ids, key = _read_play(cards, self._suited)
        seat_key, size, held = c.seats[seat]
        after = (seat_key - key, size - len(ranks), self._held_after(held, ranks, ids, seat))
        return ranks, ids, key, after

    def _held_after(
        self, held: frozenset[int], ranks: tuple[int, ...], ids: tuple[int | None, ...], seat: int
    ) -> frozenset[int]:
        """The seat's physical cards after the play (with suits; else ``held`` as it is)."""
        if not self._suited:
            return held
        left_cards = held.difference(ids)
        if None in ids or len(left_cards) != len(held) - len(ids):  # unnamed or not held
            left_cards = self._take_physical(held, ranks, ids, seat)
        return left_cards

    def _pass(self, c: _Core, action: Pass) -> None:
        if c.phase is not _PLAYING:
            raise IllegalAction("phase", f"no pass during {c.phase.value}")
        if action.seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {action.seat}")
        if c.top is None:
            raise IllegalAction("lead_pass", "the leader must play; he cannot pass (R5.2)")
        _pass_accepted(c, self._seats)

    @staticmethod
    def _take_physical(
        held: frozenset[int], ranks: Sequence[int], ids: Sequence[int | None], seat: int
    ) -> frozenset[int]:
        """The seat's physical cards after the play; raises not_held (R1.7). Cards written
        without a suit take the seat's lowest card of that rank not named in the play."""
        named = [i for i in ids if i is not None]
        left = held.difference(named)
        if len(left) != len(held) - len(named):
            missing = [str(CARD_OF_ID[i]) for i in named if i not in held] or ["a card twice"]
            raise IllegalAction("not_held", f"seat {seat} does not hold {missing[0]}")
        if len(named) == len(ids):
            return left
        taken: set[int] = set()
        for rank, card_id in zip(ranks, ids, strict=True):
            if card_id is None:
                found = next((i for i in _IDS_OF_RANK[rank] if i in left and i not in taken), None)
                if found is None:
                    raise IllegalAction("not_held", f"seat {seat} does not hold that many {rank}")
                taken.add(found)
        return left.difference(taken)

    def _reading(self, found: Readings | None, ranks: Sequence[int], top: Play | None) -> Play:
        if not found:
            raise IllegalAction(
                "invalid_combination",
                f"{format_ranks(ranks)} is no combination under {self.profile.key}",
            )
        if top is None:
            return found[0]
        play = first_beating(found, top)
        if play is None:
            raise IllegalAction(
                "does_not_beat", f"{format_ranks(ranks)} does not beat {top.text()}"
            )
        return play

    _APPLY: ClassVar[dict[type, Callable[[HandState, _Core, Any], None]]] = {
        Bid: _bid,
        Double: _double,
        Redouble: _redouble,
        PlayCards: _play,
        Pass: _pass,
    }

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
