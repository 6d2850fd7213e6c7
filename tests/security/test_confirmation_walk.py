"""Issue 17 point 3 over HTTP: the players' PIN confirmation (API and the referee page)
and the director's desk confirmations, refused for every other role with a code and
nothing written."""

import random
from typing import Any

import pytest
from django.test import Client

from tests import factories
from tests.api.helpers import (
    assign,
    client_for,
    play_out,
    playing_table,
    post,
    referee_user,
)
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandEvent, Seat, Table

pytestmark = pytest.mark.django_db


def _setup(confirmed_by: str = "players") -> tuple[Table, Hand, dict[int, str]]:
    table = playing_table(requires_confirmation=True, confirmed_by=confirmed_by)
    hand = hand_record_result(
        hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord"
    ).hand
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    return table, hand, pins


def _written(hand: Hand) -> tuple[Any, ...]:
    row = Hand.objects.get(pk=hand.pk)
    return (
        row.confirmation,
        row.version,
        row.pin_failures,
        HandEvent.objects.filter(hand=hand).count(),
    )


def _body(pins: dict[int, str], *seats: int) -> dict[str, Any]:
    return {"pins": {str(s): pins[s] for s in seats}}


def test_api_players_confirm_with_pins_on_the_table_referees_phone() -> None:
    table, hand, pins = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    response = post(client_for(ref), f"/api/v1/hands/{hand.pk}/confirm/", _body(pins, 0, 2))
    assert response.status_code == 200, response.json()
    assert response.json()["confirmation"] == "confirmed"


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [
        ("anonymous", 401, "not_authenticated"),
        ("plain", 403, "permission_denied"),
        ("other_table", 403, "not_assigned"),
    ],
)
def test_api_pins_refused_for_each_other_role(who: str, status: int, code: str) -> None:
    _, hand, pins = _setup()
    other = playing_table()
    user = None
    if who == "plain":
        user = factories.UserFactory(username="plain")
    elif who == "other_table":
        user = referee_user("other-ref")
        assign(user, other)
    before = _written(hand)
    response = post(client_for(user), f"/api/v1/hands/{hand.pk}/confirm/", _body(pins, 0, 1))
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert _written(hand) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"pins": {"0": "12a4"}}, 400, "validation"),
        # Schema-valid, yet no confirmation: refused as too few PINs (schemathesis ST202).
        ({"pins": {"7": "1234"}}, 422, "pins_incomplete"),
        ({"pins": {}}, 422, "pins_incomplete"),
        ("only-landlord", 422, "pins_incomplete"),
    ],
)
def test_api_pins_bad_input_refused(body: Any, status: int, code: str) -> None:
    table, hand, pins = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    if body == "only-landlord":
        body = _body(pins, 0)
    before = _written(hand)
    response = post(client_for(ref), f"/api/v1/hands/{hand.pk}/confirm/", body)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert _written(hand) == before


def test_api_wrong_pin_is_counted_even_though_refused_then_locked() -> None:
    table, hand, pins = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    client = client_for(ref)
    wrong = {"pins": {"0": pins[0], "1": "0000" if pins[1] != "0000" else "1111"}}
    for left in (4, 3, 2, 1, 0):
        response = post(client, f"/api/v1/hands/{hand.pk}/confirm/", wrong)
        assert response.status_code == 403
        assert response.json()["code"] == "pin_wrong"
        assert response.json()["details"] == {"tries_left": left}
    assert Hand.objects.get(pk=hand.pk).pin_failures == 5
    response = post(client, f"/api/v1/hands/{hand.pk}/confirm/", _body(pins, 0, 1))
    assert (response.status_code, response.json()["code"]) == (423, "pins_locked")
    assert Hand.objects.get(pk=hand.pk).confirmation == "pending"


