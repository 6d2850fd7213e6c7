"""One total everywhere (issue 17.6): an entry's total is its deal points plus its penalties
(R10.8.2, SPEC §9), read from one place by the player page, the standings, the director's
standings and both CSV exports."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests import factories
from tests.public_data import hand_played, tournament_with_tables
from tournaments.models import Entry
from tournaments.standings.queries import entry_totals, standings_compute
from tournaments.standings.ranking import EntryTotals
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.penalties import penalty_create, penalty_revoke

pytestmark = pytest.mark.django_db


def _csv_rows(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def _penalised_tournament() -> tuple[Any, Entry, int]:
    """A public tournament with one finished hand and, on seat 0's entry, a penalty of −5,
    an adjustment of +2 and a revoked penalty of −7; with the entry's deal points."""
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5)
    entry = tables[0].seats.get(position=0).entry
    director = factories.UserFactory(username="td", is_staff=True)
    penalty_create(entry=entry, points=-5, reason="late", hand=hand, recorded_by=director)
    penalty_create(entry=entry, points=2, reason="scoring slip", recorded_by=director)
    revoked = penalty_create(entry=entry, points=-7, reason="mistaken", recorded_by=director)
    penalty_revoke(penalty=revoked, reason="wrong entry", recorded_by=director)
    standings_snapshot_update(tournament_id=tournament.pk)
    return tournament, entry, hand.scores[0]


def test_r10_8_2_the_total_is_deal_points_plus_penalties_in_force() -> None:
    assert (
        EntryTotals(entry_id=1, registration_order=1, deal_points=60, penalty_points=-5).total == 55
    )
    _, entry, deal_points = _penalised_tournament()
    totals = entry_totals(entry=entry)
    assert (totals.deal_points, totals.penalty_points) == (deal_points, -3)
    assert totals.total == deal_points - 3
    assert totals.hands_played == 1


def test_an_entry_with_a_penalty_shows_one_total_on_every_page_and_export(
    client: Any, director_client: Any
) -> None:
    tournament, entry, deal_points = _penalised_tournament()
    total = deal_points - 3
    slug = tournament.slug

    player = client.get(reverse("public:player", args=[slug, entry.pk])).content.decode()
    assert f'<dd class="total">{total}</dd>' in player
    assert f'<dd class="deal-points">{deal_points}</dd>' in player
    assert '<dd class="penalty-points">-3</dd>' in player
    assert "late" in player and "scoring slip" in player and "mistaken" not in player

    standings = client.get(reverse("public:standings", args=[slug])).content.decode()
    row = re.search(rf'players/{entry.pk}/">.*?<td class="num total">(-?\d+)</td>', standings)
    assert row is not None and int(row.group(1)) == total

    director = director_client.get(reverse("director:standings", args=[slug])).content.decode()
    cells = re.search(
        rf"<td>{re.escape(str(entry.player))}</td><td class=\"num\">(-?\d+)</td>"
        r"<td class=\"num\">(-?\d+)</td><td class=\"num\">(-?\d+)</td>",
        director,
    )
    assert cells is not None
    assert [int(v) for v in cells.groups()] == [total, deal_points, -3]

    public_csv = _csv_rows(client.get(reverse("public:standings-csv", args=[slug])))
    by_name = {r[1]: r for r in public_csv[1:]}
    assert int(by_name[entry.player.name][4]) == total

    export = _csv_rows(
        director_client.get(reverse("director:export", args=[slug, "standings.csv"]))
    )
    head = export[0]
    mine = next(
        r for r in export[1:] if r[head.index("registration")] == str(entry.registration_order)
    )
    assert int(mine[head.index("total")]) == total
    assert int(mine[head.index("penalty_points")]) == -3


@settings(max_examples=10, deadline=None)
@given(
    penalties=st.lists(
        st.tuples(st.integers(0, 2), st.integers(-20, 20).filter(bool), st.booleans()),
        max_size=5,
    )
)
def test_the_standings_and_the_player_page_sum_alike(
    penalties: list[tuple[int, int, bool]],
) -> None:
    """The standings' SQL sums and ``entry_totals`` agree for every entry, whatever
    penalties are given and revoked."""
    tournament, tables = tournament_with_tables(tables=1)
    hand_played(tables[0], seed=9)
    seats = list(tables[0].seats.order_by("position").select_related("entry"))
    director = factories.UserFactory(username="td", is_staff=True)
    for position, points, revoke in penalties:
        given_ = penalty_create(
            entry=seats[position].entry, points=points, reason="r", recorded_by=director
        )
        if revoke:
            penalty_revoke(penalty=given_, reason="undo", recorded_by=director)
    ranked = {s.entry_id: s.total for s in standings_compute(tournament=tournament)}
    for seat in seats:
        assert entry_totals(entry=seat.entry).total == ranked[seat.entry_id]
