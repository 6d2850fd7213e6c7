"""Integers never wrap and are bounded at every boundary (issue 16, point 4).

With server-side binding (the default on PostgreSQL) a penalty of 2**31 points was stored
as -2**31 and 2**32-1 as -1 (psycopg's compiled binary dumpers pack without a range check);
10**20 was a 500. Each edge below is tried through the services, the API and the director's
forms: a 4xx (or the form's error) with a code, and nothing written.
"""

from typing import Any

import pytest
from django.db import DataError, IntegrityError, connection, transaction

from tests import factories
from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand
from tournaments.common.errors import ApplicationError
from tournaments.hands import write as hand_services
from tournaments.models import Hand, HandEvent, Penalty, Round, RoundLog, RoundLogKind
from tournaments.tournament import penalties as penalty_services

pytestmark = pytest.mark.django_db

INT4_MAX = 2**31 - 1
INT8_MAX = 2**63 - 1
#: int4 max+1, int4 min-1, int4 max+1 as unsigned -1, int8 max+1, int8 min-1, 10**20.
EDGES = [INT4_MAX + 1, -(2**31) - 1, 2**32 - 1, INT8_MAX + 1, -(2**63) - 1, 10**20]


@pytest.mark.postgresql
@pytest.mark.parametrize("points", [2**31, 2**32 - 1, -(2**31) - 1, 10**20])
def test_an_integer_beyond_its_column_is_refused_by_postgresql_not_wrapped(points: int) -> None:
    """The cause: ``Penalty.objects.create(points=2**32-1)`` stored -1."""
    assert connection.features.uses_server_side_binding
    entry = factories.EntryFactory()
    with pytest.raises(DataError), transaction.atomic():
        Penalty.objects.create(
            tournament_id=entry.tournament_id, entry=entry, points=points, reason="edge"
        )
    assert not Penalty.objects.exists()


@pytest.mark.postgresql
def test_integers_within_range_still_bind_and_prepare() -> None:
    """The edges themselves, typed as Django types them (Int2/Int4/Int8), run often enough
    to be prepared (DATABASE_PREPARE_THRESHOLD), come back unchanged."""
    ops = connection.ops
    edges = [
        ("SmallIntegerField", "smallint", 2**15 - 1),
        ("SmallIntegerField", "smallint", -(2**15)),
        ("IntegerField", "integer", INT4_MAX),
        ("IntegerField", "integer", -(2**31)),
        ("BigIntegerField", "bigint", INT8_MAX),
        ("BigIntegerField", "bigint", -(2**63)),
    ]
    with connection.cursor() as cursor:
        for _ in range(4):
            for field, column, value in edges:
                cursor.execute(f"SELECT %s::{column}", [ops.adapt_integerfield_value(value, field)])
                assert cursor.fetchone() == (value,)
        for field, column, value in [("SmallIntegerField", "smallint", 2**15)]:
            with pytest.raises(DataError), transaction.atomic():
                cursor.execute(f"SELECT %s::{column}", [ops.adapt_integerfield_value(value, field)])


@pytest.mark.parametrize("points", [*EDGES, 10_001, -10_001])
def test_penalty_service_refuses_points_beyond_the_bound(points: int) -> None:
    entry = factories.EntryFactory()
    with pytest.raises(ApplicationError) as refused:
        penalty_services.penalty_create(entry=entry, points=points, reason="edge")
    assert refused.value.code == "invalid_penalty"
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("points", [*EDGES, 10_001])
def test_penalty_api_refuses_points_beyond_the_bound(director: Any, points: int) -> None:
    table = playing_table()
    entry = table.seats.get(position=0).entry_id
    slug = table.round.tournament.slug
    url = f"/api/v1/tournaments/{slug}/penalties/"
    response = post(client_for(director), url, {"entry": entry, "points": points, "reason": "x"})
    assert response.status_code == 400
    assert response.json()["code"] == "validation"
    assert "points" in response.json()["details"]["fields"]
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("field", ["entry", "hand"])
@pytest.mark.parametrize("value", [INT8_MAX + 1, 10**20, 0, -1])
def test_penalty_api_refuses_ids_beyond_a_bigint(director: Any, field: str, value: int) -> None:
    table = playing_table()
    body = {"entry": table.seats.get(position=0).entry_id, "points": -1, "reason": "x"}
    body[field] = value
    slug = table.round.tournament.slug
    response = post(client_for(director), f"/api/v1/tournaments/{slug}/penalties/", body)
    assert response.status_code == 400 and response.json()["code"] == "validation"
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("points", [*EDGES, 10_001])
def test_director_hand_page_refuses_points_beyond_the_bound(
    director_client: Any, director: Any, points: int
) -> None:
    """The issue's reproduction: 2147483648 points through the director's hand page."""
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    assert start_hand(client_for(referee), table).status_code == 201
    hand = Hand.objects.get(table=table)
    entry = table.seats.get(position=0).entry_id
    slug = table.round.tournament.slug
    response = director_client.post(
        f"/director/t/{slug}/hands/{hand.pk}/penalty/",
        {"entry": entry, "points": str(points), "reason": "edge"},
        follow=True,
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Points (negative for a penalty)" in text and "Ensure this value" in text
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("entry", [INT8_MAX + 1, 10**20])
def test_director_hand_page_refuses_an_entry_id_beyond_a_bigint(
    director_client: Any, entry: int
) -> None:
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    start_hand(client_for(referee), table)
    hand = Hand.objects.get(table=table)
    slug = table.round.tournament.slug
    response = director_client.post(
        f"/director/t/{slug}/hands/{hand.pk}/penalty/",
        {"entry": str(entry), "points": "-1", "reason": "edge"},
    )
    assert response.status_code in (302, 400, 404)
    assert not Penalty.objects.exists()


HAND_ACTION_INTEGERS = [
    ("seat", {"bid": 1}),
    ("bid", {"seat": 0}),
]


@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize(("field", "rest"), HAND_ACTION_INTEGERS)
def test_hand_action_api_refuses_integers_beyond_their_bound(
    value: int, field: str, rest: dict[str, Any]
) -> None:
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    client = client_for(referee)
    hand_id = start_hand(client, table).json()["id"]
    events = HandEvent.objects.filter(hand_id=hand_id).count()
    response = post(client, f"/api/v1/hands/{hand_id}/actions/", {**rest, field: value})
    assert response.status_code == 400 and response.json()["code"] == "validation"
    assert HandEvent.objects.filter(hand_id=hand_id).count() == events


RESULT_INTEGERS = ["landlord", "bid", "bombs", "rockets"]


@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize("field", RESULT_INTEGERS)
def test_hand_result_api_refuses_integers_beyond_their_bound(value: int, field: str) -> None:
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    client = client_for(referee)
    hand_id = start_hand(client, table, deal="none").json()["id"]
    body = {"landlord": 0, "bid": 1, "winner": "landlord", "bombs": 0, "rockets": 0}
    body[field] = value
    response = post(client, f"/api/v1/hands/{hand_id}/result/", body)
    assert response.status_code == 400 and response.json()["code"] == "validation"
    hand = Hand.objects.get(pk=hand_id)
    assert hand.scores is None and hand.bombs == 0


@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize("field", ["board", "first_bidder"])
def test_hand_start_api_refuses_integers_beyond_their_bound(value: int, field: str) -> None:
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    response = start_hand(client_for(referee), table, deal="random", **{field: value})
    assert response.status_code == 400 and response.json()["code"] == "validation"
    assert not Hand.objects.exists()


#: A seed is a bigint column holding 0..2**53-1: the int4 edges are seeds.
BEYOND_A_SEED = [2**53, INT8_MAX + 1, -(2**63) - 1, 10**20, -1]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        *[("number", value) for value in EDGES],
        *[("first_bidder", value) for value in EDGES],
        *[("seed", value) for value in BEYOND_A_SEED],
    ],
)
def test_hand_start_service_refuses_integers_beyond_their_bound(field: str, value: int) -> None:
    table = playing_table()
    with pytest.raises(ApplicationError) as refused:
        hand_services.hand_create(table=table, **{field: value})
    assert refused.value.code == "invalid"
    assert not Hand.objects.exists()


