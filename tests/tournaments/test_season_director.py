"""The director's season screens (issue 34): duplicates, merge and undo, seasons; nobody
else gets in."""

from typing import Any

import pytest
from django.test import Client

from tests.tournaments.season_builders import played_tournament, players
from tournaments.models import Entry, Player, PlayerMerge, Season, SeasonRating, SeasonStatus

pytestmark = pytest.mark.django_db


def _twins(director: Any) -> tuple[Player, Player]:
    people = players(5)
    twin = Player.objects.create(name="PLAYER 1", club="Club")
    played_tournament(slug="a", people=[*people[:3]], director=director, rounds=1)
    played_tournament(slug="b", people=[twin, *people[3:]], director=director, rounds=1)
    return people[0], twin


def test_nobody_but_a_director_reaches_the_screens(director: Any, referee: Any) -> None:
    kept, twin = _twins(director)
    urls = ["/director/players/", "/director/seasons/"]
    posts = {"/director/players/merge/": {"kept": kept.pk, "merged": twin.pk, "confirm": "on"}}
    anonymous, signed_referee = Client(), Client()
    signed_referee.force_login(referee)
    for client in (anonymous, signed_referee):
        for url in urls:
            assert client.get(url).status_code == 302, url
        for url, data in posts.items():
            assert client.post(url, data).status_code == 302
    assert not PlayerMerge.objects.exists()


def test_a_director_finds_merges_and_undoes(director_client: Any, director: Any) -> None:
    kept, twin = _twins(director)
    page = director_client.get("/director/players/").content.decode()
    assert f"#{twin.pk} {twin}" in page.split('id="likely-duplicates"')[1]
    # without the confirmation box: refused, nothing merged
    director_client.post("/director/players/merge/", {"kept": kept.pk, "merged": twin.pk})
    assert not PlayerMerge.objects.exists()
    answer = director_client.post(
        "/director/players/merge/",
        {"kept": kept.pk, "merged": twin.pk, "confirm": "on", "reason": "same person"},
        follow=True,
    )
    assert answer.status_code == 200
    merge = PlayerMerge.objects.get()
    assert merge.reason == "same person" and merge.recorded_by == director
    assert Entry.objects.filter(player=kept).count() == 2
    director_client.post(f"/director/players/merges/{merge.pk}/undo/")
    merge.refresh_from_db()
    assert merge.undone_at is not None
    assert Entry.objects.filter(player=twin).count() == 1
    assert (
        director_client.post("/director/players/merge/", {"kept": "x", "merged": 1}).status_code
        == 404
    )


def test_a_director_runs_a_season(
    director_client: Any, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    people = players(6)
    tournament = played_tournament(slug="t1", people=people, director=director, rounds=1)
    director_client.post(
        "/director/seasons/",
        {"name": "Club 2026", "slug": "club-2026", "is_public": "on", "profiles": ["comp2016"]},
    )
    season = Season.objects.get(slug="club-2026")
    assert season.profiles == ["comp2016"] and season.is_public
    refused = director_client.post(
        "/director/seasons/", {"name": "x", "slug": "x", "formats": ["knockout"]}, follow=True
    )
    assert "Unknown: knockout" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post("/director/seasons/club-2026/", {"tournaments": [tournament.pk]})
    assert SeasonRating.objects.filter(season=season).count() == 6
    director_client.post("/director/seasons/club-2026/close/", {})
    season.refresh_from_db()
    assert season.status == SeasonStatus.OPEN  # not without the confirmation box
    director_client.post("/director/seasons/club-2026/close/", {"confirm": "on"})
    season.refresh_from_db()
    assert season.status == SeasonStatus.CLOSED
