"""Issue 28, point 4, reproduced AS THE APPLICATION ROLE on PostgreSQL: a standings snapshot
at ``log_version + 1000`` with a total of 99999, a version written by hand, a status, a
withdrawal, a tie-break chain or a format changed with no trace: each is refused (migration
0024); with the log row the database asks for, a change goes through and stays on record.
The services still write and leave their log rows; the public standings, the CSV and
/healthz show the log's numbers.  Connection set-up as in test_app_role.py."""

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from psycopg import errors

from tests.tournaments.builders import finish, table_of, tournament_with_entries
from tournaments.common.health_selectors import standings_lag
from tournaments.models import Entry, StandingSnapshot, Tournament, TournamentLog
from tournaments.standings.snapshots import standings_snapshot_update, standings_sweep

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

ROLE = settings.DATABASE_APP_ROLE
WHERE = ("host", "port", "dbname")


@pytest.fixture
def app_role() -> Iterator[psycopg.Connection[Any]]:
    call_command("db_app_role", stdout=None)
    where = {k: v for k, v in connection.get_connection_params().items() if k in WHERE}
    with psycopg.connect(**where, user=ROLE, autocommit=True) as conn:
        yield conn


@pytest.fixture
def scored() -> tuple[Tournament, list[Entry]]:
    """A public running tournament: one hand finished (6 / -3 / -3), standings computed."""
    tournament, entries = tournament_with_entries(
        3, status="running", is_public=True, slug="forged"
    )
    finish(table_of(tournament, 1, 1, entries), landlord=0, bid=3, winner="landlord")
    standings_snapshot_update(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament, entries


def refused(conn: psycopg.Connection[Any], statement: str, params: list[Any] | None = None) -> bool:
    try:
        conn.execute(statement, params or [])
    except (errors.InsufficientPrivilege, errors.IntegrityError):
        return True
    return False


#: The snapshot row of a defender of the one hand (-3), as the recompute writes it.
DEFENDER = {
    "rank": 2, "total": -3, "deal_points": -3, "penalty_points": 0, "hands_played": 1,
    "landlord_hands": 0, "landlord_wins": 0, "withdrawn": False, "round_number": 1,
}  # fmt: skip


def _snapshot_insert(entry: Entry, version: int, **values: Any) -> tuple[str, list[Any]]:
    row = {**DEFENDER, "tournament_id": entry.tournament_id, "entry_id": entry.pk}
    row.update(log_version=version, **values)
    columns = ", ".join(row)
    return (
        f"INSERT INTO tournaments_standingsnapshot ({columns}, tiebreaks, matchpoints,"
        " matchpoint_top, boards_scored, tops, mp_percentage, computed_at)"
        f" VALUES ({', '.join(['%s'] * len(row))}, '{{}}', 0, 0, 0, 0, 0, now())",
        list(row.values()),
    )


def untouched(tournament: Tournament, version: int) -> None:
    t = Tournament.objects.get(pk=tournament.pk)
    assert (t.log_version, t.status, t.tiebreaks, t.format) == (version, "running", [], "table")
    assert not Entry.objects.filter(tournament=tournament, withdrawn=True).exists()
    assert not StandingSnapshot.objects.filter(total=99999).exists()


def test_the_forged_snapshot_of_the_issue_is_refused_and_nothing_shows_it(
    app_role: psycopg.Connection[Any], scored: tuple[Tournament, list[Entry]], client: Any
) -> None:
    tournament, entries = scored
    version = tournament.log_version
    ahead = _snapshot_insert(entries[1], version + 1000, total=99999, deal_points=99999)
    assert refused(app_role, *ahead)
    assert refused(app_role, *_snapshot_insert(entries[1], version + 1000))
    # At the current version, with totals the rows do not give: refused too.
    app_role.execute(
        "DELETE FROM tournaments_standingsnapshot WHERE entry_id = %s", [entries[1].pk]
    )
    forged = _snapshot_insert(entries[1], version, total=99999, deal_points=99999)
    assert refused(app_role, *forged)
    assert refused(app_role, *_snapshot_insert(entries[1], version, total=99999))
    assert refused(app_role, *_snapshot_insert(entries[1], version, hands_played=7))
    assert refused(app_role, *_snapshot_insert(entries[1], version, withdrawn=True))
    assert refused(app_role, "UPDATE tournaments_standingsnapshot SET total = 99999")
    # The recompute puts back what the rows say; the pages and /healthz show the log.
    standings_snapshot_update(tournament_id=tournament.pk)
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    csv = client.get(reverse("public:standings-csv", args=[tournament.slug])).content.decode()
    assert "99999" not in page and "99999" not in csv
    assert sorted(
        StandingSnapshot.objects.filter(tournament=tournament).values_list("total", flat=True)
    ) == [-3, -3, 6]
    assert standings_lag() == 0


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE tournaments_tournament SET log_version = log_version + 1000",
        "UPDATE tournaments_tournament SET log_version = log_version + 1",
        "UPDATE tournaments_tournament SET log_version = 0",
        "UPDATE tournaments_tournament SET inputs_changed = true",
        "UPDATE tournaments_tournament SET inputs_changed = true, log_version = log_version + 1",
        "UPDATE tournaments_tournament SET status = 'finished'",
        "UPDATE tournaments_tournament SET status = 'draft'",
        "UPDATE tournaments_tournament SET tiebreaks = '[\"registration\"]'",
        "UPDATE tournaments_tournament SET format = 'swiss'",
        "UPDATE tournaments_tournament SET requires_confirmation = true",
        "UPDATE tournaments_tournament SET rule_profile = 'classic'",
        "UPDATE tournaments_entry SET withdrawn = true",
        "ALTER TABLE tournaments_tournament DISABLE TRIGGER tournaments_tournament_logged",
        "ALTER TABLE tournaments_standingsnapshot DISABLE TRIGGER ALL",
        "DROP TRIGGER tournaments_entry_withdrawn_logged ON tournaments_entry",
        "CREATE OR REPLACE FUNCTION tournaments_tournament_logged() RETURNS trigger"
        " AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql",
    ],
)
def test_each_change_with_no_trace_is_refused(
    app_role: psycopg.Connection[Any], scored: tuple[Tournament, list[Entry]], statement: str
) -> None:
    tournament, _ = scored
    assert refused(app_role, statement)
    untouched(tournament, tournament.log_version)


