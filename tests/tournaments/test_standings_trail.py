"""Numbers nobody can forge (issue 28, point 4), on SQLite and PostgreSQL alike: the database
holds a snapshot to the log version and the rows it summarises, lets the settings that change
the standings and a withdrawal change only to what the tournament log says, and the log
version move only by one after a change it marked (migration 0024).  The services still
write, and leave their log rows; the recompute replaces a snapshot it did not write."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F

from tests import factories
from tests.tournaments.builders import finish, table_of, tournament_with_entries
from tournaments.common.health_selectors import standings_lag
from tournaments.models import (
    Entry,
    Penalty,
    StandingSnapshot,
    Tournament,
    TournamentLog,
    TournamentLogKind,
)
from tournaments.rounds.services import round_start
from tournaments.standings.public_table import standings_table
from tournaments.standings.snapshots import standings_snapshot_update, standings_sweep
from tournaments.tournament.log import tournament_log_append
from tournaments.tournament.penalties import penalty_create
from tournaments.tournament.services import tournament_update
from tournaments.tournament.withdrawals import entry_reinstate, entry_withdraw

pytestmark = pytest.mark.django_db


def refused(write: Callable[[], Any]) -> bool:
    try:
        with transaction.atomic():
            write()
    except IntegrityError:
        return True
    return False


@pytest.fixture
def scored() -> tuple[Tournament, list[Entry]]:
    """Three entries, one hand finished (6 / -3 / -3), the standings computed."""
    tournament, entries = tournament_with_entries(3)
    finish(table_of(tournament, 1, 1, entries), landlord=0, bid=3, winner="landlord")
    standings_snapshot_update(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament, entries


def _fields(tournament: Tournament, entry: Entry) -> dict[str, Any]:
    """The computed snapshot row of ``entry`` at the current version, as column values."""
    row = StandingSnapshot.objects.get(
        tournament=tournament, entry=entry, log_version=tournament.log_version
    )
    return {
        f.attname: getattr(row, f.attname)
        for f in StandingSnapshot._meta.concrete_fields
        if not f.primary_key
    }


def _snapshot(tournament: Tournament, entry: Entry, **values: Any) -> Callable[[], Any]:
    fields = _fields(tournament, entry)
    return lambda: StandingSnapshot.objects.create(**{**fields, **values})


def test_a_snapshot_ahead_of_the_log_or_with_forged_totals_is_refused(
    scored: tuple[Tournament, list[Entry]],
) -> None:
    tournament, entries = scored
    version = tournament.log_version
    assert refused(_snapshot(tournament, entries[1], log_version=version + 1000, total=99999))
    assert refused(_snapshot(tournament, entries[1], log_version=version + 1))
    StandingSnapshot.objects.filter(tournament=tournament, entry=entries[1]).delete()
    assert refused(_snapshot(tournament, entries[0], entry_id=entries[1].pk, total=99999))
    forged = {"total": 99999, "deal_points": 99999}
    assert refused(lambda: _snapshot(tournament, entries[0], entry_id=entries[1].pk, **forged)())
    assert refused(
        lambda: StandingSnapshot.objects.filter(entry=entries[0]).update(total=F("total") + 1)
    )
    assert refused(lambda: StandingSnapshot.objects.filter(entry=entries[0]).update(rank=3))
    assert StandingSnapshot.objects.get(entry=entries[0], log_version=version).total == 6


def test_a_snapshot_behind_the_log_is_refused(scored: tuple[Tournament, list[Entry]]) -> None:
    tournament, entries = scored
    row = _snapshot(tournament, entries[0])
    StandingSnapshot.objects.filter(tournament=tournament).delete()
    penalty_create(entry=entries[1], points=-2, reason="R9")  # the version moves on
    assert refused(row)


def test_the_settings_that_rank_and_the_status_change_only_with_their_log_row(
    scored: tuple[Tournament, list[Entry]],
) -> None:
    tournament, _ = scored
    rows = Tournament.objects.filter(pk=tournament.pk)
    for change in (
        {"status": "finished"},
        {"tiebreaks": ["registration"]},
        {"format": "swiss"},
        {"requires_confirmation": True},
    ):
        assert refused(lambda change=change: rows.update(**change)), change
    # A log row that says another change, or an older one, does not do.
    factories.tournament_log_says(tournament.pk, status="running")
    assert refused(lambda: rows.update(status="finished"))
    assert rows.get().status == "draft"
    # The log row that says it does: the change is on record.
    factories.tournament_set(tournament.pk, tiebreaks=["registration"])
    assert rows.get().tiebreaks == ["registration"]
    back = ["registration", "last_deal"]
    assert refused(lambda: rows.update(tiebreaks=back))  # the newest row says another


def test_a_withdrawal_changes_only_with_its_log_row(
    scored: tuple[Tournament, list[Entry]],
) -> None:
    tournament, entries = scored
    entry = Entry.objects.filter(pk=entries[2].pk)
    assert refused(lambda: entry.update(withdrawn=True))
    tournament_log_append(
        tournament_id=tournament.pk,
        kind=TournamentLogKind.ENTRY_WITHDRAWN,
        entry_id=entries[1].pk,  # another entry's row
        recorded_by=None,
    )
    assert refused(lambda: entry.update(withdrawn=True))
    assert not entry.get().withdrawn


def test_the_log_version_moves_by_one_and_only_after_a_marked_change(
    scored: tuple[Tournament, list[Entry]],
) -> None:
    tournament, entries = scored
    rows = Tournament.objects.filter(pk=tournament.pk)
    version = tournament.log_version
    assert refused(lambda: rows.update(log_version=F("log_version") + 1000))
    assert refused(lambda: rows.update(log_version=F("log_version") + 1, inputs_changed=False))
    assert refused(lambda: rows.update(log_version=F("log_version") - 1))
    Penalty.objects.create(tournament=tournament, entry=entries[0], points=-1, reason="R9")
    assert rows.get().inputs_changed  # the database marked the penalty
    assert refused(lambda: rows.update(inputs_changed=False))  # not without its version
    assert refused(lambda: rows.update(log_version=F("log_version") + 2, inputs_changed=False))
    assert rows.update(log_version=F("log_version") + 1, inputs_changed=False) == 1
    assert refused(lambda: rows.update(log_version=F("log_version") + 1, inputs_changed=False))
    assert rows.get().log_version == version + 1


def test_the_services_still_write_and_leave_their_log_rows(
    director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, entries = tournament_with_entries(3, status="draft")
    table = table_of(tournament, 1, 1, entries)
    table.round.status = "seated"
    table.round.save(update_fields=["status"])
    with django_capture_on_commit_callbacks(execute=True):
        round_start(round=table.round, recorded_by=director)
        finish(table, landlord=0, bid=3, winner="landlord")
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.log_version == 1
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(
            tournament=tournament,
            tiebreaks=["registration"],
            reason="by the book",
            recorded_by=director,
        )
        entry_withdraw(entry=entries[2], reason="ill", recorded_by=director)
        entry_reinstate(entry=entries[2], reason="better", recorded_by=director)
        penalty_create(entry=entries[1], points=-2, reason="R9", recorded_by=director)
    tournament.refresh_from_db()
    assert tournament.log_version == 5 and not tournament.inputs_changed
    assert (
        tournament.tiebreaks == ["registration"]
        and not Entry.objects.get(pk=entries[2].pk).withdrawn
    )
    log = list(TournamentLog.objects.filter(tournament=tournament).order_by("id"))
    assert [(row.kind, row.entry_id, row.changes) for row in log] == [
        ("settings_changed", None, {"status": ["draft", "running"]}),
        ("settings_changed", None, {"tiebreaks": [[], ["registration"]]}),
        ("entry_withdrawn", entries[2].pk, {}),
        ("entry_reinstated", entries[2].pk, {}),
    ]
    assert all(row.recorded_by == director for row in log)
    totals = dict(
        StandingSnapshot.objects.filter(tournament=tournament, log_version=5).values_list(
            "entry_id", "total"
        )
    )
    assert totals == {entries[0].pk: 6, entries[1].pk: -5, entries[2].pk: -3}


def test_a_recompute_replaces_a_snapshot_it_did_not_write(
    scored: tuple[Tournament, list[Entry]],
) -> None:
    tournament, entries = scored
    version = tournament.log_version
    computed = list(
        StandingSnapshot.objects.filter(tournament=tournament, log_version=version)
        .order_by("entry_id")
        .values_list("entry_id", "rank")
    )
    # Right totals, forged ranks (the last first), one entry missing.
    fields = {e.pk: _fields(tournament, e) for e in entries}
    StandingSnapshot.objects.filter(tournament=tournament).delete()
    for entry, rank in ((entries[2], 1), (entries[0], 2)):
        StandingSnapshot.objects.create(**{**fields[entry.pk], "rank": rank})
    assert standings_snapshot_update(tournament_id=tournament.pk) == version
    assert (
        list(
            StandingSnapshot.objects.filter(tournament=tournament, log_version=version)
            .order_by("entry_id")
            .values_list("entry_id", "rank")
        )
        == computed
    )


def test_a_change_written_around_the_services_shows_as_stale_and_is_versioned(
    scored: tuple[Tournament, list[Entry]], django_capture_on_commit_callbacks: Any
) -> None:
    tournament, entries = scored
    factories.tournament_set(tournament.pk, is_public=True)  # not a standings setting
    assert standings_lag() == 0
    Penalty.objects.create(tournament=tournament, entry=entries[0], points=-4, reason="R9")
    assert standings_lag() == 1  # the marked change counts, though nothing versioned it
    with django_capture_on_commit_callbacks(execute=True):
        assert standings_sweep() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.log_version == 2 and not tournament.inputs_changed
    assert standings_lag() == 0
    table = standings_table(tournament=tournament)
    assert table.log_version == 2
    assert [row["total"] for row in table.rows] == [2, -3, -3]


@pytest.mark.django_db(transaction=True)
def test_migration_0024_goes_back_and_forth_and_drops_a_snapshot_ahead_of_the_log() -> None:
    tournament, entries = tournament_with_entries(3)
    finish(table_of(tournament, 1, 1, entries), landlord=0, bid=3, winner="landlord")
    standings_snapshot_update(tournament_id=tournament.pk)
    version = Tournament.objects.get(pk=tournament.pk).log_version
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("tournaments", "0026_hand_exclusions")])
        executor.loader.build_graph()
        old = executor.loader.project_state([("tournaments", "0026_hand_exclusions")]).apps
        # Before 0024 nothing stopped this: the forged row of the issue.
        old.get_model("tournaments", "StandingSnapshot").objects.create(
            tournament_id=tournament.pk, entry_id=entries[1].pk, rank=1, total=99999,
            log_version=version + 1000,
        )  # fmt: skip
        old.get_model("tournaments", "Tournament").objects.filter(pk=tournament.pk).update(
            status="finished"
        )  # no trace, before 0024
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
    assert not StandingSnapshot.objects.filter(total=99999).exists()
    assert StandingSnapshot.objects.filter(tournament=tournament).count() == 3
    assert refused(_snapshot(Tournament.objects.get(pk=tournament.pk), entries[1], total=1))
    assert refused(lambda: Tournament.objects.filter(pk=tournament.pk).update(status="running"))