def test_api_pins_refused_when_officials_confirm_and_officials_refused_when_players_do() -> None:
    table, hand, pins = _setup(confirmed_by="official")
    ref = referee_user("table-ref")
    assign(ref, table)
    before = _written(hand)
    response = post(client_for(ref), f"/api/v1/hands/{hand.pk}/confirm/", _body(pins, 0, 1))
    assert (response.status_code, response.json()["code"]) == (409, "confirmed_by_official")
    assert _written(hand) == before

    table, hand, pins = _setup(confirmed_by="players")
    second = referee_user("second-ref")
    assign(second, table, whole_round=True)
    before = _written(hand)
    response = post(client_for(second), f"/api/v1/hands/{hand.pk}/confirm/", {})
    assert (response.status_code, response.json()["code"]) == (403, "confirmed_by_players")
    assert _written(hand) == before


def test_assignments_list_what_awaits_confirmation() -> None:
    table, hand, _ = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    hand_create(table=table)  # the table plays on
    (row,) = client_for(ref).get("/api/v1/assignments/").json()
    assert row["confirmed_by"] == "players"
    assert row["awaiting_confirmation"] == [{"id": hand.pk, "number": hand.number}]


# --------------------------------------------------------------- the referee page
def _page_client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_referee_page_confirms_with_pins() -> None:
    table, hand, pins = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    client = _page_client(ref)
    url = f"/referee/hands/{hand.pk}/confirm/"
    page = client.get(url)
    assert page.status_code == 200 and b'name="pin_0"' in page.content
    response = client.post(url, {"pin_0": pins[0], "pin_1": pins[1], "idempotency_key": "p-1"})
    assert response.status_code == 200
    assert Hand.objects.get(pk=hand.pk).confirmation == "confirmed"
    assert b'data-state="confirmed"' in response.content


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [
        ("plain", 403, "permission_denied"),
        ("other_table", 403, "not_assigned"),
        ("anonymous", 302, ""),
    ],
)
def test_referee_page_refused_for_other_roles(who: str, status: int, code: str) -> None:
    _, hand, pins = _setup()
    user = None
    if who == "plain":
        user = factories.UserFactory(username="plain")
    elif who == "other_table":
        user = referee_user("other-ref")
        assign(user, playing_table())
    before = _written(hand)
    response = _page_client(user).post(
        f"/referee/hands/{hand.pk}/confirm/", {"pin_0": pins[0], "pin_1": pins[1]}
    )
    assert response.status_code == status
    if status == 403:
        assert f'data-code="{code}"'.encode() in response.content
        assert pins[0].encode() not in response.content
    assert _written(hand) == before


def test_referee_page_wrong_pin_and_bad_pin() -> None:
    table, hand, pins = _setup()
    ref = referee_user("table-ref")
    assign(ref, table)
    client = _page_client(ref)
    url = f"/referee/hands/{hand.pk}/confirm/"
    before = _written(hand)
    response = client.post(url, {"pin_0": "abcd", "pin_1": pins[1]})
    assert response.status_code == 400 and b'data-code="validation"' in response.content
    assert _written(hand) == before
    wrong = "0000" if pins[1] != "0000" else "1111"
    response = client.post(url, {"pin_0": pins[0], "pin_1": wrong})
    assert response.status_code == 403 and b'data-code="pin_wrong"' in response.content
    assert Hand.objects.get(pk=hand.pk).pin_failures == 1
    assert Hand.objects.get(pk=hand.pk).confirmation == "pending"


# --------------------------------------------------------------- the director's desk
def test_desk_confirms_one_hand_and_a_whole_table(director_client: Any) -> None:
    table, first, _ = _setup(confirmed_by="official")
    second = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=1, winner="landlord"
    ).hand
    slug, number = table.round.tournament.slug, table.round.number
    desk = director_client.get(f"/director/t/{slug}/results/{number}/")
    assert desk.status_code == 200
    assert desk.content.count(b'data-state="awaiting"') == 3  # the table and its two hands
    response = director_client.post(
        f"/director/t/{slug}/hands/{first.pk}/confirm/", {"back": "desk"}
    )
    assert response.status_code == 302 and response["Location"].endswith(f"/results/{number}/")
    assert Hand.objects.get(pk=first.pk).confirmation == "confirmed"
    response = director_client.post(
        f"/director/t/{slug}/results/{number}/tables/{table.pk}/confirm/"
    )
    assert response.status_code == 302
    assert Hand.objects.get(pk=second.pk).confirmation == "confirmed"
    fragment = director_client.get(f"/director/t/{slug}/results/{number}/desk/")
    assert fragment.status_code == 200
    assert b"director-test" in fragment.content  # who confirmed
    assert fragment.content.count(b'data-state="confirmed"') == 2


