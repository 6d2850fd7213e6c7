"""Numbers nobody can forge: the standings, their version and what ranks them have a trail.

On PostgreSQL and SQLite alike:

* A standing snapshot row is inserted only at its tournament's current ``log_version``
  (never ahead of the log it summarises, nor behind it) and only when it says what the
  rows say now: the entry is the tournament's, ``withdrawn`` is the entry's, ``deal_points``,
  ``hands_played``, ``landlord_hands`` and ``landlord_wins`` are the sums of its per-seat
  result rows, ``penalty_points`` the sum of its penalties in force and ``total`` the two
  added (R10.8.2).  A snapshot row is never updated (a recompute deletes and inserts).
* A tournament's settings that change the standings (``LOGGED``: the status, the tie-break
  chain, the format, the rule profile, whether results need confirmation) change only to what the tournament log says: the newest log row
  that names the setting must say ``[old, new]``.  The services append that row first,
  then write the column; a bare ``UPDATE`` finds no such row (or an older one that says
  another change) and is refused.
* An entry's ``withdrawn`` changes only when its newest withdrawal / reinstatement log row
  says so (``entry_withdrawn`` → true, ``entry_reinstated`` → false).
* ``log_version`` moves only forward by one, and only when an input of the standings has
  changed since the last move: the database itself marks the tournament
  (``inputs_changed``) when a per-seat result row is inserted or deleted, a penalty is
  recorded or revoked, an entry's ``withdrawn``, a hand's status, confirmation, scores or
  landlord, a seat's entry, or the tournament's format or tie-breaks change; the bump
  (``tournament_scores_changed``) clears the mark.  Each of those changes has its own
  trail (the hand log, the penalty rows, the tournament log, the seat-correction events).

On PostgreSQL only (SQLite cannot tell a trigger's statement from the caller's): the mark
is set only by those triggers (``pg_trigger_depth() > 1``), never by an ``UPDATE`` of the
application.  So no role can write a version, a status, a withdrawal or a tie-break chain
with no trace, nor show standings ahead of the log.

Snapshot rows already ahead of their tournament's version (forged) are deleted on the way.
"""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

#: The tournament's logged settings (``LOGGED_SETTINGS`` of ``tournaments.tournament.services``)
#: that change the standings: what is final, how they rank, what a hand scores and which
#: hands count.  The name, the visibility, the seating and who confirms are logged by the
#: service but not held here.
LOGGED = ("status", "tiebreaks", "format", "rule_profile", "requires_confirmation")
JSON_SETTINGS = ("tiebreaks",)

SNAPSHOT_FORGED = (
    "a standings snapshot must be at the log version of its tournament and say what the rows say"
)
SNAPSHOT_UPDATE = "standings snapshot rows are never updated: a recompute replaces them"
SETTING_UNLOGGED = "a tournament setting changes only to what its newest tournament log row says"
WITHDRAWN_UNLOGGED = "the withdrawal of an entry changes only with a tournament log row that says so"
VERSION_FORGED = (
    "the log version moves forward by one, only after a change of what the standings count"
)
MARK_FORGED = "only the database marks a change of what the standings count"

T = "tournaments_tournament"
LOG = "tournaments_tournamentlog"


def _snapshot_matches() -> str:
    """True when NEW (a snapshot row) says what the rows say now."""
    return f"""
    NEW.log_version = (SELECT t.log_version FROM {T} t WHERE t.id = NEW.tournament_id)
    AND EXISTS (SELECT 1 FROM tournaments_entry e
                 WHERE e.id = NEW.entry_id AND e.tournament_id = NEW.tournament_id
                   AND e.withdrawn = NEW.withdrawn)
    AND NEW.total = NEW.deal_points + NEW.penalty_points
    AND NEW.landlord_wins <= NEW.landlord_hands AND NEW.landlord_hands <= NEW.hands_played
    AND (
        (NEW.deal_points, NEW.hands_played, NEW.landlord_hands, NEW.landlord_wins) = (
            SELECT COALESCE(SUM(r.score), 0), COUNT(*),
                   COALESCE(SUM(CASE WHEN r.is_landlord THEN 1 ELSE 0 END), 0),
                   COALESCE(SUM(CASE WHEN r.is_landlord AND r.won THEN 1 ELSE 0 END), 0)
              FROM tournaments_handseatresult r
             WHERE r.tournament_id = NEW.tournament_id AND r.entry_id = NEW.entry_id)
        -- A duplicate board counts once released (tournaments.common.board_release), a
        -- rule the database does not hold: an entry with board rows is held to what its
        -- rows bound (every row not on a board, at most every row).
        OR (EXISTS (SELECT 1 FROM tournaments_handseatresult r
                     WHERE r.tournament_id = NEW.tournament_id AND r.entry_id = NEW.entry_id
                       AND r.board_id IS NOT NULL)
            AND NEW.hands_played BETWEEN (
                SELECT COUNT(*) FROM tournaments_handseatresult r
                 WHERE r.tournament_id = NEW.tournament_id AND r.entry_id = NEW.entry_id
                   AND r.board_id IS NULL)
            AND (SELECT COUNT(*) FROM tournaments_handseatresult r
                  WHERE r.tournament_id = NEW.tournament_id AND r.entry_id = NEW.entry_id))
    )
    AND NEW.penalty_points = (
        SELECT COALESCE(SUM(p.points), 0) FROM tournaments_penalty p
         WHERE p.entry_id = NEW.entry_id AND p.revoked_at IS NULL)
    """


