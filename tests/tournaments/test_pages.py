from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Round, RoundStatus

pytestmark = pytest.mark.django_db


def test_home_lists_public_tournaments_only(client: Any) -> None:
    factories.TournamentFactory(name="Shanghai Open", is_public=True)
    factories.TournamentFactory(name="Secret Cup", is_public=False)
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Shanghai Open" in body
    assert "Secret Cup" not in body


def test_public_round_page_shows_tables_and_scores(client: Any) -> None:
    table = factories.seated_table(name="Beijing Open")
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    hand = hand_create(table=table).hand
    hand_record_result(hand=hand, landlord=1, bid=2, winner="landlord")
    seat = table.seats.get(position=1)
    slug = table.round.tournament.slug
    home = client.get(reverse("public:tournament-detail", args=[slug]))
    assert home.status_code == 200 and "Beijing Open" in home.content.decode()
    url = reverse("public:round", args=[slug, table.round.number])

    response = client.get(url)

    assert response.status_code == 200
    body = response.content.decode()
    assert seat.entry.player.chinese_name in body
    assert str(hand.__class__.objects.get(pk=hand.pk).score_of(1)) in body


def test_private_or_unknown_tournament_is_404(client: Any) -> None:
    private = factories.TournamentFactory(is_public=False)
    assert client.get(reverse("public:tournament-detail", args=[private.slug])).status_code == 404
    assert client.get(reverse("public:tournament-detail", args=["nope"])).status_code == 404


def test_director_dashboard_is_staff_only(client: Any, director_client: Any) -> None:
    factories.TournamentFactory(name="Hidden Cup", is_public=False)
    url = reverse("director:dashboard")
    assert director_client.get(url).status_code == 200
    assert "Hidden Cup" in director_client.get(url).content.decode()
    client.logout()
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/director/login/" in anonymous["Location"]


def test_pages_are_translated_to_simplified_chinese(client: Any) -> None:
    factories.TournamentFactory(name="Chengdu Open", status="running", format="duplicate")
    response = client.get("/", headers={"accept-language": "zh-hans"})
    assert response.status_code == 200
    body = response.content.decode()
    assert '<html lang="zh-hans">' in body
    assert "<h1>比赛</h1>" in body  # site template
    assert "<td>进行中</td>" in body and "<td>复式赛</td>" in body  # model choices
    assert ">English</option>" in body  # each language named in its own language


def test_openapi_schema_is_served(client: Any) -> None:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/v1/me/" in response.content
