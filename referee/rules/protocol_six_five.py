"""The rules tool's ops for six and five players, ``six_p``, ``six_p_no_kitty`` and ``five_p``
(``docs/rules/games/PROTOCOL-six-five.md``); everything else is as in ``protocol``.

``score`` and ``replay`` take the request field ``cap`` (a positive integer, or null / absent
for none): it becomes the profile's ``cap`` (R8.3), so the one scoring entry point applies it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from referee.rules.cards import counts_of, parse_ranks
from referee.rules.combos import Play
from referee.rules.five_hand import MAX_PLAY_CARDS as FIVE_MAX
from referee.rules.five_hand import FiveDeal, FiveHandState
from referee.rules.four_combos import beats_four, classify_four, fits_two_packs, legal_plays_four
from referee.rules.profiles import RuleProfile
from referee.rules.protocol import (
    Answer,
    RequestError,
    _text,
    op_score,
    plays_answer,
    replay_answer,
)
from referee.rules.six_combos import (
    MAX_PLAY_CARDS,
    MAX_PLAY_CARDS_NO_KITTY,
    beats_six,
    classify_six,
    fits_three_packs,
    legal_plays_six,
)
from referee.rules.six_hand import SixDeal, SixHandState


def with_cap(request: dict[str, Any], profile: RuleProfile) -> RuleProfile:
    """``profile`` with the request's ``cap`` (bad_request for anything but a positive
    integer, null or absent)."""
    cap = request.get("cap")
    if cap is None:
        return profile
    if type(cap) is not int or cap < 1:
        raise RequestError("bad_request", f"cap must be a positive integer or null, not {cap!r}")
    return dataclasses.replace(profile, cap=cap)


def capped_score(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return op_score(request, with_cap(request, profile))


# --------------------------------------------------------------------------- six_p


def _six_max(profile: RuleProfile) -> int:
    return MAX_PLAY_CARDS_NO_KITTY if profile.kitty_size == 0 else MAX_PLAY_CARDS


def _six_play(text: str, profile: RuleProfile) -> Play | None:
    counts = counts_of(parse_ranks(text))
    return classify_six(counts, _six_max(profile)) if fits_three_packs(counts) else None


def _previous(request: dict[str, Any], read: Callable[[str], Play | None]) -> Play | None:
    text = _text(request, "previous", required=False)
    if not text or not text.strip():
        return None
    play = read(text)
    if play is None:
        raise RequestError("invalid_previous", f"previous play {text!r} is no combination")
    return play


def _classify(
    request: dict[str, Any], read: Callable[[str], Play | None], beats: Callable[[Play, Play], bool]
) -> Answer:
    text = _text(request, "cards")
    assert text is not None
    play = read(text)
    previous = _previous(request, read)
    answer: Answer = {"legal": play is not None}
    if play is not None:
        answer.update(kind=play.kind.value, rank=play.rank_text(), length=play.length)
    if previous is not None:
        answer["beats"] = play is not None and beats(play, previous)
    return answer


def six_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return _classify(request, lambda text: _six_play(text, profile), beats_six)


def six_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "hand")
    assert text is not None
    counts = counts_of(parse_ranks(text))
    if not fits_three_packs(counts):
        raise RequestError("bad_request", f"three packs cannot hold the hand {text!r}")
    previous = _previous(request, lambda t: _six_play(t, profile))
    return plays_answer(legal_plays_six(counts, previous, _six_max(profile)))


def six_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    capped = with_cap(request, profile)
    no_kitty = profile.kitty_size == 0
    return replay_answer(
        request,
        lambda data: SixDeal.from_json(data, no_kitty=no_kitty),
        lambda deal, events: SixHandState.from_events(deal, events, capped),
    )


# --------------------------------------------------------------------------- five_p


def _five_play(text: str) -> Play | None:
    counts = counts_of(parse_ranks(text))
    if not fits_two_packs(counts) or sum(counts) > FIVE_MAX:
        return None
    return classify_four(counts)


def five_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return _classify(request, _five_play, beats_four)


def five_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "hand")
    assert text is not None
    counts = counts_of(parse_ranks(text))
    if not fits_two_packs(counts):
        raise RequestError("bad_request", f"two packs cannot hold the hand {text!r}")
    plays = legal_plays_four(counts, _previous(request, _five_play))
    return plays_answer(p for p in plays if len(p.ranks) <= FIVE_MAX)


def five_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    capped = with_cap(request, profile)
    return replay_answer(
        request,
        FiveDeal.from_json,
        lambda deal, events: FiveHandState.from_events(deal, events, capped),
    )


Handler = Callable[[dict[str, Any], RuleProfile], Answer]
SIX_OPS: dict[str, Handler] = {
    "classify": six_classify,
    "legal_plays": six_legal_plays,
    "score": capped_score,
    "replay": six_replay,
}
FIVE_OPS: dict[str, Handler] = {
    "classify": five_classify,
    "legal_plays": five_legal_plays,
    "score": capped_score,
    "replay": five_replay,
}
