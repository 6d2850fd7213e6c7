"""Bad requests under /api/ answer 4xx with the error shape, never a 500 or an HTML page
(issue 16, point 4): a JSON body nested 100,000 deep, an unknown path, an id beyond a bigint.
"""

import json
from typing import Any

import pytest
from django.urls import reverse

from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand
from tournaments.common.seats import MAX_SEATS
from tournaments.models import Hand, HandEvent, Penalty

pytestmark = pytest.mark.django_db

INT8_MAX = 2**63 - 1


def error_shape(response: Any, status: int, code: str) -> None:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["code"] == code and body["message"]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture
def hand_and_referee(db: Any) -> tuple[int, Any]:
    table = playing_table()
    referee = referee_user("ref-bad")
    assign(referee, table)
    client = client_for(referee)
    return start_hand(client, table).json()["id"], client


@pytest.mark.parametrize("depth", [100_000, 65])
def test_a_deeply_nested_json_body_is_refused_with_400(
    hand_and_referee: tuple[int, Any], depth: int
) -> None:
    hand_id, client = hand_and_referee
    events = HandEvent.objects.filter(hand_id=hand_id).count()
    body = '{"seat": 0, "play": ' + nested(depth) + "}"
    response = client.post(
        f"/api/v1/hands/{hand_id}/actions/",
        body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="deep-1",
    )
    error_shape(response, 400, "too_deep")
    assert HandEvent.objects.filter(hand_id=hand_id).count() == events


def test_nesting_up_to_the_limit_is_parsed_and_judged_by_the_serializer(
    hand_and_referee: tuple[int, Any],
) -> None:
    hand_id, client = hand_and_referee
    body = '{"seat": 0, "play": ' + nested(63) + "}"
    response = client.post(
        f"/api/v1/hands/{hand_id}/actions/",
        body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="deep-2",
    )
    error_shape(response, 400, "validation")


def test_a_deep_body_to_the_token_endpoint_is_refused(client: Any) -> None:
    response = client.post("/api/v1/auth/token/", nested(100_000), content_type="application/json")
    error_shape(response, 400, "too_deep")


def test_a_deep_penalty_body_writes_nothing(director: Any) -> None:
    table = playing_table()
    slug = table.round.tournament.slug
    body = (
        json.dumps({"entry": 1, "points": -1, "reason": "x"})[:-1]
        + ', "x": '
        + nested(100_000)
        + "}"
    )
    response = client_for(director).post(
        f"/api/v1/tournaments/{slug}/penalties/",
        body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="deep-3",
    )
    error_shape(response, 400, "too_deep")
    assert not Penalty.objects.exists()


#: A ``doubled`` with a flag for some other number of seats than the table's three
#: (none, one, two, four, and a thousand).
WRONG_DOUBLED = [
    [],
    [True],
    [True, False],
    [False, True, False, True],
    [False] * MAX_SEATS,
    [True] * (MAX_SEATS + 1),
    [True] * 1000,
]


@pytest.fixture
def result_hand(db: Any) -> tuple[int, Any]:
    """A result-only hand at a three-seat (comp2016) table, and its referee's client."""
    table = playing_table()
    referee = referee_user("ref-doubled")
    assign(referee, table)
    client = client_for(referee)
    return start_hand(client, table, deal="none").json()["id"], client


def _REFUSAL_OF_LENGTH(length: int) -> tuple[int, str]:
    """How a ``doubled`` of ``length`` flags is refused at a three-seat table: the length of a
    bigger table is the schema's (any table's) but not this table's."""
    return (422, "seat_not_at_table") if 3 < length <= MAX_SEATS else (400, "validation")


def _hand_state(hand_id: int) -> tuple[Any, ...]:
    hand = Hand.objects.get(pk=hand_id)
    events = HandEvent.objects.filter(hand_id=hand_id).count()
    return (hand.status, hand.version, hand.doubled, hand.scores, hand.landlord_seat, events)


@pytest.mark.parametrize("doubled", WRONG_DOUBLED, ids=len)
@pytest.mark.parametrize("operation", ["result/", "result/preview/"])
def test_a_result_with_a_doubled_flag_not_one_per_seat_is_refused(
    result_hand: tuple[int, Any], operation: str, doubled: list[bool]
) -> None:
    """``doubled`` is one flag a seat (issue 20): a length no table has is a 400 with the
    code ``validation``, the length of a four- or five-seat table at this three-seat one a 422
    ``seat_not_at_table`` (the schema takes any table's), each naming the field; the hand
    is as it was."""
    hand_id, client = result_hand
    before = _hand_state(hand_id)
    body = {"landlord": 0, "bid": 1, "winner": "landlord", "doubled": doubled}
    response = post(client, f"/api/v1/hands/{hand_id}/{operation}", body)
    error_shape(response, *_REFUSAL_OF_LENGTH(len(doubled)))
    assert "doubled" in response.json()["details"]["fields"]
    assert _hand_state(hand_id) == before