def test_desk_dispute_then_confirm_from_the_hand_page(director_client: Any) -> None:
    table, hand, _ = _setup(confirmed_by="official")
    slug = table.round.tournament.slug
    url = f"/director/t/{slug}/hands/{hand.pk}/"
    before = _written(hand)
    director_client.post(url + "dispute/", {"reason": ""})
    assert _written(hand) == before  # a dispute needs a reason
    director_client.post(url + "dispute/", {"reason": "the bid was 2"})
    assert Hand.objects.get(pk=hand.pk).confirmation == "disputed"
    page = director_client.get(url)
    assert b'id="hand-confirmation" data-state="disputed"' in page.content
    director_client.post(url + "confirm/")
    assert Hand.objects.get(pk=hand.pk).confirmation == "confirmed"


@pytest.mark.parametrize("who", ["anonymous", "referee", "plain"])
def test_desk_confirmations_refused_for_non_directors(who: str) -> None:
    table, hand, _ = _setup(confirmed_by="official")
    user = None
    if who == "referee":
        user = referee_user("table-ref")
        assign(user, table)
    elif who == "plain":
        user = factories.UserFactory(username="plain")
    client = _page_client(user)
    slug, number = table.round.tournament.slug, table.round.number
    before = _written(hand)
    for url in (
        f"/director/t/{slug}/hands/{hand.pk}/confirm/",
        f"/director/t/{slug}/results/{number}/tables/{table.pk}/confirm/",
        f"/director/t/{slug}/results/{number}/desk/",
    ):
        response = client.post(url) if "desk" not in url else client.get(url)
        assert response.status_code == 302 and "/login" in response["Location"]
    assert _written(hand) == before


def test_table_cards_print_each_pin_only_when_players_confirm(director_client: Any) -> None:
    table, _, pins = _setup(confirmed_by="players")
    url = f"/director/t/{table.round.tournament.slug}/rounds/{table.round.number}/print/"
    content = director_client.get(url).content.decode()
    assert content.count('class="pin-slip"') == 3
    assert all(f'<strong class="pin">{pin}</strong>' in content for pin in pins.values())
    official, _, _ = _setup(confirmed_by="official")
    url = f"/director/t/{official.round.tournament.slug}/rounds/{official.round.number}/print/"
    assert 'class="pin-slip"' not in director_client.get(url).content.decode()


def test_a_corrected_earlier_hand_shows_awaiting_on_the_desk_and_is_confirmed_there(
    director_client: Any,
) -> None:
    """Issue 17: a corrected hand went back to awaiting confirmation while the desk said
    "Finished" and no screen could confirm it."""
    table = playing_table(requires_confirmation=True, hands_per_round=1)
    recorder = factories.UserFactory(username="recorder", is_staff=True)
    hand = hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=0,
        bid=1,
        winner="landlord",
        recorded_by=recorder,
    ).hand
    slug, number = table.round.tournament.slug, table.round.number
    director_client.post(f"/director/t/{slug}/hands/{hand.pk}/confirm/")
    desk = director_client.get(f"/director/t/{slug}/results/{number}/desk/").content.decode()
    assert f'data-table="{table.number}" data-state="finished"' in desk
    hand_result_correct(
        hand=Hand.objects.get(pk=hand.pk),
        reason="the bid was 2",
        landlord=0,
        bid=2,
        winner="landlord",
        recorded_by=recorder,
    )
    desk = director_client.get(f"/director/t/{slug}/results/{number}/desk/").content.decode()
    assert f'data-table="{table.number}" data-state="awaiting"' in desk
    assert f'data-confirm-hand="{hand.pk}"' in desk
    director_client.post(f"/director/t/{slug}/hands/{hand.pk}/confirm/", {"back": "desk"})
    assert Hand.objects.get(pk=hand.pk).counts


