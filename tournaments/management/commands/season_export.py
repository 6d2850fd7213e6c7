"""``manage.py season_export SLUG [--format json|ladder.csv|steps.csv]``: a season in the JSON
archive format (``tournaments.season.exports.season_archive``) or as CSV, on stdout."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Season
from tournaments.season.exports import season_archive, season_ladder_csv, season_steps_csv


class Command(BaseCommand):
    help = "Write a season as JSON (its archive) or CSV (its ladder, or every player's steps)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=("json", "ladder.csv", "steps.csv"), default="json")

    def handle(self, *args: Any, **opts: Any) -> None:
        season = Season.objects.filter(slug=opts["slug"]).first()
        if season is None:
            raise CommandError(f"no such season: {opts['slug']}")
        if opts["format"] == "json":
            self.stdout.write(
                json.dumps(season_archive(season=season), ensure_ascii=False, indent=1)
            )
        elif opts["format"] == "ladder.csv":
            season_ladder_csv(season=season, out=self.stdout)
        else:
            season_steps_csv(season=season, out=self.stdout)
