"""A hand marks its tournament's standings inputs changed (``inputs_changed``, migration
0027) only when the change can reach the standings: not while it goes from one live status
to another (bidding → doubling → playing, its landlord found on the way).

A live hand does not count (``Hand.counts``) and has no per-seat result row before or
after such a change, so nothing the standings count moves: the mark was a write of the
tournament row on every such step of every table, and the row's lock, held to the commit,
queued every table of the tournament behind one another (issue 30: the referee API's
throughput against the floor). A change that closes, reopens, corrects, confirms or voids
a hand still marks, on PostgreSQL and SQLite alike.
"""

from django.db import migrations

NAME = "tournaments_hand_counting_marks"
FIELDS = ("status", "confirmation", "scores", "landlord_seat")
LIVE = "('bidding', 'doubling', 'playing')"
#: The hand's tournament (``NEW.table_id``'s round's), as 0027 finds it.
TOURNAMENT = (
    "(SELECT r.tournament_id FROM tournaments_table tb"
    " JOIN tournaments_round r ON r.id = tb.round_id WHERE tb.id = NEW.table_id)"
)


def _when(distinct: str, *, live_steps: bool) -> str:
    changed = " OR ".join(f"NEW.{f} {distinct} OLD.{f}" for f in FIELDS)
    if live_steps:  # 0027's: every change of those fields
        return f"({changed})"
    return f"(({changed}) AND NOT (OLD.status IN {LIVE} AND NEW.status IN {LIVE}))"


def _postgresql(*, live_steps: bool) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {NAME} ON tournaments_hand",
        f"CREATE TRIGGER {NAME} AFTER UPDATE ON tournaments_hand FOR EACH ROW"
        f" WHEN {_when('IS DISTINCT FROM', live_steps=live_steps)} EXECUTE FUNCTION {NAME}()",
    ]


def _sqlite(*, live_steps: bool) -> list[str]:
    return [
        f"DROP TRIGGER IF EXISTS {NAME}",
        f"CREATE TRIGGER {NAME} AFTER UPDATE ON tournaments_hand FOR EACH ROW"
        f" WHEN {_when('IS NOT', live_steps=live_steps)}"
        f" BEGIN UPDATE tournaments_tournament SET inputs_changed = 1 WHERE id = {TOURNAMENT}"
        " AND NOT inputs_changed; END",
    ]


def _run(*, live_steps: bool):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        statements = {"postgresql": _postgresql, "sqlite": _sqlite}.get(vendor)
        for statement in statements(live_steps=live_steps) if statements else ():
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0028_rounds_planned"),
    ]

    operations = [
        migrations.RunPython(_run(live_steps=False), _run(live_steps=True)),
    ]
