"""Every number has a trail: the database keeps the standings a function of the hand rows,
the hand log and the penalty log.

On PostgreSQL and SQLite alike:

* A per-seat result row (``HandSeatResult``) is never updated, and is inserted only when it
  says exactly what its hand and its table's seat say: the hand counts (finished or passed
  out, confirmed where asked), the score is the hand's ``score_<position>`` (0 when passed
  out), the entry is the one in that seat, landlord / won / passed-out / place match.  A
  row leaves (DELETE) only when it no longer says that (the hand stopped counting, was
  corrected, or the seat was corrected): deleting a valid row is refused.
* Penalties are append-only: no DELETE; the one UPDATE is the revocation, which sets
  ``revoked_at``, ``revoked_by`` and a non-empty ``revoke_reason`` once, and changes
  nothing else.
* The round log and the tournament log are append-only (no UPDATE, no DELETE).

On PostgreSQL only (SQLite has no roles):

* ``recorded_at`` of hand events, penalties, round and tournament log rows is the database's
  clock: for any role but the tables' owner an INSERT's value is replaced by
  ``clock_timestamp()``.  The owner (migrations, ``import_archive`` run in the migrate
  context) keeps the archived times.
* No role but the owner may create a superuser or make a user one (``auth_user``).
"""

import django.db.models.deletion
import django.db.models.functions.datetime
from django.conf import settings
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

COUNTED = (
    "h.status IN ('finished', 'passed_out') AND h.confirmation IN ('not_required', 'confirmed')"
)


def _seat_result_matches(row: str, same: str) -> str:
    """True when ``row`` (NEW or OLD) says what its hand and its seat say; ``same`` is the
    null-safe equality (``IS NOT DISTINCT FROM`` / ``IS``)."""
    return f"""
    EXISTS (
        SELECT 1 FROM tournaments_hand h
          JOIN tournaments_table tb ON tb.id = h.table_id
          JOIN tournaments_round r ON r.id = tb.round_id
          JOIN tournaments_seat s ON s.table_id = h.table_id AND s.position = {row}.position
         WHERE h.id = {row}.hand_id
           AND {COUNTED}
           AND {row}.tournament_id = r.tournament_id
           AND {row}.round_id = tb.round_id
           AND {row}.table_id = h.table_id
           AND {row}.board_id {same} h.board_id
           AND {row}.hand_number = h.number
           AND {row}.entry_id = s.entry_id
           AND {row}.is_landlord = COALESCE(h.landlord_seat = {row}.position, false)
           AND {row}.passed_out = (h.status = 'passed_out')
           AND {row}.won = (CASE WHEN h.winner = '' OR h.landlord_seat IS NULL THEN false
                                 ELSE (({row}.position = h.landlord_seat) = (h.winner = 'landlord'))
                            END)
           AND {row}.score = (CASE WHEN h.status = 'passed_out' THEN 0
                                   ELSE COALESCE(CASE {row}.position WHEN 0 THEN h.score_0
                                                                     WHEN 1 THEN h.score_1
                                                                     ELSE h.score_2 END, 0)
                              END))
    """


SEAT_RESULT_UPDATE = "per-seat result rows are never updated: they are rebuilt from the hand"
SEAT_RESULT_INSERT = "a per-seat result row must say what its hand and seat say"
SEAT_RESULT_DELETE = "a per-seat result row that matches its counted hand cannot be deleted"
PENALTY_DELETE = "penalties are never deleted: revoke them"
PENALTY_UPDATE = "a penalty changes only by its revocation, once, with who and why"
ROUND_LOG = "the round log is append-only"
TOURNAMENT_LOG = "the tournament log is append-only"
SUPERUSER = "only the database owner may create or change a superuser"

_PENALTY_KEPT = ("tournament_id", "entry_id", "hand_id", "points", "reason", "recorded_by_id",
                 "recorded_at", "idempotency_key")  # fmt: skip


def _penalty_forged(distinct: str) -> str:
    changed = " OR ".join(f"NEW.{c} {distinct} OLD.{c}" for c in _PENALTY_KEPT)
    return (
        f"OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL"
        f" OR NEW.revoke_reason = '' OR {changed}"
    )


