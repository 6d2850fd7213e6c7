"""Issue 32: six players from physical cards. A hand that ends before the partner played
the partner card waits for the referee to record the seat that shows its third copy
(R13.8, R13.10): ``HandEventKind.PARTNER``, an action event that closes the hand, so 0010's
result freeze (as 0037 made it again) lets a closed hand's result follow it.

A board's kitty may be blank: six players with 27 cards each have none (``six_p_no_kitty``,
R13.2), and a director's board of that game was refused by the model's validation.
"""

import importlib

from django.conf import settings
from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

arrays = importlib.import_module("tournaments.migrations.0020_per_seat_arrays")
_freeze = importlib.import_module("tournaments.migrations.0010_result_freeze")
_six = importlib.import_module("tournaments.migrations.0037_six_p_profile")

RESULT_EVENT_KINDS = _freeze.RESULT_EVENT_KINDS.replace("'dispute')", "'dispute', 'partner')")
assert RESULT_EVENT_KINDS != _freeze.RESULT_EVENT_KINDS
_EVENT_MOVED = _freeze._EVENT_MOVED.replace(_freeze.RESULT_EVENT_KINDS, RESULT_EVENT_KINDS)
assert _EVENT_MOVED != _freeze._EVENT_MOVED


def _frozen(trigger):
    table, event, pg_when, sqlite_when, message = trigger
    assert _freeze._EVENT_MOVED in pg_when and _freeze._EVENT_MOVED in sqlite_when
    return (
        table,
        event,
        pg_when.replace(_freeze._EVENT_MOVED, _EVENT_MOVED),
        sqlite_when.replace(_freeze._EVENT_MOVED, _EVENT_MOVED),
        message,
    )


BEFORE = {"tournaments_hand_result_frozen": _six.TRIGGERS["tournaments_hand_result_frozen"]}
TRIGGERS = {name: _frozen(trigger) for name, trigger in BEFORE.items()}


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0038_scores_bigint'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *keeping_sqlite_triggers([
            migrations.RemoveConstraint(
                model_name='handevent',
                name='hand_event_kind_known',
            ),
            migrations.AlterField(
                model_name='handevent',
                name='kind',
                field=models.CharField(choices=[('bid', 'Bid'), ('double', 'Double'), ('redouble', 'Redouble'), ('play', 'Play'), ('result', 'Result'), ('pass_out', 'Passed out'), ('void', 'Void'), ('correction', 'Correction'), ('note', 'Note'), ('undo', 'Undo'), ('announce', 'Announcement (报牌)'), ('announce_missing', 'Missing announcement'), ('deal', 'Deal written in'), ('confirm', 'Confirmed'), ('dispute', 'Disputed'), ('seat_correction', 'Seat correction'), ('wild', 'Wild rank drawn'), ('call', 'Partner card called (叫牌)'), ('partner', 'Partner shown at the end (暗地主)')], max_length=16, verbose_name='kind'),
            ),
            migrations.AddConstraint(
                model_name='handevent',
                constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['bid', 'double', 'redouble', 'play', 'result', 'pass_out', 'void', 'correction', 'note', 'undo', 'announce', 'announce_missing', 'deal', 'confirm', 'dispute', 'seat_correction', 'wild', 'call', 'partner'])), name='hand_event_kind_known'),
            ),
        ]),
        migrations.RunPython(arrays._triggers(TRIGGERS), arrays._triggers(BEFORE)),
        migrations.AlterField(
            model_name='board',
            name='kitty',
            field=models.CharField(blank=True, max_length=40, verbose_name='kitty (底牌)'),
        ),
    ]
