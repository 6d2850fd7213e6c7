"""The season's ladder (issue 34): rebuilt from the hand logs alone it equals the stored
one; a reopened tournament changes it only when final again; seasons choose what counts;
the Celery recompute follows the final results."""

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tests.api.test_variant_tournaments import play_tournament
from tests.tournaments.season_builders import played_tournament, players, season_of
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct
from tournaments.models import Hand, HandStatus, SeasonRating, SeasonStep, Tournament
from tournaments.season.inputs import season_counted, season_inputs_replayed, season_inputs_stored
from tournaments.season.rebuild import season_compare
from tournaments.season.services import (
    season_close,
    season_create,
    season_recompute,
    season_tournaments_set,
)
from tournaments.tournament.services import tournament_finish, tournament_reopen

pytestmark = pytest.mark.django_db


def _ladder(season: Any) -> list[tuple[int, int, float, float, int, int]]:
    return list(
        SeasonRating.objects.filter(season=season)
        .order_by("rank")
        .values_list("player_id", "rank", "mu", "sigma", "points", "events")
    )


def _season(director: Any, n: int = 3) -> Any:
    people = players(9)
    events = [
        played_tournament(slug=f"e{i}", people=people[: 6 + 3 * (i % 2)], director=director, seed=i)
        for i in range(n)
    ]
    return season_of("club-2026", events), people, events


def test_the_ladder_rebuilt_from_the_hand_logs_equals_the_stored_one(director: Any) -> None:
    season, _people, events = _season(director)
    # passed-out hands are among them (they rate nothing but count in the totals)
    assert Hand.objects.filter(status=HandStatus.PASSED_OUT).exists()
    assert season_recompute(season_id=season.pk)
    season.refresh_from_db()
    stored = season_inputs_stored(events)
    replayed = season_inputs_replayed(events)
    assert stored == replayed
    assert sum(len(e.hands) for e in stored) > 20
    assert season_compare(season) == []
    out = StringIO()
    call_command("season_rebuild", "club-2026", stdout=out)
    assert "equals the one rebuilt" in out.getvalue()
    assert SeasonRating.objects.filter(season=season).count() == 9
    assert SeasonStep.objects.filter(season=season).count() == 6 + 9 + 6


def test_the_command_finds_a_stored_number_the_logs_do_not_give(director: Any) -> None:
    season, _, _ = _season(director, n=2)
    season_recompute(season_id=season.pk)
    row = SeasonRating.objects.filter(season=season).order_by("rank").first()
    assert row is not None
    SeasonRating.objects.filter(pk=row.pk).update(mu=row.mu + 0.5, points=row.points + 1)
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("season_rebuild", "club-2026", stdout=out, stderr=err)
    assert exit_.value.code == 1
    assert f"player {row.player_id}: mu stored" in out.getvalue()
    assert f"player {row.player_id}: points stored {row.points + 1}" in out.getvalue()


