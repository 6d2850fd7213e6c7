"""Helpers of the API tests: a playing table with its referee, and writes with keys."""

import itertools
from collections.abc import Callable
from typing import Any

import jsonschema_rs
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from tests import factories
from tournaments.common.roles import REFEREE_GROUP
from tournaments.models import RefereeAssignment, Round, RoundStatus, Table

_keys = itertools.count(1)


def assert_as_served(component: str, body: Any) -> None:
    """``body`` is valid under the served OpenAPI schema's ``component`` (what schemathesis
    holds every response to: ST108)."""
    from django.test import Client

    served = Client().get("/api/schema/", {"format": "json"}).json()
    schema = {"$ref": f"#/components/schemas/{component}", "components": served["components"]}
    errors = [e.message for e in jsonschema_rs.validator_for(schema).iter_errors(body)]
    assert not errors, (component, errors, body)


def new_key() -> str:
    return f"key-{next(_keys)}"


def referee_user(username: str) -> Any:
    user = factories.UserFactory(username=username)
    user.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])  # flushed by live tests
    return user


def playing_table(**tournament_fields: Any) -> Table:
    table = factories.seated_table(**tournament_fields)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    table.round.refresh_from_db()
    return table


def assign(user: Any, table: Table, *, whole_round: bool = False) -> None:
    """``user`` referees ``table`` (or its whole round); a later round may have it already,
    carried forward when the round was made or seated (``referees_carry_forward``)."""
    RefereeAssignment.objects.get_or_create(
        round=table.round, table=None if whole_round else table, user=user
    )


def client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def post(
    client: APIClient, url: str, data: Any, *, key: str | None = "auto", **headers: str
) -> Any:
    if key == "auto":
        key = new_key()
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return client.post(url, data, format="json", **headers)


def start_hand(client: APIClient, table: Table, **body: Any) -> Any:
    return post(client, f"/api/v1/tables/{table.pk}/hands/", {"deal": "random", **body})


#: Which of a hand's legal actions (its read, the actions) a test plays next.
Choose = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


def play_out(client: APIClient, hand: dict[str, Any], choose: Choose) -> dict[str, Any]:
    """Play ``hand`` (its read) through the API to its end, each action the one ``choose``
    takes among the legal actions the API lists, each accepted; the last read."""
    while hand["status"] in ("bidding", "doubling", "playing"):
        options = hand["legal_actions"]
        assert options, hand
        action = choose(hand, options)
        answer = post(
            client,
            f"/api/v1/hands/{hand['id']}/actions/",
            action,
            HTTP_IF_MATCH=str(hand["version"]),
        )
        assert answer.status_code == 200, (action, answer.json())
        hand = answer.json()
    return hand


def six_state(hand: Any) -> Any:
    """A six-player hand's rules state as the server's deal and log make it (the referee
    reads neither: R13.11), for a test to choose what the table plays."""
    from referee.rules.profiles import capped_profile
    from referee.rules.six_hand import SixDeal, SixHandState
    from tournaments.hands.boards import board_deal_json

    data = hand.deal if hand.board is None else board_deal_json(hand.board)
    profile = capped_profile(hand.rule_profile, hand.stake_cap)
    deal = SixDeal.from_json(data, no_kitty=profile.kitty_size == 0)
    actions = [e.payload["action"] for e in hand.events.order_by("seq")]
    return SixHandState.from_events(deal, actions, profile)


def play_six_out(
    client: APIClient,
    hand: dict[str, Any],
    rng: Any,
    each: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """A six-player hand (its read) played to its end by its referee, who reads no deal and
    no legal action (R13.11): each action one the rules list for the seat on turn, entered
    with rank and suit only (the server picks the copy, R13.10); ``each`` sees every read
    before the next action. The last read."""
    from tournaments.models import Hand

    while hand["status"] == "playing":
        if each is not None:
            each(hand)
        state = six_state(Hand.objects.get(pk=hand["id"]))
        action = rng.choice(state.legal_actions()).to_json()
        if "play" in action and action["play"] != "pass":
            action["play"] = " ".join(card.split("#")[0] for card in action["play"].split())
        answer = post(
            client,
            f"/api/v1/hands/{hand['id']}/actions/",
            action,
            HTTP_IF_MATCH=str(hand["version"]),
        )
        assert answer.status_code == 200, (action, answer.json())
        hand = answer.json()
    return hand
