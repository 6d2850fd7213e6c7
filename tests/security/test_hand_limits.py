"""At most one live hand per table, and no hand beyond the round's hands unless a director
adds one with a reason (issue 16, point 4).

A referee started 300 hands at one table in 30 s; six devices with different keys started
six at once.
"""

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from tests import factories
from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand
from tests.at_once import at_once
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Confirmation, Hand, HandStatus, RoundLog, RoundLogKind
from tournaments.rounds.services import table_hand_add

pytestmark = pytest.mark.django_db

RESULT = {"landlord": 0, "bid": 1, "winner": "landlord"}


def finished(table: Any) -> Hand:
    """A result-only hand, started and recorded."""
    hand = hand_create(table=table).hand
    return hand_record_result(hand=hand, **RESULT).hand


def test_a_second_hand_waits_for_the_live_one() -> None:
    table = playing_table(hands_per_round=3)
    live = hand_create(table=table).hand
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "hand_in_progress"
    assert refused.value.extra == {"hand": live.pk}
    assert Hand.objects.filter(table=table).count() == 1
    hand_record_result(hand=live, **RESULT)
    assert hand_create(table=table).hand.number == 2


def test_the_database_refuses_two_live_hands_at_a_table() -> None:
    table = playing_table()
    Hand.objects.create(table=table, number=1, rule_profile="comp2016")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(table=table, number=2, rule_profile="comp2016")
    Hand.objects.create(table=table, number=3, rule_profile="comp2016", status=HandStatus.VOIDED)
    assert Hand.objects.filter(table=table).count() == 2


def test_a_live_hand_at_another_table_does_not_matter() -> None:
    table = playing_table()
    other = factories.seated_table()
    hand_create(table=table)
    assert hand_create(table=other).hand.number == 1


def test_a_hand_awaiting_confirmation_is_not_live() -> None:
    table = playing_table(requires_confirmation=True, hands_per_round=2)
    first = finished(table)
    assert first.confirmation == Confirmation.PENDING
    assert hand_create(table=table).hand.number == 2


def test_no_hand_beyond_the_rounds_hands() -> None:
    table = playing_table(hands_per_round=2)
    finished(table)
    finished(table)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "round_hands_done"
    assert Hand.objects.filter(table=table).count() == 2


def test_a_voided_hand_does_not_count() -> None:
    table = playing_table(hands_per_round=1)
    hand_void(hand=hand_create(table=table).hand, reason="misdeal")
    finished(table)
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "round_hands_done"


def test_a_director_adds_a_hand_with_a_reason(director: Any) -> None:
    table = playing_table(hands_per_round=1)
    finished(table)
    entry = table_hand_add(
        table=table, reason="table 1 replays a misdealt board", recorded_by=director
    )
    assert (entry.kind, entry.reason, entry.recorded_by) == (
        RoundLogKind.HAND_ADDED,
        "table 1 replays a misdealt board",
        director,
    )
    assert entry.payload["table"] == table.pk
    assert finished(table).number == 2
    with pytest.raises(ApplicationError) as refused:
        hand_create(table=table)
    assert refused.value.code == "round_hands_done"


def test_an_added_hand_is_for_its_table_only(director: Any) -> None:
    table = playing_table(hands_per_round=1)
    other = factories.seated_table(hands_per_round=1)
    finished(table)
    finished(other)
    table_hand_add(table=other, reason="replay", recorded_by=director)
    with pytest.raises(ApplicationError):
        hand_create(table=table)
    assert hand_create(table=other).hand.number == 2


@pytest.mark.parametrize(
    ("who", "reason", "code"),
    [
        ("referee", "please", "director_required"),
        ("nobody", "please", "director_required"),
        ("director", "", "reason_required"),
        ("director", "   ", "reason_required"),
    ],
)
def test_only_a_director_adds_a_hand_and_with_a_reason(
    director: Any, referee: Any, who: str, reason: str, code: str
) -> None:
    table = playing_table(hands_per_round=1)
    user = {"director": director, "referee": referee, "nobody": None}[who]
    with pytest.raises(ApplicationError) as refused:
        table_hand_add(table=table, reason=reason, recorded_by=user)
    assert refused.value.code == code
    assert not RoundLog.objects.filter(kind=RoundLogKind.HAND_ADDED).exists()


