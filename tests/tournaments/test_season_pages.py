"""The season pages (issue 34): ladder, player with chart and table, head to head, CSV;
public unless the club says otherwise; both languages."""

import csv
import io
from typing import Any

import pytest
from django.test import Client

from tests import factories
from tests.tournaments.builders import finish, table_of
from tests.tournaments.season_builders import played_tournament, players, season_of
from tournaments.models import Entry, Player, Round, RoundStatus, Season, SeasonRating
from tournaments.season.services import season_recompute
from tournaments.tournament.services import tournament_finish

pytestmark = pytest.mark.django_db


def _hand_checkable(director: Any) -> tuple[Season, list[Player]]:
    a, b, c = (Player.objects.create(name=n) for n in ("Ann", "Bo", "Cai"))
    tournament = factories.TournamentFactory(
        slug="club-night", name="Club night", hands_per_round=3
    )
    entries = [
        Entry.objects.create(tournament=tournament, player=p, registration_order=i + 1)
        for i, p in enumerate((a, b, c))
    ]
    table = table_of(tournament, 1, 1, entries)
    finish(table, landlord=0, bid=1, winner="landlord")  # Ann beats Bo and Cai
    finish(table, landlord=1, bid=1, winner="defenders")  # Ann and Cai beat Bo
    finish(table, landlord=2, bid=1, winner="landlord")  # Cai beats Ann and Bo
    Round.objects.filter(tournament=tournament).update(status=RoundStatus.CLOSED)
    tournament_finish(tournament=tournament, recorded_by=director)
    season = season_of("night-season", [tournament])
    season_recompute(season_id=season.pk)
    return season, [a, b, c]


def test_the_ladder_page_lists_every_player_with_rating_points_and_trend(director: Any) -> None:
    season, (_, bo, _) = _hand_checkable(director)
    page = Client().get("/seasons/night-season/")
    assert page.status_code == 200
    html = page.content.decode()
    ladder = list(SeasonRating.objects.filter(season=season).order_by("rank"))
    assert ladder[-1].player == bo  # Bo lost every hand, Ann and Cai won two each
    for r in ladder:
        assert f"/seasons/night-season/players/{r.player_id}/" in html
        assert f"{r.mu:.1f} ± {r.sigma:.1f}" in html
    assert page["Cache-Control"] == "public, max-age=1"
    assert page.has_header("ETag")
    again = Client().get("/seasons/night-season/", HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 304


def test_a_players_page_has_an_accessible_chart_and_the_numbers_in_a_table(director: Any) -> None:
    season, (ann, _, _) = _hand_checkable(director)
    html = Client().get(f"/seasons/night-season/players/{ann.pk}/").content.decode()
    assert 'role="img"' in html and "aria-labelledby=" in html and "<desc" in html
    step = season.steps.get(player=ann)
    table = html.split('id="season-steps"')[1]
    assert "Club night" in table and f"{step.placing} / 3" in table
    assert f"{step.mu:.1f} ± {step.sigma:.1f}" in table
    assert Client().get("/seasons/night-season/players/999999/").status_code == 404


def test_head_to_head_counts_the_hands_at_one_table(director: Any) -> None:
    _, (ann, bo, _) = _hand_checkable(director)
    page = Client().get(f"/seasons/night-season/h2h/?a={ann.pk}&b={bo.pk}")
    assert page.status_code == 200
    result = page.context["result"]
    assert (result.hands_together, result.opposed, result.first_won, result.second_won) == (
        3, 2, 2, 0,
    )  # fmt: skip
    assert (result.partners, result.partners_won) == (1, 0)
    for bad in (f"?a={ann.pk}&b={ann.pk}", "?a=1&b=999999", "?a=x&b=" + "9" * 30):
        answer = Client().get(f"/seasons/night-season/h2h/{bad}")
        assert answer.status_code in (200, 400)
        assert answer.context["result"] is None


def test_the_ladder_as_csv(director: Any) -> None:
    season, _ = _hand_checkable(director)
    answer = Client().get("/seasons/night-season/ladder.csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    stored = SeasonRating.objects.filter(season=season).order_by("rank")
    assert [int(r["player_id"]) for r in rows] == [s.player_id for s in stored]
    assert [int(r["points"]) for r in rows] == [s.points for s in stored]


def test_a_private_season_is_for_directors_only_and_never_cached(
    director: Any, director_client: Any
) -> None:
    season, (ann, bo, _) = _hand_checkable(director)
    Season.objects.filter(pk=season.pk).update(is_public=False)
    for url in (
        "/seasons/night-season/",
        f"/seasons/night-season/players/{ann.pk}/",
        f"/seasons/night-season/h2h/?a={ann.pk}&b={bo.pk}",
        "/seasons/night-season/ladder.csv",
    ):
        assert Client().get(url).status_code == 404, url
        seen = director_client.get(url)
        assert seen.status_code == 200, url
        assert "no-store" in seen["Cache-Control"]


def test_the_pages_in_chinese(director: Any) -> None:
    people = players(6)
    tournament = played_tournament(slug="zh", people=people, director=director, rounds=1)
    season = season_of("zh-season", [tournament])
    season_recompute(season_id=season.pk)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    ladder = client.get("/seasons/zh-season/").content.decode()
    assert "赛季排名" in ladder and "积分" in ladder
    player = client.get(f"/seasons/zh-season/players/{people[0].pk}/").content.decode()
    assert "等级分" in player and "排名" in player


def test_the_home_page_lists_the_public_seasons(director: Any) -> None:
    _hand_checkable(director)
    Season.objects.create(name="Hidden", slug="hidden", is_public=False)
    html = Client().get("/").content.decode()
    assert "/seasons/night-season/" in html and "/seasons/hidden/" not in html
