"""One notation, one meaning (SPEC R1.5, R1.7; PROTOCOL.md "Card notation").

Any rank multiset, written in any style the rank notation allows (any case, ``10`` or ``T``,
jokers as ``X`` / ``D`` / 小王 / 大王, separators or none, any order), is read back as exactly
those ranks by every entry point: ``parse_ranks``, ``parse_cards``, ``classify``, the protocol's
``classify`` / ``legal_plays`` / ``replay`` (deals and play events) and the command-line tool.
Suits are symbols only, so ``D`` followed by a rank is always the big joker and that rank.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules import (
    Deal,
    HandState,
    PlayCards,
    classify,
    format_ranks,
    handle_line,
    handle_request,
    legal_plays,
    parse_cards,
    parse_ranks,
)
from referee.rules.__main__ import main as cli
from referee.rules.cards import key_of
from tests.rules.helpers import REPO_ROOT
from tests.rules.reference import PACK

SETTINGS: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow],
}
PACK_RANKS = [r for r in range(15) for _ in range(PACK[r])]
#: Every way the rank notation lets a person write each rank (R1.5 / PROTOCOL.md).
SPELLINGS: dict[int, tuple[str, ...]] = {
    **{r: (str(r + 3),) for r in range(7)},
    7: ("T", "t", "10"),
    8: ("J", "j"),
    9: ("Q", "q"),
    10: ("K", "k"),
    11: ("A", "a"),
    12: ("2",),
    13: ("X", "x", "小王"),
    14: ("D", "d", "大王"),
}
SEPARATORS = ("", "", "", " ", ",", "+", "-", ", ", " + ")


@st.composite
def written(draw: st.DrawFn, ranks: list[int]) -> str:
    """``ranks`` in a random order, each card spelt at random, random separators (or none)."""
    order = draw(st.permutations(ranks))
    tokens = [draw(st.sampled_from(SPELLINGS[r])) for r in order]
    gaps = [draw(st.sampled_from(SEPARATORS)) for _ in tokens[1:]]
    return (
        tokens[0] + "".join(g + t for g, t in zip(gaps, tokens[1:], strict=True)) if tokens else ""
    )


@st.composite
def multisets(draw: st.DrawFn, min_size: int = 1, max_size: int = 20) -> list[int]:
    """Ranks of random cards of one pack."""
    picks = draw(st.lists(st.integers(0, 53), min_size=min_size, max_size=max_size, unique=True))
    return sorted(PACK_RANKS[i] for i in picks)


def _cli(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = cli(list(argv), stdin=io.StringIO(stdin), out=out)
    return status, out.getvalue()


@settings(max_examples=300, **SETTINGS)
@given(data=st.data(), ranks=multisets())
def test_every_parser_reads_any_writing_of_a_multiset_as_exactly_those_ranks(
    data: st.DataObject, ranks: list[int]
) -> None:
    text = data.draw(written(ranks), label="text")
    canonical = format_ranks(ranks)
    assert parse_ranks(text) == tuple(ranks)
    cards = parse_cards(text)
    assert sorted(c.rank for c in cards) == ranks and all(c.suit is None for c in cards)
    assert classify(text) == classify(ranks)

    previous = data.draw(st.sampled_from(["", "3", "55", "XD", "34567", "2222"]), label="previous")
    for op, field in (("classify", "cards"), ("legal_plays", "hand")):
        request = {"op": op, field: text, "previous": previous}
        answer = handle_request(request)
        assert answer == handle_request({**request, field: canonical}), op
        line = handle_line(json.dumps(request, ensure_ascii=data.draw(st.booleans())))
        assert json.loads(line) == answer
    if "plays" in answer:
        wanted = {p.text() for p in legal_plays(key_of(ranks), classify(previous or "3"))}
        assert previous == "" or set(answer["plays"]) == wanted

    assert _cli("check", text) == _cli("check", canonical)
    assert _cli("moves", text) == _cli("moves", canonical)


def _events(first: int, play: str) -> list[dict[str, Any]]:
    """The first bidder bids 3, both defenders decline to double, the landlord leads ``play``."""
    return [
        {"seat": first, "bid": 3},
        {"seat": (first + 1) % 3, "double": False},
        {"seat": (first + 2) % 3, "double": False},
        {"seat": first, "play": play},
    ]


@settings(max_examples=100, **SETTINGS)
@given(data=st.data(), pack=st.permutations(PACK_RANKS), first=st.integers(0, 2))
def test_deals_and_replayed_plays_read_any_writing_as_exactly_those_ranks(
    data: st.DataObject, pack: list[int], first: int
) -> None:
    parts = [sorted(pack[0:17]), sorted(pack[17:34]), sorted(pack[34:51]), sorted(pack[51:])]
    canonical = {
        "hands": [format_ranks(p) for p in parts[:3]],
        "kitty": format_ranks(parts[3]),
        "first_bidder": first,
    }
    deal = {
        "hands": [data.draw(written(p), label=f"hand {i}") for i, p in enumerate(parts[:3])],
        "kitty": data.draw(written(parts[3]), label="kitty"),
        "first_bidder": first,
    }
    read, expected = Deal.from_json(deal), Deal.from_json(canonical)
    assert (read.keys, read.kitty_key) == (expected.keys, expected.kitty_key)
    assert not read.has_suits
    assert read.to_json() == canonical

    # the landlord leads a legal play, or any cards he holds (often no combination)
    twenty = sorted(parts[first] + parts[3])
    if data.draw(st.booleans(), label="legal lead"):
        lead = sorted(data.draw(st.sampled_from(legal_plays(key_of(twenty)))).ranks)
    else:
        picks = data.draw(st.lists(st.integers(0, 19), min_size=1, max_size=8, unique=True))
        lead = sorted(twenty[i] for i in picks)
    play = data.draw(written(lead), label="play")
    answer = handle_request({"op": "replay", "deal": deal, "events": _events(first, play)})
    same = {"op": "replay", "deal": canonical, "events": _events(first, format_ranks(lead))}
    assert answer == handle_request(same)
    assert answer.get("ok") is True or answer.get("error") == "invalid_combination", answer
    record = json.dumps({"deal": deal, "events": _events(first, play)}, ensure_ascii=False)
    assert _cli("replay", "-", stdin=record) == _cli("replay", "-", stdin=json.dumps(same))


# --- the hand of the issue: 大王 directly followed by rank letters ------------------------------

BIG_JOKER_HAND = "2q3kq大王j105a62510q23"


def _deal_with_big_joker_hand() -> dict[str, Any]:
    """Seat 0 holds the hand above, as written; the rest of the pack goes to seats 1, 2 and the
    kitty, in rank text."""
    rest = list(PACK_RANKS)
    for rank in parse_ranks(BIG_JOKER_HAND):
        rest.remove(rank)
    return {
        "hands": [BIG_JOKER_HAND, format_ranks(rest[:17]), format_ranks(rest[17:34])],
        "kitty": format_ranks(rest[34:]),
        "first_bidder": 0,
    }


def _complete_hand(deal: Deal) -> list[dict[str, Any]]:
    """A legal hand to its end: seat 0 bids 3, nobody doubles, then every seat takes its first
    legal play (or passes when it has none)."""
    state = HandState.from_events(deal, _events(0, "")[:3])
    while not state.is_over:
        actions = state.legal_actions()
        state.push(next((a for a in actions if isinstance(a, PlayCards)), actions[0]))
    return state.to_events()


def test_replay_of_a_legal_hand_whose_deal_writes_big_joker_before_rank_letters() -> None:
    deal = _deal_with_big_joker_hand()
    assert len(parse_ranks(BIG_JOKER_HAND)) == 17
    assert 14 in parse_ranks(BIG_JOKER_HAND)  # 大王 is the big joker, not a diamond
    in_rank_text = [format_ranks(parse_ranks(h)) for h in deal["hands"]]
    events = _complete_hand(Deal.from_json({**deal, "hands": in_rank_text}))
    request = {"op": "replay", "deal": deal, "events": events}
    answer = handle_request(request)
    assert answer["ok"] is True and answer["phase"] == "finished", answer
    assert sum(answer["scores"]) == 0
    proc = subprocess.run(
        [sys.executable, "-m", "referee.rules", "replay", "-"],
        input=json.dumps({"deal": deal, "events": events}, ensure_ascii=False).encode("utf-8"),
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout) == answer
