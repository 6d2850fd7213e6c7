"""How the standings' numbers read (issue 17.6): tie-break values with two decimals on the
page and in its CSV (one number on both), whole numbers as whole numbers."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tournaments.standings.public_table import tiebreak_text

pytestmark = pytest.mark.django_db


def test_tiebreak_values_read_as_their_kind() -> None:
    assert tiebreak_text("opponents_outscored", 16.666667) == "16.67"
    assert tiebreak_text("mp_percentage", 50) == "50.00"
    assert tiebreak_text("tops", 3) == "3"
    assert tiebreak_text("last_deal", 1) == "1"
    assert tiebreak_text("registration", 12) == "12"
    assert tiebreak_text("tops", 3.0) == "3"
    assert tiebreak_text("tops", None) == ""


def test_the_page_and_its_csv_show_the_same_two_decimals(client: Any) -> None:
    tournament = factories.TournamentFactory(
        format="duplicate", tiebreaks=["opponents_outscored", "tops"]
    )
    for rank, (outscored, tops) in enumerate(((16.666667, 2), (8.333333, 0)), start=1):
        factories.StandingSnapshotFactory(
            tournament=tournament,
            rank=rank,  # totals 0: the database holds them to the (no) rows (0024)
            mp_percentage=100 / 3 * rank,
            tiebreaks={
                "mp_percentage": round(100 / 3 * rank, 6),
                "opponents_outscored": outscored,
                "tops": tops,
            },
        )
    page = client.get(reverse("public:standings", args=[tournament.slug])).content.decode()
    assert re.findall(r'<td class="num tiebreak">([^<]*)</td>', page) == ["16.67", "2", "8.33", "0"]
    assert "16.666667" not in page and "33.33" in page
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("public:standings-csv", args=[tournament.slug])).content.decode(
                    "utf-8-sig"
                )
            )
        )
    )
    assert rows[0][-2:] == ["Opponents outscored", "Tops"]
    assert [r[-2:] for r in rows[1:]] == [["16.67", "2"], ["8.33", "0"]]
    assert [r[5] for r in rows[1:]] == ["33.33", "66.67"]


def test_player_counts_leave_the_withdrawn_apart(client: Any, director_client: Any) -> None:
    tournament = factories.TournamentFactory(name="Counted")
    for order in range(1, 13):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    factories.EntryFactory(tournament=tournament, registration_order=13, withdrawn=True)
    detail = reverse("public:tournament-detail", args=[tournament.slug])
    english = client.get(detail, headers={"accept-language": "en"}).content.decode()
    assert '<dd class="players">12 players (1 withdrawn)</dd>' in english
    chinese = client.get(detail, headers={"accept-language": "zh-hans"}).content.decode()
    assert '<dd class="players">12 名选手（1 名退赛）</dd>' in chinese
    home = client.get(reverse("public:home"), headers={"accept-language": "en"}).content.decode()
    assert '<td class="num">12 (1 withdrawn)</td>' in home
    dashboard = director_client.get(reverse("director:dashboard")).content.decode()
    assert '<td class="num">12 (1 withdrawn)</td>' in dashboard