#: name -> (table, event, PostgreSQL condition, SQLite condition, message)
TRIGGERS = {
    "tournaments_seat_result_no_update": (
        "tournaments_handseatresult", "BEFORE UPDATE", "true", "1", SEAT_RESULT_UPDATE,
    ),
    "tournaments_seat_result_matches_hand": (
        "tournaments_handseatresult",
        "BEFORE INSERT",
        f"NOT {_seat_result_matches('NEW', 'IS NOT DISTINCT FROM')}",
        f"NOT {_seat_result_matches('NEW', 'IS')}",
        SEAT_RESULT_INSERT,
    ),
    "tournaments_seat_result_delete_stale": (
        "tournaments_handseatresult",
        "BEFORE DELETE",
        _seat_result_matches("OLD", "IS NOT DISTINCT FROM"),
        _seat_result_matches("OLD", "IS"),
        SEAT_RESULT_DELETE,
    ),
    "tournaments_penalty_no_delete": (
        "tournaments_penalty", "BEFORE DELETE", "true", "1", PENALTY_DELETE,
    ),
    "tournaments_penalty_revoke_once": (
        "tournaments_penalty",
        "BEFORE UPDATE",
        _penalty_forged("IS DISTINCT FROM"),
        _penalty_forged("IS NOT"),
        PENALTY_UPDATE,
    ),
    "tournaments_roundlog_append_only": (
        "tournaments_roundlog", "BEFORE UPDATE OR DELETE", "true", None, ROUND_LOG,
    ),
    "tournaments_tournamentlog_append_only": (
        "tournaments_tournamentlog", "BEFORE UPDATE OR DELETE", "true", None, TOURNAMENT_LOG,
    ),
}  # fmt: skip
#: SQLite has one event per trigger: the append-only logs get two each.
SQLITE_SPLIT = {
    "tournaments_roundlog_no_update": ("tournaments_roundlog", "BEFORE UPDATE", ROUND_LOG),
    "tournaments_roundlog_no_delete": ("tournaments_roundlog", "BEFORE DELETE", ROUND_LOG),
    "tournaments_tournamentlog_no_update": (
        "tournaments_tournamentlog", "BEFORE UPDATE", TOURNAMENT_LOG,
    ),
    "tournaments_tournamentlog_no_delete": (
        "tournaments_tournamentlog", "BEFORE DELETE", TOURNAMENT_LOG,
    ),
}  # fmt: skip

#: The role running the statement is (a member of) the owner of the trigger's table.
_OWNER = "pg_has_role((SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')"
CLOCKED = ("tournaments_handevent", "tournaments_penalty", "tournaments_roundlog",
           "tournaments_tournamentlog")  # fmt: skip


