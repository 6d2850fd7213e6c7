"""``manage.py standings_recompute``: store the standings of tournaments now."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.standings.snapshots import standings_snapshot_update


class Command(BaseCommand):
    help = "Compute and store the standings of the given tournaments (slugs), or of all."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournaments = Tournament.objects.order_by("pk")
        if opts["slugs"]:
            tournaments = tournaments.filter(slug__in=opts["slugs"])
            missing = set(opts["slugs"]) - set(tournaments.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"no tournament {', '.join(sorted(missing))}")
        for tournament in tournaments:
            version = standings_snapshot_update(tournament_id=tournament.pk)
            self.stdout.write(f"{tournament.slug}: standings at log version {version}")
