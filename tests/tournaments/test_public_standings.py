"""The public standings: read from the snapshot, ETag and conditional GET, club filter,
CSV, provisional / final marker, movement and a fixed number of queries."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tests.public_data import page_queries
from tournaments.models import Penalty, StandingSnapshot, Tournament
from tournaments.public import standings as public_standings
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.generate import GenerateOptions, tournament_generate
from tournaments.tournament.penalties import penalty_create

pytestmark = pytest.mark.django_db


def _generated(players: int, *, slug: str, fmt: str = "table") -> Tournament:
    tournament = tournament_generate(
        options=GenerateOptions(players=players, rounds=2, hands=1, format=fmt, slug=slug)
    )
    Tournament.objects.filter(pk=tournament.pk).update(is_public=True)
    standings_snapshot_update(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _get(client: Any, url: str, **headers: str) -> tuple[Any, int]:
    """The response and the page's own queries (``page_queries``: not the shared cache's)."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers)
    return response, len(page_queries(ctx.captured_queries))


def test_standings_come_from_the_snapshot_with_a_fixed_number_of_queries(client: Any) -> None:
    small = _generated(6, slug="small")
    big = _generated(18, slug="big")
    counts = []
    for tournament in (small, big):
        for name in ("public:standings", "public:standings-csv", "public:player"):
            args: list[Any] = [tournament.slug]
            if name == "public:player":
                args.append(tournament.entries.first().pk)  # type: ignore[union-attr]
            response, queries = _get(client, reverse(name, args=args))
            assert response.status_code == 200
            counts.append(queries)
    assert counts[:3] == counts[3:], counts
    # 7: the player page also reads the player's byes (issue 29), whatever the size; and
    # its version (tournaments/public/page_cache.py: the tournament's pages' one query and
    # the live board's five), read on every request in the tests, once a second in service.
    assert max(counts) <= 7 + 6, counts

    body = client.get(reverse("public:standings", args=[big.slug])).content.decode()
    latest = StandingSnapshot.objects.filter(tournament=big).order_by("-log_version").first()
    assert latest is not None
    rows = StandingSnapshot.objects.filter(tournament=big, log_version=latest.log_version)
    assert body.count('<td class="num rank">') == rows.count() == 18
    marker = "Final" if big.status == "finished" else "Provisional"
    assert f'class="badge {marker.lower()}"' in body


def test_conditional_get_answers_304_until_the_snapshot_changes(client: Any) -> None:
    tournament = _generated(6, slug="cond")
    url = reverse("public:standings", args=[tournament.slug])
    first = client.get(url)
    etag = first["ETag"]
    again, queries = _get(client, url, if_none_match=etag)
    assert again.status_code == 304 and queries == 1
    other = "running" if tournament.status == "finished" else "finished"
    factories.tournament_set(tournament.pk, status=other)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    marker = 'class="badge final"' if other == "finished" else 'class="badge provisional"'
    assert marker in changed.content.decode()


