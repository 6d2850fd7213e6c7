"""``manage.py hand_audit``: replay every hand's log and compare its row with it."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.hands.audit import hands_audit


class Command(BaseCommand):
    help = (
        "Replay each hand's log and compare the row's summary and snapshot with it; print "
        "the mismatches and exit 1 if there are any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*", help="tournaments to audit (default: all)")

    def handle(self, *args: Any, **opts: Any) -> None:
        found = 0
        for mismatch in hands_audit(tournament_slugs=opts["slugs"] or None):
            found += 1
            fields = ", ".join(mismatch.fields)
            self.stdout.write(f"hand {mismatch.hand_id} ({mismatch.where}): {fields}")
        if found:
            self.stderr.write(f"{found} hand(s) differ from their logs")
            raise SystemExit(1)
        self.stdout.write("every hand agrees with its log")
