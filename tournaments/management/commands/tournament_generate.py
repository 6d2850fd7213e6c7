"""``manage.py tournament_generate``: a complete random tournament (demos, benchmarks)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.common.errors import ApplicationError
from tournaments.models import RuleProfileKey
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.generate import GenerateOptions, tournament_generate


class Command(BaseCommand):
    help = (
        "Create a tournament of N players × R rounds × H hands, every hand played by a "
        "seeded random legal policy through the rules library."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=30)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--hands", type=int, default=6, help="hands per table per round")
        parser.add_argument("--format", choices=["table", "swiss", "duplicate"], default="table")
        parser.add_argument(
            "--profile", choices=RuleProfileKey.values, default=RuleProfileKey.COMP2016
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--slug", default="")
        parser.add_argument("--name", default="")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["players"] < 3 or opts["rounds"] < 1 or opts["hands"] < 1:
            raise CommandError("need at least 3 players, 1 round and 1 hand")
        try:
            tournament = tournament_generate(
                options=GenerateOptions(
                    players=opts["players"],
                    rounds=opts["rounds"],
                    hands=opts["hands"],
                    format=opts["format"],
                    seed=opts["seed"],
                    slug=opts["slug"],
                    name=opts["name"],
                    rule_profile=opts["profile"],
                )
            )
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        version = standings_snapshot_update(tournament_id=tournament.pk)
        self.stdout.write(f"{tournament.slug}: tournament {tournament.pk}, standings v{version}")
