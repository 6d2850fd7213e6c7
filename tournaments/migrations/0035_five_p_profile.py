"""Issue 32: the five-player profile ``five_p`` (SPEC §14, five seats) may be a tournament's
and a hand's; every seat-position check widens to 0..4."""

import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models

import tournaments.common.json_arrays
from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0034_per_seat_checks_as_functions"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = keeping_sqlite_triggers(
        [
            # Not changed in meaning, made again: on SQLite these two compile to one branch a
            # seat count (``json_arrays.ScoresSound.unrolled``) when they are created, so a
            # database made before five seats were offered gets the five-seat branch here.
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_doubled_flags_boolean",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_scores_one_a_seat_zero_sum",
            ),
            migrations.RemoveConstraint(
                model_name="board",
                name="board_hands_one_a_seat",
            ),
            migrations.RemoveConstraint(
                model_name="board",
                name="board_first_bidder_range",
            ),
            migrations.RemoveConstraint(
                model_name="boardpar",
                name="board_par_landlord_range",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_landlord_seat_range",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_first_bidder_range",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_rule_profile_known",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_seats_of_profile",
            ),
            migrations.RemoveConstraint(
                model_name="handevent",
                name="hand_event_actor_seat_range",
            ),
            migrations.RemoveConstraint(
                model_name="handpar",
                name="hand_par_turn_seat_range",
            ),
            migrations.RemoveConstraint(
                model_name="handseatresult",
                name="seat_result_position_range",
            ),
            migrations.RemoveConstraint(
                model_name="seat",
                name="seat_position_range",
            ),
            migrations.RemoveConstraint(
                model_name="table",
                name="table_first_bidder_range",
            ),
            migrations.RemoveConstraint(
                model_name="tournament",
                name="tournament_rule_profile_known",
            ),
            migrations.AlterField(
                model_name="hand",
                name="rule_profile",
                field=models.CharField(
                    choices=[
                        ("comp2016", "Competition rules 2016 (竞技二打一扑克)"),
                        ("classic", "Classic rules (斗地主)"),
                        ("four_p", "Four players, two packs (四人斗地主)"),
                        ("laizi", "Wild cards (癞子斗地主)"),
                        ("big3", "Big Three (大三 / 挖坑)"),
                        ("big3_one_round", "Big Three, one round of bids (大三 / 挖坑, 烂挖)"),
                        ("five_p", "Five players, two packs (五人斗地主)"),
                    ],
                    max_length=32,
                    verbose_name="rule profile",
                ),
            ),
            migrations.AlterField(
                model_name="tournament",
                name="rule_profile",
                field=models.CharField(
                    choices=[
                        ("comp2016", "Competition rules 2016 (竞技二打一扑克)"),
                        ("classic", "Classic rules (斗地主)"),
                        ("four_p", "Four players, two packs (四人斗地主)"),
                        ("laizi", "Wild cards (癞子斗地主)"),
                        ("big3", "Big Three (大三 / 挖坑)"),
                        ("big3_one_round", "Big Three, one round of bids (大三 / 挖坑, 烂挖)"),
                        ("five_p", "Five players, two packs (五人斗地主)"),
                    ],
                    default="comp2016",
                    max_length=32,
                    verbose_name="rule profile",
                ),
            ),
            migrations.AddConstraint(
                model_name="board",
                constraint=models.CheckConstraint(
                    condition=models.Q(("first_bidder__range", (0, 4))),
                    name="board_first_bidder_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="board",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        django.db.models.lookups.In(
                            tournaments.common.json_arrays.JsonArrayLength("seat_cards"), [3, 4, 5]
                        )
                    ),
                    name="board_hands_one_a_seat",
                ),
            ),
            migrations.AddConstraint(
                model_name="boardpar",
                constraint=models.CheckConstraint(
                    condition=models.Q(("landlord__range", (0, 4))), name="board_par_landlord_range"
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        (
                            "rule_profile__in",
                            [
                                "comp2016",
                                "classic",
                                "four_p",
                                "laizi",
                                "big3",
                                "big3_one_round",
                                "five_p",
                            ],
                        )
                    ),
                    name="hand_rule_profile_known",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(("landlord_seat__range", (0, 4))),
                    name="hand_landlord_seat_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(("first_bidder__range", (0, 4))),
                    name="hand_first_bidder_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        models.Q(
                            (
                                "rule_profile__in",
                                ["comp2016", "classic", "laizi", "big3", "big3_one_round"],
                            ),
                            ("seats", 3),
                        ),
                        models.Q(("rule_profile__in", ["four_p"]), ("seats", 4)),
                        models.Q(("rule_profile__in", ["five_p"]), ("seats", 5)),
                        _connector="OR",
                    ),
                    name="hand_seats_of_profile",
                ),
            ),
            migrations.AddConstraint(
                model_name="handevent",
                constraint=models.CheckConstraint(
                    condition=models.Q(("actor_seat__range", (0, 4))),
                    name="hand_event_actor_seat_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="handpar",
                constraint=models.CheckConstraint(
                    condition=models.Q(("turn_seat__range", (0, 4))),
                    name="hand_par_turn_seat_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="handseatresult",
                constraint=models.CheckConstraint(
                    condition=models.Q(("position__range", (0, 4))),
                    name="seat_result_position_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="seat",
                constraint=models.CheckConstraint(
                    condition=models.Q(("position__range", (0, 4))), name="seat_position_range"
                ),
            ),
            migrations.AddConstraint(
                model_name="table",
                constraint=models.CheckConstraint(
                    condition=models.Q(("first_bidder__range", (0, 4))),
                    name="table_first_bidder_range",
                ),
            ),
            migrations.AddConstraint(
                model_name="tournament",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        (
                            "rule_profile__in",
                            [
                                "comp2016",
                                "classic",
                                "four_p",
                                "laizi",
                                "big3",
                                "big3_one_round",
                                "five_p",
                            ],
                        )
                    ),
                    name="tournament_rule_profile_known",
                ),
            ),
            migrations.AlterField(
                model_name="seat",
                name="position",
                field=models.SmallIntegerField(
                    choices=[
                        (0, "Seat 0"),
                        (1, "Seat 1"),
                        (2, "Seat 2"),
                        (3, "Seat 3"),
                        (4, "Seat 4"),
                    ],
                    verbose_name="position",
                ),
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
        ]
    )
