"""The JSON Lines protocol of the rules tool (``docs/rules/PROTOCOL.md``).

``handle_request`` answers one request object; it never raises for bad input: every problem
becomes an error answer with a stable code.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from referee.rules.cards import Deal, counts_fit_pack, counts_of, key_of_counts, parse_ranks
from referee.rules.combos import Play, beats, choose_reading, readings_of
from referee.rules.errors import InvalidDeal, RulesError
from referee.rules.hand import HandState
from referee.rules.moves import legal_plays
from referee.rules.profiles import RuleProfile, get_profile
from referee.rules.scoring import result_from_json, score_hand

Answer = dict[str, Any]


class RequestError(RulesError):
    """A request that cannot be processed; ``code`` is a request-level error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


def handle_request(request: object) -> Answer:
    """Answer one protocol request (a decoded JSON value)."""
    rid = request.get("id") if isinstance(request, dict) else None
    try:
        if not isinstance(request, dict):
            raise RequestError("bad_request", "a request must be a JSON object")
        op = request.get("op")
        handler = OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            code = "bad_request" if op is None else "unknown_op"
            # the ops PROTOCOL.md defines (its vectors quote this message word for word);
            # ``solve`` is this tool's own (docs/solver.md)
            known = ", ".join(o for o in OPS if o not in EXTENSION_OPS)
            raise RequestError(code, f"unknown op {op!r}; known: {known}")
        profile_key = request.get("profile", "comp2016")
        if not isinstance(profile_key, str):
            raise RequestError("unknown_profile", f"profile must be a key, got {profile_key!r}")
        profile = get_profile(profile_key)
        if not profile.is_three_player:  # four_p, laizi, big3: PROTOCOL-variants, -big3
            from referee.rules.protocol_variants import VARIANT_OPS

            handler = VARIANT_OPS[profile.key].get(str(op))
            if handler is None:
                raise RequestError("unknown_op", f"op {op!r} is not offered for {profile.key}")
        answer = handler(request, profile)
    except RulesError as exc:
        answer = {"error": exc.code, "message": exc.message}
    if isinstance(request, dict) and "id" in request:
        return {"id": rid, **answer}
    return answer


def handle_line(line: str) -> str:
    """Answer one JSON Lines request line with one response line."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return json.dumps({"error": "bad_request", "message": f"not JSON: {exc}"})
    answer = handle_request(request)
    text = json.dumps(answer, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (e.g. "\ud800" echoed back) stays escaped
        text = json.dumps(answer)
    return text


def _text(request: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    value = request.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise RequestError("bad_request", f"field {field!r} must be card text")
    return value


def _previous(request: dict[str, Any], profile: RuleProfile) -> Play | None:
    text = _text(request, "previous", required=False)
    if not text or not text.strip():
        return None
    found = readings_of(text, profile)
    if not found:
        raise RequestError("invalid_previous", f"previous play {text!r} is no combination")
    return found[0]


def op_classify(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "cards")
    assert text is not None
    return classify_answer(readings_of(text, profile), _previous(request, profile))


def classify_answer(found: tuple[Play, ...], previous: Play | None) -> Answer:
    """The ``classify`` answer for the readings ``found`` (preferred first): the reading to
    record (R5.22) and, when there are several, all of them under ``readings``."""
    play = choose_reading(found, previous)
    answer: Answer = {"legal": play is not None}
    if play is not None:
        answer.update(kind=play.kind.value, rank=play.rank_text(), length=play.length)
        if len(found) > 1:
            answer["readings"] = [p.to_json() for p in found]
    if previous is not None:
        answer["beats"] = play is not None and beats(play, previous)
    return answer


def op_legal_plays(request: dict[str, Any], profile: RuleProfile) -> Answer:
    text = _text(request, "hand")
    assert text is not None
    counts = counts_of(parse_ranks(text))
    if not counts_fit_pack(counts):
        raise RequestError("bad_request", f"one pack cannot hold the hand {text!r}")
    return plays_answer(legal_plays(counts, _previous(request, profile), profile))


def op_score(request: dict[str, Any], profile: RuleProfile) -> Answer:
    """``score`` for every profile: its game's result read and scored by the one entry point."""
    return {"scores": list(score_hand(result_from_json(request, profile), profile))}


