import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Table, Tournament
from tournaments.tournament.services import entry_create, tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def test_tournament_create_defaults_to_comp2016() -> None:
    tournament = tournament_create(name="Open", slug="open")
    assert tournament.rule_profile == "comp2016"
    assert tournament.status == "draft"


def test_tournament_create_rejects_bad_values() -> None:
    with pytest.raises(ApplicationError) as excinfo:
        tournament_create(name="Open", slug="open", hands_per_round=0)
    assert excinfo.value.code == "invalid"
    with pytest.raises(ApplicationError) as excinfo:
        tournament_create(name="Open", slug="open", rule_profile="house")
    assert excinfo.value.code == "unknown_rule_profile"
    assert not Tournament.objects.exists()


def test_rule_profile_can_change_before_the_first_hand(seated_table: Table) -> None:
    tournament = seated_table.round.tournament
    updated = tournament_update(tournament=tournament, rule_profile="classic")
    assert updated.rule_profile == "classic"
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "classic"


def test_rule_profile_is_frozen_once_a_hand_is_recorded(seated_table: Table) -> None:
    tournament = seated_table.round.tournament
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, landlord=0, bid=3, winner="landlord")

    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=tournament, rule_profile="classic")

    assert excinfo.value.code == "rule_profile_frozen"
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "comp2016"


def test_rule_profile_is_frozen_as_soon_as_a_hand_exists(seated_table: Table) -> None:
    hand_create(table=seated_table)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=seated_table.round.tournament, rule_profile="classic")
    assert excinfo.value.code == "rule_profile_frozen"


def test_other_fields_still_change_after_hands(seated_table: Table) -> None:
    hand_create(table=seated_table)
    tournament = seated_table.round.tournament
    updated = tournament_update(
        tournament=tournament, rule_profile="comp2016", name="Renamed", status="running"
    )
    assert (updated.name, updated.status) == ("Renamed", "running")


def test_tournament_update_locks_the_row() -> None:
    tournament = factories.TournamentFactory()
    with CaptureQueriesContext(connection) as queries:
        tournament_update(tournament=tournament, name="Locked")
    locking = [q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]
    if connection.vendor == "postgresql":
        assert locking, "tournament_update must SELECT ... FOR UPDATE"
    else:
        assert locking == []  # SQLite serialises writers itself; Django drops FOR UPDATE


def test_entry_create_numbers_registrations() -> None:
    tournament = factories.TournamentFactory()
    first = entry_create(tournament=tournament, player=factories.PlayerFactory())
    second = entry_create(tournament=tournament, player=factories.PlayerFactory())
    assert (first.registration_order, second.registration_order) == (1, 2)
    with pytest.raises(ApplicationError):
        entry_create(tournament=tournament, player=first.player)
