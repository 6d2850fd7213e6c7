"""One person, one player (issue 34): merging duplicates keeps every result, is refused
across a conflict, is logged and can be undone until the season closes."""

from typing import Any

import pytest

from tests.tournaments.season_builders import played_tournament, players, season_of
from tournaments.common.errors import ApplicationError
from tournaments.models import (
    Entry,
    HandSeatResult,
    Player,
    PlayerMerge,
    SeasonRating,
    SeasonStatus,
    Seat,
    StandingSnapshot,
)
from tournaments.season.merge import (
    player_merge,
    player_merge_undo,
    players_likely_duplicates,
    players_matching,
)
from tournaments.season.services import season_close, season_recompute

pytestmark = pytest.mark.django_db


def _results_of(player: Player) -> list[tuple[int, int, int, bool, int]]:
    return sorted(
        HandSeatResult.objects.filter(entry__player=player).values_list(
            "tournament_id", "hand_id", "position", "won", "score"
        )
    )


def _two_events(director: Any) -> tuple[Player, Player, Any]:
    people = players(6)
    twin = Player.objects.create(name="player 1 ", club="club")  # registered again
    t1 = played_tournament(slug="spring", people=people, director=director, seed=1)
    t2 = played_tournament(slug="summer", people=[twin, *people[1:]], director=director, seed=2)
    season = season_of("s2026", [t1, t2])
    season_recompute(season_id=season.pk)
    return people[0], twin, season