def op_replay(request: dict[str, Any], profile: RuleProfile) -> Answer:
    return replay_answer(
        request, Deal.from_json, lambda deal, events: HandState.from_events(deal, events, profile)
    )


class _Summarised(Protocol):
    def summary(self) -> dict[str, Any]: ...


_D = TypeVar("_D")


def replay_answer(
    request: dict[str, Any],
    read_deal: Callable[[dict[str, Any]], _D],
    from_events: Callable[[_D, list[Any]], _Summarised],
) -> Answer:
    """The answer to ``replay`` (PROTOCOL.md, PROTOCOL-variants.md): the deal read by
    ``read_deal`` (InvalidDeal: not ok, no index), its events replayed by ``from_events`` (the
    first illegal one: not ok, its index), else the state's summary."""
    deal_data, events = request.get("deal"), request.get("events")
    if not isinstance(deal_data, dict) or not isinstance(events, list):
        raise RequestError("bad_request", "replay needs a 'deal' object and an 'events' list")
    try:
        deal = read_deal(deal_data)
    except InvalidDeal as exc:
        return {"ok": False, "index": None, "error": exc.code, "message": exc.message}
    try:
        state = from_events(deal, events)
    except RulesError as exc:
        return {"ok": False, "index": exc.index, "error": exc.code, "message": exc.message}
    return state.summary()


def plays_answer(plays: Iterable[Play]) -> Answer:
    """The answer to ``legal_plays``: the plays' cards, fewest first, then low to high."""
    return {"plays": sorted((p.text() for p in plays), key=lambda t: (len(t), parse_ranks(t)))}


def op_solve(request: dict[str, Any], profile: RuleProfile) -> Answer:
    """``solve`` (``docs/solver.md``): the open-hand value of a play-phase position."""
    from referee.rules.solver import Position, SolverError, solve

    hands = request.get("hands")
    if not isinstance(hands, list) or len(hands) != 3 or not all(isinstance(h, str) for h in hands):
        raise RequestError("bad_request", "hands must be a list of three card texts")
    counts = [counts_of(parse_ranks(h)) for h in hands]
    total = [sum(c[r] for c in counts) for r in range(len(counts[0]))]
    if not counts_fit_pack(total):
        raise RequestError("bad_request", "one pack cannot hold the three hands")
    seats = {}
    for field in ("landlord", "turn", "top_seat"):
        value = request.get(field)
        if value is None and field == "top_seat":
            continue
        if type(value) is not int or not 0 <= value <= 2:
            raise RequestError("bad_request", f"{field} must be a seat 0, 1 or 2")
        seats[field] = value
    top_text = _text(request, "top", required=False)
    top = None
    if top_text and top_text.strip():
        found = readings_of(top_text, profile)
        if not found:
            raise RequestError("invalid_top", f"the play to beat {top_text!r} is no combination")
        top = found[0]
        if "top_seat" not in seats:
            raise RequestError("bad_request", "a play to beat needs its top_seat")
    budget = request.get("budget_ms", 1000)
    if type(budget) is not int or not 1 <= budget <= 600_000:
        raise RequestError("bad_request", "budget_ms must be an integer from 1 to 600000")
    position = Position(
        (key_of_counts(counts[0]), key_of_counts(counts[1]), key_of_counts(counts[2])),
        seats["landlord"],
        seats["turn"],
        top,
        seats.get("top_seat") if top is not None else None,
    )
    try:
        return solve(position, profile, max_ms=budget).to_json()
    except SolverError as exc:
        raise RequestError(exc.code, exc.message) from exc


OPS: dict[str, Callable[[dict[str, Any], RuleProfile], Answer]] = {
    "classify": op_classify,
    "legal_plays": op_legal_plays,
    "score": op_score,
    "replay": op_replay,
    "solve": op_solve,
}

#: Ops of this tool beyond PROTOCOL.md's (docs/solver.md, "The solve op").
EXTENSION_OPS = frozenset({"solve"})
