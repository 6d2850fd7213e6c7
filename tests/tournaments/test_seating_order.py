"""Swiss reseating (瑞士移位) reads the standings: their tie-breaks, the current snapshot."""

import pytest

from tests.tournaments.builders import finish, table_of, tournament_with_entries
from tournaments.models import StandingSnapshot
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.selectors import entry_order_for_seating
from tournaments.tournament.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def test_r10_8_5_a_tie_on_total_goes_to_the_winner_of_the_last_deal() -> None:
    """Seat 0 and seat 1 each win one hand as landlord (bid 1): both +1.  Seat 1 won the
    last deal, so it stands first although seat 0 registered earlier."""
    tournament, (a, b, c) = tournament_with_entries(3, format="swiss")
    table = table_of(tournament, 1, 1, [a, b, c])
    finish(table, landlord=0, bid=1, winner="landlord")
    finish(table, landlord=1, bid=1, winner="landlord")
    assert entry_order_for_seating(tournament=tournament) == [b.pk, a.pk, c.pk]


def test_r10_8_7_withdrawn_entries_are_not_seated() -> None:
    tournament, (a, b, c, d) = tournament_with_entries(4, format="swiss")
    finish(table_of(tournament, 1, 1, [a, b, c]), landlord=0, bid=2, winner="landlord")
    assert entry_order_for_seating(tournament=tournament) == [a.pk, d.pk, b.pk, c.pk]
    entry_withdraw(entry=d)
    assert entry_order_for_seating(tournament=tournament) == [a.pk, b.pk, c.pk]


def test_the_current_snapshot_is_read_and_a_stale_one_is_not() -> None:
    tournament, (a, b, c) = tournament_with_entries(3, format="swiss")
    table = table_of(tournament, 1, 1, [a, b, c])
    finish(table, landlord=0, bid=1, winner="landlord")
    standings_snapshot_update(tournament_id=tournament.pk)
    # Mark the snapshot so its order differs from a computation: it is what is read.  (Rows
    # are never updated, migration 0024: written again with the ranks swapped.)
    latest = list(StandingSnapshot.objects.filter(tournament=tournament))
    StandingSnapshot.objects.filter(tournament=tournament).delete()
    swapped = {a.pk: 3, c.pk: 1}
    for row in latest:
        row.pk = None
        row.rank = swapped.get(row.entry_id, row.rank)
    StandingSnapshot.objects.bulk_create(latest)
    assert entry_order_for_seating(tournament=tournament) == [c.pk, b.pk, a.pk]
    # A new result moves the log version on: the snapshot is stale, the order computed.
    finish(table, landlord=0, bid=3, winner="landlord")
    assert entry_order_for_seating(tournament=tournament) == [a.pk, b.pk, c.pk]
