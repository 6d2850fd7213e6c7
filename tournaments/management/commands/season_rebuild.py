"""``manage.py season_rebuild SLUG``: rebuild a season's rating and points from the hand
logs alone and compare them with the stored ladder."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Season
from tournaments.season.rebuild import season_compare


class Command(BaseCommand):
    help = (
        "Replay every hand of a season's counted tournaments, compute the rating and season "
        "points again and compare them with the stored ladder; print the differences and "
        "exit 1 if there are any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="seasons to rebuild (default: all)")

    def handle(self, *args: Any, **opts: Any) -> None:
        seasons = Season.objects.order_by("pk")
        if opts["slugs"]:
            seasons = seasons.filter(slug__in=opts["slugs"])
            missing = set(opts["slugs"]) - set(seasons.values_list("slug", flat=True))
            if missing:
                raise CommandError(f"no such season: {', '.join(sorted(missing))}")
        found = 0
        for season in seasons:
            differences = season_compare(season)
            for difference in differences:
                self.stdout.write(f"{season.slug}: {difference}")
            found += len(differences)
            if not differences:
                self.stdout.write(
                    f"{season.slug}: the stored ladder equals the one rebuilt from the hand logs"
                )
        if found:
            self.stderr.write(f"{found} difference(s)")
            raise SystemExit(1)
