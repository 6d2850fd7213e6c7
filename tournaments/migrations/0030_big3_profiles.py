"""Issue 31: the Big Three profiles ``big3`` and ``big3_one_round`` (SPEC §12, three seats) may
be a tournament's and a hand's."""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0029_hand_marks_closed_only"),
    ]

    operations = keeping_sqlite_triggers(
        [
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_rule_profile_known",
            ),
            migrations.RemoveConstraint(
                model_name="hand",
                name="hand_seats_of_profile",
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
                    ],
                    default="comp2016",
                    max_length=32,
                    verbose_name="rule profile",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        (
                            "rule_profile__in",
                            ["comp2016", "classic", "four_p", "laizi", "big3", "big3_one_round"],
                        )
                    ),
                    name="hand_rule_profile_known",
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
                        _connector="OR",
                    ),
                    name="hand_seats_of_profile",
                ),
            ),
            migrations.AddConstraint(
                model_name="tournament",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        (
                            "rule_profile__in",
                            ["comp2016", "classic", "four_p", "laizi", "big3", "big3_one_round"],
                        )
                    ),
                    name="tournament_rule_profile_known",
                ),
            ),
        ]
    )
