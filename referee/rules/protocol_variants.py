"""The rules tool's ops for the profiles beyond Dou Dizhu for three: the variants ``four_p``
and ``laizi`` (``docs/rules/variants/PROTOCOL-variants.md``) and Big Three (``protocol_big3``,
``docs/rules/games/PROTOCOL-big3.md``), six and five players (``protocol_six_five``,
``docs/rules/games/PROTOCOL-six-five.md``). ``score`` is ``protocol``'s one op for every profile
(``scoring.score_hand``); everything else is as in ``protocol``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.rules.cards import Deal, counts_fit_pack, counts_of, parse_ranks
from referee.rules.combos import Play
from referee.rules.four_combos import (
    MAX_PLAY_CARDS,
    beats_four,
    classify_four,
    fits_two_packs,
    legal_plays_four,
)
from referee.rules.four_hand import FourDeal, FourHandState
from referee.rules.laizi import (
    InvalidSubstitution,
    WildPlay,
    beats_wild,
    legal_plays_wild,
    parse_wild,
    read_wild_play,
)
from referee.rules.laizi_hand import LaiziHandState, wild_of_deal
from referee.rules.profiles import GAME_PROFILES, RuleProfile
from referee.rules.protocol import (
    Answer,
    RequestError,
    _text,
    op_score,
    plays_answer,
    replay_answer,
)
from referee.rules.protocol_big3 import big3_classify, big3_legal_plays, big3_replay
from referee.rules.protocol_six_five import FIVE_OPS, SIX_OPS

# --------------------------------------------------------------------------- four_p


def _four_counts(text: str) -> list[int] | None:
    """Rank counts of ``text``, or None when two packs cannot hold them as one play."""
    counts = counts_of(parse_ranks(text))
    if not fits_two_packs(counts) or sum(counts) > MAX_PLAY_CARDS:
        return None
    return counts


def _four_previous(request: dict[str, Any]) -> Play | None:
    text = _text(request, "previous", required=False)
    if not text or not text.strip():
        return None
    counts = _four_counts(text)
    play = None if counts is None else classify_four(counts)
    if play is None:
        raise RequestError("invalid_previous", f"previous play {text!r} is no combination")
    return play


def four_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "cards")
    assert text is not None
    counts = _four_counts(text)
    previous = _four_previous(request)
    play = None if counts is None else classify_four(counts)
    answer: Answer = {"legal": play is not None}
    if play is not None:
        answer.update(kind=play.kind.value, rank=play.rank_text(), length=play.length)
    if previous is not None:
        answer["beats"] = play is not None and beats_four(play, previous)
    return answer


def four_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "hand")
    assert text is not None
    counts = counts_of(parse_ranks(text))
    if not fits_two_packs(counts):
        raise RequestError("bad_request", f"two packs cannot hold the hand {text!r}")
    return plays_answer(legal_plays_four(counts, _four_previous(request)))


def four_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return replay_answer(
        request,
        FourDeal.from_json,
        lambda deal, events: FourHandState.from_events(deal, events, profile),
    )


# --------------------------------------------------------------------------- laizi


def _wild(request: dict[str, Any]) -> int:
    if "wild" not in request:
        raise RequestError("bad_request", 'laizi needs the wild rank: "wild": "7"')
    return parse_wild(request["wild"])


def _declaration(request: dict[str, Any], field: str) -> str | None:
    value = request.get(field)
    if value is None:
        return None
    if not isinstance(value, str):
        raise RequestError("bad_request", f"field {field!r} must be card text")
    if not value.strip():
        raise RequestError("bad_request", f"field {field!r} is empty: leave it out instead")
    return value


def _wild_previous(request: dict[str, Any], wild: int) -> WildPlay | None:
    text = _text(request, "previous", required=False)
    if not text or not text.strip():
        return None
    declared = _declaration(request, "previous_as")
    try:
        play = read_wild_play(text, declared, wild)
    except InvalidSubstitution as exc:
        raise RequestError("invalid_previous", f"previous play: {exc.message}") from exc
    if play is None:
        raise RequestError("invalid_previous", f"previous play {text!r} is no combination")
    return play


def laizi_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    wild = _wild(request)
    text = _text(request, "cards")
    assert text is not None
    declared = _declaration(request, "as")
    previous = _wild_previous(request, wild)
    play = read_wild_play(text, declared, wild, previous=previous)
    answer: Answer = {"legal": play is not None}
    if play is not None:
        answer.update(kind=play.kind.value, rank=play.rank_text(), length=play.length)
        if play.bomb_class is not None:
            answer["bomb_class"] = play.bomb_class
    if previous is not None:
        answer["beats"] = play is not None and beats_wild(play, previous)
    return answer


def laizi_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    wild = _wild(request)
    text = _text(request, "hand")
    assert text is not None
    counts = counts_of(parse_ranks(text))
    if not counts_fit_pack(counts):
        raise RequestError("bad_request", f"one pack cannot hold the hand {text!r}")
    plays = legal_plays_wild(counts, wild, _wild_previous(request, wild))
    return {"plays": sorted({p.notation() for p in plays}, key=_notation_order)}


def _notation_order(text: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Fewest cards first, then the cards, then the declared cards, low to high."""
    cards, _, declared = text.partition("=")
    spent = parse_ranks(cards)
    return len(spent), spent, parse_ranks(declared)


def laizi_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return replay_answer(
        request,
        _wild_deal,
        lambda deal, events: LaiziHandState.from_events(deal[0], events, profile, wild=deal[1]),
    )


def _wild_deal(data: dict[str, Any]) -> tuple[Deal, int]:
    """The deal and its wild rank (the wild rank read first)."""
    wild = wild_of_deal(data)
    return Deal.from_json(data), wild


Handler = Callable[[dict[str, Any], RuleProfile], Answer]
VARIANT_OPS: dict[str, dict[str, Handler]] = {
    "four_p": {
        "classify": four_classify,
        "legal_plays": four_legal_plays,
        "score": op_score,
        "replay": four_replay,
    },
    "laizi": {
        "classify": laizi_classify,
        "legal_plays": laizi_legal_plays,
        "score": op_score,
        "replay": laizi_replay,
    },
    **{
        key: {
            "classify": big3_classify,
            "legal_plays": big3_legal_plays,
            "score": op_score,
            "replay": big3_replay,
        }
        for key, game in GAME_PROFILES.items()
        if game.game == "big3"
    },
    "six_p": SIX_OPS,
    "six_p_no_kitty": SIX_OPS,
    "five_p": FIVE_OPS,
}
