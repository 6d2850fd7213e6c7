"""Issue 30: two indexes fewer on the referee's write path. A hand event's ``hand`` and an
idempotency record's ``user`` each had an index of their own that the table's unique
constraint already gives, as its leading column (``hand_event_seq_unique`` on hand and seq,
``idempotency_key_once_per_user`` on user and key): every hand write inserted into both for
nothing.

SQLite rebuilds both tables for this, which drops their triggers (the event log's
append-only trigger among them): ``keeping_sqlite_triggers`` puts them back.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0039_six_p_partner_shown"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *keeping_sqlite_triggers([
            migrations.AlterField(
                model_name="handevent",
                name="hand",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.PROTECT,
                    related_name="events",
                    to="tournaments.hand",
                    verbose_name="hand",
                ),
            ),
            migrations.AlterField(
                model_name="idempotencyrecord",
                name="user",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="+",
                    to=settings.AUTH_USER_MODEL,
                    verbose_name="user",
                ),
            ),
        ]),
    ]