def _pg_setting_unlogged(field: str) -> str:
    return f"""(NEW.{field} IS DISTINCT FROM OLD.{field} AND NOT EXISTS (
        SELECT 1 FROM (SELECT l.changes FROM {LOG} l
                        WHERE l.tournament_id = NEW.id AND l.changes -> '{field}' IS NOT NULL
                        ORDER BY l.id DESC LIMIT 1) newest
         WHERE newest.changes -> '{field}'
               = jsonb_build_array(to_jsonb(OLD.{field}), to_jsonb(NEW.{field}))))"""


def _sqlite_setting_unlogged(field: str) -> str:
    # json_extract gives a scalar as its SQL value (true → 1, as SQLite stores booleans) and
    # an array as minified JSON text, which json() of the column matches.
    old, new = (
        (f"json(OLD.{field})", f"json(NEW.{field})")
        if field in JSON_SETTINGS
        else (f"OLD.{field}", f"NEW.{field}")
    )
    return f"""({new} IS NOT {old} AND NOT EXISTS (
        SELECT 1 FROM (SELECT l.changes FROM {LOG} l
                        WHERE l.tournament_id = NEW.id
                          AND json_type(l.changes, '$.{field}') IS NOT NULL
                        ORDER BY l.id DESC LIMIT 1) newest
         WHERE json_extract(newest.changes, '$.{field}[0]') IS {old}
           AND json_extract(newest.changes, '$.{field}[1]') IS {new}))"""


def _withdrawn_unlogged(distinct: str, true: str) -> str:
    return f"""NEW.withdrawn {distinct} OLD.withdrawn AND NOT EXISTS (
        SELECT 1 FROM (SELECT l.kind FROM {LOG} l
                        WHERE l.entry_id = NEW.id AND l.tournament_id = NEW.tournament_id
                          AND l.kind IN ('entry_withdrawn', 'entry_reinstated')
                        ORDER BY l.id DESC LIMIT 1) newest
         WHERE newest.kind = CASE WHEN NEW.withdrawn = {true} THEN 'entry_withdrawn'
                                  ELSE 'entry_reinstated' END)"""


def _version_forged(distinct: str) -> str:
    """A move of ``log_version`` or a cleared mark that is not one bump of a marked row."""
    return f"""(NEW.log_version {distinct} OLD.log_version
                OR (OLD.inputs_changed AND NOT NEW.inputs_changed))
           AND NOT (NEW.log_version = OLD.log_version + 1
                    AND OLD.inputs_changed AND NOT NEW.inputs_changed)"""


