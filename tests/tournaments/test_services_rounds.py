import pytest

from tests import factories
from tournaments.errors import ApplicationError
from tournaments.models import Table
from tournaments.services.rounds import referee_assign, seat_create, table_create

pytestmark = pytest.mark.django_db


def test_seat_create_denormalises_the_round() -> None:
    table = factories.TableFactory()
    entry = factories.EntryFactory(tournament=table.round.tournament)
    seat = seat_create(table=table, position=1, entry=entry)
    assert seat.round_id == table.round_id


def test_seat_create_refuses_an_entry_seated_in_the_round(seated_table: Table) -> None:
    other = table_create(round=seated_table.round, number=99)
    entry = seated_table.seats.get(position=0).entry
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=other, position=0, entry=entry)
    assert excinfo.value.code == "invalid"


def test_seat_create_refuses_a_foreign_or_withdrawn_entry() -> None:
    table = factories.TableFactory()
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=table, position=0, entry=factories.EntryFactory())
    assert excinfo.value.code == "entry_not_in_tournament"
    withdrawn = factories.EntryFactory(tournament=table.round.tournament, withdrawn=True)
    with pytest.raises(ApplicationError) as excinfo:
        seat_create(table=table, position=0, entry=withdrawn)
    assert excinfo.value.code == "entry_withdrawn"


def test_referee_assign(referee: object, seated_table: Table) -> None:
    assignment = referee_assign(round=seated_table.round, user=referee, table=seated_table)
    assert assignment.table == seated_table
    with pytest.raises(ApplicationError) as excinfo:
        referee_assign(round=seated_table.round, user=factories.UserFactory())
    assert excinfo.value.code == "not_a_referee"
    with pytest.raises(ApplicationError) as excinfo:
        referee_assign(round=factories.RoundFactory(), user=referee, table=seated_table)
    assert excinfo.value.code == "table_not_in_round"
