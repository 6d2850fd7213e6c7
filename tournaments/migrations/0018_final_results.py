"""Issue 17, final means final: the tournament log records the final standings' publication
and their reopening (with its reason)."""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

KINDS = [
    ("settings_changed", "Settings changed"),
    ("entry_withdrawn", "Entry withdrawn"),
    ("entry_reinstated", "Entry reinstated"),
    ("penalty_revoked", "Penalty revoked"),
    ("final_published", "Final standings published"),
    ("results_reopened", "Final results reopened"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_confirmation_by_players"),
    ]

    operations = keeping_sqlite_triggers(
        [
            migrations.RemoveConstraint(
                model_name="tournamentlog",
                name="tournament_log_kind_known",
            ),
            migrations.AlterField(
                model_name="tournamentlog",
                name="kind",
                field=models.CharField(choices=KINDS, max_length=20, verbose_name="kind"),
            ),
            migrations.AddConstraint(
                model_name="tournamentlog",
                constraint=models.CheckConstraint(
                    condition=models.Q(("kind__in", [k for k, _ in KINDS])),
                    name="tournament_log_kind_known",
                ),
            ),
        ]
    )
