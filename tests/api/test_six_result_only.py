"""Six players' result-only entry (issue 32, point 4): the referee's phone asks for the
landlord, his partner (暗地主, or nobody: he played alone), the winning side, the bombs and a
spring; no bid (the base is 1, R13.3), no doubling, no rocket. What the rules cannot produce is
refused with its rule and leaves the hand as it was; the result is scored as every winner
settling with every loser (R13.9), capped by the event's cap; corrections name the partner too,
and another game's result names none."""

from __future__ import annotations

from typing import Any

import pytest

from referee.rules.profiles import capped_profile
from referee.rules.scoring import score_hand
from referee.rules.six_five_scoring import MAX_BOMBS_SIX, SixResult
from tests import factories
from tests.api.helpers import assert_as_served, assign, client_for, post, referee_user
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.write import hand_create, hand_record_result, result_entry_fields
from tournaments.models import Hand, HandEvent, HandSeatResult, Round, RoundStatus, Table

pytestmark = pytest.mark.django_db

BASE = {"landlord": 2, "partner": 4, "winner": "landlord"}


@pytest.fixture
def six(request: pytest.FixtureRequest) -> tuple[Any, Table]:
    cap = getattr(request, "param", None)
    table = factories.seated_table(slug="six-result", rule_profile="six_p", stake_cap=cap)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    user = referee_user("six-referee")
    assign(user, table)
    return client_for(user), table


def _written(hand_id: int) -> tuple[int, int, list[Any]]:
    stored = Hand.objects.get(pk=hand_id)
    rows = list(HandSeatResult.objects.filter(hand_id=hand_id).values_list("position", "score"))
    return stored.version, HandEvent.objects.filter(hand_id=hand_id).count(), rows


def _expected(cap: int | None = None, **fields: Any) -> list[int]:
    data = {"bombs": 0, "spring": False, "anti_spring": False, **fields}
    return list(score_hand(SixResult.from_json(data), capped_profile("six_p", cap)))


def test_the_phone_asks_for_the_partner_and_no_bid(six: tuple[Any, Table]) -> None:
    client, table = six
    fields = ["landlord", "partner", "winner", "bombs", "spring", "anti_spring"]
    assert list(result_entry_fields("six_p")) == fields
    assignment = client.get("/api/v1/assignments/").json()[0]
    assert (assignment["result_only"], assignment["result_fields"]) == (True, fields)
    assert assignment["passed_out_possible"] is False
    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"})
    assert started.status_code == 201, started.json()
    hand = started.json()
    assert (hand["status"], hand["landlord"]) == ("bidding", None)


def test_a_result_with_a_partner_scores_every_winner_against_every_loser(
    six: tuple[Any, Table],
) -> None:
    client, table = six
    hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
    url = f"/api/v1/hands/{hand['id']}/"
    body = {**BASE, "bombs": 3}
    preview = post(client, url + "result/preview/", body)
    assert preview.status_code == 200, preview.json()
    # 2^3 a pair: the landlord and his partner gain 8 from each of four farmers (R13.9)
    assert preview.json()["scores"] == [-16, -16, 32, -16, 32, -16] == _expected(**body)
    assert preview.json()["result"]["partner"] == 4
    assert "bid" not in preview.json()["result"]
    assert_as_served("ResultPreviewOutput", preview.json())
    done = post(client, url + "result/", body)
    assert done.status_code == 200, done.json()
    read = done.json()
    assert (read["status"], read["landlord"], read["bid"]) == ("finished", 2, 1)
    assert (read["six"]["partner"], read["six"]["alone"]) == (4, False)
    assert read["scores"] == [-16, -16, 32, -16, 32, -16]
    stored = Hand.objects.get(pk=hand["id"])
    assert (stored.partner_seat, stored.landlord_seat, stored.bombs) == (4, 2, 3)
    rows = HandSeatResult.objects.filter(hand_id=hand["id"]).order_by("position")
    assert [r.won for r in rows] == [False, False, True, False, True, False]
    assert [r.is_landlord for r in rows] == [False, False, True, False, False, False]
    assert [r.score for r in rows] == read["scores"]
    # the retry with the same key is the same answer, once
    again = post(client, url + "result/", body, key=done.request["HTTP_IDEMPOTENCY_KEY"])
    assert again.json() == read
    assert HandEvent.objects.filter(hand_id=hand["id"]).count() == 1
    assert hand_check_replays(hand=Hand.objects.get(pk=hand["id"])) == []


def test_the_landlord_alone_settles_with_five(six: tuple[Any, Table]) -> None:
    client, table = six
    hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
    body = {"landlord": 0, "partner": None, "winner": "defenders", "anti_spring": True}
    done = post(client, f"/api/v1/hands/{hand['id']}/result/", body)
    assert done.status_code == 200, done.json()
    assert done.json()["scores"] == [-10, 2, 2, 2, 2, 2] == _expected(**body)
    assert (done.json()["six"]["partner"], done.json()["six"]["alone"]) == (None, True)
    assert Hand.objects.get(pk=hand["id"]).partner_seat is None


