"""PostgreSQL-only triggers for invariants that a CHECK cannot express.

* Hand events are append-only: UPDATE and DELETE are rejected.
* A seat's denormalised ``round_id`` equals its table's ``round_id``, and a
  table with seats cannot move to another round.

Other databases (SQLite in development) get no trigger; the services keep the
same rules there.
"""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION tournaments_hand_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'tournaments_handevent is append-only: % rejected', TG_OP
            USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER tournaments_handevent_append_only
        BEFORE UPDATE OR DELETE ON tournaments_handevent
        FOR EACH ROW EXECUTE FUNCTION tournaments_hand_event_append_only()
    """,
    """
    CREATE OR REPLACE FUNCTION tournaments_seat_round_matches_table() RETURNS trigger AS $$
    BEGIN
        IF NEW.round_id IS DISTINCT FROM
                (SELECT round_id FROM tournaments_table WHERE id = NEW.table_id) THEN
            RAISE EXCEPTION 'seat round_id must equal the round_id of its table'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER tournaments_seat_round_matches_table
        BEFORE INSERT OR UPDATE OF table_id, round_id ON tournaments_seat
        FOR EACH ROW EXECUTE FUNCTION tournaments_seat_round_matches_table()
    """,
    """
    CREATE OR REPLACE FUNCTION tournaments_table_keeps_round() RETURNS trigger AS $$
    BEGIN
        IF NEW.round_id IS DISTINCT FROM OLD.round_id
                AND EXISTS (SELECT 1 FROM tournaments_seat WHERE table_id = OLD.id) THEN
            RAISE EXCEPTION 'a table with seats cannot move to another round'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER tournaments_table_keeps_round
        BEFORE UPDATE OF round_id ON tournaments_table
        FOR EACH ROW EXECUTE FUNCTION tournaments_table_keeps_round()
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_table_keeps_round ON tournaments_table",
    "DROP FUNCTION IF EXISTS tournaments_table_keeps_round()",
    "DROP TRIGGER IF EXISTS tournaments_seat_round_matches_table ON tournaments_seat",
    "DROP FUNCTION IF EXISTS tournaments_seat_round_matches_table()",
    "DROP TRIGGER IF EXISTS tournaments_handevent_append_only ON tournaments_handevent",
    "DROP FUNCTION IF EXISTS tournaments_hand_event_append_only()",
]


def _run_on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for statement in statements:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_referee_group")]

    operations = [
        migrations.RunPython(_run_on_postgresql(FORWARD), _run_on_postgresql(BACKWARD)),
    ]
