"""A season in the JSON archive and as CSV (issue 34): the exports say what is stored."""

import csv
import io
import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests.tournaments.season_builders import played_tournament, players, season_of
from tournaments.models import Player, SeasonRating, SeasonStep
from tournaments.season.merge import player_merge
from tournaments.season.services import season_recompute

pytestmark = pytest.mark.django_db


def _season(director: Any) -> Any:
    people = players(6)
    twin = Player.objects.create(name="Player 1")
    first = played_tournament(slug="x1", people=people, director=director, seed=1)
    second = played_tournament(slug="x2", people=[twin, *people[1:]], director=director, seed=2)
    season = season_of("exported", [first, second], club="Club")
    player_merge(kept=people[0], merged=twin, reason="same", recorded_by=director)
    season_recompute(season_id=season.pk)
    return season


def test_the_archive_holds_the_season_its_ladder_steps_and_merges(director: Any) -> None:
    season = _season(director)
    out = io.StringIO()
    call_command("season_export", "exported", stdout=out)
    data = json.loads(out.getvalue())
    assert data["format"] == "doudizhu-season" and data["season"]["tournaments"] == ["x1", "x2"]
    stored = {r.player_id: r for r in SeasonRating.objects.filter(season=season)}
    assert {row["player"]: (row["rank"], row["mu"], row["points"]) for row in data["ladder"]} == {
        p: (r.rank, r.mu, r.points) for p, r in stored.items()
    }
    assert len(data["steps"]) == SeasonStep.objects.filter(season=season).count() == 12
    assert [(m["reason"], m["undone_at"]) for m in data["merges"]] == [("same", None)]


def test_the_csv_exports(director: Any, director_client: Any) -> None:
    season = _season(director)
    ladder = director_client.get("/director/seasons/exported/export/ladder.csv")
    assert ladder["Content-Disposition"] == 'attachment; filename="exported-ladder.csv"'
    rows = list(csv.DictReader(io.StringIO(ladder.content.decode())))
    assert [int(r["rank"]) for r in rows] == list(range(1, 7))
    steps = director_client.get("/director/seasons/exported/export/steps.csv").content.decode()
    step_rows = list(csv.DictReader(io.StringIO(steps)))
    assert len(step_rows) == 12 and {r["tournament"] for r in step_rows} == {"x1", "x2"}
    archive = director_client.get("/director/seasons/exported/export/archive.json")
    assert json.loads(archive.content)["season"]["slug"] == season.slug
    assert director_client.get("/director/seasons/exported/export/other").status_code == 404
    assert Client().get("/director/seasons/exported/export/archive.json").status_code == 302
