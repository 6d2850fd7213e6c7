"""Physical-cards mode: a hand refereed from the cards laid on the table, the deal unknown.

Without the deal the referee cannot know what a seat holds, so ``not_held`` is only checked as
far as the cards seen allow: no seat plays more than its 17 cards (the landlord 20, with the
kitty 底牌), no rank is played more than four times, each joker at most once and each physical
card (when written with its suit) at most once. Everything else — turn order, the auction, the
doubling, combinations, beating, the trick's end, the hand's end, announcements, spring (SPEC
§3–§7) — is decided by the library's ``HandState`` itself, as for a dealt hand: this mode only
swaps its holdings check for the one above.

``four_p`` (R11.1) is refereed alike over two packs: a seat plays no more than its 25 cards
(the landlord 33, with the kitty of 8), no rank more than eight times, each joker at most
twice and each physical card at most twice.

``big3`` (SPEC §12) is refereed alike over its 52-card pack: a seat plays no more than its 16
cards (the digger 20, with the hole 坑), no rank more than four times and no joker at all; the
first bidder (the holder of the lowest heart, R12.4) is the referee's to give (R12.13).

In ``laizi`` (R11.2) the wild rank is drawn once the landlord is known: the referee types in
the rank drawn (``wild``), and no card is played before it is known.

If the deal is written in afterwards, ``check_deal`` replays the log against it and names the
first action that the deal makes illegal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, NamedTuple

from referee.rules.actions import (
    Action,
    DeclaredPlay,
    Pass,
    PlayCards,
    apply_log,
)
from referee.rules.big3_combos import fits_big3_pack
from referee.rules.big3_hand import Big3Deal, Big3HandState
from referee.rules.cards import (
    CARD_OF_ID,
    Card,
    Deal,
    counts_fit_pack,
    counts_of,
    deal_from_seed,
    key_of,
    parse_cards,
)
from referee.rules.combos import Play
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError, RulesError
from referee.rules.five_hand import FiveDeal, FiveHandState
from referee.rules.four_combos import TWO_PACK_COUNTS
from referee.rules.four_hand import FourDeal, FourHandState
from referee.rules.four_scoring import FourResult
from referee.rules.games import WILD, action_reader, deal_json_from_seed
from referee.rules.hand import _SIZE, Announcement, HandState, Phase, _Core, _Seat
from referee.rules.laizi import legal_plays_wild
from referee.rules.laizi_hand import LaiziHandState
from referee.rules.profiles import COMP2016, FIVE_P, FOUR_P, RuleProfile
from referee.rules.scoring import DealResult, Winner
from referee.rules.six_five_scoring import SixResult
from referee.rules.six_hand import (
    _RANK_OF_ID,
    COPIES,
    Call,
    PartnerShown,
    SixDeal,
    SixHandState,
    base_text,
    called_base,
    parse_six,
)
from referee.rules.six_hand import _key as _six_key

#: What physical-cards mode cannot check without the deal (a read of the hand says so).
IMPOSSIBLE_CHECKS = ("cards_held", "kitty")


class SeenPlay(NamedTuple):
    """A play accepted in physical-cards mode: the seat, its reading and the cards as written."""

    seat: int
    play: Play
    cards: tuple[Card, ...]


class _SeenCards(HandState):
    """``HandState`` with what each seat holds unknown: only the sizes of the seats' hands
    are kept (the placeholder deal's cards are never looked at); ``not_held`` is checked
    against the cards seen so far instead (R1.7)."""

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        if type(cards) is not str:
            raise IllegalAction("invalid_combination", "cards must be text")
        taken = self._taken(c, seat, cards)
        ranks, ids = taken[0], taken[1]
        size = c.seats[seat][_SIZE]
        if len(ranks) > size:
            raise IllegalAction("not_held", f"seat {seat} has {size} cards, not {len(ranks)}")
        seen = counts_of(r for p in c.plays for r in p[2])
        for rank in ranks:
            seen[rank] += 1
        if not self._pack_holds(seen):
            raise IllegalAction("not_held", f"{self._pack_name} has no more of these cards")
        named = [i for i in ids if i is not None]
        seen_ids = {i for p in c.plays for i in p[3] if i is not None}
        if len(set(named)) != len(named) or seen_ids.intersection(named):
            raise IllegalAction("not_held", "the same physical card was played twice")
        return taken

    _pack_name: ClassVar[str] = "one pack"

    @staticmethod
    def _pack_holds(counts: list[int]) -> bool:
        """Whether the pack holds every card seen so far (``counts`` by rank)."""
        return counts_fit_pack(counts)

    def _taken(
        self, c: _Core, seat: int, cards: str
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """The cards laid as written; the seat's hand only shrinks (its cards are unknown)."""
        laid = parse_cards(cards)
        ranks = tuple(card.rank for card in laid)
        seat_key, size, held = c.seats[seat]
        ids = tuple(card.id for card in laid)
        return ranks, ids, key_of(ranks), (seat_key, size - len(ranks), held)


class _SeenWildCards(_SeenCards, LaiziHandState):
    """``LaiziHandState`` with the holdings seen only (``_SeenCards``), whose wild rank is
    typed in by the referee once drawn: ``None`` until then, and no card is played before."""

    def __init__(self, deal: Deal, profile: RuleProfile, wild: int | None) -> None:
        if wild is not None:
            LaiziHandState.__init__(self, deal, profile, wild=wild)
            return
        HandState.__init__(self, deal, profile)
        self.wild = None  # type: ignore[assignment]

    def _wild_play_seen(self, c: _Core, action: PlayCards | DeclaredPlay) -> None:
        if self.wild is None and c.phase is Phase.PLAYING:
            raise IllegalAction(
                "phase",
                "no card is played before the wild rank is known: it is drawn once the "
                "landlord is known (R11.2.1)",
            )
        self._wild_play(c, action)

    _APPLY: ClassVar[dict[type, Callable[[HandState, _Core, Any], None]]] = {
        **LaiziHandState._APPLY,
        PlayCards: _wild_play_seen,  # type: ignore[dict-item]
        DeclaredPlay: _wild_play_seen,  # type: ignore[dict-item]
    }


class _SeenBig3Cards(_SeenCards, Big3HandState):
    """``Big3HandState`` with the holdings seen only (``_SeenCards``), over the 52-card pack
    without jokers (R12.1): a joker laid is ``not_held``, as in a dealt hand."""

    _pack_name: ClassVar[str] = "the Big Three pack (no joker, four a rank)"

    @staticmethod
    def _pack_holds(counts: list[int]) -> bool:
        return fits_big3_pack(counts)


class _SeenFourCards(FourHandState):
    """``FourHandState`` with what each seat holds unknown (``four_p``, two packs): its
    holdings check is the cards seen so far (R1.7 over two packs, R11.1.1)."""

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        if type(cards) is not str:
            raise NotationError(f"cards must be text, not {cards!r}")
        laid = parse_cards(cards)
        ranks = tuple(card.rank for card in laid)
        seat_key, size, held = c.seats[seat]
        if len(ranks) > size:
            raise IllegalAction("not_held", f"seat {seat} has {size} cards, not {len(ranks)}")
        seen = counts_of(r for p in c.plays for r in p[2])
        for rank in ranks:
            seen[rank] += 1
        if any(n > most for n, most in zip(seen, TWO_PACK_COUNTS, strict=True)):
            raise IllegalAction("not_held", "two packs have no more of these cards")
        suited = Counter(
            card.id
            for action in self.actions
            if type(action) is PlayCards
            for card in parse_cards(action.cards)
            if card.suit is not None
        )
        suited.update(card.id for card in laid if card.suit is not None)
        if any(n > FOUR_P.packs for n in suited.values()):
            raise IllegalAction("not_held", "two packs have two of each card, not more")
        key = key_of(ranks)
        return ranks, (None,) * len(ranks), key, (seat_key, size - len(ranks), held)


class _SeenFiveCards(_SeenFourCards, FiveHandState):
    """``FiveHandState`` with what each seat holds unknown (``five_p``, two packs, R14.1):
    the holdings check of ``_SeenFourCards``, the five seats and the result of
    ``FiveHandState``."""


class _SeenSixCards(SixHandState):
    """``SixHandState`` with the deal unknown (``six_p``, three packs, R13.10): the landlord is
    the referee's to give (the face-up card's holder, R13.3), his call is taken as made (the
    deal written in afterwards checks it, R13.4), and each card is written with its suit but
    no copy (the backs are identical): a play takes the lowest copy of each card not yet
    seen. The partner is who first plays the third copy of the partner card (the landlord
    holds two, R13.4); when the hand ends before that, the referee records the seat that shows
    it (``PartnerShown``, phase ``naming``) and the hand is scored then (R13.8, R13.9)."""

    # the partner card and the partner follow from the log, not from the placeholder deal
    @property
    def _partner_base(self) -> int | None:
        log: list[Any] = self.actions  # a six-player log holds calls too
        calls = [a.card for a in log if type(a) is Call]
        return called_base(calls[0]) if calls else None

    @_partner_base.setter
    def _partner_base(self, value: int | None) -> None:
        """The placeholder deal's partner card is nobody's: ignored."""

    @property
    def _partner(self) -> int | None:
        base = self._partner_base
        if base is None:
            return None
        landlord = self._core.landlord
        for seat, _, _, ids in self._core.plays:
            if seat != landlord and any(i is not None and i // COPIES == base for i in ids):
                return seat
        log: list[Any] = self.actions
        shown = [a.seat for a in log if type(a) is PartnerShown]
        return shown[0] if shown else None

    @_partner.setter
    def _partner(self, value: int | None) -> None:
        """The placeholder deal's partner is nobody's: ignored."""

    @property
    def turn(self) -> int | None:
        return None if self._core.phase is Phase.NAMING else super().turn

    def public_view(self) -> dict[str, Any]:
        view = super().public_view()
        view["face_up"] = None  # the placeholder's: the table's face-up card is not entered
        # alone is the call's "none", not a partner still unknown
        view["alone"] = (self._partner_base is None) if self.called else None
        return view

    def legal_actions(self) -> list[Action]:
        c = self._core
        if c.phase is Phase.CALLING:
            return []  # any card he holds twice: the cards are unknown
        if c.phase is Phase.NAMING:
            return [
                PartnerShown(seat)  # type: ignore[misc]
                for seat, (_, size, _) in enumerate(c.seats)
                if seat != c.landlord and size > 0
            ]
        return super().legal_actions()

    def _call_seen(self, c: _Core, action: Call) -> None:
        if c.phase is not Phase.CALLING:
            raise IllegalAction("phase", f"no call during {c.phase.value}")
        if action.seat != c.landlord:
            raise IllegalAction("out_of_turn", f"only the landlord, seat {c.landlord}, calls")
        base = called_base(action.card)
        if base is not None and base >= 52:
            raise IllegalAction("wrong_partner_card", "the partner card is never a joker (R13.4)")
        c.phase = Phase.PLAYING

    def _shown(self, c: _Core, action: PartnerShown) -> None:
        if c.phase is not Phase.NAMING:
            raise IllegalAction(
                "phase",
                "the partner is named only when the hand ended before he played the partner "
                f"card (R13.8), not during {c.phase.value}",
            )
        seat = action.seat
        if seat == c.landlord:
            raise IllegalAction("invalid_partner", "the landlord is not his own partner (R13.4)")
        if c.seats[seat][_SIZE] == 0:
            raise IllegalAction(
                "invalid_partner",
                f"seat {seat} went out without playing the partner card: it was not his",
            )
        c.phase = Phase.FINISHED

    _APPLY: ClassVar[dict[type, Any]] = {
        **SixHandState._APPLY,
        Call: _call_seen,
        PartnerShown: _shown,
    }

    def _take(
        self, c: _Core, seat: int, cards: object
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        """The cards as written, each with its suit and no copy: no more than the seat's count,
        no more than three of a card in the three packs, the partner card's copies as the
        call allows them (the landlord's two, one other seat's third)."""
        read = parse_six(cards)
        if any(copy is not None for _, _, copy in read):
            raise NotationError(
                "physical cards are written without their copy: the backs are identical (R13.10)"
            )
        seat_key, size, held = c.seats[seat]
        if len(read) > size:
            raise IllegalAction("not_held", f"seat {seat} has {size} cards, not {len(read)}")
        seen = {i for p in c.plays for i in p[3]}
        taken: list[int] = []
        for _, base, _ in read:
            assert base is not None  # six_p cards carry their suit (parse_six)
            free = next((i for i in range(base * COPIES, (base + 1) * COPIES) if i not in seen), -1)
            if free < 0:
                raise IllegalAction(
                    "not_held", f"three packs have no more {base_text(base * COPIES)}"
                )
            seen.add(free)
            taken.append(free)
        self._partner_card_check(c, seat, taken)
        ids = tuple(sorted(taken))
        ranks = tuple(_RANK_OF_ID[i] for i in ids)
        return ranks, ids, _six_key(ids), (seat_key, size - len(ids), held)

    def _partner_card_check(self, c: _Core, seat: int, taken: list[int]) -> None:
        base = self._partner_base
        if base is None:
            return
        mine = sum(i // COPIES == base for i in taken)
        if not mine:
            return
        card = base_text(base * COPIES)
        if seat == c.landlord:
            before = sum(
                i is not None and i // COPIES == base
                for s, _, _, ids in c.plays
                if s == seat
                for i in ids
            )
            if before + mine > 2:
                raise IllegalAction(
                    "not_held",
                    f"the landlord holds {card} twice (R13.4): the third is his partner's",
                )
            return
        partner = self._partner
        if mine > 1 or (partner is not None and partner != seat):
            raise IllegalAction(
                "not_held", f"the landlord holds {card} twice (R13.4): one seat holds the third"
            )

    def _taken(
        self, c: _Core, seat: int, cards: str
    ) -> tuple[tuple[int, ...], tuple[int | None, ...], int, _Seat]:
        return self._take(c, seat, cards)

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
        # over, the partner card called and never played by its third holder: the winner is
        # known (the landlord went out, or a farmer did: a partner going out would have played
        # it), his partner is not
        if c.phase is Phase.FINISHED and self._partner_base is not None and self._partner is None:
            c.phase = Phase.NAMING


def _placeholder(
    profile: RuleProfile, first_bidder: int
) -> Deal | FourDeal | Big3Deal | FiveDeal | SixDeal:
    """A deal of ``profile`` whose cards are never looked at (only its sizes are); six
    players': its face-up card in the hand of the landlord given (``first_bidder``)."""
    if profile.game == "six_p":
        seeded = SixDeal.from_json(
            deal_json_from_seed(profile, 0), no_kitty=profile.kitty_size == 0
        )
        shift = (first_bidder - seeded.landlord) % len(seeded.hands)
        hands = tuple(
            seeded.hands[(s - shift) % len(seeded.hands)] for s in range(len(seeded.hands))
        )
        return SixDeal(hands, seeded.kitty, seeded.face_up, seeded.no_kitty)
    if profile.game == "big3":  # without its hearts: the first bidder is the referee's
        data = deal_json_from_seed(profile, 0)
        return Big3Deal.from_json({**data, "hearts": None, "first_bidder": first_bidder})
    if profile.seats == FIVE_P.seats:
        return FiveDeal.from_json(deal_json_from_seed(profile, 0, first_bidder=first_bidder))
    if profile.seats == FOUR_P.seats:
        return FourDeal.from_json(deal_json_from_seed(profile, 0, first_bidder=first_bidder))
    return deal_from_seed(0, first_bidder=first_bidder)


class PhysicalHandState:
    """A hand without its deal, driven by ``push`` / ``pop`` like ``HandState``.

    The rules are the profile's hand state's own (the auction, the doubling and the play
    phase never look at the cards but for ``not_held``): this state is a ``HandState`` (a
    ``FourHandState`` in ``four_p``) over a placeholder deal whose holdings check is the one
    above, and shows only what the cards laid tell.
    """

    def __init__(
        self, first_bidder: int = 0, profile: RuleProfile = COMP2016, *, wild: int | None = None
    ) -> None:
        self.profile = profile
        self.first_bidder = first_bidder
        placeholder = _placeholder(profile, first_bidder)
        if wild is not None and not profile.wild_cards:
            raise ValueError(f"profile {profile.key} has no wild cards")
        self._hand: _SeenCards | _SeenFourCards | _SeenSixCards
        if isinstance(placeholder, SixDeal):
            self._hand = _SeenSixCards(placeholder, profile)
        elif isinstance(placeholder, FiveDeal):
            self._hand = _SeenFiveCards(placeholder, profile)
        elif isinstance(placeholder, FourDeal):
            self._hand = _SeenFourCards(placeholder, profile)
        elif isinstance(placeholder, Big3Deal):
            self._hand = _SeenBig3Cards(placeholder, profile)
        elif profile.wild_cards:
            self._hand = _SeenWildCards(placeholder, profile, wild)
        else:
            self._hand = _SeenCards(placeholder, profile)

    @classmethod
    def from_events(
        cls,
        first_bidder: int,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = COMP2016,
        *,
        wild: int | None = None,
    ) -> PhysicalHandState:
        """Replay a log; the first illegal event raises, its position in ``index``."""
        state = cls(first_bidder, profile, wild=wild)
        apply_log(state.push, events, action_reader(profile), state.actions)
        return state

    @classmethod
    def replay(
        cls,
        first_bidder: int,
        actions: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = COMP2016,
        *,
        wild: int | None = None,
    ) -> PhysicalHandState:
        """Re-apply actions already accepted, without the legality checks (see
        ``HandState.replay``): the caller vouches for each action. The effects are
        ``HandState``'s own; only the cards a play takes are read as this mode reads them
        (``_SeenCards._taken``). (``laizi``: a declared play is read with its checks, as
        ``LaiziHandState.replay`` does.)"""
        state = cls(first_bidder, profile, wild=wild)
        hand = state._hand
        # four_p, five_p keep no unchecked way in; big3 replays checked (``_replays_checked``)
        if isinstance(hand, _SeenFourCards | _SeenBig3Cards | _SeenSixCards):
            apply_log(hand.push, actions, action_reader(profile), hand.actions)
        else:
            hand._reapply(actions)
        return state

    @property
    def actions(self) -> list[Action]:
        return self._hand.actions

    def to_events(self) -> list[dict[str, Any]]:
        return self._hand.to_events()

    # ----------------------------------------------------------------- reading
    @property
    def phase(self) -> Phase:
        return self._hand.phase

    @property
    def is_over(self) -> bool:
        return self._hand.is_over

    @property
    def turn(self) -> int | None:
        return self._hand.turn

    @property
    def landlord(self) -> int | None:
        return self._hand.landlord

    @property
    def bid(self) -> int | None:
        return self._hand.bid

    @property
    def doubled(self) -> tuple[bool | None, ...]:
        return self._hand.doubled

    @property
    def redoubled(self) -> bool | None:
        return self._hand.redoubled

    @property
    def top_play(self) -> Play | None:
        return self._hand.top_play

    @property
    def top_seat(self) -> int | None:
        """The seat of the play to beat, None when the seat on turn leads."""
        return self._hand.top_seat if self._hand.top_play is not None else None

    @property
    def card_counts(self) -> tuple[int, ...]:
        return self._hand.card_counts

    @property
    def bombs(self) -> int:
        return self._hand.bombs

    @property
    def rockets(self) -> int:
        return self._hand.rockets

    @property
    def winner(self) -> Winner | None:
        return self._hand.winner

    @property
    def spring(self) -> bool:
        """春天 (R7.2): the landlord won and neither defender played a card."""
        return self._hand.spring

    @property
    def anti_spring(self) -> bool:
        """反春 (R7.3): the defenders won and the landlord played only his opening lead."""
        return self._hand.anti_spring

    @property
    def announcements(self) -> tuple[Announcement, ...]:
        return self._hand.announcements

    @property
    def wild(self) -> int | None:
        """``laizi``: the wild rank typed in (0 … 12), None before it is drawn and in the
        profiles without wild cards."""
        hand = self._hand
        return hand.wild if isinstance(hand, _SeenWildCards) else None

    @property
    def bomb_classes(self) -> dict[str, int] | None:
        """``laizi``: bombs played by class (R11.2.3); None in the other profiles."""
        hand = self._hand
        return hand.bomb_classes if isinstance(hand, _SeenWildCards) else None

    @property
    def six(self) -> SixHandState | None:
        """Six players: the hand as its table may know it (``public_view``), None otherwise."""
        hand = self._hand
        return hand if isinstance(hand, _SeenSixCards) else None

    @property
    def plays(self) -> tuple[SeenPlay, ...]:
        hand = self._hand
        if isinstance(hand, _SeenSixCards):  # one card of one pack per physical card
            return tuple(
                SeenPlay(seat, play, tuple(CARD_OF_ID[i // COPIES] for i in ids))  # type: ignore[operator]
                for seat, play, _, ids in hand._core.plays
            )
        if isinstance(hand, _SeenFourCards):  # the cards as written: the plays' actions
            laid = [a for a in hand.actions if type(a) is PlayCards]
            return tuple(
                SeenPlay(p.seat, p.play, parse_cards(action.cards))
                for p, action in zip(hand.plays, laid, strict=True)
            )
        return tuple(
            SeenPlay(p.seat, p.play, tuple(map(_card, p.ranks, p.card_ids))) for p in hand.plays
        )

    def result(self) -> DealResult | FourResult | SixResult | None:
        return self._hand.result()

    def scores(self) -> tuple[int, ...] | None:
        return self._hand.scores()

    def wild_readings(self, action: PlayCards) -> list[PlayCards | DeclaredPlay]:
        """``laizi``, the wild rank known: every reading of ``action``'s cards that is legal
        now (that leads, or beats the play to beat), the natural one (no declaration) first;
        none when the cards hold no wild card or the hand has none. The cards are unknown to
        the mode, so a play holding a wild card with several readings is the referee's to
        declare (issue 29): no reading is chosen for it. Raises NotationError."""
        hand = self._hand
        if not isinstance(hand, _SeenWildCards) or hand.wild is None:
            return []
        if type(action.cards) is not str:
            return []
        ranks = tuple(card.rank for card in parse_cards(action.cards))
        counts = counts_of(ranks)
        if hand.wild not in ranks or not counts_fit_pack(counts):
            return []
        key = key_of(ranks)
        found: list[PlayCards | DeclaredPlay] = []
        for play in legal_plays_wild(counts, hand.wild, hand.top_play):
            if play.cards != key:
                continue
            if play.key == play.cards:
                found.insert(0, PlayCards(action.seat, action.cards))
            else:
                found.append(DeclaredPlay(action.seat, action.cards, play.text()))
        return found

    def legal_actions(self) -> list[Action]:
        """The actions known to be legal: the auction's, and a pass when following.
        Plays cannot be listed without the seat's cards."""
        hand = self._hand
        if hand.phase is Phase.PLAYING:
            turn = hand.turn
            return [Pass(turn)] if hand.top_play is not None and turn is not None else []
        return hand.legal_actions()

    # ----------------------------------------------------------------- acting
    def push(self, action: Action | DeclaredPlay) -> None:
        """Apply ``action`` or raise a RulesError, leaving the state unchanged."""
        if (
            self._hand.phase is Phase.PLAYING
            and isinstance(action, PlayCards | Pass | DeclaredPlay)
            and (type(action.seat) is not int or not 0 <= action.seat < self.profile.seats)
        ):
            raise IllegalAction("out_of_turn", f"seat {action.seat!r} is not a seat")
        self._hand.push(action)  # type: ignore[arg-type]  # DeclaredPlay: laizi only

    def pop(self) -> Action:
        """Take back the last action and return it."""
        return self._hand.pop()


def _card(rank: int, card_id: int | None) -> Card:
    return Card(rank) if card_id is None else CARD_OF_ID[card_id]


def deal_written_in(
    profile: RuleProfile, data: object
) -> Deal | FourDeal | Big3Deal | FiveDeal | SixDeal:
    """The deal of a physical-cards hand of ``profile`` written in afterwards (InvalidDeal
    when it is not one); a ``laizi`` hand's wild rank is the one typed in, not the deal's."""
    if profile.game == "six_p":
        return SixDeal.from_json(data, no_kitty=profile.kitty_size == 0)
    if profile.game == "big3":
        return Big3Deal.from_json(data)
    if profile.seats == FIVE_P.seats:
        return FiveDeal.from_json(data)
    if profile.seats == FOUR_P.seats:
        return FourDeal.from_json(data)
    if not isinstance(data, dict):
        raise InvalidDeal("a deal is an object with hands, kitty and first_bidder")
    return Deal.from_json({key: value for key, value in data.items() if key != WILD})


def check_deal(
    deal: Deal | FourDeal | Big3Deal | FiveDeal | SixDeal,
    events: Iterable[Action | dict[str, Any]],
    profile: RuleProfile = COMP2016,
    *,
    wild: int | None = None,
) -> RulesError | None:
    """Replay a physical-cards log against the deal written in afterwards (``laizi``: with
    the wild rank typed in, ``wild``).

    Returns None when every action is legal with that deal, else the first error (its
    ``index`` is the action's position in the log).
    """
    try:
        if isinstance(deal, SixDeal):
            _check_six_deal(deal, list(events), profile)
        elif isinstance(deal, FiveDeal):
            FiveHandState.from_events(deal, events, profile)
        elif isinstance(deal, FourDeal):
            FourHandState.from_events(deal, events, profile)
        elif isinstance(deal, Big3Deal):
            Big3HandState.from_events(deal, events, profile)
        elif profile.wild_cards:
            # a log with no play (passed out, or ended before the draw) reads no wild rank
            drawn = 0 if wild is None else wild
            LaiziHandState.from_events(deal, events, profile, wild=drawn)
        else:
            HandState.from_events(deal, events, profile)
    except RulesError as exc:
        return exc
    return None


def _check_six_deal(
    deal: SixDeal, events: list[Action | dict[str, Any]], profile: RuleProfile
) -> None:
    """A six-player log against its deal: the call, each play as the deal holds it, and the
    partner shown at the end (``PartnerShown``), who must hold the third copy (R13.4)."""

    def shown(event: object) -> int | None:
        """The seat a ``PartnerShown`` event names, None for every other event."""
        if isinstance(event, PartnerShown):
            return event.seat
        if isinstance(event, dict) and "partner" in event:
            seat = event.get("seat")
            return seat if type(seat) is int else -1
        return None

    played = [e for e in events if shown(e) is None]
    state = SixHandState.from_events(deal, played, profile)
    for index, event in enumerate(events):
        seat = shown(event)
        if seat is not None and seat != state.partner:
            error = IllegalAction(
                "invalid_partner",
                f"seat {seat} was named the partner, but the deal gives the third copy of "
                f"the partner card to seat {state.partner} (R13.4)",
            )
            error.index = index
            raise error
