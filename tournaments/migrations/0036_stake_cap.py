"""Issue 32: an event's stake cap on the multiplier *M* of five and six players (R13.9,
R14.7), a tournament's setting frozen once seated; each hand keeps the cap it started under
(its rules: ``tournaments.common.profiles.rules_of``). The database keeps the cap to what the
tournament log says, as it keeps the rule profile (migration 0027)."""

import importlib

import django.core.validators
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

trail = importlib.import_module("tournaments.migrations.0027_standings_trail")
LOGGED = (*trail.LOGGED, "stake_cap")
SETTINGS_TRIGGER = "tournaments_tournament_settings_logged"


def _pg_function(logged):
    old = " OR ".join(trail._pg_setting_unlogged(f) for f in trail.LOGGED)
    assert old in trail._PG_TOURNAMENT
    return trail._PG_TOURNAMENT.replace(
        " OR ".join(trail._pg_setting_unlogged(f) for f in trail.LOGGED),
        " OR ".join(trail._pg_setting_unlogged(f) for f in logged),
    )


def _sqlite_trigger(logged):
    return trail._sqlite_refuse(
        SETTINGS_TRIGGER,
        f"BEFORE UPDATE ON {trail.T}",
        "(" + " OR ".join(trail._sqlite_setting_unlogged(f) for f in logged) + ")",
        trail.SETTING_UNLOGGED,
    )


def _settings_logged(logged):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            schema_editor.execute(_pg_function(logged), params=None)
        elif vendor == "sqlite":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {SETTINGS_TRIGGER}", params=None)
            schema_editor.execute(_sqlite_trigger(logged), params=None)

    return run



class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0035_five_p_profile'),
    ]

    operations = [
        *keeping_sqlite_triggers([
        migrations.AddField(
            model_name='hand',
            name='stake_cap',
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name='stake cap (封顶)'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='stake_cap',
            field=models.PositiveIntegerField(blank=True, help_text='Five and six players: the largest multiplier a hand may reach (×2 a bomb and a spring, R13.9, R14.7); empty: no cap.', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(1048576)], verbose_name='stake cap (封顶)'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__range', (1, 1048576))), name='hand_stake_cap_range'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__isnull', True), ('rule_profile__in', ('five_p',)), _connector='OR'), name='hand_stake_cap_of_game'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__range', (1, 1048576))), name='tournament_stake_cap_range'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__isnull', True), ('rule_profile__in', ('five_p',)), _connector='OR'), name='tournament_stake_cap_of_game'),
        ),
            ]),
        migrations.RunPython(_settings_logged(LOGGED), _settings_logged(trail.LOGGED)),
    ]
