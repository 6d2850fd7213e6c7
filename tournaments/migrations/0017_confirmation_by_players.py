"""Issue 17 point 3: who confirms a hand (a second official, or the players with the PIN
printed on each entry's table card), and the wrong PINs counted per hand.

Every existing entry gets its own PIN (a column default would give all of them one).
"""

import secrets

from django.db import migrations, models

import tournaments.models.tournaments
from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


def entry_pins_new(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    for entry in Entry.objects.only("pk").iterator():
        Entry.objects.filter(pk=entry.pk).update(pin=f"{secrets.randbelow(10000):04d}")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_bounded_waits"),
    ]

    operations = [
        *keeping_sqlite_triggers(
            [
                migrations.AddField(
                    model_name="entry",
                    name="pin",
                    field=models.CharField(
                        default=tournaments.models.tournaments.entry_pin_new,
                        help_text="Printed on the entry's table card; confirms hands when players confirm.",
                        max_length=4,
                        verbose_name="confirmation PIN",
                    ),
                ),
                migrations.AddField(
                    model_name="hand",
                    name="pin_failures",
                    field=models.SmallIntegerField(
                        default=0,
                        help_text="Wrong confirmation PINs entered for this hand; at the limit it is locked.",
                        verbose_name="wrong PINs",
                    ),
                ),
                migrations.AddField(
                    model_name="tournament",
                    name="confirmed_by",
                    field=models.CharField(
                        choices=[
                            ("official", "A second official (referee or director)"),
                            ("players", "The players: one of each side enters their PIN"),
                        ],
                        default="official",
                        help_text="Who confirms a hand when results need confirmation.",
                        max_length=16,
                        verbose_name="confirmed by",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="hand",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("pin_failures__gte", 0)),
                        name="hand_pin_failures_non_negative",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="tournament",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("confirmed_by__in", ["official", "players"])),
                        name="tournament_confirmed_by_known",
                    ),
                ),
            ]
        ),
        migrations.RunPython(entry_pins_new, migrations.RunPython.noop),
    ]
