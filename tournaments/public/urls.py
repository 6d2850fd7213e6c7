"""Public (anonymous, read-only) pages."""

from django.urls import path

from tournaments.public import hands as public_hands
from tournaments.public import seasons as public_seasons
from tournaments.public import standings as public_standings
from tournaments.public import views as public

app_name = "public"

urlpatterns = [
    path("", public.home, name="home"),
    path("favicon.ico", public.favicon, name="favicon"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament-detail"),
    path("t/<slug:slug>/rounds/<id:number>/", public.round_detail, name="round"),
    path("t/<slug:slug>/standings/", public_standings.standings, name="standings"),
    path("t/<slug:slug>/standings.csv", public_standings.standings_csv, name="standings-csv"),
    path("t/<slug:slug>/live/", public.live, name="live"),
    path("t/<slug:slug>/hands/<id:hand_id>/", public_hands.hand_detail, name="hand"),
    path("t/<slug:slug>/players/<id:entry_id>/", public_hands.player_detail, name="player"),
    path("t/<slug:slug>/boards/<id:number>/", public_hands.board_detail, name="board"),
    path("seasons/<slug:slug>/", public_seasons.season_ladder, name="season"),
    path("seasons/<slug:slug>/ladder.csv", public_seasons.season_csv, name="season-csv"),
    path(
        "seasons/<slug:slug>/players/<id:player_id>/",
        public_seasons.season_player,
        name="season-player",
    ),
    path("seasons/<slug:slug>/h2h/", public_seasons.season_head_to_head, name="season-h2h"),
]
