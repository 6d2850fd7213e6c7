"""One ``laizi`` hand (SPEC §11.2, PROTOCOL-variants §2.5): ``HandState`` with a wild rank.

Deal, auction, doubling and turns are those of ``comp2016``; a play may carry a declaration
(``DeclaredPlay``) and is judged on the declared cards with the bomb classes of R11.2.3; the
score uses the multipliers of R11.2.4. Checks of a play, first failure named: ``phase``,
``out_of_turn``, ``bad_notation`` (of the cards or the declaration), ``not_held``,
``invalid_substitution``, ``invalid_combination``, ``does_not_beat``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, cast

from referee.rules.actions import (
    Action,
    DeclaredPlay,
    Pass,
    PlayCards,
    accepted_action_from_json,
    apply_log,
    wild_action_from_json,
)
from referee.rules.cards import Deal, counts_of_key, format_ranks, parse_ranks, ranks_of_key
from referee.rules.errors import IllegalAction, InvalidDeal, NotationError
from referee.rules.hand import _KEY, HandState, Phase, _Core
from referee.rules.laizi import (
    BadWildRank,
    beats_wild,
    check_declaration,
    legal_plays_wild,
    parse_wild,
    wild_readings,
)
from referee.rules.laizi_scoring import LaiziResult
from referee.rules.profiles import LAIZI, RuleProfile


def wild_of_deal(data: object) -> int:
    """The wild rank written in a ``laizi`` deal (``"wild": "7"``); InvalidDeal when it is
    missing, unreadable, a joker or more than one card (PROTOCOL-variants §2.5)."""
    if not isinstance(data, dict) or "wild" not in data:
        raise InvalidDeal('a laizi deal names its wild rank: "wild": "7"')
    try:
        return parse_wild(data["wild"])
    except (NotationError, BadWildRank) as exc:
        raise InvalidDeal(f"bad wild rank: {exc.message}") from exc


class LaiziHandState(HandState):
    """A ``laizi`` hand: ``HandState`` whose plays may declare what their wild cards stand for."""

    @classmethod
    def _plays_profile(cls, profile: RuleProfile) -> bool:
        return profile.wild_cards

    @staticmethod
    def _read_action(event: object) -> Action | DeclaredPlay:
        return wild_action_from_json(event)  # a play may carry "as"

    def __init__(
        self, deal: Deal, profile: RuleProfile = LAIZI, *, wild: int | None = None
    ) -> None:
        if wild is None or not 0 <= wild <= 12:
            raise ValueError(f"a laizi hand needs its wild rank 0..12 (3…2), not {wild!r}")
        if not profile.wild_cards:
            raise ValueError(f"profile {profile.key} has no wild cards")
        super().__init__(deal, profile)
        self.wild = wild

    @classmethod
    def from_events(
        cls,
        deal: Deal,
        events: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = LAIZI,
        *,
        wild: int | None = None,
    ) -> LaiziHandState:
        """Replay an event log (play events may carry ``as``); the first illegal event raises,
        its position in ``index``."""
        state = cls(deal, profile, wild=wild)
        apply_log(state._advance, events, cls._read_action, state.actions)
        return state

    @classmethod
    def replay(
        cls,
        deal: Deal,
        actions: Iterable[Action | dict[str, Any]],
        profile: RuleProfile = LAIZI,
        *,
        wild: int | None = None,
    ) -> LaiziHandState:
        """Re-apply actions already accepted (here with the checks: a declared play is read
        once either way)."""
        return cls.from_events(deal, actions, profile, wild=wild)

    def _reapply(self, actions: Iterable[Action | dict[str, Any]]) -> None:
        for item in actions:
            action: object = item
            if isinstance(item, dict):
                read = wild_action_from_json if "as" in item else accepted_action_from_json
                action = read(item)
            self._advance(cast(Action, action))

    # ----------------------------------------------------------------- reading
    @property
    def bomb_classes(self) -> dict[str, int]:
        """Bombs played by class (R11.2.3)."""
        out = {"soft": 0, "hard": 0, "pure_wild": 0}
        for _, play, _, _ in self._core.plays:
            bomb_class = getattr(play, "bomb_class", None)
            if bomb_class is not None:
                out[bomb_class] += 1
        return out

    def laizi_result(self) -> LaiziResult | None:
        base = self.result()
        if base is None:
            return None
        classes = self.bomb_classes
        return LaiziResult(
            base=base,
            soft_bombs=classes["soft"],
            hard_bombs=classes["hard"],
            pure_wild_bombs=classes["pure_wild"],
        )

    def _scored_result(self) -> LaiziResult | None:
        return self.laizi_result()

    def summary(self) -> dict[str, Any]:
        classes = self.bomb_classes
        return {
            **super().summary(),
            "soft_bombs": classes["soft"],
            "hard_bombs": classes["hard"],
            "pure_wild_bombs": classes["pure_wild"],
        }

    def legal_actions(self) -> list[Action]:
        c = self._core
        if c.phase is not Phase.PLAYING:
            return super().legal_actions()
        hand = counts_of_key(c.seats[c.turn][_KEY])
        actions: list[Any] = [] if c.top is None else [Pass(c.turn)]
        for play in legal_plays_wild(hand, self.wild, c.top):
            cards = format_ranks(ranks_of_key(play.cards))
            if play.key == play.cards:
                actions.append(PlayCards(c.turn, cards))
            else:
                actions.append(DeclaredPlay(c.turn, cards, play.text()))
        return actions

    # ----------------------------------------------------------------- acting
    def _wild_play(self, c: _Core, action: PlayCards | DeclaredPlay) -> None:
        if c.phase is not Phase.PLAYING:
            raise IllegalAction("phase", f"no play during {c.phase.value}")
        seat = action.seat
        if seat != c.turn:
            raise IllegalAction("out_of_turn", f"seat {c.turn} plays now, not seat {seat}")
        declared_text = getattr(action, "declared", None)
        declared = None
        if declared_text is not None:
            if type(declared_text) is not str:
                raise NotationError(f"a declaration is card text, not {declared_text!r}")
            declared = parse_ranks(declared_text)
            if not declared:
                raise NotationError("an empty declaration", token="")
        ranks, ids, _, after = self._take(c, seat, action.cards)
        if not ranks:
            raise IllegalAction("invalid_combination", "a play needs at least one card, or a pass")
        stands_for = ranks if declared is None else declared
        check_declaration(ranks, stands_for, self.wild)
        found = wild_readings(ranks, stands_for, self.wild)
        if not found:
            raise IllegalAction(
                "invalid_combination", f"{format_ranks(stands_for)} is no combination"
            )
        top = c.top
        play = found[0] if top is None else next((p for p in found if beats_wild(p, top)), None)
        if play is None:
            beaten = top.text() if top is not None else ""
            raise IllegalAction(
                "does_not_beat", f"{format_ranks(stands_for)} does not beat {beaten}"
            )
        self._play_effect(c, seat, play, ranks, ids, after)

    _APPLY: ClassVar[dict[type, Callable[[HandState, _Core, Any], None]]] = {
        **HandState._APPLY,
        PlayCards: _wild_play,  # type: ignore[dict-item]
        DeclaredPlay: _wild_play,  # type: ignore[dict-item]
    }