@pytest.mark.parametrize("version", [str(INT4_MAX + 1), str(INT8_MAX + 1), str(10**20)])
def test_if_match_beyond_a_version_is_refused(version: str) -> None:
    table = playing_table()
    referee = referee_user("ref-bounds")
    assign(referee, table)
    client = client_for(referee)
    hand_id = start_hand(client, table).json()["id"]
    events = HandEvent.objects.filter(hand_id=hand_id).count()
    response = post(
        client,
        f"/api/v1/hands/{hand_id}/actions/",
        {"seat": 0, "bid": 1},
        HTTP_IF_MATCH=f'"{version}"',
    )
    assert response.status_code == 400 and response.json()["code"] == "validation"
    assert HandEvent.objects.filter(hand_id=hand_id).count() == events


@pytest.mark.parametrize("seed", [str(INT8_MAX + 1), str(10**20), "-1"])
def test_director_seat_round_refuses_a_seed_beyond_its_bound(
    director_client: Any, seed: str
) -> None:
    table = factories.seated_table()
    round_ = table.round
    slug = round_.tournament.slug
    seed_before = Round.objects.get(pk=round_.pk).seed
    director_client.post(f"/director/t/{slug}/rounds/{round_.number}/seat/", {"seed": seed})
    assert Round.objects.get(pk=round_.pk).seed == seed_before


@pytest.mark.parametrize("value", [str(INT8_MAX + 1), str(10**20), "-" + str(10**20)])
@pytest.mark.parametrize(
    ("action", "field"), [("override", "seat"), ("override", "entry"), ("add_hand", "table")]
)
def test_director_round_actions_refuse_ids_beyond_a_bigint(
    director_client: Any, value: str, action: str, field: str
) -> None:
    table = playing_table()
    round_ = table.round
    seat = table.seats.get(position=0)
    body = {"seat": seat.pk, "entry": seat.entry_id, "table": table.pk, "reason": "edge"}
    body[field] = value
    slug = round_.tournament.slug
    response = director_client.post(f"/director/t/{slug}/rounds/{round_.number}/{action}/", body)
    assert response.status_code == 404
    assert not RoundLog.objects.exclude(kind=RoundLogKind.STARTED).exists()


@pytest.mark.parametrize("points", [10_001, -10_001, INT4_MAX])
def test_the_database_refuses_points_beyond_the_bound(points: int) -> None:
    entry = factories.EntryFactory()
    with pytest.raises(IntegrityError), transaction.atomic():
        Penalty.objects.create(
            tournament_id=entry.tournament_id, entry=entry, points=points, reason="edge"
        )
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize("field", RESULT_INTEGERS)
def test_hand_result_service_refuses_integers_beyond_their_bound(value: int, field: str) -> None:
    table = playing_table()
    hand = hand_services.hand_create(table=table).hand
    body = {"landlord": 0, "bid": 1, "winner": "landlord", field: value}
    with pytest.raises(ApplicationError) as refused:
        hand_services.hand_record_result(hand=hand, **body)
    assert refused.value.code in ("invalid", "invalid_result")
    stored = Hand.objects.get(pk=hand.pk)
    assert (stored.status, stored.version, stored.scores) == ("bidding", 0, None)
    assert not HandEvent.objects.filter(hand=hand).exists()
