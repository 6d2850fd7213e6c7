"""Results and seatings frozen in the database; only the services change them.

On PostgreSQL and SQLite alike:

* A hand's scores are zero-sum whenever they are set, and set only on a finished or
  passed-out hand (two CHECKs: a voided hand with ``score_0=999`` is refused).
* A closed hand (finished, passed out, voided), or a hand becoming one, changes its
  result, scores, status or confirmation only together with a new event of a kind that
  can change them: ``NEW.version > OLD.version``, ``NEW.version`` is the hand's highest
  event ``seq``, and that event's kind is in ``RESULT_EVENT_KINDS``.  The services keep
  ``version`` = number of events = highest ``seq`` (``hand_event_append``), so every
  service write passes and a bare ``UPDATE`` of the row does not.  The database cannot
  replay the log; what it guarantees is that a result never changes without a log entry
  that says why.
* Once a hand exists: a round's tournament and a table's round cannot change, and a hand
  never moves to another table (moving a round to another tournament and back was a way
  around the rule-profile freeze of 0004).
* Once a table has a hand, who sits where cannot change (no INSERT, DELETE or UPDATE of
  its seats) except through ``seat_correct``.  The database checks what that service
  leaves behind: before it rewrites a seat it appends a ``seat_correction`` event
  (position, old entry, new entry) to every hand of the table.  A seat row may leave the
  table (DELETE, or the old side of an UPDATE) only when, on every hand of the table, a
  ``seat_correction`` event for that position names its entry as the old one, and may
  arrive (INSERT, or the new side of an UPDATE) only when such an event names its entry
  as the new one; in both cases that event must still be the newest word on the hand:
  no later event of another kind (a hand played on) and no later correction of the same
  position.  So a seat changes only to what the log says, and only until the hand moves
  on; a director's correction leaves a reason in every affected hand's log.

SQLite rebuilds ``tournaments_hand`` for the CHECKs, so the operations are wrapped in
``keeping_sqlite_triggers`` and the new triggers are created after the rebuild.
"""

from django.db import migrations, models
from django.db.models import F, Q

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

CLOSED = "('finished', 'passed_out', 'voided')"
#: Event kinds after which a hand's result may change (not note, announce, deal...).
RESULT_EVENT_KINDS = (
    "('bid', 'double', 'redouble', 'play', 'result', 'pass_out', 'void', 'correction', "
    "'undo', 'confirm', 'dispute')"
)
RESULT_FIELDS = (
    "status", "landlord_seat", "bid", "winner", "doubled_0", "doubled_1", "doubled_2",
    "redoubled", "bombs", "rockets", "spring", "anti_spring", "score_0", "score_1", "score_2",
    "confirmation",
)  # fmt: skip

RESULT_FROZEN = "the result of a closed hand changes only with a new event in the same transaction"
ROUND_TOURNAMENT = "a round with hands cannot move to another tournament"
TABLE_ROUND = "a table with hands cannot move to another round"
HAND_TABLE = "a hand cannot move to another table"


def _result_changed(distinct: str) -> str:
    changed = " OR ".join(f"NEW.{f} {distinct} OLD.{f}" for f in RESULT_FIELDS)
    return f"(OLD.status IN {CLOSED} OR NEW.status IN {CLOSED}) AND ({changed})"


# The hand's log moved on with this very UPDATE: its highest seq is the new version,
# and that event is one after which a result may change.
_EVENT_MOVED = f"""
    (NEW.version > OLD.version
     AND NEW.version = (SELECT COALESCE(MAX(seq), 0)
                          FROM tournaments_handevent WHERE hand_id = NEW.id)
     AND (SELECT kind FROM tournaments_handevent
           WHERE hand_id = NEW.id AND seq = NEW.version) IN {RESULT_EVENT_KINDS})
"""
_ROUND_HAS_HANDS = """
    EXISTS (SELECT 1 FROM tournaments_hand h
              JOIN tournaments_table tb ON tb.id = h.table_id
             WHERE tb.round_id = OLD.id)
"""
_TABLE_HAS_HANDS = "EXISTS (SELECT 1 FROM tournaments_hand WHERE table_id = OLD.id)"

