"""The CSV import matches a known player by external id (following merges), or offers the
likely matches instead of creating a second player (issue 34)."""

from typing import Any

import pytest

from tests import factories
from tournaments.common.errors import ApplicationError
from tournaments.models import Entry, Player
from tournaments.season.merge import player_merge
from tournaments.tournament.entry_import import entries_import, entries_import_preview

pytestmark = pytest.mark.django_db


def test_an_external_id_registers_the_known_player_or_the_one_it_was_merged_into(
    director: Any,
) -> None:
    known = Player.objects.create(name="Chen Jie", external_id="CN-7")
    twin = Player.objects.create(name="Jie Chen", external_id="CN-8")
    other = factories.TournamentFactory()
    Entry.objects.create(tournament=other, player=twin, registration_order=1)
    player_merge(kept=known, merged=twin, recorded_by=director)
    tournament = factories.TournamentFactory()
    rows = entries_import_preview(tournament=tournament, text="name,external_id\nC. Jie,CN-7\n")
    assert [r.error for r in rows] == [""]
    entries_import(tournament=tournament, text="name,external_id\nC. Jie,CN-7\n")
    assert list(Entry.objects.filter(tournament=tournament).values_list("player", flat=True)) == [
        known.pk
    ]
    second = factories.TournamentFactory()
    entries_import(tournament=second, text="name,external_id\nJ. Chen,CN-8\n")
    assert Entry.objects.get(tournament=second).player == known
    assert Player.objects.count() == 2


def test_a_likely_known_player_is_offered_not_created_again() -> None:
    known = Player.objects.create(name="Wang Fang", chinese_name="王芳", club="Club A")
    tournament = factories.TournamentFactory()
    rows = entries_import_preview(tournament=tournament, text="name,club\nwang fang,Club A\n")
    assert rows[0].matches == ((known.pk, f"#{known.pk} {known} (Club A)"),)
    assert f"#{known.pk}" in rows[0].error
    with pytest.raises(ApplicationError) as excinfo:
        entries_import(tournament=tournament, text="name,club\nwang fang,Club A\n")
    assert excinfo.value.code == "csv_rows_refused"
    assert Player.objects.count() == 1 and not Entry.objects.filter(tournament=tournament).exists()
    # by Chinese name too
    rows = entries_import_preview(tournament=tournament, text="name,chinese_name\nFang W.,王芳\n")
    assert rows[0].matches and rows[0].matches[0][0] == known.pk


def test_the_director_chooses_the_match_or_a_new_player() -> None:
    known = Player.objects.create(name="Wang Fang", club="Club A")
    tournament = factories.TournamentFactory()
    entries_import(tournament=tournament, text=f"name,player_id\nwang fang,{known.pk}\n")
    assert Entry.objects.get(tournament=tournament).player == known
    other = factories.TournamentFactory()
    entries_import(tournament=other, text="name,club,player_id\nWang Fang,Club B,new\n")
    created = Entry.objects.get(tournament=other).player
    assert created != known and created.club == "Club B"
    for bad in ("999999", "someone"):
        rows = entries_import_preview(
            tournament=factories.TournamentFactory(), text=f"name,player_id\nX,{bad}\n"
        )
        assert "player_id" in rows[0].error
