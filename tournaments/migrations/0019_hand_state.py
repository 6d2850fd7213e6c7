"""Issue 19, the hand-write path: each hand row keeps its log folded (``Hand.state``),
written by the write that appends an event. Existing rows keep NULL: their next write
folds their log (``tournaments.hands.replay.hand_replay_stored``)."""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_final_results"),
    ]

    operations = keeping_sqlite_triggers(
        [
            migrations.AddField(
                model_name="hand",
                name="state",
                field=models.JSONField(
                    blank=True, editable=False, null=True, verbose_name="log snapshot"
                ),
            ),
        ]
    )