#: The sources of a change of what the standings count: table, event, condition (PostgreSQL,
#: SQLite), the tournament's id.
_HAND_TOURNAMENT = (
    "(SELECT r.tournament_id FROM tournaments_table tb"
    " JOIN tournaments_round r ON r.id = tb.round_id WHERE tb.id = NEW.table_id)"
)
SOURCES = {
    "tournaments_seat_result_inserted_marks": (
        "tournaments_handseatresult", "AFTER INSERT", "true", "1", "NEW.tournament_id",
    ),
    "tournaments_seat_result_deleted_marks": (
        "tournaments_handseatresult", "AFTER DELETE", "true", "1", "OLD.tournament_id",
    ),
    "tournaments_penalty_inserted_marks": (
        "tournaments_penalty", "AFTER INSERT", "true", "1", "NEW.tournament_id",
    ),
    "tournaments_penalty_revoked_marks": (
        "tournaments_penalty", "AFTER UPDATE", "true", "1", "NEW.tournament_id",
    ),
    "tournaments_entry_withdrawn_marks": (
        "tournaments_entry", "AFTER UPDATE",
        "NEW.withdrawn IS DISTINCT FROM OLD.withdrawn", "NEW.withdrawn IS NOT OLD.withdrawn",
        "NEW.tournament_id",
    ),
    "tournaments_hand_counting_marks": (
        "tournaments_hand", "AFTER UPDATE",
        " OR ".join(
            f"NEW.{f} IS DISTINCT FROM OLD.{f}"
            for f in ("status", "confirmation", "scores", "landlord_seat")
        ),
        " OR ".join(
            f"NEW.{f} IS NOT OLD.{f}" for f in ("status", "confirmation", "scores", "landlord_seat")
        ),
        _HAND_TOURNAMENT,
    ),
    # A director's exclusion (migration 0026) is on the public standings; a round's status
    # releases or hides its duplicate boards (a closed round shows them).
    "tournaments_exclusion_inserted_marks": (
        "tournaments_handexclusion", "AFTER INSERT", "true", "1",
        "(SELECT r.tournament_id FROM tournaments_table tb JOIN tournaments_round r"
        " ON r.id = tb.round_id WHERE tb.id = NEW.table_id)",
    ),
    "tournaments_round_status_marks": (
        "tournaments_round", "AFTER UPDATE",
        "NEW.status IS DISTINCT FROM OLD.status", "NEW.status IS NOT OLD.status",
        # only a round with duplicate-board results: no other standings change with it
        "(SELECT NEW.tournament_id WHERE EXISTS (SELECT 1 FROM tournaments_handseatresult sr"
        " WHERE sr.round_id = NEW.id AND sr.board_id IS NOT NULL))",
    ),
    "tournaments_seat_entry_marks": (
        "tournaments_seat", "AFTER UPDATE",
        "NEW.entry_id IS DISTINCT FROM OLD.entry_id", "NEW.entry_id IS NOT OLD.entry_id",
        "(SELECT r.tournament_id FROM tournaments_round r WHERE r.id = NEW.round_id)",
    ),
}  # fmt: skip


def _raise_pg(message: str, code: str = "integrity_constraint_violation") -> str:
    return f"RAISE EXCEPTION '{message}' USING ERRCODE = '{code}';"


