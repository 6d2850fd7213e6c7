"""Issue 16, every wait bounded: the worker's heartbeat (read by /healthz) and the largest
value of each integer a director sets (tournaments/limits.py) as a CHECK.

A tournament stored with more hands per round than the new maximum is set to it first
(such a number never described a real event; seating it looped for minutes).
"""

from django.core import validators
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

HANDS_PER_ROUND_MAX = 100  # tournaments.limits at the time of this migration


def clamp_hands_per_round(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(hands_per_round__gt=HANDS_PER_ROUND_MAX).update(
        hands_per_round=HANDS_PER_ROUND_MAX
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_one_live_hand_per_table"),
    ]

    operations = [
        migrations.RunPython(clamp_hands_per_round, migrations.RunPython.noop),
        *keeping_sqlite_triggers(
            [
                migrations.CreateModel(
                    name="WorkerHeartbeat",
                    fields=[
                        (
                            "name",
                            models.CharField(
                                max_length=64,
                                primary_key=True,
                                serialize=False,
                                verbose_name="name",
                            ),
                        ),
                        ("beat_at", models.DateTimeField(verbose_name="last heartbeat")),
                    ],
                    options={
                        "verbose_name": "worker heartbeat",
                        "verbose_name_plural": "worker heartbeats",
                    },
                ),
                migrations.AlterField(
                    model_name="board",
                    name="number",
                    field=models.IntegerField(
                        validators=[validators.MaxValueValidator(10000000)], verbose_name="number"
                    ),
                ),
                migrations.AlterField(
                    model_name="entry",
                    name="registration_order",
                    field=models.IntegerField(
                        validators=[validators.MaxValueValidator(1000000)],
                        verbose_name="registration order",
                    ),
                ),
                migrations.AlterField(
                    model_name="round",
                    name="number",
                    field=models.IntegerField(
                        validators=[validators.MaxValueValidator(100000)], verbose_name="number"
                    ),
                ),
                migrations.AlterField(
                    model_name="roundboard",
                    name="hand_number",
                    field=models.IntegerField(
                        validators=[validators.MaxValueValidator(100)], verbose_name="hand number"
                    ),
                ),
                migrations.AlterField(
                    model_name="table",
                    name="number",
                    field=models.IntegerField(
                        validators=[validators.MaxValueValidator(100000)], verbose_name="number"
                    ),
                ),
                migrations.AlterField(
                    model_name="tournament",
                    name="hands_per_round",
                    field=models.IntegerField(
                        default=6,
                        validators=[
                            validators.MinValueValidator(1),
                            validators.MaxValueValidator(100),
                        ],
                        verbose_name="hands per round",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="board",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("number__lte", 10000000)),
                        name="board_number_at_most_max",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="entry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("registration_order__lte", 1000000)),
                        name="entry_registration_order_at_most_max",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="round",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("number__lte", 100000)), name="round_number_at_most_max"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="roundboard",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("hand_number__lte", 100)),
                        name="round_board_hand_number_at_most_max",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="table",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("number__lte", 100000)), name="table_number_at_most_max"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournament",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("hands_per_round__lte", 100)),
                        name="tournament_hands_per_round_at_most_max",
                    ),
                ),
            ]
        ),
    ]
