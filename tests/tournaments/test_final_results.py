"""Issue 17 point 4, final means final: publishing the final standings locks the results;
every change is refused with ``results_final`` (nothing written) until a director reopens
them with a reason; the public standings then say "Final, revised <time>: <reason>"."""

from typing import Any

import pytest

from tests import factories
from tests.tournaments.builders import finish
from tournaments.common.errors import ApplicationError
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.write import hand_create
from tournaments.models import (
    Hand,
    HandEvent,
    Penalty,
    Round,
    RoundStatus,
    Tournament,
    TournamentLog,
    TournamentLogKind,
    TournamentStatus,
)
from tournaments.rounds.services import round_reopen
from tournaments.standings.public_table import final_revision, standings_table
from tournaments.tournament.penalties import penalty_create, penalty_revoke
from tournaments.tournament.services import tournament_finish, tournament_reopen, tournament_update
from tournaments.tournament.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def _finished(director: Any) -> tuple[Tournament, Hand]:
    table = factories.seated_table(slug="final", hands_per_round=1)
    hand = finish(table, landlord=0, bid=2, winner="landlord")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    tournament = tournament_finish(tournament=table.round.tournament, recorded_by=director)
    return tournament, hand


def _refused(call: Any) -> None:
    with pytest.raises(ApplicationError) as excinfo:
        call()
    assert excinfo.value.code == "results_final"


def test_publishing_the_final_standings_is_logged_and_locks_every_result_change(
    director: Any,
) -> None:
    tournament, hand = _finished(director)
    assert TournamentLog.objects.filter(
        tournament=tournament, kind=TournamentLogKind.FINAL_PUBLISHED, recorded_by=director
    ).exists()
    version = tournament.log_version
    events = HandEvent.objects.count()
    entry = hand.table.seats.get(position=1).entry
    penalty = Penalty.objects.create(
        tournament=tournament, entry=entry, points=-1, reason="before the lock"
    )
    refusals = [
        lambda: (
            hand_result_correct(
                hand=hand, reason="typo", landlord=1, bid=1, winner="landlord", recorded_by=director
            ).hand
        ),
        lambda: hand_void(hand=hand, reason="misdeal", recorded_by=director).hand,
        lambda: penalty_create(entry=entry, points=-2, reason="late"),
        lambda: penalty_revoke(penalty=penalty, reason="mistake", recorded_by=director),
        lambda: entry_withdraw(entry=entry, reason="ill", recorded_by=director),
        lambda: hand_create(table=hand.table).hand,
        lambda: round_reopen(round=hand.table.round, reason="late", recorded_by=director),
        lambda: tournament_update(
            tournament=tournament, tiebreaks=["registration"], reason="why not"
        ),
    ]
    for call in refusals:
        _refused(call)
    hand.refresh_from_db()
    tournament.refresh_from_db()
    assert (hand.landlord_seat, hand.status, hand.scores) == (0, "finished", hand.scores)
    assert tournament.log_version == version
    assert tournament.tiebreaks == []
    assert HandEvent.objects.count() == events
    assert Penalty.objects.filter(entry=entry).count() == 1
    assert not Penalty.objects.get(pk=penalty.pk).revoked_at
    assert not entry.__class__.objects.get(pk=entry.pk).withdrawn
    assert Round.objects.get(pk=hand.table.round_id).status == RoundStatus.CLOSED
    assert Hand.objects.filter(table=hand.table).count() == 1


def test_a_setting_that_does_not_rank_may_still_change_after_the_final(director: Any) -> None:
    tournament, _ = _finished(director)
    tournament_update(tournament=tournament, name="Renamed", recorded_by=director)
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"