def _pg_function(name: str, condition: str, message: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$
    BEGIN
        IF {condition} THEN
            RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF TG_OP = 'DELETE' THEN
            RETURN OLD;
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
    """


_CLOCK_FUNCTION = f"""
    CREATE OR REPLACE FUNCTION tournaments_recorded_at_clock() RETURNS trigger AS $$
    BEGIN
        IF NOT {_OWNER} THEN
            NEW.recorded_at := clock_timestamp();
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""
_SUPERUSER_FUNCTION = f"""
    CREATE OR REPLACE FUNCTION tournaments_auth_user_no_superuser() RETURNS trigger AS $$
    BEGIN
        IF NOT {_OWNER} AND (
                (TG_OP = 'INSERT' AND NEW.is_superuser)
                OR (TG_OP = 'UPDATE' AND NEW.is_superuser IS DISTINCT FROM OLD.is_superuser)) THEN
            RAISE EXCEPTION '{SUPERUSER}' USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql
"""

POSTGRESQL_FORWARD = [
    statement
    for name, (table, event, pg_when, _, message) in TRIGGERS.items()
    for statement in (
        _pg_function(name, pg_when, message),
        f"CREATE TRIGGER {name} {event} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()",
    )
]
POSTGRESQL_FORWARD += [
    _CLOCK_FUNCTION,
    *(
        f"CREATE TRIGGER tournaments_recorded_at_clock BEFORE INSERT ON {table}"
        " FOR EACH ROW EXECUTE FUNCTION tournaments_recorded_at_clock()"
        for table in CLOCKED
    ),
    _SUPERUSER_FUNCTION,
    "CREATE TRIGGER tournaments_auth_user_no_superuser BEFORE INSERT OR UPDATE ON auth_user"
    " FOR EACH ROW EXECUTE FUNCTION tournaments_auth_user_no_superuser()",
]
POSTGRESQL_BACKWARD = [
    "DROP TRIGGER IF EXISTS tournaments_auth_user_no_superuser ON auth_user",
    "DROP FUNCTION IF EXISTS tournaments_auth_user_no_superuser()",
    *(f"DROP TRIGGER IF EXISTS tournaments_recorded_at_clock ON {table}" for table in CLOCKED),
    "DROP FUNCTION IF EXISTS tournaments_recorded_at_clock()",
] + [
    statement
    for name, (table, *_) in reversed(TRIGGERS.items())
    for statement in (
        f"DROP TRIGGER IF EXISTS {name} ON {table}",
        f"DROP FUNCTION IF EXISTS {name}()",
    )
]


def _sqlite_trigger(name: str, event: str, when: str, message: str) -> str:
    return (
        f"CREATE TRIGGER {name} {event} FOR EACH ROW WHEN {when} "
        f"BEGIN SELECT RAISE(ABORT, '{message}'); END"
    )


SQLITE_FORWARD = [
    _sqlite_trigger(name, f"{event} ON {table}", when, message)
    for name, (table, event, _, when, message) in TRIGGERS.items()
    if when is not None
] + [
    _sqlite_trigger(name, f"{event} ON {table}", "1", message)
    for name, (table, event, message) in SQLITE_SPLIT.items()
]
SQLITE_BACKWARD = [
    f"DROP TRIGGER IF EXISTS {name}"
    for name in [*SQLITE_SPLIT, *TRIGGERS]
    if name in SQLITE_SPLIT or TRIGGERS[name][3] is not None
]

FORWARD = {"postgresql": POSTGRESQL_FORWARD, "sqlite": SQLITE_FORWARD}
BACKWARD = {"postgresql": POSTGRESQL_BACKWARD, "sqlite": SQLITE_BACKWARD}


def _run_for_vendor(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, ()):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_result_freeze"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *keeping_sqlite_triggers(
            [
                migrations.CreateModel(
                    name="TournamentLog",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[
                                    ("settings_changed", "Settings changed"),
                                    ("entry_withdrawn", "Entry withdrawn"),
                                    ("entry_reinstated", "Entry reinstated"),
                                    ("penalty_revoked", "Penalty revoked"),
                                ],
                                max_length=20,
                                verbose_name="kind",
                            ),
                        ),
                        ("reason", models.TextField(blank=True, verbose_name="reason")),
                        (
                            "changes",
                            models.JSONField(blank=True, default=dict, verbose_name="changes"),
                        ),
                        (
                            "recorded_at",
                            models.DateTimeField(
                                db_default=django.db.models.functions.datetime.Now(),
                                verbose_name="recorded at",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "tournament log entry",
                        "verbose_name_plural": "tournament log",
                        "ordering": ("tournament", "recorded_at", "id"),
                    },
                ),
                migrations.RemoveConstraint(
                    model_name="penalty",
                    name="penalty_idempotency_key_unique",
                ),
                migrations.AddField(
                    model_name="penalty",
                    name="revoked_by",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="revoked by",
                    ),
                ),
                migrations.AlterField(
                    model_name="handevent",
                    name="recorded_at",
                    field=models.DateTimeField(
                        db_default=django.db.models.functions.datetime.Now(),
                        verbose_name="recorded at",
                    ),
                ),
                migrations.AlterField(
                    model_name="penalty",
                    name="recorded_at",
                    field=models.DateTimeField(
                        db_default=django.db.models.functions.datetime.Now(),
                        verbose_name="recorded at",
                    ),
                ),
                migrations.AlterField(
                    model_name="roundlog",
                    name="recorded_at",
                    field=models.DateTimeField(
                        db_default=django.db.models.functions.datetime.Now(),
                        verbose_name="recorded at",
                    ),
                ),
                migrations.AddIndex(
                    model_name="idempotencyrecord",
                    index=models.Index(fields=["created_at"], name="idempotency_record_by_age"),
                ),
                migrations.AddConstraint(
                    model_name="penalty",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("idempotency_key__isnull", False)),
                        fields=("recorded_by", "idempotency_key"),
                        name="penalty_idempotency_key_once_per_user",
                    ),
                ),
                migrations.AddField(
                    model_name="tournamentlog",
                    name="entry",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
                migrations.AddField(
                    model_name="tournamentlog",
                    name="recorded_by",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="recorded by",
                    ),
                ),
                migrations.AddField(
                    model_name="tournamentlog",
                    name="tournament",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="log",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournamentlog",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            (
                                "kind__in",
                                [
                                    "settings_changed",
                                    "entry_withdrawn",
                                    "entry_reinstated",
                                    "penalty_revoked",
                                ],
                            )
                        ),
                        name="tournament_log_kind_known",
                    ),
                ),
            ]
        ),
        migrations.RunPython(_run_for_vendor(FORWARD), _run_for_vendor(BACKWARD)),
    ]