def test_a_replayed_or_foreign_log_row_does_not_do(
    app_role: psycopg.Connection[Any], scored: tuple[Tournament, list[Entry]]
) -> None:
    tournament, entries = scored
    # A row for another entry, and a row that says another change of the status.
    app_role.execute(
        "INSERT INTO tournaments_tournamentlog (tournament_id, kind, entry_id, reason, changes,"
        " recorded_at) VALUES (%s, 'entry_withdrawn', %s, '', '{}', now()),"
        " (%s, 'settings_changed', NULL, '', '{\"status\": [\"draft\", \"finished\"]}', now())",
        [tournament.pk, entries[0].pk, tournament.pk],
    )
    assert refused(
        app_role, "UPDATE tournaments_entry SET withdrawn = true WHERE id = %s", [entries[1].pk]
    )
    assert refused(
        app_role, "UPDATE tournaments_tournament SET status = 'finished' WHERE id = %s",
        [tournament.pk],
    )  # fmt: skip
    untouched(tournament, tournament.log_version)


def test_with_its_log_row_a_change_goes_through_and_is_on_record(
    app_role: psycopg.Connection[Any], scored: tuple[Tournament, list[Entry]]
) -> None:
    tournament, entries = scored
    app_role.execute(
        "INSERT INTO tournaments_tournamentlog (tournament_id, kind, entry_id, reason, changes,"
        " recorded_at) VALUES (%s, 'entry_withdrawn', %s, 'ill', '{}', now())",
        [tournament.pk, entries[1].pk],
    )
    app_role.execute("UPDATE tournaments_entry SET withdrawn = true WHERE id = %s", [entries[1].pk])
    log = TournamentLog.objects.get(entry=entries[1])
    assert (log.kind, log.reason) == ("entry_withdrawn", "ill")
    # The database marked the change: the sweep versions it, and the standings say it.
    assert Tournament.objects.get(pk=tournament.pk).inputs_changed
    assert standings_lag() == 1
    standings_sweep()
    standings_snapshot_update(tournament_id=tournament.pk)
    assert standings_lag() == 0
    row = StandingSnapshot.objects.get(
        entry=entries[1], log_version=Tournament.objects.get(pk=tournament.pk).log_version
    )
    assert row.withdrawn


def test_the_services_still_write_as_the_application_role_does(
    app_role: psycopg.Connection[Any], scored: tuple[Tournament, list[Entry]]
) -> None:
    """The statements the services run, as the application role: a penalty (marked by the
    database), then the bump of ``tournament_scores_changed``; the snapshot of the
    recompute, at that version, with the rows' totals."""
    tournament, entries = scored
    version = tournament.log_version
    app_role.execute(
        "INSERT INTO tournaments_penalty (tournament_id, entry_id, points, reason, recorded_at,"
        " revoke_reason) VALUES (%s, %s, -2, 'R9', now(), '')",
        [tournament.pk, entries[0].pk],
    )
    app_role.execute(
        "UPDATE tournaments_tournament SET log_version = log_version + 1,"
        " inputs_changed = false WHERE id = %s",
        [tournament.pk],
    )
    assert Tournament.objects.get(pk=tournament.pk).log_version == version + 1
    app_role.execute(
        "DELETE FROM tournaments_standingsnapshot WHERE tournament_id = %s", [tournament.pk]
    )
    landlord = {"rank": 1, "total": 4, "deal_points": 6, "penalty_points": -2}
    app_role.execute(
        *_snapshot_insert(entries[0], version + 1, **landlord, landlord_hands=1, landlord_wins=1)
    )
    assert StandingSnapshot.objects.get(entry=entries[0]).total == 4