def test_reopen_needs_a_reason_a_director_and_final_results(director: Any, referee: Any) -> None:
    tournament, _ = _finished(director)
    cases = [
        ({"reason": "", "recorded_by": director}, "reason_required"),
        ({"reason": "   ", "recorded_by": director}, "reason_required"),
        ({"reason": "late result", "recorded_by": referee}, "director_required"),
        ({"reason": "late result", "recorded_by": None}, "director_required"),
    ]
    for kwargs, code in cases:
        with pytest.raises(ApplicationError) as excinfo:
            tournament_reopen(tournament=tournament, **kwargs)
        assert excinfo.value.code == code
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    assert not TournamentLog.objects.filter(kind=TournamentLogKind.RESULTS_REOPENED).exists()
    tournament_reopen(tournament=tournament, reason="late result", recorded_by=director)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_reopen(tournament=tournament, reason="again", recorded_by=director)
    assert excinfo.value.code == "results_not_final"
    assert TournamentLog.objects.filter(kind=TournamentLogKind.RESULTS_REOPENED).count() == 1


def test_a_correction_after_a_reopen_and_the_revised_final(director: Any) -> None:
    tournament, hand = _finished(director)
    table = standings_table(tournament=Tournament.objects.get(pk=tournament.pk))
    assert table.final and table.revised_at is None
    assert final_revision(tournament=tournament) is None
    tournament_reopen(tournament=tournament, reason="scoresheet misread", recorded_by=director)
    entry = TournamentLog.objects.get(kind=TournamentLogKind.RESULTS_REOPENED)
    assert (entry.reason, entry.recorded_by, entry.changes) == (
        "scoresheet misread",
        director,
        {"status": ["finished", "running"]},
    )
    hand_result_correct(
        hand=hand, reason="misread", landlord=1, bid=1, winner="landlord", recorded_by=director
    )
    assert not standings_table(tournament=Tournament.objects.get(pk=tournament.pk)).final
    tournament_finish(tournament=tournament, recorded_by=director)
    revised = standings_table(tournament=Tournament.objects.get(pk=tournament.pk))
    assert revised.final
    assert revised.revision_reason == "scoresheet misread"
    published = TournamentLog.objects.filter(kind=TournamentLogKind.FINAL_PUBLISHED).last()
    assert published is not None and revised.revised_at == published.recorded_at


# --------------------------------------------------------------------------- frozen settings
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("format", "swiss"),
        ("rule_profile", "classic"),
        ("hands_per_round", 3),
        ("requires_confirmation", True),
    ],
)
def test_settings_are_frozen_once_the_first_round_is_seated(
    director: Any, field: str, value: Any
) -> None:
    table = factories.seated_table(slug="frozen", hands_per_round=2)
    tournament = table.round.tournament
    tournament_update(tournament=tournament, **{field: value}, recorded_by=director)
    tournament_update(  # back: a draft round freezes nothing
        tournament=tournament,
        **{field: Tournament._meta.get_field(field).get_default()},
        recorded_by=director,
    )
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.SEATED)
    logged = TournamentLog.objects.count()
    before = Tournament.objects.get(pk=tournament.pk)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=tournament, **{field: value}, reason="x", recorded_by=director)
    assert excinfo.value.code == "settings_frozen"
    assert excinfo.value.extra == {"fields": [field]}
    after = Tournament.objects.get(pk=tournament.pk)
    assert getattr(after, field) == getattr(before, field)
    assert TournamentLog.objects.count() == logged
    # The same value again is no change: the rest of the form still saves.
    tournament_update(
        tournament=tournament, **{field: getattr(before, field)}, name="Same", recorded_by=director
    )
    assert Tournament.objects.get(pk=tournament.pk).name == "Same"


def test_the_tiebreak_chain_changes_after_seating_only_with_a_reason(director: Any) -> None:
    table = factories.seated_table(slug="chain")
    tournament = table.round.tournament
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=tournament, tiebreaks=["registration"], recorded_by=director)
    assert excinfo.value.code == "reason_required"
    assert Tournament.objects.get(pk=tournament.pk).tiebreaks == []
    tournament_update(
        tournament=tournament,
        tiebreaks=["registration"],
        reason="as announced at the players' meeting",
        recorded_by=director,
    )
    entry = TournamentLog.objects.get(kind=TournamentLogKind.SETTINGS_CHANGED)
    assert entry.changes == {"tiebreaks": [[], ["registration"]]}
    assert entry.reason == "as announced at the players' meeting"
    assert entry.recorded_by == director


