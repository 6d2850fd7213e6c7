"""Issue 32: the six-player profiles ``six_p`` and ``six_p_no_kitty`` (SPEC §13, six seats)
may be a tournament's and a hand's; every seat-position check widens to 0..5.

* ``Board.face_up``: a six-player board's face-up card (R13.3), its ``first_bidder`` the
  landlord.
* ``Hand.partner_seat``: the landlord's partner (暗地主) once public (R13.11), never the
  landlord, only in six players; a closed hand's partner changes only with an event (0020's
  result freeze), and a per-seat result row's ``won`` puts him on the landlord's side.
* ``HandEventKind.CALL``: the landlord's call of the partner card (R13.4).
"""

import importlib

import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models

import tournaments.common.json_arrays
from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

arrays = importlib.import_module("tournaments.migrations.0020_per_seat_arrays")
_freeze = importlib.import_module("tournaments.migrations.0010_result_freeze")
_audit = importlib.import_module("tournaments.migrations.0011_audit_trail")

RESULT_FIELDS = (*arrays.RESULT_FIELDS, "partner_seat")


def _result_changed(distinct: str) -> str:
    changed = " OR ".join(f"NEW.{f} {distinct} OLD.{f}" for f in RESULT_FIELDS)
    return f"(OLD.status IN {_freeze.CLOSED} OR NEW.status IN {_freeze.CLOSED}) AND ({changed})"


def _seat_result_matches(row: str, same: str, vendor: str) -> str:
    """0020's condition, the partner on the landlord's side (R13.8)."""
    old = f"(({row}.position = h.landlord_seat) = (h.winner = 'landlord'))"
    new = (
        f"(({row}.position = h.landlord_seat"
        f" OR COALESCE({row}.position = h.partner_seat, false)) = (h.winner = 'landlord'))"
    )
    text = arrays._seat_result_matches(row, same, vendor)
    assert old in text
    return text.replace(old, new)


