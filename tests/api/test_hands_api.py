"""The referee API v1 end to end: a hand played through HTTP, result-only entry, physical
cards, corrections and confirmation; errors with codes and nothing changed."""

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.rules.cards import Deal
from referee.rules.hand import HandState
from tests.api.helpers import (
    assign,
    client_for,
    new_key,
    playing_table,
    post,
    referee_user,
    start_hand,
)
from tests.play import random_hand_actions
from tournaments.common.seats import MAX_SEATS
from tournaments.hands.replay import hand_check_replays
from tournaments.models import Hand, HandEvent, IdempotencyRecord

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def table() -> Any:
    return playing_table()


@pytest.fixture
def ref(table: Any) -> Any:
    user = referee_user("table-ref")
    assign(user, table)
    return client_for(user)


def play_through_http(client: Any, hand_id: int, actions: list[dict[str, Any]]) -> Any:
    response = None
    for action in actions:
        response = post(client, f"/api/v1/hands/{hand_id}/actions/", action)
        assert response.status_code == 200, response.json()
    return response


def test_a_complete_hand_through_http_then_the_same_hand_result_only(ref: Any, table: Any) -> None:
    started = start_hand(ref, table)
    assert started.status_code == 201
    body = started.json()
    assert body["mode"] == "dealt" and body["status"] == "bidding" and body["seed"] is not None
    deal = Deal.from_json(body["deal"])
    actions = random_hand_actions(deal, seed=11)

    # the phone's buttons: every legal action of the seat on turn
    assert {"seat": deal.first_bidder, "bid": 1} in body["legal_actions"]
    final = play_through_http(ref, body["id"], actions).json()

    expected = HandState.from_events(deal, actions)
    assert final["status"] == "finished" and final["scores"] == list(expected.scores() or ())
    # a write answers the event it appended, not the whole log; the hand's read has the log
    assert final["version"] == len(actions) == final["event"]["seq"]
    assert final["event"]["payload"]["action"] == actions[-1] and "events" not in final
    assert final["legal_actions"] is None and final["turn"] is None
    read = ref.get(f"/api/v1/hands/{body['id']}/").json()
    assert [e["payload"]["action"] for e in read["events"]] == actions
    assert {k: v for k, v in read.items() if k != "events"} == {
        k: v for k, v in final.items() if k != "event"
    }

    result = expected.result()
    assert result is not None
    other = start_hand(ref, table, deal="none").json()
    assert other["mode"] == "result_only"
    entered = post(
        ref,
        f"/api/v1/hands/{other['id']}/result/",
        {
            "landlord": result.landlord,
            "bid": result.bid,
            "winner": result.winner,
            "doubled": list(result.doubled),
            "redoubled": result.redoubled,
            "bombs": result.bombs,
            "rockets": result.rockets,
            "spring": result.spring,
            "anti_spring": result.anti_spring,
        },
    )
    assert entered.status_code == 200
    assert entered.json()["scores"] == final["scores"]
    for hand in Hand.objects.all():
        assert hand_check_replays(hand=hand) == []


def test_physical_cards_hand_is_played_then_checked_against_its_deal(ref: Any, table: Any) -> None:
    from referee.rules.cards import deal_from_seed

    deal = deal_from_seed(99)
    started = start_hand(ref, table, deal="physical", first_bidder=deal.first_bidder).json()
    assert started["mode"] == "physical"
    assert started["impossible_checks"] == ["cards_held", "kitty"]
    assert started["hands"] is None
    actions = random_hand_actions(deal, seed=3)
    final = play_through_http(ref, started["id"], actions).json()
    assert final["scores"] == list(HandState.from_events(deal, actions).scores() or ())

    checked = post(ref, f"/api/v1/hands/{started['id']}/deal/", deal.to_json())
    assert checked.status_code == 200
    assert checked.json()["deal_check"] == {"ok": True}


