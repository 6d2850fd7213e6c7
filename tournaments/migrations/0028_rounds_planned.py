"""A tournament's planned number of rounds (0: not planned): the screens show "round 2 of
5" and what is left (issue 29). Named 0030 to leave room for the migrations merged
meanwhile; renumbered when merged."""

import django.core.validators
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0027_standings_trail'),
    ]

    operations = keeping_sqlite_triggers([
        migrations.AddField(
            model_name='tournament',
            name='rounds_planned',
            field=models.IntegerField(default=0, help_text='How many rounds the event has (shown as “round 2 of 5”); 0: not planned.', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(1000)], verbose_name='rounds planned'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('rounds_planned__gte', 0), ('rounds_planned__lte', 1000)), name='tournament_rounds_planned_in_range'),
        ),
    ])
