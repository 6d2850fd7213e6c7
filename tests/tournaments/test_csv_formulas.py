"""Issue 16, point 5: CSV exports neutralise formula cells (OWASP "CSV injection"): a text
cell starting with = + - @ tab or CR gets a leading ', numbers stay numbers."""

import csv
import io

import pytest
from django.urls import reverse

from tournaments.models import Player, Tournament
from tournaments.standings.csv_export import csv_cell, hands_csv_write, standings_csv_write
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.generate import GenerateOptions, tournament_generate

FORMULAS = ["=HYPERLINK(\"http://evil\")", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)",
            "\t=1", "\r=1"]  # fmt: skip


@pytest.mark.parametrize("text", FORMULAS)
def test_a_formula_cell_is_neutralised(text: str) -> None:
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", [-3, 0, 12, "-3", "+4", "12.50", "Zhang San", "张三", "", None])
def test_numbers_and_plain_text_are_kept(value: object) -> None:
    assert csv_cell(value) == value


@pytest.fixture
def tournament(db: None) -> Tournament:
    tournament = tournament_generate(
        options=GenerateOptions(players=6, rounds=1, hands=1, slug="formulas")
    )
    names = iter(FORMULAS)
    for player in Player.objects.filter(entries__tournament=tournament):
        player.name = player.chinese_name = player.club = next(names)
        player.save()
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    standings_snapshot_update(tournament_id=tournament.pk)
    return tournament


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def _no_formula(cells: list[str]) -> None:
    for cell in cells:
        assert not cell.startswith(("=", "@", "\t", "\r")), cell
        if cell.startswith(("+", "-")):
            assert cell.lstrip("+-").replace(".", "", 1).isdigit(), cell


def test_every_csv_export_neutralises_player_names(tournament: Tournament, client: object) -> None:
    for write in (standings_csv_write, hands_csv_write):
        out = io.StringIO()
        write(tournament=tournament, out=out)
        cells = _cells(out.getvalue())
        _no_formula(cells)
    standings = io.StringIO()
    standings_csv_write(tournament=tournament, out=standings)
    assert '\'=HYPERLINK("http://evil")' in _cells(standings.getvalue())
    response = client.get(reverse("public:standings-csv", args=[tournament.slug]))  # type: ignore[attr-defined]
    cells = _cells(response.content.decode("utf-8-sig"))
    _no_formula(cells)
    assert "'@SUM(A1)" in cells
    assert any(cell.startswith("-") and cell[1:].isdigit() for cell in cells)  # scores stay numbers
