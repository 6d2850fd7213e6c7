"""One six-player hand (六人斗地主, SPEC §13, PROTOCOL-six-five §1): ``HandState`` with the hooks
of the game overridden.

From the profile (``SIX_P``, ``SIX_P_NO_KITTY``): six seats, three packs, 26 each and a kitty of
6 (or 27 each and none), no auction and no doubling, the kitty taken unseen, five passes end a
trick. Overridden here: the deal (physical cards with their copies, the face-up card that names
the landlord, R13.3, R13.10), the call of the partner card (a new phase, ``calling``, and a new
action, ``Call``, R13.4), the kinds and the ladder (``six_combos``), who wins (the landlord side:
the landlord and the holder of the third copy, R13.8), the spring (R13.9), the result
(``six_five_scoring``), no 报牌.

**What the table may know** (R13.11). ``partner`` is the referee's and the archive's view: it
follows from the deal. ``public_view()`` is what every seat and every spectator may know; it is
built only from public things (the face-up card, the call, the cards each play showed — rank and
suit, never the copy, which is a storage identity — the passes, the card counts, the landlord's
as one number) and from ``revealed_at``, and so cannot show or imply the partner before the
event in which he plays a copy of the partner card, or the end of the hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from referee.rules.actions import (
    Action,
    BadEvent,
    PlayCards,
    _value_object,
    action_from_json,
)
from referee.rules.cards import (
    CARD_TEXT_OF_ID,
    NUM_RANKS,
    RANK_CHARS,
    SMALL_JOKER,
    SUITS,
    UNIT,
    counts_of,
    counts_of_key,
    format_ranks,
)
from referee.rules.combos import Kind, Play
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError
from referee.rules.hand import _SIZE, HandState, Phase, _Core, _Seat
from referee.rules.profiles import SIX_P, RuleProfile
from referee.rules.six_combos import (
    MAX_PLAY_CARDS,
    MAX_PLAY_CARDS_NO_KITTY,
    beats_six,
    classify_six,
    legal_plays_six,
)
from referee.rules.six_five_scoring import SIX_SEATS as SEATS
from referee.rules.six_five_scoring import SixResult

COPIES = 3
#: Physical cards of three packs: id = card_id × 3 + (copy − 1), so id order is the canonical
#: order (rank, then ♠ ♥ ♣ ♦, then the copy). ``card_id`` is the one-pack id (0…53).
NUM_IDS = 54 * COPIES
_RANK_OF_ID = tuple(
    (i // COPIES) // 4 if i // COPIES < 52 else SMALL_JOKER + i // COPIES - 52
    for i in range(NUM_IDS)
)
_SUIT_INDEX = {s: n for n, s in enumerate(SUITS)}
_PAIRS_OF_RANK = tuple(
    tuple(i for i in range(NUM_IDS) if _RANK_OF_ID[i] == r) for r in range(NUM_RANKS)
)


def id_text(card: int) -> str:
    """``♠7#2``, ``X#1``: a physical card of three packs with its copy."""
    return f"{CARD_TEXT_OF_ID[card // COPIES]}#{card % COPIES + 1}"


