"""At most one live hand per table; a director may add a hand beyond the round's hands.

* ``hand_one_live_per_table``: a partial unique index on the table of the hands being played
  (bidding, doubling, playing), on PostgreSQL and SQLite alike. A referee started 300 hands
  at one table in 30 s, and six devices six at once; a closed hand awaiting confirmation is
  not live.
* Round log kind ``hand_added``: a director's extra hand at a table, with its reason.
* ``penalty_points_range``: a penalty is at most 10,000 points either way, as the services,
  the API and the director's form say (2**31 points had been stored as -2**31).

SQLite rebuilds ``tournaments_roundlog`` for its kind CHECK, so the operations are wrapped
in ``keeping_sqlite_triggers``.
"""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

ROUND_LOG_KINDS = [
    ("seated", "Seated"),
    ("started", "Started"),
    ("closed", "Closed"),
    ("forced_close", "Closed with unfinished hands"),
    ("reopened", "Reopened"),
    ("seat_override", "Seat override"),
    ("seat_correction", "Seat correction"),
    ("hand_added", "Hand added beyond the round's hands"),
]


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_audit_trail")]

    operations = keeping_sqlite_triggers(
        [
            migrations.RemoveConstraint(model_name="roundlog", name="round_log_kind_known"),
            migrations.AlterField(
                model_name="roundlog",
                name="kind",
                field=models.CharField(choices=ROUND_LOG_KINDS, max_length=20, verbose_name="kind"),
            ),
            migrations.AddConstraint(
                model_name="roundlog",
                constraint=models.CheckConstraint(
                    condition=models.Q(kind__in=[kind for kind, _ in ROUND_LOG_KINDS]),
                    name="round_log_kind_known",
                ),
            ),
            migrations.AddConstraint(
                model_name="penalty",
                constraint=models.CheckConstraint(
                    condition=models.Q(points__range=(-10_000, 10_000)),
                    name="penalty_points_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.UniqueConstraint(
                    condition=models.Q(status__in=("bidding", "doubling", "playing")),
                    fields=("table",),
                    name="hand_one_live_per_table",
                ),
            ),
        ]
    )