SEAT_FROZEN = "the seats of a table with hands change only through a seat correction"


def _seat_corrected(row: str, side: str, vendor: str) -> str:
    """True when every hand of ``row``'s table has a newest ``seat_correction`` event for
    ``row``'s position naming ``row``'s entry as its ``side`` (old_entry / new_entry)."""

    def field(alias: str, key: str, value: str) -> str:
        if vendor == "postgresql":  # jsonb ->> gives text; compare as text, no cast can fail
            return f"{alias}.payload ->> '{key}' = ({value})::text"
        return f"json_extract({alias}.payload, '$.{key}') = {value}"

    return f"""
    NOT EXISTS (
        SELECT 1 FROM tournaments_hand h
         WHERE h.table_id = {row}.table_id
           AND NOT EXISTS (
               SELECT 1 FROM tournaments_handevent e
                WHERE e.hand_id = h.id
                  AND e.kind = 'seat_correction'
                  AND {field("e", "position", f"{row}.position")}
                  AND {field("e", side, f"{row}.entry_id")}
                  AND NOT EXISTS (
                      SELECT 1 FROM tournaments_handevent later
                       WHERE later.hand_id = h.id
                         AND later.seq > e.seq
                         AND (later.kind <> 'seat_correction'
                              OR {field("later", "position", f"{row}.position")}))))
    """


def _seat_moved(distinct: str) -> str:
    return " OR ".join(
        f"NEW.{f} {distinct} OLD.{f}" for f in ("table_id", "round_id", "position", "entry_id")
    )


_SEAT_FUNCTION = f"""
    CREATE OR REPLACE FUNCTION tournaments_seat_frozen_with_hands() RETURNS trigger AS $$
    BEGIN
        IF TG_OP IN ('DELETE', 'UPDATE')
                AND (TG_OP = 'DELETE' OR {_seat_moved("IS DISTINCT FROM")})
                AND NOT {_seat_corrected("OLD", "old_entry", "postgresql")} THEN
            RAISE EXCEPTION '{SEAT_FROZEN}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE')
                AND (TG_OP = 'INSERT' OR {_seat_moved("IS DISTINCT FROM")})
                AND NOT {_seat_corrected("NEW", "new_entry", "postgresql")} THEN
            RAISE EXCEPTION '{SEAT_FROZEN}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""
SEAT_POSTGRESQL = [
    _SEAT_FUNCTION,
    "CREATE TRIGGER tournaments_seat_frozen_with_hands "
    "BEFORE INSERT OR UPDATE OR DELETE ON tournaments_seat "
    "FOR EACH ROW EXECUTE FUNCTION tournaments_seat_frozen_with_hands()",
]
SEAT_POSTGRESQL_BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_seat_frozen_with_hands ON tournaments_seat",
    "DROP FUNCTION IF EXISTS tournaments_seat_frozen_with_hands()",
]
_OLD_OUT = _seat_corrected("OLD", "old_entry", "sqlite")
_NEW_IN = _seat_corrected("NEW", "new_entry", "sqlite")
#: name -> (event, condition) of SQLite's three seat triggers.
SEAT_SQLITE = {
    "tournaments_seat_frozen_insert": ("BEFORE INSERT ON tournaments_seat", f"NOT {_NEW_IN}"),
    "tournaments_seat_frozen_delete": ("BEFORE DELETE ON tournaments_seat", f"NOT {_OLD_OUT}"),
    "tournaments_seat_frozen_update": (
        "BEFORE UPDATE ON tournaments_seat",
        f"({_seat_moved('IS NOT')}) AND NOT ({_OLD_OUT} AND {_NEW_IN})",
    ),
}


def _pg_function(name: str, condition: str, message: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
    BEGIN
        IF {condition} THEN
            RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """


def _pg_trigger(name: str, event: str) -> str:
    return f"CREATE TRIGGER {name} {event} FOR EACH ROW EXECUTE FUNCTION {name}()"


