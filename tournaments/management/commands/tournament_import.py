"""``manage.py tournament_import``: restore a tournament from its JSON archive."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.archive.restore import tournament_import
from tournaments.common.errors import ApplicationError


class Command(BaseCommand):
    help = "Restore a tournament archive; every hand's log is replayed first; all or nothing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path")
        parser.add_argument(
            "--slug",
            help="import as a copy under this slug (e.g. into the instance it was exported from)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            text = Path(opts["path"]).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{opts['path']}: {exc}") from exc
        try:
            tournament = tournament_import(text=text, slug=opts.get("slug"))
        except ApplicationError as exc:
            raise CommandError(f"{opts['path']}: {exc.message}") from exc
        self.stdout.write(f"imported {tournament.slug} (tournament {tournament.pk})")