@pytest.mark.parametrize("doubled", WRONG_DOUBLED, ids=len)
def test_a_correction_with_a_doubled_flag_not_one_per_seat_is_refused(
    result_hand: tuple[int, Any], doubled: list[bool]
) -> None:
    hand_id, client = result_hand
    recorded = {"landlord": 0, "bid": 1, "winner": "landlord", "doubled": [False, True, False]}
    assert post(client, f"/api/v1/hands/{hand_id}/result/", recorded).status_code == 200
    before = _hand_state(hand_id)
    body = {"landlord": 1, "bid": 2, "winner": "defenders", "doubled": doubled, "reason": "typo"}
    response = post(client, f"/api/v1/hands/{hand_id}/correction/", body)
    error_shape(response, *_REFUSAL_OF_LENGTH(len(doubled)))
    assert "doubled" in response.json()["details"]["fields"]
    assert _hand_state(hand_id) == before
    assert before[2] == [False, True, False] and before[3] is not None


UNKNOWN = [
    "/api/v1/hands/null,null/",  # schemathesis ST105
    "/api/v1/hands/abc/",
    "/api/v1/nothing-here/",
    "/api/v2/hands/1/",
    "/api/",
    "/api/v1/hands/1/unknown/",
    "/api/v1/me",  # no slash: no redirect to an HTML page
]


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", UNKNOWN)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_an_unknown_api_path_answers_json_404(
    client: Any, settings: Any, debug: bool, path: str, method: str
) -> None:
    settings.DEBUG = debug
    response = getattr(client, method)(path)
    error_shape(response, 404, "not_found")


def test_an_unknown_page_outside_the_api_is_still_html(client: Any) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


BEYOND = [str(INT8_MAX + 1), "2908488856619087560704", "9" * 40, "0"]


@pytest.mark.parametrize("hand_id", BEYOND)
@pytest.mark.parametrize(
    "operation", ["", "audit/", "actions/", "undo/", "confirm/", "void/", "result/"]
)
def test_a_hand_id_beyond_a_bigint_is_a_json_404(
    hand_and_referee: tuple[int, Any], hand_id: str, operation: str
) -> None:
    """schemathesis: POST /api/v1/hands/2908488856619087560704/confirm/ was OverflowError."""
    _, client = hand_and_referee
    url = f"/api/v1/hands/{hand_id}/{operation}"
    response = client.get(url) if not operation else post(client, url, {"reason": "x"})
    error_shape(response, 404, "not_found")


@pytest.mark.parametrize("table_id", BEYOND)
def test_a_table_id_beyond_a_bigint_is_a_json_404(
    hand_and_referee: tuple[int, Any], table_id: str
) -> None:
    _, client = hand_and_referee
    response = post(client, f"/api/v1/tables/{table_id}/hands/", {"deal": "random"})
    error_shape(response, 404, "not_found")
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("penalty_id", BEYOND)
def test_a_penalty_id_beyond_a_bigint_is_a_json_404(director: Any, penalty_id: str) -> None:
    response = post(
        client_for(director), f"/api/v1/penalties/{penalty_id}/revoke/", {"reason": "x"}
    )
    error_shape(response, 404, "not_found")


def test_the_largest_bigint_id_is_a_plain_not_found(hand_and_referee: tuple[int, Any]) -> None:
    _, client = hand_and_referee
    response = client.get(f"/api/v1/hands/{INT8_MAX}/")
    error_shape(response, 404, "not_found")


@pytest.mark.parametrize("hand_id", BEYOND)
def test_a_hand_id_beyond_a_bigint_on_director_and_public_pages_is_404(
    director_client: Any, hand_id: str
) -> None:
    table = playing_table()
    slug = table.round.tournament.slug
    assert director_client.get(f"/director/t/{slug}/hands/{hand_id}/").status_code == 404
    assert director_client.get(f"/director/t/{slug}/rounds/{hand_id}/").status_code == 404


def test_reverse_still_builds_id_paths() -> None:
    assert reverse("api-v1:hand", kwargs={"hand_id": 7}) == "/api/v1/hands/7/"
