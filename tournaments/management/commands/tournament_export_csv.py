"""``manage.py tournament_export_csv``: standings and per-hand results as CSV files."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.standings.csv_export import hands_csv_write, standings_csv_write
from tournaments.standings.snapshots import standings_snapshot_update


class Command(BaseCommand):
    help = "Write <slug>-standings.csv and <slug>-hands.csv (UTF-8 with BOM) into a directory."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--directory", default=".")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = Tournament.objects.filter(slug=opts["slug"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {opts['slug']!r}")
        standings_snapshot_update(tournament_id=tournament.pk)  # the current version, if new
        directory = Path(opts["directory"])
        for kind, write in (("standings", standings_csv_write), ("hands", hands_csv_write)):
            path = directory / f"{tournament.slug}-{kind}.csv"
            with path.open("w", encoding="utf-8-sig", newline="") as out:
                rows = write(tournament=tournament, out=out)
            self.stdout.write(f"{path}: {rows} rows")
