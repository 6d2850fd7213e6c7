"""A physical-cards laizi hand (issue 20) through the archive: its ``wild`` event (the wild
rank typed in, R11.2.1) is kept, and the imported hand replays to the same result."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from referee.rules.games import deal_json_from_seed, state_new
from referee.rules.profiles import get_profile
from tests.api.helpers import playing_table
from tournaments.archive.restore import tournament_import
from tournaments.hands.audit import hands_audit
from tournaments.hands.wild import hand_wild_record
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandEvent

pytestmark = pytest.mark.django_db


def _played_log(seed: int) -> tuple[str, list[dict[str, Any]]]:
    """The wild rank and the log of a laizi hand played to its end (seat 0 bids 3)."""
    laizi = get_profile("laizi")
    data = deal_json_from_seed(laizi, seed, first_bidder=0)
    state = state_new(laizi, data)
    state.push(next(a for a in state.legal_actions() if a.to_json().get("bid") == 3))
    rng = random.Random(seed)
    while not state.is_over:
        state.push(rng.choice(state.legal_actions()))
    return data["wild"], state.to_events()


def test_a_physical_laizi_hand_round_trips_through_the_archive(director_client: Any) -> None:
    table = playing_table(name="Wild-card club", slug="laizi-club", rule_profile="laizi")
    hand = hand_create(table=table, physical_cards=True, first_bidder=0).hand
    wild, log = _played_log(seed=9)
    for action in log:
        if "play" in action and not HandEvent.objects.filter(hand=hand, kind="wild").exists():
            hand_wild_record(hand=hand, wild=wild)
        hand_action_record(hand=hand, action=action)
    hand.refresh_from_db()
    assert hand.status == "finished" and sum(hand.scores or [1]) == 0

    slug = table.round.tournament.slug
    data = json.loads(director_client.get(f"/director/t/{slug}/export/archive.json").content)
    hands = [h for r in data["rounds"] for t in r["tables"] for h in t["hands"]]
    exported = [e for h in hands for e in h["events"] if e["kind"] == "wild"]
    assert [e["payload"] for e in exported] == [{"wild": wild}]
    data["tournament"]["slug"] = "laizi-club-copy"
    copy = tournament_import(text=json.dumps(data))
    imported = Hand.objects.get(table__round__tournament=copy)
    fields = ("status", "landlord_seat", "bid", "bombs", "scores", "physical_cards")
    assert [getattr(imported, f) for f in fields] == [getattr(hand, f) for f in fields]
    assert list(hands_audit(tournament_slugs=[slug, copy.slug])) == []
