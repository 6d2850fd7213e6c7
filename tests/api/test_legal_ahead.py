"""The legal actions of the seats ahead (``ahead``, issue 29): what the referee console offers
as one tap, "<seat> passes, then <next seat> plays X". Every entry, its declines sent then any
of its legal actions, is accepted by the write path, in every profile with dealt cards; the
state read is unchanged by computing it; physical cards (cards unknown) have none, nor does
anybody who does not see the cards."""

import random
from typing import Any

import pytest

from tests.api.helpers import assign, client_for, playing_table, post, referee_user, start_hand

pytestmark = pytest.mark.django_db

PROFILES = ["comp2016", "four_p", "laizi"]


def _write(client: Any, hand: dict[str, Any], action: dict[str, Any], version: int) -> Any:
    return post(client, f"/api/v1/hands/{hand['id']}/actions/", action, HTTP_IF_MATCH=str(version))


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_entry_ahead_is_accepted_declines_first(profile: str, seed: int) -> None:
    table = playing_table(rule_profile=profile)
    user = referee_user("ahead-ref")
    assign(user, table)
    client = client_for(user)
    hand = start_hand(client, table).json()
    rng = random.Random(seed)
    checked = 0
    while hand["status"] in ("bidding", "doubling", "playing"):
        read = client.get(f"/api/v1/hands/{hand['id']}/").json()
        ahead = read["ahead"]
        assert isinstance(ahead, list) and len(ahead) < read["seats"]
        # the read is the same before and after computing it (the state given back)
        assert {k: v for k, v in read.items() if k != "events"} == {
            k: v
            for k, v in client.get(f"/api/v1/hands/{hand['id']}/").json().items()
            if k != "events"
        }
        turns = [read["turn"]] + [entry["turn"] for entry in ahead]
        for n, entry in enumerate(ahead, start=1):
            # each seat declines in its turn; the entry's seat acts next
            assert [d["seat"] for d in entry["declines"]] == turns[:n]
            assert all(a["seat"] == entry["turn"] for a in entry["legal_actions"])
        if ahead and rng.random() < 0.5:
            entry = rng.choice(ahead)
            version = read["version"]
            for decline in entry["declines"]:
                answer = _write(client, read, decline, version)
                assert answer.status_code == 200, (decline, answer.json())
                version += 1
            assert answer.json()["turn"] == entry["turn"]
            assert answer.json()["status"] == entry["phase"]
            assert sorted(map(str, answer.json()["legal_actions"])) == sorted(
                map(str, entry["legal_actions"])
            )
            action = rng.choice(entry["legal_actions"])
            checked += 1
        else:
            action = rng.choice(read["legal_actions"])
            version = read["version"]
        answer = _write(client, read, action, version)
        assert answer.status_code == 200, (action, answer.json())
        hand = answer.json()
    assert checked


def test_no_cards_no_entries_ahead() -> None:
    table = playing_table()
    user = referee_user("ahead-ref")
    assign(user, table)
    client = client_for(user)
    physical = start_hand(client, table, deal="physical").json()
    assert physical["ahead"] is None
    assert client.get(f"/api/v1/hands/{physical['id']}/").json()["ahead"] is None
