"""The command-line tool ``python -m referee.rules`` (PROTOCOL.md batch mode, one-off commands)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from referee.rules import (
    Kind,
    Play,
    classify,
    deal_from_seed,
    format_cards,
    handle_request,
    parse_cards,
    parse_ranks,
)
from referee.rules.cards import key_of
from referee.rules.protocol import classify_answer
from tests.rules.helpers import REPO_ROOT

VALID_DEAL = {
    "hands": ["4455778JJQQKKAA22", "33345667899TJQKAX", "3456678899TTTJQKD"],
    "kitty": "A22",
    "first_bidder": 0,
}


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO_ROOT,
        timeout=60,
        check=False,
    )


def answers(proc: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in proc.stdout.splitlines()]


# --- batch mode ---------------------------------------------------------------------------------


def test_protocol_batch_answers_every_line_in_order_and_goes_on_after_errors() -> None:
    lines = [
        '{"id": 1, "op": "classify", "cards": "33"}',
        '{"id": 2, "op": "classify", "cards": ',  # malformed JSON
        '[{"op": "classify", "cards": "3"}]',  # a JSON array, not an object
        '{"id": 4, "op": "shuffle", "cards": "3"}',  # unknown op
        '{"id": 5, "op": "classify"}',  # missing field
        '{"id": 6, "op": "classify", "cards": "33Z"}',  # bad notation
        '{"id": 7, "op": "classify", "profile": "seven_p", "cards": "3"}',  # unknown profile
        '"just a string"',
        '{"id": 9, "op": "legal_plays", "hand": "3345"}',
    ]
    proc = run(stdin="\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    got = answers(proc)
    assert len(got) == len(lines)
    assert got[0] == {"id": 1, "legal": True, "kind": "pair", "rank": "3", "length": 1}
    assert got[1]["error"] == "bad_request" and "id" not in got[1]
    assert got[2]["error"] == "bad_request"
    assert got[3]["error"] == "unknown_op" and got[3]["id"] == 4
    assert got[4]["error"] == "bad_request" and got[4]["id"] == 5
    assert got[5]["error"] == "bad_notation" and got[5]["id"] == 6
    assert got[6]["error"] == "unknown_profile" and got[6]["id"] == 7
    assert got[7]["error"] == "bad_request"
    assert got[8]["id"] == 9 and sorted(got[8]["plays"]) == ["3", "33", "4", "5"]
    for answer in got[1:8]:
        assert isinstance(answer.get("message"), str) and answer["message"]


def test_protocol_batch_ignores_blank_lines() -> None:
    stdin = (
        '\n{"id": "a", "op": "classify", "cards": "X"}\n\n   \n\t\n'
        '{"id": "b", "op": "classify", "cards": "XD"}\n\n'
    )
    proc = run("batch", stdin=stdin)
    assert proc.returncode == 0
    got = answers(proc)
    assert [a["id"] for a in got] == ["a", "b"]
    assert got[1]["kind"] == "rocket"


def test_protocol_batch_exit_status_is_0_whatever_the_verdicts() -> None:
    stdin = "\n".join(
        [
            json.dumps({"op": "replay", "deal": VALID_DEAL, "events": [{"seat": 1, "bid": 1}]}),
            '{"op": "score", "landlord": 0, "bid": 9, "doubled": [false, false, false], '
            '"redoubled": false, "bombs": 0, "rockets": 0, "spring": false, '
            '"anti_spring": false, "winner": "landlord"}',
            "not json at all",
        ]
    )
    proc = run(stdin=stdin + "\n")
    assert proc.returncode == 0
    got = answers(proc)
    assert got[0] == {**got[0], "ok": False, "index": 0, "error": "out_of_turn"}
    assert got[1]["error"] == "invalid_result"
    assert got[2]["error"] == "bad_request"


def test_protocol_batch_echoes_any_json_id_unchanged() -> None:
    ids: list[Any] = ["x", 7, None, {"board": 3, "seat": [0, 1]}, "大王"]
    stdin = "".join(json.dumps({"id": i, "op": "classify", "cards": "D"}) + "\n" for i in ids)
    proc = run(stdin=stdin)
    assert [a["id"] for a in answers(proc)] == ids


def test_protocol_batch_survives_a_lone_surrogate_escape_in_a_line() -> None:
    # "\ud800" is a valid JSON string escape (a lone surrogate). Whatever the answer to that
    # line, the batch must answer it and go on to the next line (PROTOCOL: the batch goes on).
    stdin = (
        '{"id": "\\ud800", "op": "classify", "cards": "3"}\n'
        '{"id": 2, "op": "classify", "cards": "3"}\n'
    )
    proc = run(stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[1])["id"] == 2


# --- one-off commands ---------------------------------------------------------------------------


def test_check_prints_the_kind_rank_and_length() -> None:
    proc = run("check", "666777AA")
    assert proc.returncode == 0
    text = proc.stdout.strip()
    assert text.startswith("legal")
    assert "airplane_singles" in text and "rank 7" in text and "length 2" in text


def test_check_against_a_previous_play_says_whether_it_beats() -> None:
    yes = run("check", "777888+3+4", "--previous", "666777AA")
    no = run("check", "66677", "--previous", "55")
    assert yes.returncode == 0 and no.returncode == 0
    assert "beats" in yes.stdout and "NOT" not in yes.stdout
    assert "trio_pair" in no.stdout and "NOT" in no.stdout


def test_check_of_an_illegal_multiset_says_illegal_with_exit_0() -> None:
    proc = run("check", "JQKA2")
    assert proc.returncode == 0
    assert proc.stdout.strip().startswith("illegal")


def test_check_honours_the_profile_option_before_the_command() -> None:
    assert run("check", "666777AA").stdout.startswith("legal")
    assert run("--profile", "classic", "check", "666777AA").stdout.startswith("illegal")


def test_check_honours_the_profile_option_after_the_command_as_documented() -> None:
    # referee/rules/__main__.py documents: check 666777AA [--previous ...] [--profile classic]
    proc = run("check", "666777AA", "--profile", "classic")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("illegal")


def test_check_with_bad_notation_prints_the_error_code_and_exits_1() -> None:
    proc = run("check", "33Z")
    assert proc.returncode == 1
    assert "bad_notation" in proc.stdout and "Z" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_check_with_an_invalid_previous_exits_1() -> None:
    proc = run("check", "33", "--previous", "34")
    assert proc.returncode == 1
    assert "invalid_previous" in proc.stdout


def test_moves_lists_every_legal_play_one_per_line() -> None:
    proc = run("moves", "3334")
    assert proc.returncode == 0
    first, *plays = proc.stdout.strip().splitlines()
    assert first.startswith("5 ")
    assert sorted(plays) == sorted(["3", "4", "33", "333", "3334"])


def test_moves_answering_a_previous_play() -> None:
    proc = run("moves", "33XD", "--previous", "22")
    assert proc.returncode == 0
    assert proc.stdout.strip().splitlines()[1:] == ["XD"]


def test_moves_of_a_hand_no_pack_holds_exits_1() -> None:
    proc = run("moves", "33333")
    assert proc.returncode == 1
    assert "bad_request" in proc.stdout


def test_score_prints_the_three_seats_signed() -> None:
    # SPEC R8.2: the rulebook's Appendix-1 example, landlord at seat 0, D1 = seat 1 doubled.
    proc = run(
        "score",
        "--landlord",
        "0",
        "--bid",
        "3",
        "--doubled",
        "1",
        "--redouble",
        "--bombs",
        "1",
        "--rockets",
        "1",
        "--anti-spring",
        "--winner",
        "defenders",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split(":")[-1].split() == ["-120", "+96", "+24"]


def test_score_of_an_impossible_result_exits_1() -> None:
    proc = run("score", "--landlord", "0", "--bid", "4", "--winner", "landlord")
    assert proc.returncode == 1
    assert "invalid_result" in proc.stdout


def test_score_in_classic_profile_has_no_doubling() -> None:
    ok = run(
        "--profile",
        "classic",
        "score",
        "--landlord",
        "2",
        "--bid",
        "2",
        "--bombs",
        "1",
        "--winner",
        "defenders",
    )
    assert ok.returncode == 0
    assert ok.stdout.split(":")[-1].split() == ["+4", "+4", "-8"]  # SPEC R8.6 E10
    bad = run(
        "--profile",
        "classic",
        "score",
        "--landlord",
        "0",
        "--bid",
        "1",
        "--doubled",
        "1",
        "--winner",
        "landlord",
    )
    assert bad.returncode == 1 and "invalid_result" in bad.stdout


def _record(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"deal": VALID_DEAL, "events": events}


def test_replay_file_prints_the_replay_answer(tmp_path: Path) -> None:
    record = _record([{"seat": 0, "bid": 1}, {"seat": 1, "bid": 0}, {"seat": 2, "bid": 2}])
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    proc = run("replay", str(path))
    assert proc.returncode == 0, proc.stderr
    shown = json.loads(proc.stdout)
    assert shown == handle_request({"op": "replay", **record})
    assert shown["phase"] == "doubling" and shown["landlord"] == 2 and shown["bid"] == 2


def test_replay_from_stdin_with_dash() -> None:
    record = _record([{"seat": 0, "bid": 0}, {"seat": 1, "bid": 0}, {"seat": 2, "bid": 0}])
    proc = run("replay", "-", stdin=json.dumps(record))
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["phase"] == "passed_out"


def test_replay_uses_the_profile_option() -> None:
    # SPEC R3.3 example (classic): A passes, B 1, C passes, A 2, B and C pass -> A at 2.
    events = [
        {"seat": 0, "bid": 0},
        {"seat": 1, "bid": 1},
        {"seat": 2, "bid": 0},
        {"seat": 0, "bid": 2},
        {"seat": 1, "bid": 0},
        {"seat": 2, "bid": 0},
    ]
    proc = run("--profile", "classic", "replay", "-", stdin=json.dumps(_record(events)))
    assert proc.returncode == 0
    shown = json.loads(proc.stdout)
    assert (shown["phase"], shown["landlord"], shown["bid"]) == ("playing", 0, 2)


def test_replay_with_an_illegal_event_exits_1_and_names_it() -> None:
    proc = run("replay", "-", stdin=json.dumps(_record([{"seat": 1, "bid": 1}])))
    assert proc.returncode == 1
    shown = json.loads(proc.stdout)
    assert shown["ok"] is False and shown["index"] == 0 and shown["error"] == "out_of_turn"


def test_replay_of_a_file_that_is_not_json_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    proc = run("replay", str(path))
    assert proc.returncode == 1
    assert "bad_request" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_replay_of_a_missing_file_reports_an_error_without_a_traceback(tmp_path: Path) -> None:
    proc = run("replay", str(tmp_path / "no-such-hand.json"))
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "no-such-hand.json" in proc.stdout + proc.stderr


def test_deal_prints_the_seeded_deal() -> None:
    proc = run("deal", "42")
    assert proc.returncode == 0
    dealt = deal_from_seed(42)
    out = proc.stdout
    for seat, hand in enumerate(dealt.hands):
        assert f"seat {seat}: {format_cards(hand)}" in out
    assert format_cards(dealt.kitty) in out
    assert f"seat {dealt.first_bidder}" in out.splitlines()[-1]
    shown = [parse_cards(line.split(":", 1)[1]) for line in out.splitlines()[:4]]
    assert [len(h) for h in shown] == [17, 17, 17, 3]
    assert len({str(c) for h in shown for c in h}) == 54, "one pack, every card once"
    assert run("deal", "42").stdout == out, "a seed gives the same deal every time"
    assert run("deal", "43").stdout != out


# --- R5.22: the classify answer reports every reading when there are several ------------------


def _two_readings() -> tuple[Play, Play]:
    """``333444555666`` read as a four-trio airplane and as three trios with three single wings
    (the double reading SPEC R5.22 describes; COMP2016's adjacency rule keeps only the first)."""
    key = key_of(parse_ranks("333444555666"))
    return Play(Kind.AIRPLANE, 3, 4, key), Play(Kind.AIRPLANE_SINGLES, 3, 3, key)


def test_r5_22_classify_answer_lists_every_reading_preferred_first() -> None:
    found = _two_readings()
    assert classify_answer(found, None) == {
        "legal": True,
        "kind": "airplane",
        "rank": "6",
        "length": 4,
        "readings": [
            {"cards": "333444555666", "kind": "airplane", "rank": "6", "length": 4},
            {"cards": "333444555666", "kind": "airplane_singles", "rank": "6", "length": 3},
        ],
    }


def test_r5_22_classify_answer_reports_the_reading_that_beats_the_previous_play() -> None:
    found = _two_readings()
    previous = classify("333444555+789")
    assert previous is not None and previous.kind is Kind.AIRPLANE_SINGLES
    answer = classify_answer(found, previous)
    assert (answer["kind"], answer["length"], answer["beats"]) == ("airplane_singles", 3, True)
    assert [r["kind"] for r in answer["readings"]] == ["airplane", "airplane_singles"]


def test_r5_22_a_single_reading_has_no_readings_field() -> None:
    answer = handle_request({"op": "classify", "cards": "333444555666"})
    assert answer == {"legal": True, "kind": "airplane", "rank": "6", "length": 4}


# --- the variant profiles (docs/rules/variants/PROTOCOL-variants.md) --------------------------


def test_check_a_laizi_declaration_names_the_bomb_class() -> None:
    proc = run(
        "check", "KKK7", "--profile", "laizi", "--wild", "7", "--as", "KKKK", "--previous", "3333"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "legal: bomb, rank K, length 1 (soft bomb); does NOT beat it"


def test_check_an_invalid_laizi_declaration_exits_1() -> None:
    proc = run("check", "7", "--profile", "laizi", "--wild", "7", "--as", "A")
    assert proc.returncode == 1
    assert proc.stdout.startswith("error [invalid_substitution]")


def test_moves_of_a_laizi_hand_write_declarations() -> None:
    proc = run("moves", "KK7", "--profile", "laizi", "--wild", "7")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["5 legal plays:", "7", "K", "7K=KK", "KK", "7KK=KKK"]


def test_score_four_p_prints_four_seats() -> None:
    proc = run(
        "score", "--profile", "four_p", "--landlord", "2", "--bid", "2", "--bombs", "1",
        "--winner", "landlord",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "scores (seat 0, 1, 2, 3): -4 -4 +12 -4"


def test_score_laizi_counts_the_bomb_classes() -> None:
    proc = run(
        "score", "--profile", "laizi", "--landlord", "0", "--bid", "2", "--doubled", "1",
        "--soft-bombs", "1", "--rockets", "1", "--winner", "defenders",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "scores (seat 0, 1, 2): -48 +32 +16"