def test_api_second_start_is_409_hand_in_progress() -> None:
    table = playing_table()
    referee = referee_user("ref-limit")
    assign(referee, table)
    client = client_for(referee)
    first = start_hand(client, table)
    assert first.status_code == 201
    second = start_hand(client, table)
    assert second.status_code == 409
    assert second.json()["code"] == "hand_in_progress"
    assert second.json()["details"] == {"hand": first.json()["id"]}
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("who", ["anonymous", "other_referee", "plain_user"])
def test_api_start_refused_for_those_not_at_the_table(who: str) -> None:
    table = playing_table()
    other = factories.seated_table()
    users = {
        "anonymous": None,
        "other_referee": referee_user("ref-other"),
        "plain_user": factories.UserFactory(username="plain"),
    }
    if who == "other_referee":
        assign(users[who], other)
    response = start_hand(client_for(users[who]), table)
    assert response.status_code in (401, 403)
    assert not Hand.objects.exists()


def test_api_start_beyond_the_rounds_hands_is_409() -> None:
    table = playing_table(hands_per_round=1)
    referee = referee_user("ref-limit")
    assign(referee, table)
    client = client_for(referee)
    hand_id = start_hand(client, table, deal="none").json()["id"]
    body = {"landlord": 0, "bid": 1, "winner": "landlord"}
    assert post(client, f"/api/v1/hands/{hand_id}/result/", body).status_code == 200
    response = start_hand(client, table, deal="none")
    assert response.status_code == 409
    assert response.json()["code"] == "round_hands_done"
    assert Hand.objects.filter(table=table).count() == 1


def test_director_round_page_adds_a_hand(director_client: Any, director: Any) -> None:
    table = playing_table(hands_per_round=1)
    finished(table)
    slug = table.round.tournament.slug
    page = director_client.get(f"/director/t/{slug}/rounds/{table.round.number}/")
    assert 'id="add-hand"' in page.content.decode()
    url = f"/director/t/{slug}/rounds/{table.round.number}/add_hand/"
    assert director_client.post(url, {"table": table.pk, "reason": ""}).status_code == 302
    assert not RoundLog.objects.filter(kind=RoundLogKind.HAND_ADDED).exists()
    response = director_client.post(url, {"table": table.pk, "reason": "misdeal"}, follow=True)
    assert "One more hand allowed at the table." in response.content.decode()
    assert RoundLog.objects.get(kind=RoundLogKind.HAND_ADDED).reason == "misdeal"
    assert hand_create(table=table).hand.number == 2


# Committed transactions only where the threads need them (as tests/tournaments/
# test_services_hands.py): flushing a SQLite test database would DELETE hand events.
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
def test_six_devices_starting_at_once_start_one_hand() -> None:
    """Six devices, six different keys, at one moment (real threads on PostgreSQL)."""
    table = playing_table()
    outcomes = at_once(lambda: hand_create(table=table).hand, 6)
    started = [o for o in outcomes if isinstance(o, Hand)]
    refused = [o for o in outcomes if isinstance(o, ApplicationError)]
    assert len(started) == 1 and len(refused) == 5
    assert {e.code for e in refused} == {"hand_in_progress"}
    assert Hand.objects.filter(table=table).count() == 1


def test_a_director_starting_a_second_live_hand_is_refused_too(director: Any) -> None:
    table = playing_table()
    client = client_for(director)
    assert start_hand(client, table).status_code == 201
    second = start_hand(client, table)
    assert second.status_code == 409 and second.json()["code"] == "hand_in_progress"
    assert Hand.objects.filter(table=table).count() == 1


@pytest.mark.parametrize("who", ["anonymous", "referee_of_the_table", "plain_user"])
def test_only_directors_reach_the_add_a_hand_button(client: Any, who: str) -> None:
    table = playing_table(hands_per_round=1)
    if who == "referee_of_the_table":
        user = referee_user("ref-button")
        assign(user, table)
        client.force_login(user)
    elif who == "plain_user":
        client.force_login(factories.UserFactory(username="plain-button"))
    slug = table.round.tournament.slug
    url = f"/director/t/{slug}/rounds/{table.round.number}/add_hand/"
    response = client.post(url, {"table": table.pk, "reason": "sneaky"})
    assert response.status_code == 302 and "/director/login/" in response["Location"]
    assert not RoundLog.objects.filter(kind=RoundLogKind.HAND_ADDED).exists()