def test_the_migration_gives_every_existing_entry_its_own_pin() -> None:
    from importlib import import_module

    from django.apps import apps

    from tournaments.models import Entry

    migration = import_module("tournaments.migrations.0017_confirmation_by_players")
    entries = [factories.EntryFactory() for _ in range(30)]
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(pin="0000")
    migration.entry_pins_new(apps, None)
    pins = list(Entry.objects.filter(pk__in=[e.pk for e in entries]).values_list("pin", flat=True))
    assert all(len(p) == 4 and p.isdigit() for p in pins)
    assert len(set(pins)) > 1


@pytest.mark.parametrize(
    ("profile", "landlord", "farmer"),
    [("four_p", 3, 0), ("four_p", 1, 3), ("five_p", 4, 0), ("five_p", 1, 4)],
)
def test_api_players_confirm_with_pins_at_a_larger_table(
    profile: str, landlord: int, farmer: int
) -> None:
    """Under four_p the fourth seat (position 3), under five_p the fifth (position 4), enters
    its PIN like the others: as the landlord, or as the farmer of the defenders' side; a PIN
    of one side only is still refused (422, nothing written)."""
    table = playing_table(rule_profile=profile, requires_confirmation=True, confirmed_by="players")
    ref = referee_user("four-ref")
    assign(ref, table)
    client, rng = client_for(ref), random.Random(landlord)

    def choose(hand: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        if hand["status"] == "bidding":  # the landlord-to-be bids 3, the others pass
            wanted = 3 if hand["turn"] == landlord else 0
            options = [a for a in options if a.get("bid") == wanted]
        return rng.choice(options)

    started = post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random"}).json()
    hand = play_out(client, started, choose)
    assert hand["landlord"] == landlord and hand["confirmation"] == "pending"
    url = f"/api/v1/hands/{hand['id']}/confirm/"
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    before = _written(Hand.objects.get(pk=hand["id"]))

    one_side = post(client, url, _body(pins, 2, farmer))
    assert one_side.status_code == 422 and one_side.json()["code"] == "pins_incomplete"
    assert _written(Hand.objects.get(pk=hand["id"])) == before
    confirmed = post(client, url, _body(pins, landlord, farmer))

    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["confirmation"] == "confirmed"


def test_api_a_six_player_partner_is_no_farmer_for_the_pins() -> None:
    """Six players: the landlord's partner is on his side (R13.8), so his PIN with the
    landlord's is one side only (422, nothing written); a farmer's makes the two sides."""
    from referee.rules.games import six_deal_json, state_new
    from referee.rules.profiles import get_profile
    from tournaments.hands.write import hand_action_record

    profile = get_profile("six_p")

    def has_partner(seed: int) -> bool:
        state = state_new(profile, six_deal_json(profile, seed))
        state.push(state.legal_actions()[0])  # the call
        return state.partner is not None

    seed = next(s for s in range(50, 200) if has_partner(s))
    table = playing_table(rule_profile="six_p", requires_confirmation=True, confirmed_by="players")
    hand = hand_create(table=table, deal=six_deal_json(profile, seed)).hand
    rng = random.Random(seed)
    while hand.status == "playing":
        state = state_new(profile, hand.deal)
        for event in hand.events.order_by("seq"):
            state.push(state._read_action(event.payload["action"]))
        hand = hand_action_record(
            hand=hand, action=rng.choice(state.legal_actions()).to_json()
        ).hand
    landlord, partner = hand.landlord_seat, hand.partner_seat
    assert partner is not None and hand.confirmation == "pending"
    farmer = next(s for s in range(6) if s not in (landlord, partner))
    ref = referee_user("six-ref")
    assign(ref, table)
    client, url = client_for(ref), f"/api/v1/hands/{hand.pk}/confirm/"
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    before = _written(Hand.objects.get(pk=hand.pk))
    one_side = post(client, url, _body(pins, landlord, partner))
    assert one_side.status_code == 422 and one_side.json()["code"] == "pins_incomplete"
    assert _written(Hand.objects.get(pk=hand.pk)) == before
    confirmed = post(client, url, _body(pins, landlord, farmer))
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["confirmation"] == "confirmed"