def test_merging_keeps_every_result_and_the_ladder_follows(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    kept, twin, season = _two_events(director)
    before = _results_of(kept) + _results_of(twin)
    snapshots = sorted(
        StandingSnapshot.objects.filter(entry__player__in=[kept, twin]).values_list(
            "tournament_id", "entry_id", "rank", "total"
        )
    )
    assert SeasonRating.objects.get(season=season, player=twin).events == 1

    with django_capture_on_commit_callbacks(execute=True) as queued:
        merge = player_merge(kept=kept, merged=twin, reason="one person", recorded_by=director)
    assert len(queued) == 1  # the season's recompute, after the commit

    assert sorted(_results_of(kept)) == sorted(before) and not _results_of(twin)
    assert (
        sorted(
            StandingSnapshot.objects.filter(entry__player=kept).values_list(
                "tournament_id", "entry_id", "rank", "total"
            )
        )
        == snapshots
    )
    assert (merge.kept, merge.merged, merge.recorded_by) == (kept, twin, director)
    moved = Entry.objects.filter(tournament__slug="summer", player=kept)
    assert sorted(merge.entries) == sorted(moved.values_list("pk", flat=True))
    twin.refresh_from_db()
    assert twin.merged_into == kept
    # The Celery recompute ran after the commit: one line, two events.
    line = SeasonRating.objects.get(season=season, player=kept)
    assert line.events == 2
    assert not SeasonRating.objects.filter(season=season, player=twin).exists()


def test_a_merge_is_undone_until_the_season_closes(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    kept, twin, season = _two_events(director)
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(kept=kept, merged=twin, recorded_by=director)
    assert SeasonRating.objects.get(season=season, player=kept).events == 2
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(merge=merge, recorded_by=director)
    merge.refresh_from_db()
    twin.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == director
    assert twin.merged_into is None
    assert len(_results_of(twin)) > 0
    assert SeasonRating.objects.get(season=season, player=twin).events == 1
    with pytest.raises(ApplicationError) as again:
        player_merge_undo(merge=merge, recorded_by=director)
    assert again.value.code == "merge_undone"

    merge = player_merge(kept=kept, merged=twin, recorded_by=director)
    season_close(season=season, recorded_by=director)
    season.refresh_from_db()
    assert season.status == SeasonStatus.CLOSED
    with pytest.raises(ApplicationError) as closed:
        player_merge_undo(merge=merge, recorded_by=director)
    assert closed.value.code == "season_closed"
    assert Entry.objects.filter(pk__in=merge.entries, player=kept).count() == len(merge.entries)


def test_merging_across_one_table_is_refused_and_changes_nothing(director: Any) -> None:
    people = players(6)
    played_tournament(slug="autumn", people=people, director=director, seed=3)
    a = people[0]
    table = Seat.objects.filter(entry__player=a).first().table  # type: ignore[union-attr]
    b = Seat.objects.filter(table=table).exclude(entry__player=a).first().entry.player  # type: ignore[union-attr]
    with pytest.raises(ApplicationError) as excinfo:
        player_merge(kept=a, merged=b, recorded_by=director)
    assert excinfo.value.code == "merge_same_table"
    assert not PlayerMerge.objects.exists()
    assert Entry.objects.filter(player=b).count() == 1
    b.refresh_from_db()
    assert b.merged_into is None


def test_merging_two_entries_of_one_tournament_is_refused(director: Any) -> None:
    people = players(6)
    played_tournament(slug="winter", people=people, director=director, rounds=1, seed=4)
    a = people[0]
    tables = Seat.objects.filter(entry__player=a).values_list("table_id", flat=True)
    b = Seat.objects.exclude(table_id__in=tables).first().entry.player  # type: ignore[union-attr]
    with pytest.raises(ApplicationError) as excinfo:
        player_merge(kept=a, merged=b, recorded_by=director)
    assert excinfo.value.code == "merge_same_tournament"
    assert not PlayerMerge.objects.exists()


def test_only_a_director_merges_and_never_a_player_into_itself(director: Any, referee: Any) -> None:
    kept, twin, _ = _two_events(director)
    for user in (None, referee):
        with pytest.raises(ApplicationError) as excinfo:
            player_merge(kept=kept, merged=twin, recorded_by=user)
        assert excinfo.value.code == "director_required"
    with pytest.raises(ApplicationError) as itself:
        player_merge(kept=kept, merged=kept, recorded_by=director)
    assert itself.value.code == "merge_same_player"
    merge = player_merge(kept=kept, merged=twin, recorded_by=director)
    with pytest.raises(ApplicationError) as twice:
        player_merge(kept=kept, merged=twin, recorded_by=director)
    assert twice.value.code == "player_merged"
    with pytest.raises(ApplicationError) as undo:
        player_merge_undo(merge=merge, recorded_by=referee)
    assert undo.value.code == "director_required"


def test_undoing_an_earlier_merge_waits_for_the_later_one(director: Any) -> None:
    a = Player.objects.create(name="Li Wei")
    b = Player.objects.create(name="li wei")
    c = Player.objects.create(name="LI WEI.")
    people = players(2, prefix="Other")
    played_tournament(slug="one", people=[a, *people], director=director, rounds=1)
    played_tournament(slug="two", people=[b, *people], director=director, rounds=1)
    played_tournament(slug="three", people=[c, *people], director=director, rounds=1)
    first = player_merge(kept=b, merged=a, recorded_by=director)
    second = player_merge(kept=c, merged=b, recorded_by=director)
    assert Entry.objects.filter(player=c).count() == 3
    with pytest.raises(ApplicationError) as excinfo:
        player_merge_undo(merge=first, recorded_by=director)
    assert excinfo.value.code == "merge_undo_later_first"
    player_merge_undo(merge=second, recorded_by=director)
    player_merge_undo(merge=first, recorded_by=director)
    assert [Entry.objects.filter(player=p).count() for p in (a, b, c)] == [1, 1, 1]


def test_likely_duplicates_and_matches() -> None:
    a = Player.objects.create(name="Wang Fang", chinese_name="王芳", club="Club A")
    b = Player.objects.create(name="wang  fang", club="club a")
    c = Player.objects.create(name="Someone", chinese_name="王芳")
    Player.objects.create(name="Wang Fang", club="Club B")  # another club: another person
    d = Player.objects.create(name="Zhao", external_id="F1")
    Player.objects.create(name="zhao", external_id="F2")  # two federation ids: two people
    pairs = {(p.first.pk, p.second.pk) for p in players_likely_duplicates()}
    assert pairs == {(a.pk, b.pk), (a.pk, c.pk)}
    assert set(players_matching(name="WANG FANG")) >= {a, b}
    assert c in players_matching(name="W. F.", chinese_name="王芳")
    assert d in players_matching(name="zhao")


def test_the_database_refuses_a_conflict_the_check_missed(
    director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registration committed between the check and the move (simulated: the check
    skipped) is caught by the entries' unique constraint: a refusal, not a 500."""
    people = players(6)
    played_tournament(slug="race", people=people, director=director, rounds=1, seed=9)
    monkeypatch.setattr("tournaments.season.merge._conflicts", lambda kept, merged: None)
    with pytest.raises(ApplicationError) as excinfo:
        player_merge(kept=people[0], merged=people[1], recorded_by=director)
    assert excinfo.value.code == "merge_same_tournament"
    assert Entry.objects.filter(player=people[1]).count() == 1
