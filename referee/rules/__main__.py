"""Command-line tool: ``python -m referee.rules``.

Without arguments (or with ``batch``) it speaks the JSON Lines protocol of
``docs/rules/PROTOCOL.md``: one request per input line, one answer per output line, in order; a
bad line gets an error answer and the batch goes on. The other commands are for a person at a
terminal::

    python -m referee.rules check 666777AA [--previous 555666KK] [--profile classic]
    python -m referee.rules moves 33344456XD [--previous 55]
    python -m referee.rules score --landlord 0 --bid 3 --doubled 1 --redouble --bombs 1 \\
        --winner landlord
    python -m referee.rules replay hand.json     # {"deal": ..., "events": [...]}, or - for stdin
    python -m referee.rules deal 42              # a reproducible deal from a seed

The variant profiles of ``docs/rules/variants/PROTOCOL-variants.md`` work the same way:
``--profile four_p`` (four seats), ``--profile laizi --wild 7`` with ``--as`` / ``--previous-as``
for what the wild cards stand for::

    python -m referee.rules check KKK7 --profile laizi --wild 7 --as KKKK --previous 3333
    python -m referee.rules score --profile four_p --landlord 3 --bid 2 --bombs 1 --winner landlord

The ``solve`` request (``docs/solver.md``) asks the open-hand solver whether the landlord goes
out first with every hand known::

    echo '{"op":"solve","hands":["33","44","55"],"landlord":0,"turn":0}' | python -m referee.rules

So does Big Three (``docs/rules/games/PROTOCOL-big3.md``), ``--profile big3`` or
``big3_one_round``::

    python -m referee.rules moves 4455663 --profile big3
    python -m referee.rules score --profile big3 --landlord 1 --bid 2 --winner landlord

And six and five players (``docs/rules/games/PROTOCOL-six-five.md``), ``--profile six_p``,
``six_p_no_kitty`` or ``five_p``; ``--partner`` (a seat or ``none``) and ``--cap``::

    python -m referee.rules moves XXXD --profile six_p
    python -m referee.rules score --profile six_p --landlord 0 --partner 3 --bid 1 --bombs 1 \\
        --winner landlord --cap 16
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from referee.rules.cards import deal_from_seed, format_cards
from referee.rules.games import WILD, deal_json_from_seed
from referee.rules.profiles import (
    DEFAULT_PROFILE,
    GAME_PROFILES,
    PROFILES,
    VARIANT_PROFILES,
    RuleProfile,
    get_profile,
)
from referee.rules.protocol import handle_line, handle_request


def run_batch(source: TextIO, sink: TextIO) -> int:
    """Answer every non-blank line of ``source``; returns 0 when every line was answered."""
    for line in source:
        if line.strip():
            sink.write(handle_line(line) + "\n")
            sink.flush()
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m referee.rules",
        description="Dou Dizhu rules tool (docs/rules/SPEC.md, docs/rules/PROTOCOL.md)",
    )
    keys = sorted({*PROFILES, *VARIANT_PROFILES, *GAME_PROFILES})
    parser.add_argument("--profile", default="comp2016", choices=keys)
    # --profile may also follow the command; there it must not reset an earlier choice
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--profile", default=argparse.SUPPRESS, choices=keys)
    common.add_argument("--wild", help="laizi: the wild rank, e.g. 7")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("batch", help="JSON Lines protocol on stdin/stdout (the default)")
    check = sub.add_parser(
        "check", parents=[common], help="classify a play, optionally against the top play"
    )
    check.add_argument("cards")
    check.add_argument("--previous")
    check.add_argument("--as", dest="declared", help="laizi: what the cards stand for")
    check.add_argument("--previous-as", dest="previous_declared")
    moves = sub.add_parser("moves", parents=[common], help="list the legal plays of a hand")
    moves.add_argument("hand")
    moves.add_argument("--previous")
    moves.add_argument("--previous-as", dest="previous_declared")
    score = sub.add_parser("score", parents=[common], help="score a hand from its result")
    score.add_argument("--landlord", type=int, required=True)
    score.add_argument("--bid", type=int, required=True)
    score.add_argument("--doubled", type=int, action="append", default=[], metavar="SEAT")
    score.add_argument("--redouble", action="store_true")
    score.add_argument("--bombs", type=int, default=0)
    for name in ("soft-bombs", "hard-bombs", "pure-wild-bombs"):
        score.add_argument(f"--{name}", type=int, default=0, help="laizi: bombs by class")
    score.add_argument("--rockets", type=int, default=0)
    score.add_argument("--spring", action="store_true")
    score.add_argument("--anti-spring", action="store_true")
    score.add_argument("--winner", choices=["landlord", "defenders"], required=True)
    score.add_argument("--partner", help="six_p: the partner's seat, or none (R13.5)")
    score.add_argument("--cap", type=int, help="six_p, five_p: the largest multiplier (R8.3)")
    replay = sub.add_parser(
        "replay", parents=[common], help="replay a hand record file (JSON: deal and events)"
    )
    replay.add_argument("file")
    deal = sub.add_parser("deal", parents=[common], help="show the deal of a seed")
    deal.add_argument("seed", type=int)
    return parser


def main(
    argv: Sequence[str] | None = None, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout
) -> int:
    args = _parser().parse_args(argv)
    if args.command in (None, "batch"):
        return run_batch(stdin, out)
    if args.command == "deal":
        _deal_write(get_profile(args.profile), args.seed, out)
        return 0
    try:
        request = _request(args, stdin)
    except OSError as exc:
        out.write(f"error: cannot read {args.file}: {exc.strerror or exc}\n")
        return 1
    answer = handle_request(request)
    out.write(_human(args.command, answer) + "\n")
    return 1 if "error" in answer or answer.get("ok") is False else 0


def _deal_write(profile: RuleProfile, seed: int, out: TextIO) -> None:
    """The deal of ``seed`` under ``profile``: each seat's cards, the kitty (Big Three's
    hole, 坑), the first bidder, and where it comes from (the wild rank, the hearts)."""
    if profile.key == DEFAULT_PROFILE or profile.is_three_player:  # as before the variants
        dealt = deal_from_seed(seed)
        for seat, hand in enumerate(dealt.hands):
            out.write(f"seat {seat}: {format_cards(hand)}\n")
        out.write(f"kitty:  {format_cards(dealt.kitty)}\nfirst bidder: seat {dealt.first_bidder}\n")
        return
    data = deal_json_from_seed(profile, seed)
    for seat, hand in enumerate(data["hands"]):
        out.write(f"seat {seat}: {hand}\n")
    if profile.game == "big3":
        out.write(f"hole:   {data['kitty']}\n")
        hearts = ", ".join(f"seat {seat}: {h or '-'}" for seat, h in enumerate(data["hearts"][:3]))
        out.write(f"hearts: {hearts}, hole: {data['hearts'][3] or '-'}\n")
        out.write(f"first bidder: seat {data['first_bidder']} (the lowest heart held, R12.4)\n")
        return
    out.write(f"kitty:  {data['kitty']}\nfirst bidder: seat {data['first_bidder']}\n")
    if WILD in data:
        out.write(f"wild rank: {data[WILD]}\n")


def _request(args: argparse.Namespace, stdin: TextIO) -> dict[str, object]:
    base: dict[str, object] = {"profile": args.profile}
    if getattr(args, "wild", None) is not None:
        base["wild"] = args.wild
    declared = {
        field: value
        for field, value in (
            ("as", getattr(args, "declared", None)),
            ("previous_as", getattr(args, "previous_declared", None)),
        )
        if value is not None
    }
    if args.command == "check":
        return {
            **base, **declared, "op": "classify", "cards": args.cards, "previous": args.previous
        }  # fmt: skip
    if args.command == "moves":
        return {
            **base, **declared, "op": "legal_plays", "hand": args.hand, "previous": args.previous
        }  # fmt: skip
    if args.command == "score":
        profile = get_profile(args.profile)
        doubled = [seat in args.doubled for seat in range(profile.seats)]
        request: dict[str, object] = {
            **base, "op": "score", "landlord": args.landlord, "bid": args.bid,
            "doubled": doubled, "redoubled": args.redouble, "bombs": args.bombs,
            "rockets": args.rockets, "spring": args.spring, "anti_spring": args.anti_spring,
            "winner": args.winner,
        }  # fmt: skip
        if profile.game == "six_p" and args.partner is not None:  # absent: bad_request
            request["partner"] = None if args.partner == "none" else _seat(args.partner)
        if args.cap is not None:
            request["cap"] = args.cap
        if profile.wild_cards:
            classes = (args.soft_bombs, args.hard_bombs, args.pure_wild_bombs)
            request.update(soft_bombs=classes[0], hard_bombs=classes[1], pure_wild_bombs=classes[2])
            request["bombs"] = sum(classes)
        return request
    text = stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    try:
        record = json.loads(text)
    except json.JSONDecodeError:
        record = None
    if not isinstance(record, dict):
        return {**base, "op": "replay"}
    return {"profile": args.profile, **record, "op": "replay"}


def _seat(text: str) -> object:
    """A seat number as written, else the text itself (the protocol refuses it)."""
    return int(text) if text.isdigit() else text


def _human(command: str, answer: dict[str, object]) -> str:
    if "error" in answer and answer.get("ok") is not False:
        return f"error [{answer['error']}]: {answer.get('message', '')}"
    if command == "check":
        if not answer["legal"]:
            return "illegal: no combination" + ("" if "beats" not in answer else " (does not beat)")
        text = f"legal: {answer['kind']}, rank {answer['rank']}, length {answer['length']}"
        if "bomb_class" in answer:
            text += f" ({answer['bomb_class']} bomb)"
        if "beats" in answer:
            text += "; beats the previous play" if answer["beats"] else "; does NOT beat it"
        return text
    if command == "moves":
        plays = answer["plays"]
        assert isinstance(plays, list)
        return f"{len(plays)} legal plays:\n" + "\n".join(plays)
    if command == "score":
        scores = answer["scores"]
        assert isinstance(scores, list)
        seats = ", ".join(str(seat) for seat in range(len(scores)))
        return f"scores (seat {seats}): " + " ".join(f"{s:+d}" for s in scores)
    return json.dumps(answer, ensure_ascii=False, indent=2)


if __name__ == "__main__":
    sys.exit(main())
