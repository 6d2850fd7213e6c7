"""``manage.py tournament_export``: the whole tournament as a JSON archive."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write the tournament's JSON archive (event logs included) to a file or stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", default="-")

    def handle(self, *args: Any, **opts: Any) -> None:
        tournament = Tournament.objects.filter(slug=opts["slug"]).first()
        if tournament is None:
            raise CommandError(f"no tournament {opts['slug']!r}")
        text = archive_dumps(tournament_archive(tournament=tournament))
        if opts["output"] == "-":
            self.stdout.write(text, ending="")
        else:
            Path(opts["output"]).write_text(text, encoding="utf-8")
