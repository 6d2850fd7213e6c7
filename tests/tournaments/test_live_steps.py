"""A live hand's steps leave the tournament row alone (issue 30): from one live status to
another (bidding → doubling → playing, the landlord found) nothing the standings count
changes, so neither the hand write (``writing.hand_commit``) nor the database (migration
0029) touches the tournament's version or its mark; closing the hand still does both."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.play import random_hand_actions
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import hand_action_record, hand_create
from tournaments.models import Hand, HandSeatResult, Tournament

pytestmark = pytest.mark.django_db


def _version(tournament_id: int) -> tuple[int, bool]:
    return Tournament.objects.values_list("log_version", "inputs_changed").get(pk=tournament_id)


def test_the_steps_of_a_live_hand_write_nothing_of_the_tournament() -> None:
    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    deal = deal_from_seed(7)
    hand = hand_create(table=table, deal=deal.to_json()).hand
    before = _version(tournament_id)
    actions = random_hand_actions(deal, seed=3)
    steps = set()
    for action in actions[:-1]:
        status = hand.status
        with CaptureQueriesContext(connection) as queries:
            hand = hand_action_record(hand=hand, action=action).hand
        assert not [q for q in queries if "tournaments_tournament" in q["sql"]], action
        steps.add((status, hand.status))
    assert {("bidding", "doubling"), ("doubling", "playing")} <= steps
    assert hand.landlord_seat is not None and _version(tournament_id) == before
    hand = hand_action_record(hand=hand, action=actions[-1]).hand
    assert hand.status == "finished"
    assert _version(tournament_id) == (before[0] + 1, False)
    assert HandSeatResult.objects.filter(hand=hand).count() == 3


def test_the_database_marks_no_live_step_but_marks_a_hand_that_closes() -> None:
    """Written around the services, a live hand's status and landlord moved by bare
    UPDATEs mark nothing; voiding it (a live hand closing, through its service) is marked,
    which is what lets the version move (migration 0027)."""
    table = factories.seated_table()
    tournament_id = table.round.tournament_id
    hand = hand_create(table=table, deal=deal_from_seed(7).to_json()).hand
    before = _version(tournament_id)
    Hand.objects.filter(pk=hand.pk).update(status="doubling", landlord_seat=1)
    Hand.objects.filter(pk=hand.pk).update(status="playing")
    Hand.objects.filter(pk=hand.pk).update(status="bidding", landlord_seat=None)
    assert _version(tournament_id) == before == (before[0], False)
    hand_void(hand=Hand.objects.get(pk=hand.pk), reason="dealt twice")
    assert _version(tournament_id) == (before[0] + 1, False)
