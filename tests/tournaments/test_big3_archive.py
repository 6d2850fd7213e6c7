"""Big Three hands (issue 31) through the archive, the CSV exports and the standings: a hand
dealt and played, one entered by its result, one from physical cards, one from a duplicate
board; the archive imports them back to the same results (every hand replays, every result
event re-scored by the rules), refuses a Big Three result its rules cannot produce, and the
CSV files speak of the digger (挖坑者) and leave out what Big Three has not."""

from __future__ import annotations

import csv
import io
import json
import random
from typing import Any

import pytest
from django.core.management import call_command

from referee.rules.games import deal_json_from_seed, state_new
from referee.rules.profiles import get_profile
from tests.api.helpers import playing_table
from tournaments.archive.restore import ArchiveError, tournament_import
from tournaments.hands.audit import hands_audit
from tournaments.hands.boards import board_create
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_record_result,
)
from tournaments.models import Hand, Table
from tournaments.standings.queries import standings_compute

pytestmark = pytest.mark.django_db

SUMMARY = ("status", "landlord_seat", "bid", "winner", "scores", "physical_cards", "deal")


def _log(profile: str, deal: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    rules = get_profile(profile)
    state = state_new(rules, deal)
    rng = random.Random(seed)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return state.to_events()


def _big3_table(profile: str) -> Table:
    table = playing_table(
        name="Big Three club", slug=f"{profile}-club", rule_profile=profile, hands_per_round=4
    )
    tournament = table.round.tournament
    tournament.format = "table"
    tournament.save()
    return table


def _four_hands(table: Table, profile: str) -> list[Hand]:
    rules = get_profile(profile)
    dealt = hand_create(table=table, seed=21).hand
    for action in _log(profile, dealt.deal, seed=1):
        dealt = hand_action_record(hand=dealt, action=action).hand
    result_only = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=2, winner="defenders"
    ).hand
    deal = deal_json_from_seed(rules, 22)
    physical = hand_create(table=table, physical_cards=True, first_bidder=deal["first_bidder"])
    seen = physical.hand
    for action in _log(profile, deal, seed=2):
        seen = hand_action_record(hand=seen, action=action).hand
    board = board_create(tournament=table.round.tournament, number=1, seed=23)
    boarded = hand_create(table=table, board=board).hand
    board_deal = {"hands": board.seat_cards, "kitty": board.kitty}
    board_deal["first_bidder"] = board.first_bidder
    for action in _log(profile, board_deal, seed=3):
        boarded = hand_action_record(hand=boarded, action=action).hand
    hands = [dealt, result_only, seen, boarded]
    assert all(h.status == "finished" and sum(h.scores) == 0 for h in hands)
    return hands


@pytest.mark.parametrize("profile", ["big3", "big3_one_round"])
def test_big_three_hands_round_trip_through_the_archive(director_client: Any, profile: str) -> None:
    table = _big3_table(profile)
    hands = _four_hands(table, profile)
    slug = table.round.tournament.slug
    answer = director_client.get(f"/director/t/{slug}/export/archive.json")
    assert answer.status_code == 200
    data = json.loads(answer.content)
    assert data["tournament"]["rule_profile"] == profile
    exported = [h for r in data["rounds"] for t in r["tables"] for h in t["hands"]]
    assert len(exported) == 4 and {h["rule_profile"] for h in exported} == {profile}
    data["tournament"]["slug"] = f"{profile}-copy"
    copy = tournament_import(text=json.dumps(data))
    assert copy.rule_profile == profile
    imported = list(Hand.objects.filter(table__round__tournament=copy).order_by("number"))
    assert [[getattr(h, f) for f in SUMMARY] for h in imported] == [
        [getattr(h, f) for f in SUMMARY] for h in hands
    ]
    assert list(hands_audit(tournament_slugs=[slug, copy.slug])) == []
    totals = {s.registration_order: s.total for s in standings_compute(tournament=copy)}
    original = standings_compute(tournament=table.round.tournament)
    assert totals == {s.registration_order: s.total for s in original}
    assert sum(totals.values()) == 0 and any(totals.values())


def test_an_archive_with_a_result_big_three_cannot_produce_is_refused(
    director_client: Any,
) -> None:
    table = _big3_table("big3")
    hand_record_result(hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord")
    slug = table.round.tournament.slug
    data = json.loads(director_client.get(f"/director/t/{slug}/export/archive.json").content)
    data["tournament"]["slug"] = "big3-forged"
    hand = data["rounds"][0]["tables"][0]["hands"][0]
    event = next(e for e in hand["events"] if e["kind"] == "result")
    forged = json.loads(json.dumps(data))
    forged_event = next(
        e for e in forged["rounds"][0]["tables"][0]["hands"][0]["events"] if e["kind"] == "result"
    )
    forged_event["payload"]["result"]["bombs"] = 1  # a bomb: Big Three has none (R12.9)
    with pytest.raises(ArchiveError) as info:
        tournament_import(text=json.dumps(forged))
    assert "payload.result" in info.value.extra["field"]
    passed = json.loads(json.dumps(data))
    passed_event = next(
        e for e in passed["rounds"][0]["tables"][0]["hands"][0]["events"] if e["kind"] == "result"
    )
    passed_event["payload"] = {"passed_out": True, "scores": [0, 0, 0]}
    with pytest.raises(ArchiveError):
        tournament_import(text=json.dumps(passed))
    assert event["payload"]["scores"] == [2, -1, -1]
    assert not Hand.objects.filter(table__round__tournament__slug="big3-forged").exists()


def test_the_csv_exports_speak_of_the_digger(director_client: Any) -> None:
    table = _big3_table("big3")
    hands = _four_hands(table, "big3")
    slug = table.round.tournament.slug
    text = director_client.get(f"/director/t/{slug}/export/hands.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 4
    header = list(rows[0])
    assert header[:9] == [
        "round", "table", "hand", "board", "status", "confirmation", "digger_seat", "bid",
        "winner",
    ]  # fmt: skip
    assert not {"doubled", "bombs", "rockets", "spring", "landlord_seat"} & set(header)
    for row, hand in zip(rows, hands, strict=True):
        assert int(row["digger_seat"]) == hand.landlord_seat and int(row["bid"]) == hand.bid
        assert row["winner"] == {"landlord": "digger", "defenders": "opponents"}[hand.winner]
        assert [int(row[f"score_{p}"]) for p in range(3)] == hand.scores
    standings = director_client.get(f"/director/t/{slug}/export/standings.csv")
    lines = list(csv.DictReader(io.StringIO(standings.content.decode("utf-8-sig"))))
    assert "digger_hands" in lines[0] and "landlord_hands" not in lines[0]
    assert sum(int(line["total"]) for line in lines) == 0
    assert sum(int(line["digger_hands"]) for line in lines) == 4


def test_a_generated_big_three_tournament() -> None:
    """``manage.py tournament_generate --profile big3``: every hand played to its end."""
    out = io.StringIO()
    call_command(
        "tournament_generate", "--players", "6", "--rounds", "1", "--hands", "2",
        "--profile", "big3_one_round", "--slug", "big3-generated", stdout=out,
    )  # fmt: skip
    hands = Hand.objects.filter(table__round__tournament__slug="big3-generated")
    assert hands.count() == 4
    assert {h.rule_profile for h in hands} == {"big3_one_round"}
    assert all(h.status == "finished" and sum(h.scores) == 0 for h in hands)
    assert list(hands_audit(tournament_slugs=["big3-generated"])) == []
