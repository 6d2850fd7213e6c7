"""Triggers for the invariants a CHECK cannot express, on every supported database.

0003 gave PostgreSQL the append-only hand log and the seat/table round consistency.
This migration adds, on PostgreSQL and SQLite alike:

* The rule profile of a tournament is frozen once the tournament has a hand, and a
  hand always carries its tournament's rule profile.

and on SQLite (the development and first CI database) the triggers PostgreSQL got
in 0003:

* Hand events are append-only: UPDATE and DELETE are rejected.
* A seat's denormalised ``round_id`` equals its table's ``round_id``, and a table
  with seats cannot move to another round.

SQLite notes: a trigger error is ``RAISE(ABORT, ...)``, which Django reports as an
IntegrityError.  SQLite rebuilds a table for most ALTER TABLE operations and the
rebuild drops the table's triggers, so a later migration that alters one of these
tables on SQLite must create its triggers again (tests/tournaments/test_constraints.py
fails if one goes missing).  ``manage.py flush`` is refused on SQLite once a hand has
events (PostgreSQL's TRUNCATE does not fire row triggers); delete ``db.sqlite3``
instead.
"""

from django.db import migrations

# The rule profile of the tournament a table belongs to.
_TABLE_PROFILE = """
    (SELECT t.rule_profile
       FROM tournaments_table tb
       JOIN tournaments_round r ON r.id = tb.round_id
       JOIN tournaments_tournament t ON t.id = r.tournament_id
      WHERE tb.id = NEW.table_id)
"""
_TOURNAMENT_HAS_HANDS = """
    EXISTS (SELECT 1
              FROM tournaments_hand h
              JOIN tournaments_table tb ON tb.id = h.table_id
              JOIN tournaments_round r ON r.id = tb.round_id
             WHERE r.tournament_id = OLD.id)
"""
FROZEN = "the rule profile of a tournament with hands cannot change"
HAND_PROFILE = "a hand must carry the rule profile of its tournament"
SEAT_ROUND = "seat round_id must equal the round_id of its table"
TABLE_ROUND = "a table with seats cannot move to another round"

POSTGRESQL_FORWARD = [
    f"""
    CREATE OR REPLACE FUNCTION tournaments_tournament_rule_profile_frozen() RETURNS trigger AS $$
    BEGIN
        IF NEW.rule_profile IS DISTINCT FROM OLD.rule_profile AND {_TOURNAMENT_HAS_HANDS} THEN
            RAISE EXCEPTION '{FROZEN}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER tournaments_tournament_rule_profile_frozen
        BEFORE UPDATE OF rule_profile ON tournaments_tournament
        FOR EACH ROW EXECUTE FUNCTION tournaments_tournament_rule_profile_frozen()
    """,
    f"""
    CREATE OR REPLACE FUNCTION tournaments_hand_rule_profile_matches() RETURNS trigger AS $$
    BEGIN
        IF NEW.rule_profile IS DISTINCT FROM {_TABLE_PROFILE} THEN
            RAISE EXCEPTION '{HAND_PROFILE}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER tournaments_hand_rule_profile_matches
        BEFORE INSERT OR UPDATE OF rule_profile, table_id ON tournaments_hand
        FOR EACH ROW EXECUTE FUNCTION tournaments_hand_rule_profile_matches()
    """,
]

POSTGRESQL_BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_hand_rule_profile_matches ON tournaments_hand",
    "DROP FUNCTION IF EXISTS tournaments_hand_rule_profile_matches()",
    "DROP TRIGGER IF EXISTS tournaments_tournament_rule_profile_frozen ON tournaments_tournament",
    "DROP FUNCTION IF EXISTS tournaments_tournament_rule_profile_frozen()",
]


def _sqlite_trigger(name: str, event: str, when: str, message: str) -> str:
    return (
        f"CREATE TRIGGER {name} {event} FOR EACH ROW WHEN {when} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )


SQLITE_TRIGGERS = {
    "tournaments_handevent_no_update": (
        "BEFORE UPDATE ON tournaments_handevent",
        "1",
        "tournaments_handevent is append-only: UPDATE rejected",
    ),
    "tournaments_handevent_no_delete": (
        "BEFORE DELETE ON tournaments_handevent",
        "1",
        "tournaments_handevent is append-only: DELETE rejected",
    ),
    "tournaments_seat_round_matches_table_insert": (
        "BEFORE INSERT ON tournaments_seat",
        "NEW.round_id IS NOT (SELECT round_id FROM tournaments_table WHERE id = NEW.table_id)",
        SEAT_ROUND,
    ),
    "tournaments_seat_round_matches_table_update": (
        "BEFORE UPDATE OF table_id, round_id ON tournaments_seat",
        "NEW.round_id IS NOT (SELECT round_id FROM tournaments_table WHERE id = NEW.table_id)",
        SEAT_ROUND,
    ),
    "tournaments_table_keeps_round": (
        "BEFORE UPDATE OF round_id ON tournaments_table",
        "NEW.round_id IS NOT OLD.round_id"
        " AND EXISTS (SELECT 1 FROM tournaments_seat WHERE table_id = OLD.id)",
        TABLE_ROUND,
    ),
    "tournaments_tournament_rule_profile_frozen": (
        "BEFORE UPDATE OF rule_profile ON tournaments_tournament",
        f"NEW.rule_profile IS NOT OLD.rule_profile AND {_TOURNAMENT_HAS_HANDS}",
        FROZEN,
    ),
    "tournaments_hand_rule_profile_matches_insert": (
        "BEFORE INSERT ON tournaments_hand",
        f"NEW.rule_profile IS NOT {_TABLE_PROFILE}",
        HAND_PROFILE,
    ),
    "tournaments_hand_rule_profile_matches_update": (
        "BEFORE UPDATE OF rule_profile, table_id ON tournaments_hand",
        f"NEW.rule_profile IS NOT {_TABLE_PROFILE}",
        HAND_PROFILE,
    ),
}

SQLITE_FORWARD = [
    _sqlite_trigger(name, event, when, message)
    for name, (event, when, message) in SQLITE_TRIGGERS.items()
]
SQLITE_BACKWARD = [f"DROP TRIGGER IF EXISTS {name}" for name in reversed(SQLITE_TRIGGERS)]

FORWARD = {"postgresql": POSTGRESQL_FORWARD, "sqlite": SQLITE_FORWARD}
BACKWARD = {"postgresql": POSTGRESQL_BACKWARD, "sqlite": SQLITE_BACKWARD}


def _run_for_vendor(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, ()):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_postgresql_triggers")]

    operations = [
        migrations.RunPython(_run_for_vendor(FORWARD), _run_for_vendor(BACKWARD)),
    ]