def base_text(card: int) -> str:
    """``♠7``, ``X``: the card as the table sees it (the copy is only a storage identity)."""
    return CARD_TEXT_OF_ID[card // COPIES]


def format_six(cards: Iterable[int], *, copies: bool = True) -> str:
    """Canonical text: low to high, ♠ ♥ ♣ ♦ at equal rank, then the copy; one space between."""
    write = id_text if copies else base_text
    return " ".join(write(i) for i in sorted(cards))


_CARD = tuple[int, int | None, int | None]  # rank, one-pack card id (None: no suit), copy


def parse_six(text: object) -> list[_CARD]:
    """Read suited notation with optional copies (PROTOCOL-six-five §1.2): (rank, one-pack card
    id, copy or None) of each card in the order written. NotationError (``bad_notation``) for a
    rank without a suit, a suit on a joker, a letter for a suit, a copy other than #1–#3."""
    if type(text) is not str:
        raise NotationError(f"cards must be text, not {text!r}", token=repr(text))
    try:  # the canonical form, as the service and ``legal_actions`` write it: "♠7#2 ♥7 X#1"
        return [_TOKENS[token] for token in text.split()]
    except KeyError:
        pass
    text = text.replace("小王", "X").replace("大王", "D")
    out: list[_CARD] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in " ,+-\t\n":
            i += 1
            continue
        suit = _SUIT_INDEX.get(ch)
        if suit is not None:
            i += 1
        if text.startswith("10", i):
            rank, i = RANK_CHARS.index("T"), i + 2
        elif i < n and text[i].upper() in RANK_CHARS:
            rank, i = RANK_CHARS.index(text[i].upper()), i + 1
        else:
            token = text[i] if i < n else ch
            hint = "; suits are written ♠ ♥ ♣ ♦" if token.upper() in "SHC" else ""
            raise NotationError(f"{token!r} is not a card in {text!r}{hint}", token=token)
        if rank >= SMALL_JOKER:
            if suit is not None:
                raise NotationError(f"a joker has no suit: {text!r}", token=ch)
            base: int | None = 52 + rank - SMALL_JOKER
        elif suit is None:
            token = RANK_CHARS[rank]
            raise NotationError(f"six_p cards need their suit, e.g. ♠{token}", token=token)
        else:
            base = rank * 4 + suit
        copy = None
        if i < n and text[i] == "#":
            digit = text[i + 1 : i + 2]
            if digit not in ("1", "2", "3") or text[i + 2 : i + 3].isdigit():
                raise NotationError(f"a copy is #1, #2 or #3, in {text!r}", token="#" + digit)
            copy, i = int(digit), i + 2
        out.append((rank, base, copy))
    return out


#: Every card's canonical token, with each copy and without: what ``parse_six`` reads it as.
_TOKENS: dict[str, _CARD] = {
    **{base_text(i): (_RANK_OF_ID[i], i // COPIES, None) for i in range(0, NUM_IDS, COPIES)},
    **{id_text(i): (_RANK_OF_ID[i], i // COPIES, i % COPIES + 1) for i in range(NUM_IDS)},
}


def _ids_with_copies(text: object) -> tuple[int, ...]:
    """The physical ids of a deal's text: every card with its copy (InvalidDeal otherwise)."""
    try:
        cards = parse_six(text)
    except NotationError as exc:
        raise InvalidDeal(f"unreadable deal: {exc.message}") from exc
    if any(copy is None for _, _, copy in cards):
        raise InvalidDeal("every dealt card needs its copy (#1, #2, #3), the kitty's too")
    return tuple(sorted(base * COPIES + copy - 1 for _, base, copy in cards))  # type: ignore[operator]


# --------------------------------------------------------------------------- the deal
@dataclass(frozen=True, slots=True)
class SixDeal:
    """Six hands and the kitty (empty with ``no_kitty``), together the 162 cards of three packs
    each once (R13.1, R13.2), and the face-up card, one card of a hand (R13.3): physical ids."""

    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    face_up: int
    no_kitty: bool = False
    ids: tuple[frozenset[int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size, kitty = (27, 0) if self.no_kitty else (26, 6)
        sizes = [len(h) for h in self.hands]
        if len(self.hands) != SEATS or sizes != [size] * SEATS:
            raise InvalidDeal(f"this deal is 6 hands of {size} cards, got {sizes}")
        if len(self.kitty) != kitty:
            raise InvalidDeal(f"the kitty is {kitty} cards here, got {len(self.kitty)}")
        everything = sorted(i for part in (*self.hands, self.kitty) for i in part)
        if everything != list(range(NUM_IDS)):
            raise InvalidDeal("the 162 cards are not three packs, each card once with its copy")
        if type(self.face_up) is not int or not any(self.face_up in h for h in self.hands):
            raise InvalidDeal("the face-up card is one card of a hand, never of the kitty (R13.3)")
        object.__setattr__(self, "ids", tuple(frozenset(p) for p in (*self.hands, self.kitty)))

    @property
    def landlord(self) -> int:
        """The holder of the face-up card (R13.3)."""
        return next(seat for seat, hand in enumerate(self.hands) if self.face_up in hand)

    # What a hand state reads of its deal (``hand.DealCards``).
    @property
    def first_bidder(self) -> int:
        return self.landlord

    @property
    def keys(self) -> tuple[int, ...]:
        return tuple(_key(h) for h in self.hands)

    @property
    def kitty_key(self) -> int:
        return _key(self.kitty)

    @property
    def has_suits(self) -> bool:
        return True

    def to_json(self) -> dict[str, object]:
        return {
            "hands": [format_six(h) for h in self.hands],
            "kitty": format_six(self.kitty),
            "face_up": id_text(self.face_up),
        }

    @classmethod
    def from_json(cls, data: object, *, no_kitty: bool = False) -> SixDeal:
        """Read a deal (PROTOCOL-six-five §1.4): ``hands``, ``kitty`` (empty or absent under
        ``no_kitty``) and ``face_up``, every card with its copy; InvalidDeal otherwise."""
        if not isinstance(data, dict):
            raise InvalidDeal("a deal is an object with hands, kitty and face_up")
        hands, kitty, face_up = data.get("hands"), data.get("kitty"), data.get("face_up")
        if not isinstance(hands, list) or len(hands) != SEATS:
            raise InvalidDeal("a six-player deal needs six hands")
        if kitty is None and not no_kitty:
            raise InvalidDeal("six_p needs the kitty of 6 (R13.2)")
        if not isinstance(face_up, str):
            raise InvalidDeal("the deal names the face-up card, with its copy")
        up = _ids_with_copies(face_up)
        if len(up) != 1:
            raise InvalidDeal("the face-up card is one card with its copy")
        return cls(
            hands=tuple(_ids_with_copies(h) for h in hands),
            kitty=_ids_with_copies(kitty or ""),
            face_up=up[0],
            no_kitty=no_kitty,
        )


def _key(ids: Iterable[int]) -> int:
    return sum(UNIT[_RANK_OF_ID[i]] for i in ids)


def partner_card_of(cards: Iterable[int]) -> int | None:
    """The one-pack id of the partner card (R13.4) of the landlord's cards (kitty included):
    the highest card held exactly twice, by rank then ♠ > ♥ > ♣ > ♦, never a joker."""
    copies = [0] * 54
    for i in cards:
        copies[i // COPIES] += 1
    twice = [base for base in range(52) if copies[base] == 2]
    return max(twice, key=lambda b: (b // 4, -(b % 4)), default=None)


# --------------------------------------------------------------------------- the call
def called_base(text: object) -> int | None:
    """The one-pack id of the card a call names (``♠2``), None for ``none`` (alone, R13.5);
    NotationError for anything else (a copy, several cards, no suit)."""
    if type(text) is not str:
        raise NotationError(f"a call is card text or 'none', not {text!r}")
    if text.strip().lower() == "none":
        return None
    cards = parse_six(text)
    if len(cards) != 1 or cards[0][2] is not None:
        raise NotationError(f"a call is one card, rank and suit, no copy: {text!r}")
    return cards[0][1]


@_value_object
class Call(NamedTuple):
    """The landlord's call of the partner card (R13.4): rank and suit (``♠2``), or ``none``."""

    seat: int
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "call": self.card}


@_value_object
class PartnerShown(NamedTuple):
    """Physical cards only: the hand ended before the partner played the partner card, and
    ``seat`` shows its third copy at the end (R13.8): the referee records who the partner is
    (``{"seat": 4, "partner": true}``)."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "partner": True}


def six_action_from_json(event: object) -> Action | Call | PartnerShown:
    """An event of the six seats: ``action_from_json``'s four shapes, a call, or (physical
    cards) the partner shown at the end."""
    if type(event) is not dict:
        raise BadEvent("an event must be a JSON object")
    seat = event.get("seat")
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise BadEvent(f"event seat must be 0..5, got {seat!r}")
    if "call" in event:
        if len(event) != 2 or type(event["call"]) is not str:
            raise BadEvent("a call is a seat and the card text, or 'none'")
        return Call(seat, event["call"])
    if "partner" in event:
        if len(event) != 2 or event["partner"] is not True:
            raise BadEvent('the partner shown is a seat and "partner": true')
        return PartnerShown(seat)
    return action_from_json({**event, "seat": 0})._replace(seat=seat)


# --------------------------------------------------------------------------- the hand
class SixHandState(HandState):
    """One ``six_p`` hand from the deal to the score; ``push`` an action, ``pop`` to take it
    back. ``landlord`` is the holder of the face-up card from the start; ``partner`` is the
    referee's view, ``public_view()`` the table's."""

    deal: SixDeal  # type: ignore[assignment]
    _also_bomb = Kind.JOKER_BOMB  # XXX, DDD, XXXDDD count as bombs (R13.9)
    _announces = False  # SPEC §13 has no 报牌
    _replays_checked = True

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        return profile.game == "six_p"

    @staticmethod
    def _read_action(event: object) -> Action:
        return six_action_from_json(event)  # type: ignore[return-value]

    def __init__(self, deal: SixDeal, profile: RuleProfile = SIX_P) -> None:
        super().__init__(deal, profile)  # type: ignore[arg-type]
        if deal.no_kitty != (profile.kitty_size == 0):
            raise InvalidDeal(f"this deal is not a {profile.key} deal (R13.2)")
        self._max = MAX_PLAY_CARDS_NO_KITTY if deal.no_kitty else MAX_PLAY_CARDS
        landlord = deal.landlord
        held = deal.ids[landlord] | deal.ids[-1]
        self._partner_base = partner_card_of(held)
        third = None
        if self._partner_base is not None:
            copies = {self._partner_base * COPIES + k for k in range(COPIES)}
            third = next(s for s, h in enumerate(deal.ids[:SEATS]) if s != landlord and h & copies)
        self._partner = third
        self._start(self._core)

    def _start(self, c: _Core) -> None:
        """The landlord is known from the deal: he adds the kitty unseen and calls (R13.2)."""
        c.landlord, c.high_bid, c.high_bidder = self.deal.landlord, 1, self.deal.landlord
        self._take_kitty(c)
        c.phase, c.turn = Phase.CALLING, self.deal.landlord

    def pop(self) -> Action:
        if self._stack and self._stack[-1] is None:  # a replayed action: rebuilt from the log
            log = self.actions[:-1]
            action = self.actions[-1]
            self.actions, self._stack, self._core = [], [], _Core.start(self.deal)
            self._start(self._core)
            for earlier in log:
                self._advance(earlier)
            return action
        return super().pop()

    @classmethod
    def from_events(  # type: ignore[override]
        cls,
        deal: SixDeal,
        events: Iterable[Action | Call | dict[str, Any]],
        profile: RuleProfile = SIX_P,
    ) -> SixHandState:
        """Replay an event log; the first illegal event raises, its position in ``index``."""
        return super().from_events(deal, events, profile)  # type: ignore[arg-type, return-value]

    # ----------------------------------------------------------------- the partner
    @property
    def partner(self) -> int | None:
        """The partner's seat (R13.4), fixed by the deal: the referee's and the archive's view,
        never the table's before the reveal (``public_view``)."""
        return self._partner

    @property
    def partner_card(self) -> str | None:
        """The partner card the rule names (``♠2``), None when the landlord plays alone."""
        return None if self._partner_base is None else CARD_TEXT_OF_ID[self._partner_base]

    @property
    def called(self) -> bool:
        return self._core.phase is not Phase.CALLING

    @property
    def revealed_at(self) -> int | None:
        """The index of the event in which the partner first played a copy of the partner card
        (R13.8), None before that or if it never happens."""
        if self._partner is None:
            return None
        plays = iter(self._core.plays)
        for index, action in enumerate(self.actions):
            if type(action) is PlayCards:
                seat, _, _, ids = next(plays)
                if seat == self._partner and any(i // COPIES == self._partner_base for i in ids):  # type: ignore[operator]
                    return index
        return None

    @property
    def partner_public(self) -> bool:
        """Whether the table may know the partner: after his revealing play, or at the end."""
        return self._partner is not None and (self.is_over or self.revealed_at is not None)

    def public_view(self) -> dict[str, Any]:
        """What the table may know now (R13.11): built from public events only. The partner
        and the side of each seat appear once he has revealed himself or the hand is over;
        the kitty never; the landlord's cards as one count; the cards played as the table saw
        them (rank and suit, no copy)."""
        c = self._core
        plays = iter(c.plays)
        events: list[dict[str, Any]] = []
        for action in self.actions:
            if type(action) is PlayCards:
                seat, _, _, ids = next(plays)
                events.append({"seat": seat, "play": format_six(ids, copies=False)})  # type: ignore[arg-type]
            else:
                events.append(action.to_json())
        top = None
        if c.top is not None and c.plays:
            top = events[max(i for i, a in enumerate(self.actions) if type(a) is PlayCards)]["play"]
        public = self.partner_public
        over = self.is_over
        return {
            "profile": self.profile.key,
            "phase": c.phase.value,
            "landlord": c.landlord,
            "face_up": base_text(self.deal.face_up),
            "partner_card": (self.partner_card if self.called else None),
            "alone": (self._partner is None) if self.called else None,
            "partner": self._partner if public else None,
            "revealed_at": self.revealed_at if public else None,
            "turn": self.turn,
            "top_seat": c.top_seat if c.top is not None else None,
            "top": top,
            "card_counts": list(self.card_counts),
            "bombs": c.bombs,
            "events": events,
            "winner": c.winner if over else None,
            "scores": list(s) if over and (s := self.scores()) is not None else None,
        }

    # ----------------------------------------------------------------- reports
    @property
    def spring(self) -> bool:
        """The landlord side won and no farmer played a card (R13.9)."""
        c = self._core
        side = (c.landlord, self._partner)
        return c.winner == "landlord" and all(p[0] in side for p in c.plays)

    @property
    def anti_spring(self) -> bool:
        """The farmers won and the landlord side made only the landlord's opening lead."""
        c = self._core
        side = (c.landlord, self._partner)
        return c.winner == "defenders" and sum(p[0] in side for p in c.plays) == 1

    def result(self) -> SixResult | None:  # type: ignore[override]
        c = self._core
        if c.phase is not Phase.FINISHED or c.landlord is None or c.winner is None:
            return None
        return SixResult(
            landlord=c.landlord,
            partner=self._partner,
            bombs=c.bombs,
            spring=self.spring,
            anti_spring=self.anti_spring,
            winner=c.winner,
        )

    def summary(self) -> dict[str, Any]:
        """The protocol's replay answer (PROTOCOL-six-five §1.4): the referee's view."""
        return {
            "ok": True,
            "phase": self.phase.value,
            "landlord": self.landlord,
            "partner": self._partner,
            "partner_card": self.partner_card,
            "revealed_at": self.revealed_at,
            "winner": self.winner,
            "bombs": self.bombs,
            "rockets": 0,
            "spring": self.spring,
            "anti_spring": self.anti_spring,
            "scores": list(s) if (s := self.scores()) is not None else None,
        }

    def hand_of(self, seat: int) -> tuple[int, ...]:  # type: ignore[override]
        """The physical ids ``seat`` still holds (the landlord's include the kitty)."""
        return tuple(sorted(self._core.seats[seat][2]))

    def hand_cards_text(self, seat: int) -> str:
        return format_six(self._core.seats[seat][2])

    def legal_actions(self) -> list[Action]:
        if self._core.phase is Phase.CALLING:
            return [Call(self.deal.landlord, self.partner_card or "none")]  # type: ignore[list-item]
        return super().legal_actions()

    # ----------------------------------------------------------------- hooks
    def _call(self, c: _Core, action: Call) -> None:
        if c.phase is not Phase.CALLING:
            raise IllegalAction("phase", f"no call during {c.phase.value}")
        if action.seat != c.landlord:
            raise IllegalAction("out_of_turn", f"only the landlord, seat {c.landlord}, calls")
        text = action.card
        called = called_base(text)
        if called != self._partner_base:
            raise IllegalAction(
                "wrong_partner_card",
                f"the rule names {self.partner_card or 'none'}, not {text!r} (R13.4)",
            )
        c.phase = Phase.PLAYING

    _APPLY: ClassVar[dict[type, Any]] = {**HandState._APPLY, Call: _call}

    def _legal_plays(self, key: int, top: Play | None) -> list[Play]:
        return legal_plays_six(counts_of_key(key), top, self._max)

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """The physical cards of ``cards`` in ``seat``'s hand: a named copy must be held, a
        card without its copy takes the lowest copy held that the play names nowhere else
        (copies named first); ``not_held`` otherwise."""
        read = parse_six(cards)
        seat_key, size, held = c.seats[seat]
        taken: list[int] = []
        left = set(held)
        for _, base, copy in read:
            if copy is not None:
                card = base * COPIES + copy - 1  # type: ignore[operator]
                if card not in left:
                    raise IllegalAction("not_held", f"seat {seat} does not hold {id_text(card)}")
                left.discard(card)
                taken.append(card)
        for _, base, copy in read:
            if copy is None:
                start = base * COPIES  # type: ignore[operator]
                card = next((i for i in range(start, start + COPIES) if i in left), -1)
                if card < 0:
                    raise IllegalAction(
                        "not_held",
                        f"seat {seat} does not hold {CARD_TEXT_OF_ID[base]}",  # type: ignore[index]
                    )
                left.discard(card)
                taken.append(card)
        ids = tuple(sorted(taken))
        ranks = tuple(_RANK_OF_ID[i] for i in ids)
        key = _key(ids)
        return ranks, ids, key, (seat_key - key, size - len(ids), frozenset(left))

    def _taken(
        self, c: _Core, seat: int, cards: str
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        return self._take(c, seat, cards)

    def _judge(self, key: int, ranks: tuple[int, ...], top: Play | None) -> Play:
        play = classify_six(counts_of(ranks), self._max)
        if play is None:
            raise IllegalAction(
                "invalid_combination", f"{format_ranks(ranks)} is no {self.profile.key} combination"
            )
        if top is not None and not beats_six(play, top):
            raise IllegalAction("does_not_beat", f"{play.text()} does not beat {top.text()}")
        return play

    def _play_effect(
        self,
        c: _Core,
        seat: int,
        play: Play,
        ranks: tuple[int, ...],
        ids: tuple[int | None, ...],
        after: _Seat,
    ) -> None:
        super()._play_effect(c, seat, play, ranks, ids, after)
        if after[_SIZE] == 0 and seat == self._partner:  # R13.8: the landlord side wins
            c.winner = "landlord"

    def _plays_text(self, seat: int, plays: list[Play]) -> list[str]:
        """Each of ``plays`` written from ``seat``'s cards: the lowest copies held, with their
        copies."""
        held = self._core.seats[seat][2]
        texts: list[str] = []
        for play in plays:
            ids: list[int] = []
            for rank in play.ranks:
                ids.append(next(i for i in _PAIRS_OF_RANK[rank] if i in held and i not in ids))
            texts.append(format_six(ids))
        return texts
