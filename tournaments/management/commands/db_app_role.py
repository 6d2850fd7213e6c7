"""``manage.py db_app_role``: create the application's database role and apply its grants.

Run it as the owner role right after ``migrate`` (new tables need their grants). PostgreSQL
only; idempotent. The role name comes from DATABASE_APP_ROLE, its password (optional; set when
given) from DATABASE_APP_PASSWORD.
"""

import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections, transaction

from tournaments.common.db_roles import app_role_create, app_role_exists, app_role_grant


class Command(BaseCommand):
    help = "Create the application's database role if needed and apply its grants (as owner)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--role", default=settings.DATABASE_APP_ROLE)
        parser.add_argument("--database", default="default")

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            raise CommandError("db_app_role is for PostgreSQL only.")
        role = options["role"]
        password = os.environ.get("DATABASE_APP_PASSWORD") or None
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            if cursor.fetchone()[0] == role:
                raise CommandError(f"Run this as the owner role, not as {role}.")
            if password or not app_role_exists(cursor=cursor, role=role):
                created = app_role_create(cursor=cursor, role=role, password=password)
                self.stdout.write(f"Role {role} {'created' if created else 'exists'}.")
            app_role_grant(cursor=cursor, role=role)
        self.stdout.write(self.style.SUCCESS(f"Grants applied to {role}."))
