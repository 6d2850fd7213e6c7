"""The JSON archive (every board's cards, every account name) is downloaded by directors
only: anybody else asking for it over HTTP, signed in or not, is sent to the sign-in page and
gets none of it (issue 28; README "Exports")."""

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client

from tests import factories
from tournaments.archive.export import ARCHIVE_FORMAT
from tournaments.common.roles import REFEREE_GROUP

pytestmark = pytest.mark.django_db


@pytest.fixture
def addresses(seated_table: Any) -> list[str]:
    tournament = seated_table.round.tournament
    tournament.is_public = True
    tournament.save()
    base = f"/director/t/{tournament.slug}"
    return [
        f"{base}/export/archive.json",
        f"{base}/rounds/{seated_table.round.number}/export/archive.json",
    ]


def _client(kind: str) -> Client:
    client = Client()
    if kind == "anonymous":
        return client
    user = factories.UserFactory(username=f"{kind}-asks")
    if kind == "referee":
        user.groups.add(Group.objects.get(name=REFEREE_GROUP))
    if kind == "permission holder":  # may change penalties in the admin, but is no director
        user.user_permissions.add(Permission.objects.get(codename="change_penalty"))
    client.force_login(user)
    return client


@pytest.mark.parametrize("kind", ["anonymous", "referee", "plain user", "permission holder"])
def test_nobody_but_a_director_downloads_the_archive(addresses: list[str], kind: str) -> None:
    client = _client(kind)
    for address in addresses:
        response = client.get(address)
        assert response.status_code == 302, (kind, address)
        assert response["Location"].startswith("/director/login/")
        assert ARCHIVE_FORMAT.encode() not in response.content
        assert not response.has_header("Content-Disposition")


def test_a_director_downloads_it_as_an_attachment_never_cached(
    addresses: list[str], director_client: Any
) -> None:
    for address in addresses:
        response = director_client.get(address)
        assert response.status_code == 200
        assert response["Content-Disposition"].startswith("attachment;")
        assert "no-store" in response["Cache-Control"]
        assert ARCHIVE_FORMAT.encode() in response.content
