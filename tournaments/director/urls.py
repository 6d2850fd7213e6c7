"""Director (staff) screens."""

from django.urls import path

from config.throttling import sign_in_throttled
from tournaments.director import entries as director_entries
from tournaments.director import exports as director_exports
from tournaments.director import par as director_par
from tournaments.director import results as director_results
from tournaments.director import rounds as director_rounds
from tournaments.director import seasons as director_seasons
from tournaments.director import signin as director_signin
from tournaments.director import standings as director_standings
from tournaments.director import views as director

app_name = "director"

urlpatterns = [
    path("", director.dashboard, name="dashboard"),
    path(
        "login/",
        sign_in_throttled(director_signin.DirectorLoginView.as_view()),
        name="login",
    ),
    path("logout/", director_signin.DirectorLogoutView.as_view(), name="logout"),
    path("new/", director.tournament_create, name="tournament-create"),
    path("players/", director_seasons.players, name="players"),
    path("players/merge/", director_seasons.merge, name="player-merge"),
    path("players/merges/<id:merge_id>/undo/", director_seasons.merge_undo, name="merge-undo"),
    path("seasons/", director_seasons.seasons, name="seasons"),
    path("seasons/<slug:slug>/", director_seasons.season_detail, name="season"),
    path(
        "seasons/<slug:slug>/recompute/",
        director_seasons.season_recompute_view,
        name="season-recompute",
    ),
    path("seasons/<slug:slug>/close/", director_seasons.season_close_view, name="season-close"),
    path(
        "seasons/<slug:slug>/export/<str:kind>",
        director_seasons.season_export,
        name="season-export",
    ),
    path("t/<slug:slug>/", director.tournament_detail, name="tournament"),
    path("t/<slug:slug>/entries/", director_entries.entries, name="entries"),
    path("t/<slug:slug>/entries/import/", director_entries.entries_import_view, name="import"),
    path(
        "t/<slug:slug>/entries/<id:entry_id>/withdraw/",
        director_entries.entry_withdraw_view,
        name="withdraw",
    ),
    path(
        "t/<slug:slug>/entries/<int:entry_id>/reinstate/",
        director_entries.entry_reinstate_view,
        name="reinstate",
    ),
    path(
        "t/<slug:slug>/export/<str:kind>",
        director_exports.tournament_export,
        name="export",
    ),
    path(
        "t/<slug:slug>/rounds/<id:number>/export/<str:kind>",
        director_exports.round_export,
        name="round-export",
    ),
    path("t/<slug:slug>/rounds/new/", director_rounds.round_create, name="round-create"),
    path("t/<slug:slug>/rounds/<id:number>/", director_rounds.round_detail, name="round"),
    path("t/<slug:slug>/rounds/<id:number>/print/", director_rounds.round_print, name="print"),
    path(
        "t/<slug:slug>/rounds/<id:number>/<str:action>/",
        director_rounds.round_action,
        name="round-action",
    ),
    path("t/<slug:slug>/results/<id:number>/", director_results.results_desk, name="results"),
    path(
        "t/<slug:slug>/results/<id:number>/desk/",
        director_results.results_desk_fragment,
        name="results-fragment",
    ),
    path(
        "t/<slug:slug>/results/<id:number>/exclude/",
        director_results.hand_exclude,
        name="exclude",
    ),
    path(
        "t/<slug:slug>/results/<id:number>/tables/<id:table_id>/confirm/",
        director_results.table_confirm,
        name="table-confirm",
    ),
    path("t/<slug:slug>/hands/<id:hand_id>/", director_results.hand_detail, name="hand"),
    path("t/<slug:slug>/par/", director_par.par_boards, name="par"),
    path(
        "t/<slug:slug>/boards/<id:number>/par/",
        director_par.par_board_action,
        name="par-action",
    ),
    path("t/<slug:slug>/standings/", director_standings.standings, name="standings"),
    path(
        "t/<slug:slug>/standings/recompute/",
        director_standings.standings_recompute,
        name="standings-recompute",
    ),
    path(
        "t/<slug:slug>/standings/publish/",
        director_standings.standings_publish,
        name="standings-publish",
    ),
    path(
        "t/<slug:slug>/standings/reopen/",
        director_standings.standings_reopen,
        name="standings-reopen",
    ),
    path(
        "t/<slug:slug>/hands/<id:hand_id>/<str:action>/",
        director_results.hand_action,
        name="hand-action",
    ),
]