@pytest.mark.parametrize(("start", "status"), [("running", "finished"), ("finished", "running")])
def test_the_finished_status_is_set_only_by_the_publication(
    director: Any, start: str, status: str
) -> None:
    tournament = factories.TournamentFactory(status=start)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=tournament, status=status, recorded_by=director)
    assert excinfo.value.code == "final_by_publication"
    assert Tournament.objects.get(pk=tournament.pk).status == start
    assert not TournamentLog.objects.exists()


# --------------------------------------------------------------------------- a race
def _together(*calls: Any) -> list[Any]:
    """Each call in its own thread and connection, started at once; what each returned or
    raised, in the calls' order."""
    import threading

    from django.db import connections

    outcomes: list[Any] = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(index: int, call: Any) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as exc:
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(4))
def test_a_penalty_racing_the_publication_is_in_the_final_or_refused(attempt: int) -> None:
    """The publication locks the tournament row; the penalty's log-version bump waits for
    it and then finds the tournament finished. Either order, the final standings hold every
    change that was accepted."""
    from tournaments.models import StandingSnapshot

    table = factories.seated_table(slug=f"race-{attempt}", hands_per_round=1)
    finish(table, landlord=0, bid=2, winner="landlord")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.CLOSED)
    tournament = table.round.tournament
    entry = table.seats.get(position=2).entry
    published, penalised = _together(
        lambda: tournament_finish(tournament=tournament),
        lambda: penalty_create(entry=entry, points=-5, reason="late"),
    )
    assert isinstance(published, Tournament), published
    stored = Tournament.objects.get(pk=tournament.pk)
    assert stored.status == TournamentStatus.FINISHED
    if isinstance(penalised, ApplicationError):
        assert penalised.code == "results_final"
        assert not Penalty.objects.filter(entry=entry).exists()
    else:
        assert isinstance(penalised, Penalty), penalised
    final = StandingSnapshot.objects.filter(tournament=tournament).order_by("-log_version")[0]
    assert final.log_version == stored.log_version  # nothing changed after the final
    row = StandingSnapshot.objects.get(
        tournament=tournament, log_version=final.log_version, entry=entry
    )
    assert row.penalty_points == (-5 if isinstance(penalised, Penalty) else 0)


# --------------------------------------------------------------------------- over the API
def test_the_api_refuses_result_changes_of_a_final_tournament_for_every_role(
    director: Any, referee: Any
) -> None:
    from tests.api.helpers import assign, client_for, post, referee_user

    tournament, hand = _finished(director)
    assign(referee, hand.table)
    other = referee_user("other-table-ref")
    other_table = factories.TableFactory(round=hand.table.round, number=hand.table.number + 1)
    assign(other, other_table)
    plain = factories.UserFactory(username="plain-user")
    events, penalties = HandEvent.objects.count(), Penalty.objects.count()
    version = Tournament.objects.get(pk=tournament.pk).log_version
    void = f"/api/v1/hands/{hand.pk}/void/"
    penalty = f"/api/v1/tournaments/{tournament.slug}/penalties/"
    entry = hand.table.seats.get(position=0).entry
    for user in (None, referee, other, plain, director):
        client = client_for(user)
        voided = post(client, void, {"reason": "misdeal"})
        penalised = post(
            client, penalty, {"entry": entry.pk, "points": -2, "reason": "late", "hand": hand.pk}
        )
        for response in (voided, penalised):
            assert response.status_code in (401, 403, 409), response.content
            if user is director:
                assert (response.status_code, response.json()["code"]) == (409, "results_final")
    assert (HandEvent.objects.count(), Penalty.objects.count()) == (events, penalties)
    assert Tournament.objects.get(pk=tournament.pk).log_version == version