def test_retry_returns_the_original_answer_and_records_nothing(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    action = {"seat": Deal.from_json(hand["deal"]).first_bidder, "bid": 1}
    url = f"/api/v1/hands/{hand['id']}/actions/"
    first = post(ref, url, action, key="same")
    again = post(ref, url, action, key="same")
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert again["Idempotent-Replayed"] == "true"
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1

    conflict = post(ref, url, {**action, "bid": 2}, key="same")
    assert conflict.status_code == 409 and conflict.json()["code"] == "idempotency_conflict"
    missing = post(ref, url, action, key=None)
    assert missing.status_code == 400
    assert missing.json()["code"] == "idempotency_key_required"


def test_a_retry_tries_no_insert_and_answers_from_the_record(ref: Any, table: Any) -> None:
    """The service finds the key's event under the row lock: the record answers, and the
    record's insert is not tried (it would fail on the key's unique constraint, an ERROR in
    PostgreSQL's log for every retry)."""
    hand = start_hand(ref, table).json()
    action = {"seat": Deal.from_json(hand["deal"]).first_bidder, "bid": 1}
    url = f"/api/v1/hands/{hand['id']}/actions/"
    first = post(ref, url, action, key="once")
    with CaptureQueriesContext(connection) as queries:
        again = post(ref, url, action, key="once")
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert again["Idempotent-Replayed"] == "true"
    written = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert written == []
    assert IdempotencyRecord.objects.filter(key="once").count() == 1


def test_a_retry_whose_record_is_gone_is_refused_as_expired(ref: Any, table: Any) -> None:
    """The record removed (the expiry task, between the service's check of the event's age
    and the read of the record): the key's answer is no longer kept, as after its expiry;
    nothing is written again."""
    hand = start_hand(ref, table).json()
    action = {"seat": Deal.from_json(hand["deal"]).first_bidder, "bid": 1}
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(ref, url, action, key="gone").status_code == 200
    IdempotencyRecord.objects.filter(key="gone").delete()
    late = post(ref, url, action, key="gone")
    assert late.status_code == 409 and late.json()["code"] == "idempotency_key_expired"
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1
    assert not IdempotencyRecord.objects.filter(key="gone").exists()


def test_if_match_with_an_old_version_is_a_version_conflict(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(ref, url, {"seat": first, "bid": 1}, HTTP_IF_MATCH='"0"').status_code == 200
    stale = post(ref, url, {"seat": (first + 1) % 3, "bid": 2}, HTTP_IF_MATCH='"0"')
    assert stale.status_code == 409
    assert stale.json()["code"] == "version_conflict"
    assert stale.json()["details"] == {"version": 1}


def test_a_rules_rejection_has_its_code_index_and_changes_nothing(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    response = post(ref, url, {"seat": (first + 1) % 3, "bid": 1}, key="refused")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "out_of_turn" and body["details"]["index"] == 0
    assert set(body) == {"code", "message", "details"}
    assert not HandEvent.objects.filter(hand_id=hand["id"]).exists()
    # the refusal is the key's answer (tests/api/test_refusals_kept.py)
    record = IdempotencyRecord.objects.get(key="refused")
    assert (record.status_code, json.loads(record.body)) == (422, body)


def test_messages_are_in_the_request_language(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    first = Deal.from_json(hand["deal"]).first_bidder
    url = f"/api/v1/hands/{hand['id']}/actions/"
    response = post(ref, url, {"seat": (first + 1) % 3, "bid": 1}, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.json()["code"] == "out_of_turn"
    assert response.json()["message"] == "还没有轮到这个座位。"
    english = post(ref, url, {"seat": (first + 1) % 3, "bid": 1}, HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["message"] == "It is not this seat's turn."


BAD_BODIES = [
    pytest.param({"seat": 0}, "validation", id="no-action"),
    pytest.param({"seat": 0, "bid": 1, "play": "3"}, "validation", id="two-actions"),
    pytest.param({"seat": "zero", "bid": 1}, "validation", id="wrong-type"),
    pytest.param({"seat": 0, "bid": 1, "extra": 1}, "validation", id="unknown-field"),
    pytest.param([1, 2, 3], "validation", id="not-an-object"),
    pytest.param({"seat": MAX_SEATS, "bid": 1}, "validation", id="seat-out-of-range"),
    pytest.param(
        {"seat": MAX_SEATS - 1, "bid": 1}, "seat_not_at_table", id="seat-of-a-bigger-table"
    ),
    pytest.param('{"seat": 0, "play": "\\ud800"}', "invalid_unicode", id="lone-surrogate"),
    pytest.param('{"seat": 0, "bid": 1', "parse_error", id="broken-json"),
    pytest.param({"seat": 0, "play": "3" * 100_000}, "validation", id="huge-play"),
    pytest.param({"seat": 0, "play": "Z?"}, "bad_notation", id="bad-notation"),
    pytest.param({"seat": 0, "bid": True}, "validation", id="bool-as-bid"),
    pytest.param({"seat": 0, "call": "♠A"}, "no_call", id="call-outside-six-players"),
]


@pytest.mark.parametrize("body, code", BAD_BODIES)
def test_bad_input_is_a_4xx_with_a_code_and_changes_nothing(
    ref: Any, table: Any, body: Any, code: str
) -> None:
    hand = start_hand(ref, table, deal="physical").json()
    # physical mode, seat 0 bids first: a play now is judged by the notation first
    url = f"/api/v1/hands/{hand['id']}/actions/"
    if isinstance(body, str):  # raw JSON text
        response = ref.post(
            url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=new_key()
        )
    else:
        response = post(ref, url, body)
    assert 400 <= response.status_code < 500
    assert response.json()["code"] in (code, "phase")
    assert not HandEvent.objects.filter(hand_id=hand["id"]).exists()


def test_a_huge_body_is_refused(ref: Any, table: Any, settings: Any) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    hand = start_hand(ref, table).json()
    response = post(ref, f"/api/v1/hands/{hand['id']}/undo/", {"reason": "x" * 5000})
    assert response.status_code in (400, 413)
    assert isinstance(response.json()["code"], str)


def test_public_reads_public_hands_without_unplayed_cards(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    public = client_for(None).get(f"/api/v1/hands/{hand['id']}/")
    assert public.status_code == 200
    body = public.json()
    assert body["hands"] is None and body["deal"] is None and body["legal_actions"] is None
    assert body["seed"] is None
    assert public["ETag"] == '"0"'
    seen = ref.get(f"/api/v1/hands/{hand['id']}/").json()
    assert seen["hands"] is not None and seen["legal_actions"]


def test_a_private_tournament_is_not_found_for_the_public() -> None:
    table = playing_table(is_public=False)
    user = referee_user("private-ref")
    assign(user, table)
    hand = start_hand(client_for(user), table).json()
    assert client_for(None).get(f"/api/v1/hands/{hand['id']}/").status_code == 404
    assert client_for(user).get(f"/api/v1/hands/{hand['id']}/").status_code == 200


def test_undo_void_correct_confirm_and_the_audit_trail(director: Any) -> None:
    table = playing_table(requires_confirmation=True)
    user = referee_user("ref-a")
    second = referee_user("ref-b")
    assign(user, table)
    assign(second, table, whole_round=True)
    ref, other = client_for(user), client_for(second)
    hand = start_hand(ref, table, deal="none").json()
    url = f"/api/v1/hands/{hand['id']}/"
    result = {"landlord": 0, "bid": 2, "winner": "landlord"}
    done = post(ref, url + "result/", result, HTTP_X_DEVICE_ID="phone-1").json()
    assert done["confirmation"] == "pending" and done["counts"] is False

    own = post(ref, url + "confirm/", {})
    assert own.status_code == 403 and own.json()["code"] == "second_person_required"
    disputed = post(other, url + "dispute/", {"reason": "bid was 3"})
    assert disputed.json()["confirmation"] == "disputed"
    corrected = post(ref, url + "correction/", {**result, "bid": 3, "reason": "bid was 3"})
    assert corrected.json()["scores"] == [6, -3, -3]
    confirmed = post(other, url + "confirm/", {}, HTTP_X_DEVICE_ID="phone-2")
    assert confirmed.json()["counts"] is True

    staff = client_for(director)
    voided = post(staff, url + "void/", {"reason": "misdeal"})
    assert voided.json()["status"] == "voided"

    audit = ref.get(url + "audit/").json()
    assert [e["kind"] for e in audit] == ["result", "dispute", "correction", "confirm", "void"]
    assert audit[0]["recorded_by"] == "ref-a" and audit[0]["device_id"] == "phone-1"
    assert audit[3]["recorded_by"] == "ref-b" and audit[3]["device_id"] == "phone-2"
    assert client_for(None).get(url + "audit/").status_code == 401


def test_undo_and_announcement_through_http(ref: Any, table: Any) -> None:
    hand = start_hand(ref, table).json()
    deal = Deal.from_json(hand["deal"])
    url = f"/api/v1/hands/{hand['id']}/"
    post(ref, url + "actions/", {"seat": deal.first_bidder, "bid": 1})
    undone = post(ref, url + "undo/", {"reason": "wrong seat"})
    assert undone.status_code == 200 and undone.json()["bid"] is None
    assert undone.json()["turn"] == deal.first_bidder
    nothing = post(ref, url + "announcements/", {"seat": 0})
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_announcement_due"


def test_undo_does_not_reopen_a_hand_while_its_table_plays_the_next(ref: Any, table: Any) -> None:
    """The undo of the pass that passed a hand out (流局) would reopen it, but the table
    has started its next hand: a table plays one hand at a time (409 hand_in_progress, the
    hand and its log unchanged; a 500 from the database's one-live-hand index before)."""
    first = start_hand(ref, table).json()
    bidder = Deal.from_json(first["deal"]).first_bidder
    passes = [{"seat": (bidder + i) % 3, "bid": 0} for i in range(3)]
    closed = play_through_http(ref, first["id"], passes).json()
    assert closed["status"] == "passed_out"
    second = start_hand(ref, table).json()
    assert second["number"] == 2 and second["status"] == "bidding"

    undo = post(ref, f"/api/v1/hands/{first['id']}/undo/", {"reason": "the last pass was a bid"})

    assert undo.status_code == 409
    assert undo.json()["code"] == "hand_in_progress"
    assert undo.json()["details"] == {"hand": second["id"]}
    assert "hand 2" in undo.json()["message"] and "hand 1 reopens" in undo.json()["message"]
    hand = Hand.objects.get(pk=first["id"])
    assert (hand.status, hand.version) == ("passed_out", 3)
    assert HandEvent.objects.filter(hand_id=first["id"]).count() == 3


def test_undo_reopens_a_hand_closed_by_its_last_action(ref: Any, table: Any) -> None:
    first = start_hand(ref, table).json()
    bidder = Deal.from_json(first["deal"]).first_bidder
    passes = [{"seat": (bidder + i) % 3, "bid": 0} for i in range(3)]
    play_through_http(ref, first["id"], passes)

    undo = post(ref, f"/api/v1/hands/{first['id']}/undo/", {"reason": "the last pass was a bid"})

    assert undo.status_code == 200
    assert (undo.json()["status"], undo.json()["turn"]) == ("bidding", (bidder + 2) % 3)
    again = start_hand(ref, table)
    assert again.status_code == 409 and again.json()["code"] == "hand_in_progress"


def test_penalties_by_the_director_and_revoked(director: Any, table: Any) -> None:
    staff = client_for(director)
    entry = table.seats.get(position=1).entry_id
    slug = table.round.tournament.slug
    created = post(
        staff,
        f"/api/v1/tournaments/{slug}/penalties/",
        {"entry": entry, "points": -1, "reason": "signal"},
    )
    assert created.status_code == 201 and created.json()["points"] == -1
    revoked = post(staff, f"/api/v1/penalties/{created.json()['id']}/revoke/", {"reason": "oops"})
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    key = new_key()
    assert key


def _rank_style(ranks: tuple[int, ...], rng: Any) -> str:
    """``ranks`` as a referee might type them: jokers as 大王/小王 written first, right
    before rank letters, the rest shuffled, lower case, ``10`` for T, no separators."""
    from referee.rules.cards import rank_text

    jokers = [{"D": "大王", "X": "小王"}[rank_text(r)] for r in ranks if rank_text(r) in "DX"]
    rest = [rank_text(r) for r in ranks if rank_text(r) not in "DX"]
    rng.shuffle(rest)
    return "".join(jokers) + "".join("10" if t == "T" else t.lower() for t in rest)


def test_a_deal_and_plays_typed_with_big_joker_before_rank_letters_read_as_ranks(
    ref: Any, table: Any
) -> None:
    """SPEC §1 through the API: 大王 followed by a rank is the big joker, never a diamond;
    the physical-cards hand's plays and its deal, typed that way, check out legal."""
    import random

    from referee.rules.cards import deal_from_seed, parse_cards, parse_ranks, rank_text

    def holds_big_joker(s: int) -> bool:
        return any(rank_text(c.rank) == "D" for c in deal_from_seed(s).hands[0])

    seed = next(s for s in range(100) if holds_big_joker(s))
    deal = deal_from_seed(seed)
    rng = random.Random(seed)
    started = start_hand(ref, table, deal="physical", first_bidder=deal.first_bidder).json()
    for action in random_hand_actions(deal, seed=5):
        if action.get("play") not in (None, "pass"):
            ranks = tuple(c.rank for c in parse_cards(action["play"]))
            action = {**action, "play": _rank_style(ranks, rng)}
        response = post(ref, f"/api/v1/hands/{started['id']}/actions/", action)
        assert response.status_code == 200, (action, response.json())
    typed = {
        "hands": [_rank_style(tuple(c.rank for c in hand), rng) for hand in deal.hands],
        "kitty": _rank_style(tuple(c.rank for c in deal.kitty), rng),
        "first_bidder": deal.first_bidder,
    }
    assert typed["hands"][0].startswith("大王") and typed["hands"][0][2] not in "小大"
    checked = post(ref, f"/api/v1/hands/{started['id']}/deal/", typed)
    assert checked.status_code == 200, checked.json()
    body = checked.json()
    assert body["deal_check"] == {"ok": True} and body["status"] == "finished"
    assert "D" in body["deal"]["hands"][0]  # the big joker, read as a rank
    assert sorted(parse_ranks(body["deal"]["hands"][0])) == sorted(c.rank for c in deal.hands[0])


def test_a_late_retry_answers_the_original_not_the_hand_now(ref: Any, table: Any) -> None:
    """A retry that arrives after other writes gets the answer of its own write (from the
    idempotency record), and the hand is unchanged by it."""
    hand = start_hand(ref, table).json()
    deal = Deal.from_json(hand["deal"])
    url = f"/api/v1/hands/{hand['id']}/actions/"
    first_bidder = deal.first_bidder
    first = post(ref, url, {"seat": first_bidder, "bid": 1}, key="first")
    later = post(ref, url, {"seat": (first_bidder + 1) % 3, "bid": 2}, key="later")
    assert (first.status_code, later.status_code) == (200, 200)
    again = post(ref, url, {"seat": first_bidder, "bid": 1}, key="first")
    assert (again.status_code, again.json()) == (200, first.json())
    assert again.json()["version"] == 1 and again["Idempotent-Replayed"] == "true"
    assert Hand.objects.get(pk=hand["id"]).version == 2
    other = post(ref, url, {"seat": first_bidder, "bid": 3}, key="first")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_conflict"
    reused = post(ref, f"/api/v1/hands/{hand['id']}/undo/", {"reason": "x"}, key="later")
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_conflict"
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 2
