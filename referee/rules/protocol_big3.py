"""The rules tool's ops for Big Three, ``big3`` and ``big3_one_round``
(``docs/rules/games/PROTOCOL-big3.md``); everything else is as in ``protocol``."""

from __future__ import annotations

from typing import Any

from referee.rules.big3_combos import (
    MAX_PLAY_CARDS,
    beats_big3,
    big3_sort_key,
    classify_big3,
    fits_big3_pack,
    legal_plays_big3,
)
from referee.rules.big3_hand import Big3Deal, Big3HandState
from referee.rules.cards import counts_of, key_of, parse_ranks
from referee.rules.combos import Play
from referee.rules.profiles import RuleProfile
from referee.rules.protocol import Answer, RequestError, _text, replay_answer


def _play_of(text: str) -> Play | None:
    """The reading of ``text``, None when it is no Big Three combination (a joker, five of a
    rank, more than 20 cards, kickers, …). NotationError for unreadable text."""
    ranks = parse_ranks(text)
    if len(ranks) > MAX_PLAY_CARDS or not fits_big3_pack(counts_of(ranks)):
        return None
    return classify_big3(key_of(ranks))


def _previous(request: dict[str, Any]) -> Play | None:
    text = _text(request, "previous", required=False)
    if not text or not text.strip():
        return None
    play = _play_of(text)
    if play is None:
        raise RequestError("invalid_previous", f"previous play {text!r} is no combination")
    return play


def big3_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "cards")
    assert text is not None
    play = _play_of(text)
    previous = _previous(request)
    answer: Answer = {"legal": play is not None}
    if play is not None:
        answer.update(kind=play.kind.value, rank=play.rank_text(), length=play.length)
    if previous is not None:
        answer["beats"] = play is not None and beats_big3(play, previous)
    return answer


def big3_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "hand")
    assert text is not None
    ranks = parse_ranks(text)
    if not fits_big3_pack(counts_of(ranks)):
        raise RequestError("bad_request", f"the Big Three pack cannot hold the hand {text!r}")
    plays = legal_plays_big3(key_of(ranks), _previous(request))
    return {"plays": sorted((p.text() for p in plays), key=big3_sort_key)}


def big3_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    deal = request.get("deal")
    first = deal.get("first_bidder") if isinstance(deal, dict) else None
    if type(first) is not int or not 0 <= first <= 2:
        raise RequestError("bad_request", f"first_bidder must be seat 0..2, got {first!r}")
    return replay_answer(
        request,
        Big3Deal.from_json,
        lambda deal, events: Big3HandState.from_events(deal, events, profile),
    )