def _sqlite_trigger(name: str, event: str, when: str, message: str) -> str:
    return (
        f"CREATE TRIGGER {name} {event} FOR EACH ROW WHEN {when} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )


#: name -> (table, event, PostgreSQL condition, SQLite condition, message)
TRIGGERS = {
    "tournaments_hand_result_frozen": (
        "tournaments_hand",
        "BEFORE UPDATE",
        f"{_result_changed('IS DISTINCT FROM')} AND NOT {_EVENT_MOVED}",
        f"{_result_changed('IS NOT')} AND NOT {_EVENT_MOVED}",
        RESULT_FROZEN,
    ),
    "tournaments_hand_keeps_table": (
        "tournaments_hand",
        "BEFORE UPDATE OF table_id",
        "NEW.table_id IS DISTINCT FROM OLD.table_id",
        "NEW.table_id IS NOT OLD.table_id",
        HAND_TABLE,
    ),
    "tournaments_round_keeps_tournament": (
        "tournaments_round",
        "BEFORE UPDATE OF tournament_id",
        f"NEW.tournament_id IS DISTINCT FROM OLD.tournament_id AND {_ROUND_HAS_HANDS}",
        f"NEW.tournament_id IS NOT OLD.tournament_id AND {_ROUND_HAS_HANDS}",
        ROUND_TOURNAMENT,
    ),
    "tournaments_table_keeps_round_with_hands": (
        "tournaments_table",
        "BEFORE UPDATE OF round_id",
        f"NEW.round_id IS DISTINCT FROM OLD.round_id AND {_TABLE_HAS_HANDS}",
        f"NEW.round_id IS NOT OLD.round_id AND {_TABLE_HAS_HANDS}",
        TABLE_ROUND,
    ),
}

POSTGRESQL_FORWARD = [
    statement
    for name, (table, event, pg_when, _, message) in TRIGGERS.items()
    for statement in (_pg_function(name, pg_when, message), _pg_trigger(name, f"{event} ON {table}"))
]
POSTGRESQL_FORWARD += SEAT_POSTGRESQL
POSTGRESQL_BACKWARD = SEAT_POSTGRESQL_BACKWARD + [
    statement
    for name, (table, *_) in reversed(TRIGGERS.items())
    for statement in (
        f"DROP TRIGGER IF EXISTS {name} ON {table}",
        f"DROP FUNCTION IF EXISTS {name}()",
    )
]
SQLITE_FORWARD = [
    _sqlite_trigger(name, f"{event} ON {table}", sqlite_when, message)
    for name, (table, event, _, sqlite_when, message) in TRIGGERS.items()
]
SQLITE_FORWARD += [
    _sqlite_trigger(name, event, when, SEAT_FROZEN) for name, (event, when) in SEAT_SQLITE.items()
]
SQLITE_BACKWARD = [f"DROP TRIGGER IF EXISTS {name}" for name in [*SEAT_SQLITE, *reversed(TRIGGERS)]]

FORWARD = {"postgresql": POSTGRESQL_FORWARD, "sqlite": SQLITE_FORWARD}
BACKWARD = {"postgresql": POSTGRESQL_BACKWARD, "sqlite": SQLITE_BACKWARD}


def _run_for_vendor(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, ()):
            schema_editor.execute(statement, params=None)

    return run


_NO_SCORES = Q(score_0__isnull=True, score_1__isnull=True, score_2__isnull=True)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_standings")]

    operations = [
        *keeping_sqlite_triggers(
            [
                migrations.AddConstraint(
                    model_name="hand",
                    constraint=models.CheckConstraint(
                        condition=_NO_SCORES
                        | Q(
                            score_0__isnull=False,
                            score_1__isnull=False,
                            score_2__isnull=False,
                            score_0=-F("score_1") - F("score_2"),
                        ),
                        name="hand_scores_zero_sum_when_set",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hand",
                    constraint=models.CheckConstraint(
                        condition=Q(status__in=["finished", "passed_out"]) | _NO_SCORES,
                        name="hand_scores_only_when_finished_or_passed_out",
                    ),
                ),
            ]
        ),
        migrations.RunPython(_run_for_vendor(FORWARD), _run_for_vendor(BACKWARD)),
    ]