@pytest.mark.parametrize("six", [16], indirect=True)
def test_the_events_cap_stops_the_multiplier(six: tuple[Any, Table]) -> None:
    client, table = six
    hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
    body = {**BASE, "bombs": MAX_BOMBS_SIX, "spring": True}
    done = post(client, f"/api/v1/hands/{hand['id']}/result/", body)
    assert done.status_code == 200, done.json()
    assert done.json()["scores"] == [-32, -32, 64, -32, 64, -32] == _expected(16, **body)


def test_what_six_players_cannot_produce_is_refused_and_changes_nothing(
    six: tuple[Any, Table],
) -> None:
    client, table = six
    hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
    url = f"/api/v1/hands/{hand['id']}/"
    before = _written(hand["id"])
    partnerless = {"landlord": 2, "winner": "landlord"}
    refusals: list[tuple[dict[str, Any], int, str, str | None]] = [
        (partnerless, 422, "partner_required", "R13.4"),
        ({**BASE, "partner": 2}, 422, "invalid_result", "R13.4"),
        ({**BASE, "bid": 2}, 422, "invalid_result", "R13.3"),
        ({**BASE, "doubled": [False, True] + [False] * 4}, 422, "invalid_result", "R14.3"),
        ({**BASE, "redoubled": True}, 422, "invalid_result", "R14.3"),
        ({**BASE, "rockets": 1}, 422, "invalid_result", "R13.7"),
        ({**BASE, "spring": True, "winner": "defenders"}, 422, "invalid_result", "R13.9"),
        ({**BASE, "anti_spring": True}, 422, "invalid_result", "R13.9"),
        ({**BASE, "spring": True, "anti_spring": True}, 422, "invalid_result", "R7.4"),
        ({**BASE, "bombs": MAX_BOMBS_SIX + 1}, 400, "validation", None),
        ({**BASE, "partner": 6}, 400, "validation", None),
        ({**BASE, "landlord": 6}, 400, "validation", None),
    ]
    for body, status, code, rule in refusals:
        for path in ("result/preview/", "result/"):
            answer = post(client, url + path, body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), (body, answer)
            if rule is not None:
                assert answer.json()["details"]["rule_number"] == rule, answer.json()
    _refused = post(client, url + "passed-out/", {})
    assert (_refused.status_code, _refused.json()["code"]) == (422, "no_passed_out")
    assert _written(hand["id"]) == before
    assert Hand.objects.get(pk=hand["id"]).status == "bidding"


def test_a_correction_names_the_partner_and_another_game_names_none() -> None:
    table = factories.seated_table(slug="six-correct", rule_profile="six_p")
    hand = hand_create(table=table).hand
    hand_record_result(hand=hand, **BASE)
    corrected = hand_result_correct(
        hand=Hand.objects.get(pk=hand.pk),
        reason="the partner was seat 5",
        **{**BASE, "partner": 5},
    ).hand
    assert corrected.partner_seat == 5
    assert corrected.scores == _expected(**{**BASE, "partner": 5})
    rows = HandSeatResult.objects.filter(hand_id=hand.pk).order_by("position")
    assert [r.won for r in rows] == [False, False, True, False, False, True]
    with pytest.raises(ApplicationError) as info:
        hand_result_correct(
            hand=corrected, reason="no partner given", landlord=2, winner="landlord"
        )
    assert info.value.code == "partner_required"
    three = factories.seated_table(slug="three-partner")
    plain = hand_create(table=three).hand
    for fields, code in (
        ({"landlord": 0, "bid": 1, "winner": "landlord", "partner": 1}, "no_partner"),
        ({"landlord": 0, "winner": "landlord"}, "bid_required"),
    ):
        with pytest.raises(ApplicationError) as info:
            hand_record_result(hand=plain, **fields)
        assert info.value.code == code
    assert not HandEvent.objects.filter(hand=plain).exists()
    for checked in Hand.objects.filter(pk__in=[hand.pk, plain.pk]):
        assert hand_check_replays(hand=checked) == []


def test_another_games_result_over_http_names_its_bid_and_no_partner() -> None:
    """What the schema now allows (a result without a bid, with a partner, 41 bombs) is a
    422 with its code on a three-player hand, the hand unchanged; ``"partner": null`` (no
    partner) is what a three-player hand has, and is taken as such."""
    table = factories.seated_table(slug="three-http")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    user = referee_user("three-referee")
    assign(user, table)
    client = client_for(user)
    hand = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()
    url = f"/api/v1/hands/{hand['id']}/result/"
    base = {"landlord": 0, "bid": 2, "winner": "landlord"}
    for body, code in (
        ({"landlord": 0, "winner": "landlord"}, "bid_required"),
        ({**base, "partner": 1}, "no_partner"),
        ({**base, "bombs": MAX_BOMBS_SIX}, "invalid_result"),
    ):
        for path in (url + "preview/", url):
            answer = post(client, path, body)
            assert (answer.status_code, answer.json().get("code")) == (422, code), (
                body,
                answer.json(),
            )
    assert _written(hand["id"]) == (0, 0, [])
    done = post(client, url, base)
    assert done.status_code == 200 and "partner" not in done.json().get("result", {})