_PG_SNAPSHOT = f"""
    CREATE OR REPLACE FUNCTION tournaments_standing_snapshot_matches() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'UPDATE' THEN
            {_raise_pg(SNAPSHOT_UPDATE)}
        END IF;
        IF NOT ({_snapshot_matches()}) THEN
            {_raise_pg(SNAPSHOT_FORGED)}
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""
_PG_TOURNAMENT = f"""
    CREATE OR REPLACE FUNCTION tournaments_tournament_logged() RETURNS trigger AS $$
    BEGIN
        IF {" OR ".join(_pg_setting_unlogged(f) for f in LOGGED)} THEN
            {_raise_pg(SETTING_UNLOGGED)}
        END IF;
        IF NEW.inputs_changed AND NOT OLD.inputs_changed AND pg_trigger_depth() < 2 THEN
            {_raise_pg(MARK_FORGED, "insufficient_privilege")}
        END IF;
        IF {_version_forged("IS DISTINCT FROM")} THEN
            {_raise_pg(VERSION_FORGED)}
        END IF;
        IF NEW.format IS DISTINCT FROM OLD.format
                OR NEW.tiebreaks IS DISTINCT FROM OLD.tiebreaks THEN
            NEW.inputs_changed := true;
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""
_PG_ENTRY = f"""
    CREATE OR REPLACE FUNCTION tournaments_entry_withdrawn_logged() RETURNS trigger AS $$
    BEGIN
        IF {_withdrawn_unlogged("IS DISTINCT FROM", "true")} THEN
            {_raise_pg(WITHDRAWN_UNLOGGED)}
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""


def _pg_source(name: str, table: str, event: str, when: str, tournament: str) -> list[str]:
    row = "OLD" if "DELETE" in event else "NEW"
    return [
        f"""
        CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
        BEGIN
            UPDATE {T} SET inputs_changed = true
             WHERE id = {tournament} AND NOT inputs_changed;
            RETURN {row};
        END;
        $$ LANGUAGE plpgsql
        """,
        f"CREATE TRIGGER {name} {event} ON {table} FOR EACH ROW WHEN ({when})"
        f" EXECUTE FUNCTION {name}()",
    ]


POSTGRESQL_FORWARD = [
    f"DELETE FROM tournaments_standingsnapshot s USING {T} t"
    " WHERE t.id = s.tournament_id AND s.log_version > t.log_version",
    _PG_SNAPSHOT,
    "CREATE TRIGGER tournaments_standing_snapshot_matches BEFORE INSERT OR UPDATE"
    " ON tournaments_standingsnapshot FOR EACH ROW"
    " EXECUTE FUNCTION tournaments_standing_snapshot_matches()",
    _PG_TOURNAMENT,
    f"CREATE TRIGGER tournaments_tournament_logged BEFORE UPDATE ON {T}"
    " FOR EACH ROW EXECUTE FUNCTION tournaments_tournament_logged()",
    _PG_ENTRY,
    "CREATE TRIGGER tournaments_entry_withdrawn_logged BEFORE UPDATE ON tournaments_entry"
    " FOR EACH ROW EXECUTE FUNCTION tournaments_entry_withdrawn_logged()",
    *(
        statement
        for name, (table, event, pg_when, _, tournament) in SOURCES.items()
        for statement in _pg_source(name, table, event, pg_when, tournament)
    ),
]
_PG_NAMED = {
    "tournaments_standing_snapshot_matches": "tournaments_standingsnapshot",
    "tournaments_tournament_logged": T,
    "tournaments_entry_withdrawn_logged": "tournaments_entry",
    **{name: table for name, (table, *_) in SOURCES.items()},
}
POSTGRESQL_BACKWARD = [
    statement
    for name, table in reversed(_PG_NAMED.items())
    for statement in (
        f"DROP TRIGGER IF EXISTS {name} ON {table}",
        f"DROP FUNCTION IF EXISTS {name}()",
    )
]


def _sqlite_refuse(name: str, event: str, when: str, message: str) -> str:
    return (
        f"CREATE TRIGGER {name} {event} FOR EACH ROW WHEN {when} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )


def _sqlite_mark(name: str, event: str, when: str, tournament: str) -> str:
    return (
        f"CREATE TRIGGER {name} {event} FOR EACH ROW WHEN {when} "
        f"BEGIN UPDATE {T} SET inputs_changed = 1 WHERE id = {tournament}"
        f" AND NOT inputs_changed; END"
    )


SQLITE_TRIGGERS = {
    "tournaments_standing_snapshot_matches": _sqlite_refuse(
        "tournaments_standing_snapshot_matches",
        "BEFORE INSERT ON tournaments_standingsnapshot",
        f"NOT ({_snapshot_matches()})",
        SNAPSHOT_FORGED,
    ),
    "tournaments_standing_snapshot_no_update": _sqlite_refuse(
        "tournaments_standing_snapshot_no_update",
        "BEFORE UPDATE ON tournaments_standingsnapshot",
        "1",
        SNAPSHOT_UPDATE,
    ),
    "tournaments_tournament_settings_logged": _sqlite_refuse(
        "tournaments_tournament_settings_logged",
        f"BEFORE UPDATE ON {T}",
        "(" + " OR ".join(_sqlite_setting_unlogged(f) for f in LOGGED) + ")",
        SETTING_UNLOGGED,
    ),
    "tournaments_tournament_version_bump": _sqlite_refuse(
        "tournaments_tournament_version_bump",
        f"BEFORE UPDATE ON {T}",
        f"({_version_forged('IS NOT')})",
        VERSION_FORGED,
    ),
    "tournaments_tournament_ranking_marks": _sqlite_mark(
        "tournaments_tournament_ranking_marks",
        f"AFTER UPDATE ON {T}",
        "(NEW.format IS NOT OLD.format OR json(NEW.tiebreaks) IS NOT json(OLD.tiebreaks))",
        "NEW.id",
    ),
    "tournaments_entry_withdrawn_logged": _sqlite_refuse(
        "tournaments_entry_withdrawn_logged",
        "BEFORE UPDATE ON tournaments_entry",
        f"({_withdrawn_unlogged('IS NOT', '1')})",
        WITHDRAWN_UNLOGGED,
    ),
    **{
        name: _sqlite_mark(name, f"{event} ON {table}", f"({when})", tournament)
        for name, (table, event, _, when, tournament) in SOURCES.items()
    },
}
SQLITE_FORWARD = [
    "DELETE FROM tournaments_standingsnapshot WHERE log_version > (SELECT t.log_version"
    f" FROM {T} t WHERE t.id = tournaments_standingsnapshot.tournament_id)",
    *SQLITE_TRIGGERS.values(),
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
    dependencies = [
        ("tournaments", "0026_hand_exclusions"),
    ]

    operations = [
        *keeping_sqlite_triggers(
            [
                migrations.AddField(
                    model_name="tournament",
                    name="inputs_changed",
                    field=models.BooleanField(
                        db_default=False,
                        default=False,
                        editable=False,
                        help_text=(
                            "Set by the database when something the standings count changed; "
                            "cleared by the log version's bump."
                        ),
                        verbose_name="inputs changed",
                    ),
                ),
            ]
        ),
        migrations.RunPython(_run_for_vendor(FORWARD), _run_for_vendor(BACKWARD)),
    ]