def test_a_result_not_in_the_standings_yet_changes_no_etag(client: Any) -> None:
    """A finished hand bumps the tournament's log version before its snapshot is made: the
    page is the same until then (304), and changes when the snapshot does; once finished,
    the version decides whether the standings are final."""
    tournament = _generated(6, slug="bumped")
    if tournament.status != "running":
        factories.tournament_set(tournament.pk, status="running")
    url = reverse("public:standings", args=[tournament.slug]) + "?fragment=1"
    first = client.get(url)
    entry = tournament.entries.first()
    assert entry is not None
    penalty_create(entry=entry, points=-1, reason="late")  # the version moves on
    assert client.get(url, headers={"if-none-match": first["ETag"]}).status_code == 304
    standings_snapshot_update(tournament_id=tournament.pk)
    changed = client.get(url, headers={"if-none-match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    factories.tournament_set(tournament.pk, status="finished")
    final = client.get(url, headers={"if-none-match": changed["ETag"]})
    assert final.status_code == 200 and 'class="badge final"' in final.content.decode()
    # A row written around the services (no version): the database marks the change.
    Penalty.objects.create(tournament=tournament, entry=entry, points=-1, reason="around")
    behind = client.get(url, headers={"if-none-match": final["ETag"]})
    assert behind.status_code == 200 and 'class="badge provisional"' in behind.content.decode()


def test_club_filter_and_csv(client: Any) -> None:
    tournament = _generated(9, slug="clubs")
    entry = tournament.entries.select_related("player").first()
    assert entry is not None
    club = entry.player.club
    expected = tournament.entries.filter(player__club=club).count()
    body = client.get(
        reverse("public:standings", args=[tournament.slug]), {"club": club}
    ).content.decode()
    assert body.count('<td class="num rank">') == expected
    response = client.get(reverse("public:standings-csv", args=[tournament.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["Rank", "Player", "Chinese name", "Club", "Total"]
    assert len(rows) == 1 + 9
    ranks = [int(r[0]) for r in rows[1:]]
    assert ranks == sorted(ranks)


def test_player_page_shows_rank_after_each_round_and_landlord_record(client: Any) -> None:
    tournament = _generated(6, slug="ranks")
    entry = tournament.entries.first()
    assert entry is not None
    snapshot = StandingSnapshot.objects.filter(entry=entry).order_by("-log_version").first()
    assert snapshot is not None
    body = client.get(reverse("public:player", args=[tournament.slug, entry.pk])).content.decode()
    assert "Rank after each round" in body
    assert f"{snapshot.landlord_wins} won of {snapshot.landlord_hands}" in body
    assert "<svg" in body


def _ranks(body: str) -> list[int]:
    return [int(r) for r in re.findall(r'<td class="num rank">(\d+)</td>', body)]


def _players(body: str) -> set[str]:
    return set(re.findall(r'<td class="player"><a href="[^"]*/players/(\d+)/">', body))


def test_standings_come_in_pages_and_every_player_is_on_one(client: Any, monkeypatch: Any) -> None:
    """Pages of STANDINGS_PAGE (here 5 of 18 entries), the first by default; a page past
    the last is the last, a page that is no number the first; ?page=all and the big screen
    show everyone (what the browser's find searches), as the CSV does."""
    monkeypatch.setattr(public_standings, "STANDINGS_PAGE", 5)
    tournament = _generated(18, slug="paged")
    url = reverse("public:standings", args=[tournament.slug])
    every = {str(pk) for pk in tournament.entries.values_list("pk", flat=True)}
    first = client.get(url).content.decode()
    assert _ranks(first) == sorted(_ranks(first)) and len(_ranks(first)) == 5
    assert 'href="?page=2"' in first and 'href="?page=4"' in first
    assert 'href="?page=5"' not in first and 'href="?page=all"' in first
    seen: set[str] = set()
    ranks: list[int] = []
    for page in (1, 2, 3, 4):
        body = client.get(url, {"page": page}).content.decode()
        assert f'data-poll="?fragment=1&amp;page={page}"' in body
        seen |= _players(body)
        ranks += _ranks(body)
    assert seen == every and len(ranks) == 18 and ranks == sorted(ranks)
    assert _ranks(client.get(url, {"page": 99}).content.decode()) == ranks[15:]
    assert _ranks(client.get(url, {"page": "x"}).content.decode()) == ranks[:5]
    assert _players(client.get(url, {"page": "all"}).content.decode()) == every
    assert _players(client.get(url, {"big": 1}).content.decode()) == every
    fragment = client.get(url, {"fragment": 1, "page": 2})
    assert _ranks(fragment.content.decode()) == ranks[5:10]
    assert fragment["ETag"] != client.get(url, {"fragment": 1, "page": 3})["ETag"]
    again = client.get(url, {"fragment": 1, "page": 2}, headers={"if-none-match": fragment["ETag"]})
    assert again.status_code == 304


def test_a_club_filter_pages_its_own_players(client: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(public_standings, "STANDINGS_PAGE", 2)
    tournament = _generated(9, slug="club-pages")
    entry = tournament.entries.select_related("player").first()
    assert entry is not None
    club = entry.player.club
    members = {
        str(pk) for pk in tournament.entries.filter(player__club=club).values_list("pk", flat=True)
    }
    url = reverse("public:standings", args=[tournament.slug])
    pages = -(-len(members) // 2)
    seen: set[str] = set()
    for page in range(1, pages + 1):
        body = client.get(url, {"club": club, "page": page}).content.decode()
        seen |= _players(body)
        if pages > 1:
            assert f"?page={pages}&amp;club=" in body
    assert seen == members
