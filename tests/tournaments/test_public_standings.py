"""The public standings: read from the snapshot, ETag and conditional GET, club filter,
CSV, provisional / final marker, movement and a fixed number of queries."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.public_data import page_queries
from tournaments.models import StandingSnapshot, Tournament
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.generate import GenerateOptions, tournament_generate

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
    assert max(counts) <= 6, counts

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
    Tournament.objects.filter(pk=tournament.pk).update(status=other)
    changed = client.get(url, headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    marker = 'class="badge final"' if other == "finished" else 'class="badge provisional"'
    assert marker in changed.content.decode()


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
