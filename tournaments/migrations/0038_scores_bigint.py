"""Every score the rules can produce is stored: 64 bits wherever a hand's score or a sum of
scores is held or computed. Six players are uncapped (R13.9: a landlord alone who springs
five farmers with 41 bombs takes 5 × 2^42), a five-player landlord pays 4 × 3 × 2^28
(R14.7): beyond PostgreSQL's ``integer``, where such a hand's write failed ("integer out of
range", a 500).

* ``HandSeatResult.score`` and ``StandingSnapshot.total``, ``deal_points`` and
  ``penalty_points`` become ``bigint`` (SQLite's integer is 64 bits already; its tables are
  rebuilt, so its triggers are kept around the change).
* PostgreSQL only (SQLite's checks and triggers read the scores with ``json_extract``, no
  cast): the hand's zero-sum check (``hand_scores_sound``, 0034) adds its scores up as
  ``numeric`` and refuses a score outside ``bigint`` (as SQLite's check refuses one that is
  no 64-bit integer) instead of failing on it; the triggers that hold a per-seat row to its
  hand (0020, 0037) read the hand's score as ``bigint``.

Reversed: the old definitions (a score beyond ``integer`` then fails the reversal, as it
should: the old columns cannot hold it).
"""

import importlib

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

_six = importlib.import_module("tournaments.migrations.0037_six_p_profile")
_checks = importlib.import_module("tournaments.migrations.0034_per_seat_checks_as_functions")
_audit = importlib.import_module("tournaments.migrations.0011_audit_trail")

SCORES_SOUND = """
CREATE OR REPLACE FUNCTION hand_scores_sound(scores jsonb, seats integer) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    total numeric := 0;
    score jsonb;
BEGIN
    IF jsonb_typeof(scores) IS DISTINCT FROM 'array'
       OR jsonb_array_length(scores) IS DISTINCT FROM seats THEN
        RETURN false;
    END IF;
    FOR score IN SELECT jsonb_array_elements(scores) LOOP
        -- jsonb has one number type: the text of an integer is digits alone (12.0 is not)
        IF jsonb_typeof(score) <> 'number' OR score::text !~ '^-?[0-9]+$'
           OR score::text::numeric NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN
            RETURN false;
        END IF;
        total := total + score::text::numeric;
    END LOOP;
    RETURN total = 0;
END $$;
"""

#: 0034's function, as it was (scores added up as ``integer``).
SCORES_SOUND_BEFORE = _checks.FUNCTIONS.split("CREATE OR REPLACE FUNCTION hand_flags_sound")[0]
assert "total integer := 0;" in SCORES_SOUND_BEFORE

#: The per-seat rows' triggers of 0037: their PostgreSQL conditions, and the same reading
#: the hand's score as ``bigint``.
SEAT_RESULT_TRIGGERS = ("tournaments_seat_result_matches_hand", "tournaments_seat_result_delete_stale")
BEFORE = {name: (_six.TRIGGERS[name][2], _six.TRIGGERS[name][4]) for name in SEAT_RESULT_TRIGGERS}
WIDE = {}
for _name, (_condition, _message) in BEFORE.items():
    assert "::integer" in _condition
    WIDE[_name] = (_condition.replace("::integer", "::bigint"), _message)


def _on_postgresql(sql, triggers):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(sql, params=None)
        for name, (condition, message) in triggers.items():
            schema_editor.execute(_audit._pg_function(name, condition, message), params=None)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0037_six_p_profile'),
    ]

    operations = [
        *keeping_sqlite_triggers([
            migrations.AlterField(
                model_name='handseatresult',
                name='score',
                field=models.BigIntegerField(verbose_name='score'),
            ),
            migrations.AlterField(
                model_name='standingsnapshot',
                name='deal_points',
                field=models.BigIntegerField(default=0, verbose_name='deal points'),
            ),
            migrations.AlterField(
                model_name='standingsnapshot',
                name='penalty_points',
                field=models.BigIntegerField(default=0, verbose_name='penalty points'),
            ),
            migrations.AlterField(
                model_name='standingsnapshot',
                name='total',
                field=models.BigIntegerField(verbose_name='total'),
            ),
        ]),
        migrations.RunPython(
            _on_postgresql(SCORES_SOUND, WIDE), _on_postgresql(SCORES_SOUND_BEFORE, BEFORE)
        ),
    ]