def test_a_reopened_tournament_changes_the_ladder_only_when_final_again(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    people = players(6)
    first = played_tournament(slug="first", people=people, director=director, seed=5)
    second = played_tournament(slug="second", people=people, director=director, final=False)
    season = season_of("reopen", [first, second])
    season_recompute(season_id=season.pk)
    before = _ladder(season)
    assert {r[5] for r in before} == {1}  # only the final tournament counts

    with django_capture_on_commit_callbacks(execute=True) as queued:
        tournament_reopen(tournament=first, reason="scoresheet", recorded_by=director)
    assert queued == []  # reopening queues nothing
    hand = Hand.objects.filter(table__round__tournament=first, status=HandStatus.FINISHED).first()
    assert hand is not None
    flipped = "defenders" if hand.winner == "landlord" else "landlord"
    hand_result_correct(
        hand=hand,
        reason="misread",
        landlord=hand.landlord_seat,
        bid=hand.bid,
        winner=flipped,
        recorded_by=director,
    )
    assert _ladder(season) == before
    # Another tournament of the season becomes final meanwhile: the ladder waits.
    with django_capture_on_commit_callbacks(execute=True):
        tournament_finish(tournament=second, recorded_by=director)
    assert _ladder(season) == before
    assert season_recompute(season_id=season.pk) is False
    assert _ladder(season) == before
    with pytest.raises(ApplicationError) as closing:
        season_close(season=season, recorded_by=director)
    assert closing.value.code == "season_tournament_reopened"

    with django_capture_on_commit_callbacks(execute=True) as queued:
        tournament_finish(tournament=Tournament.objects.get(pk=first.pk), recorded_by=director)
    assert len(queued) >= 1
    after = _ladder(season)
    assert after != before
    assert {r[5] for r in after} == {2}
    assert season_compare(season) == []


def test_what_a_season_counts(director: Any) -> None:
    people = players(6)
    comp = played_tournament(slug="comp", people=people, director=director, rounds=1)
    classic = played_tournament(
        slug="classic", people=people, director=director, rounds=1, rule_profile="classic"
    )
    # four_p is refereed play by play: played through the referee API
    four = tournament_finish(
        tournament=play_tournament("four_p", 4, seed=4, rounds=1), recorded_by=director
    )
    five = tournament_finish(
        tournament=play_tournament("five_p", 5, seed=5, rounds=1), recorded_by=director
    )
    six = tournament_finish(
        tournament=play_tournament("six_p", 6, seed=6, rounds=1), recorded_by=director
    )
    season = season_create(
        name="Comp only", slug="comp-only", profiles=["comp2016"], created_by=director
    )
    season_tournaments_set(season=season, tournaments=[comp, classic], recorded_by=director)
    assert season_counted(season) == [comp]
    everything = season_create(name="All", slug="all", created_by=director)
    season_tournaments_set(
        season=everything, tournaments=[comp, classic, four, five, six], recorded_by=director
    )
    assert season_counted(everything) == [comp, classic, four, five, six]
    season_recompute(season_id=everything.pk)
    # four_p: one landlord against three farmers, rated like the others
    inputs = season_inputs_stored([four])
    assert inputs[0].hands and all(len(h.farmers) == 3 for h in inputs[0].hands)
    # five_p: one landlord against four (R14.3)
    inputs = season_inputs_stored([five])
    assert inputs[0].hands and all(len(h.farmers) == 4 for h in inputs[0].hands)
    # six_p: the landlord and his partner against four (R13.8), or alone against five
    inputs = season_inputs_stored([six])
    assert inputs == season_inputs_replayed([six])
    hands = Hand.objects.filter(table__round__tournament=six)
    with_partner = hands.filter(partner_seat__isnull=False).count()
    assert inputs[0].hands and len(inputs[0].hands) == hands.count()
    assert sum(bool(hand.partners) for hand in inputs[0].hands) == with_partner
    for hand in inputs[0].hands:
        assert len(hand.partners) + len(hand.farmers) == 5 and len(hand.partners) <= 1
    assert any(hand.partners for hand in inputs[0].hands)
    assert season_compare(everything) == []
    for bad in ({"profiles": ["poker"]}, {"formats": ["knockout"]}):
        with pytest.raises(ApplicationError) as excinfo:
            season_create(name="x", slug="x", created_by=director, **bad)
        assert excinfo.value.code == "season_choice_unknown"


def test_only_a_director_changes_a_season_and_a_closed_one_stays(
    director: Any, referee: Any
) -> None:
    for user in (None, referee):
        with pytest.raises(ApplicationError) as excinfo:
            season_create(name="x", slug="x", created_by=user)
        assert excinfo.value.code == "director_required"
    season = season_create(name="S", slug="s", created_by=director)
    season_close(season=season, recorded_by=director)
    with pytest.raises(ApplicationError) as excinfo:
        season_tournaments_set(season=season, tournaments=[], recorded_by=director)
    assert excinfo.value.code == "season_closed"
    assert season_recompute(season_id=season.pk) is False


def test_finishing_a_tournament_queues_the_seasons_recompute(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    people = players(6)
    pending = played_tournament(slug="pending", people=people, director=director, final=False)
    season = season_of("queued", [pending])
    assert not SeasonRating.objects.filter(season=season).exists()
    with django_capture_on_commit_callbacks(execute=True) as queued:
        tournament_finish(tournament=pending, recorded_by=director)
    assert len(queued) == 1
    assert SeasonRating.objects.filter(season=season).count() == 6
    season.refresh_from_db()
    assert season.computed_from == {
        str(pending.pk): Tournament.objects.get(pk=pending.pk).log_version
    }
