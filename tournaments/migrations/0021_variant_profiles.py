"""Issue 20: the variant profiles ``four_p`` (four seats) and ``laizi`` (wild cards) may be a
tournament's and a hand's; a ``laizi`` board keeps its wild rank."""

from django.db import migrations, models

from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0020_per_seat_arrays"),
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
            migrations.AddField(
                model_name="board",
                name="wild_rank",
                field=models.SmallIntegerField(
                    blank=True, null=True, verbose_name="wild rank (癞子)"
                ),
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
                    ],
                    default="comp2016",
                    max_length=32,
                    verbose_name="rule profile",
                ),
            ),
            migrations.AddConstraint(
                model_name="board",
                constraint=models.CheckConstraint(
                    condition=models.Q(("wild_rank__range", (0, 12))), name="board_wild_rank_range"
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        ("rule_profile__in", ["comp2016", "classic", "four_p", "laizi"])
                    ),
                    name="hand_rule_profile_known",
                ),
            ),
            migrations.AddConstraint(
                model_name="hand",
                constraint=models.CheckConstraint(
                    condition=models.Q(
                        models.Q(
                            ("rule_profile__in", ["comp2016", "classic", "laizi"]), ("seats", 3)
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
                        ("rule_profile__in", ["comp2016", "classic", "four_p", "laizi"])
                    ),
                    name="tournament_rule_profile_known",
                ),
            ),
        ]
    )