TRIGGERS = {
    "tournaments_hand_result_frozen": (
        "tournaments_hand",
        "BEFORE UPDATE",
        f"{_result_changed('IS DISTINCT FROM')} AND NOT {_freeze._EVENT_MOVED}",
        f"{_result_changed('IS NOT')} AND NOT {_freeze._EVENT_MOVED}",
        _freeze.RESULT_FROZEN,
    ),
    "tournaments_seat_result_matches_hand": (
        "tournaments_handseatresult",
        "BEFORE INSERT",
        f"NOT {_seat_result_matches('NEW', 'IS NOT DISTINCT FROM', 'postgresql')}",
        f"NOT {_seat_result_matches('NEW', 'IS', 'sqlite')}",
        _audit.SEAT_RESULT_INSERT,
    ),
    "tournaments_seat_result_delete_stale": (
        "tournaments_handseatresult",
        "BEFORE DELETE",
        _seat_result_matches("OLD", "IS NOT DISTINCT FROM", "postgresql"),
        _seat_result_matches("OLD", "IS", "sqlite"),
        _audit.SEAT_RESULT_DELETE,
    ),
}


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0036_stake_cap'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *keeping_sqlite_triggers([
            # Not changed in meaning, made again: on SQLite these two compile to one branch a
            # seat count when they are created (as 0035).
            migrations.RemoveConstraint(model_name='hand', name='hand_doubled_flags_boolean'),
            migrations.RemoveConstraint(model_name='hand', name='hand_scores_one_a_seat_zero_sum'),
        migrations.RemoveConstraint(
            model_name='board',
            name='board_first_bidder_range',
        ),
        migrations.RemoveConstraint(
            model_name='board',
            name='board_hands_one_a_seat',
        ),
        migrations.RemoveConstraint(
            model_name='boardpar',
            name='board_par_landlord_range',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_rule_profile_known',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_landlord_seat_range',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_first_bidder_range',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_seats_of_profile',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='hand_stake_cap_of_game',
        ),
        migrations.RemoveConstraint(
            model_name='handevent',
            name='hand_event_kind_known',
        ),
        migrations.RemoveConstraint(
            model_name='handevent',
            name='hand_event_actor_seat_range',
        ),
        migrations.RemoveConstraint(
            model_name='handpar',
            name='hand_par_turn_seat_range',
        ),
        migrations.RemoveConstraint(
            model_name='handseatresult',
            name='seat_result_position_range',
        ),
        migrations.RemoveConstraint(
            model_name='seat',
            name='seat_position_range',
        ),
        migrations.RemoveConstraint(
            model_name='table',
            name='table_first_bidder_range',
        ),
        migrations.RemoveConstraint(
            model_name='tournament',
            name='tournament_rule_profile_known',
        ),
        migrations.RemoveConstraint(
            model_name='tournament',
            name='tournament_stake_cap_of_game',
        ),
        migrations.AddField(
            model_name='board',
            name='face_up',
            field=models.CharField(blank=True, default='', max_length=8, verbose_name='face-up card'),
        ),
        migrations.AddField(
            model_name='hand',
            name='partner_seat',
            field=models.SmallIntegerField(blank=True, null=True, verbose_name='partner seat (暗地主)'),
        ),
        migrations.AlterField(
            model_name='hand',
            name='rule_profile',
            field=models.CharField(choices=[('comp2016', 'Competition rules 2016 (竞技二打一扑克)'), ('classic', 'Classic rules (斗地主)'), ('four_p', 'Four players, two packs (四人斗地主)'), ('laizi', 'Wild cards (癞子斗地主)'), ('big3', 'Big Three (大三 / 挖坑)'), ('big3_one_round', 'Big Three, one round of bids (大三 / 挖坑, 烂挖)'), ('five_p', 'Five players, two packs (五人斗地主)'), ('six_p', 'Six players, three packs (六人斗地主)'), ('six_p_no_kitty', 'Six players, three packs, 27 each and no kitty')], max_length=32, verbose_name='rule profile'),
        ),
        migrations.AlterField(
            model_name='handevent',
            name='kind',
            field=models.CharField(choices=[('bid', 'Bid'), ('double', 'Double'), ('redouble', 'Redouble'), ('play', 'Play'), ('result', 'Result'), ('pass_out', 'Passed out'), ('void', 'Void'), ('correction', 'Correction'), ('note', 'Note'), ('undo', 'Undo'), ('announce', 'Announcement (报牌)'), ('announce_missing', 'Missing announcement'), ('deal', 'Deal written in'), ('confirm', 'Confirmed'), ('dispute', 'Disputed'), ('seat_correction', 'Seat correction'), ('wild', 'Wild rank drawn'), ('call', 'Partner card called (叫牌)')], max_length=16, verbose_name='kind'),
        ),
        migrations.AlterField(
            model_name='seat',
            name='position',
            field=models.SmallIntegerField(choices=[(0, 'Seat 0'), (1, 'Seat 1'), (2, 'Seat 2'), (3, 'Seat 3'), (4, 'Seat 4'), (5, 'Seat 5')], verbose_name='position'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='rule_profile',
            field=models.CharField(choices=[('comp2016', 'Competition rules 2016 (竞技二打一扑克)'), ('classic', 'Classic rules (斗地主)'), ('four_p', 'Four players, two packs (四人斗地主)'), ('laizi', 'Wild cards (癞子斗地主)'), ('big3', 'Big Three (大三 / 挖坑)'), ('big3_one_round', 'Big Three, one round of bids (大三 / 挖坑, 烂挖)'), ('five_p', 'Five players, two packs (五人斗地主)'), ('six_p', 'Six players, three packs (六人斗地主)'), ('six_p_no_kitty', 'Six players, three packs, 27 each and no kitty')], default='comp2016', max_length=32, verbose_name='rule profile'),
        ),
        migrations.AddConstraint(
            model_name='board',
            constraint=models.CheckConstraint(condition=models.Q(('first_bidder__range', (0, 5))), name='board_first_bidder_range'),
        ),
        migrations.AddConstraint(
            model_name='board',
            constraint=models.CheckConstraint(condition=models.Q(django.db.models.lookups.In(tournaments.common.json_arrays.JsonArrayLength('seat_cards'), [3, 4, 5, 6])), name='board_hands_one_a_seat'),
        ),
        migrations.AddConstraint(
            model_name='boardpar',
            constraint=models.CheckConstraint(condition=models.Q(('landlord__range', (0, 5))), name='board_par_landlord_range'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('rule_profile__in', ['comp2016', 'classic', 'four_p', 'laizi', 'big3', 'big3_one_round', 'five_p', 'six_p', 'six_p_no_kitty'])), name='hand_rule_profile_known'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('landlord_seat__range', (0, 5))), name='hand_landlord_seat_range'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('partner_seat__range', (0, 5))), name='hand_partner_seat_range'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('partner_seat__isnull', True), models.Q(('landlord_seat__isnull', False), ('rule_profile__in', ('six_p', 'six_p_no_kitty')), models.Q(('partner_seat', models.F('landlord_seat')), _negated=True)), _connector='OR'), name='hand_partner_of_six_p_not_the_landlord'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__isnull', True), ('rule_profile__in', ('five_p', 'six_p', 'six_p_no_kitty')), _connector='OR'), name='hand_stake_cap_of_game'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(('first_bidder__range', (0, 5))), name='hand_first_bidder_range'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('rule_profile__in', ['comp2016', 'classic', 'laizi', 'big3', 'big3_one_round']), ('seats', 3)), models.Q(('rule_profile__in', ['four_p']), ('seats', 4)), models.Q(('rule_profile__in', ['five_p']), ('seats', 5)), models.Q(('rule_profile__in', ['six_p', 'six_p_no_kitty']), ('seats', 6)), _connector='OR'), name='hand_seats_of_profile'),
        ),
        migrations.AddConstraint(
            model_name='handevent',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['bid', 'double', 'redouble', 'play', 'result', 'pass_out', 'void', 'correction', 'note', 'undo', 'announce', 'announce_missing', 'deal', 'confirm', 'dispute', 'seat_correction', 'wild', 'call'])), name='hand_event_kind_known'),
        ),
        migrations.AddConstraint(
            model_name='handevent',
            constraint=models.CheckConstraint(condition=models.Q(('actor_seat__range', (0, 5))), name='hand_event_actor_seat_range'),
        ),
        migrations.AddConstraint(
            model_name='handpar',
            constraint=models.CheckConstraint(condition=models.Q(('turn_seat__range', (0, 5))), name='hand_par_turn_seat_range'),
        ),
        migrations.AddConstraint(
            model_name='handseatresult',
            constraint=models.CheckConstraint(condition=models.Q(('position__range', (0, 5))), name='seat_result_position_range'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__range', (0, 5))), name='seat_position_range'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('first_bidder__range', (0, 5))), name='table_first_bidder_range'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('rule_profile__in', ['comp2016', 'classic', 'four_p', 'laizi', 'big3', 'big3_one_round', 'five_p', 'six_p', 'six_p_no_kitty'])), name='tournament_rule_profile_known'),
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('stake_cap__isnull', True), ('rule_profile__in', ('five_p', 'six_p', 'six_p_no_kitty')), _connector='OR'), name='tournament_stake_cap_of_game'),
        ),
                migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(tournaments.common.json_arrays.FlagsSound("doubled")),
                    name="hand_doubled_flags_boolean",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        ("scores__isnull", True),
                        tournaments.common.json_arrays.ScoresSound("scores"),
                        _connector="OR",
                    ),
                    name="hand_scores_one_a_seat_zero_sum",
                ),
            ),
        ]),
        migrations.RunPython(arrays._triggers(TRIGGERS), arrays._triggers(arrays.TRIGGERS)),
    ]
