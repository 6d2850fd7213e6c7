"""Director screens through Django's test client: each screen calls its service and shows
a refusal as a message."""

from typing import Any

import pytest

from tests.api.helpers import client_for, post
from tournaments.models import Entry, Hand, Penalty, Player, RefereeAssignment, Round, Tournament

pytestmark = pytest.mark.django_db

CSV_OK = "name,chinese_name,club\nAlice,爱丽丝,North\nBob,,North\nCarol,,South\n"
CSV_BAD = "name,club\nDave,East\n,NoName\n" + "Eve," + "x" * 200 + "\n"


def _tournament(client: Any, slug: str = "sat") -> Tournament:
    response = client.post(
        "/director/new/",
        {
            "name": "Saturday",
            "slug": slug,
            "rule_profile": "comp2016",
            "format": "table",
            "hands_per_round": 2,
            "requires_confirmation": "",
        },
    )
    assert response.status_code == 302, response.content
    return Tournament.objects.get(slug=slug)


def test_directors_only(client: Any, referee: Any) -> None:
    assert client.get("/director/").status_code == 302
    client.force_login(referee)
    assert client.get("/director/").status_code == 302


def test_csv_preview_writes_nothing_and_names_each_bad_row(director_client: Any) -> None:
    tournament = _tournament(director_client)
    url = f"/director/t/{tournament.slug}/entries/import/"
    preview = director_client.post(url, {"text": CSV_BAD, "preview": "1"})
    page = preview.content.decode()
    assert preview.status_code == 200
    assert page.count('class="row-error"') == 2
    assert "Registration #1" in page
    assert Player.objects.count() == 0 and Entry.objects.count() == 0
    refused = director_client.post(url, {"text": CSV_BAD, "confirm": "1"}, follow=True)
    assert "nothing was imported" in refused.content.decode()
    assert Entry.objects.count() == 0


def test_csv_import_after_preview_registers_in_order(director_client: Any) -> None:
    tournament = _tournament(director_client)
    url = f"/director/t/{tournament.slug}/entries/import/"
    preview = director_client.post(url, {"text": CSV_OK, "preview": "1"})
    assert "row-error" not in preview.content.decode() and Entry.objects.count() == 0
    director_client.post(url, {"text": CSV_OK, "confirm": "1"})
    names = list(
        Entry.objects.filter(tournament=tournament)
        .order_by("registration_order")
        .values_list("player__name", "registration_order")
    )
    assert names == [("Alice", 1), ("Bob", 2), ("Carol", 3)]


@pytest.mark.parametrize(
    ("language", "told"),
    [
        ("en", "To import players, choose the CSV file again below."),
        ("zh-hans", "要导入选手，请在下方重新选择 CSV 文件。"),
    ],
)
def test_the_import_revisited_by_get_leads_back_to_its_form(
    director_client: Any, language: str, told: str
) -> None:
    """A reload of the preview (or the browser's back button) asks for the import's URL by
    GET: the director is taken back to the form and told why, not shown a blank 405."""
    tournament = _tournament(director_client)
    url = f"/director/t/{tournament.slug}/entries/import/"
    headers = {"accept-language": language}
    answer = director_client.get(url, headers=headers)
    assert answer.status_code == 302
    assert answer["Location"] == f"/director/t/{tournament.slug}/entries/#import"
    page = director_client.get(answer["Location"], headers=headers).content.decode()
    assert told in page
    assert 'id="import"' in page and 'name="preview"' in page
    assert Entry.objects.count() == 0
    assert director_client.put(url).status_code == 405


def test_a_round_is_seated_started_refereed_and_corrected(director_client: Any) -> None:
    tournament = _tournament(director_client)
    director_client.post(
        f"/director/t/{tournament.slug}/entries/import/", {"text": CSV_OK, "confirm": "1"}
    )
    base = f"/director/t/{tournament.slug}/rounds/"
    director_client.post(base + "new/")
    round_ = Round.objects.get(tournament=tournament)
    preview = director_client.get(base + "1/?preview=1&seed=7")
    assert "seating-preview" in preview.content.decode()
    assert not round_.tables.exists()  # a preview writes nothing
    director_client.post(base + "1/seat/", {"seed": "7"})
    round_.refresh_from_db()
    assert round_.status == "seated" and round_.seed == 7
    refused = director_client.post(base + "1/override/", {"seat": 0, "entry": 0}, follow=True)
    assert refused.status_code == 404
    seat = round_.seats.get(position=0)
    other = Entry.objects.filter(tournament=tournament).exclude(pk=seat.entry_id).first()
    no_reason = director_client.post(
        base + "1/override/", {"seat": seat.pk, "entry": other.pk, "reason": " "}, follow=True
    )
    assert "Give a reason" in no_reason.content.decode()
    director_client.post(
        base + "1/override/", {"seat": seat.pk, "entry": other.pk, "reason": "asked to swap"}
    )
    assert round_.seats.get(position=0).entry_id == other.pk
    table = round_.tables.get()
    director_client.post(base + "1/referee/", {"username": "ref-a", "table": table.pk})
    assert RefereeAssignment.objects.filter(user__username="ref-a", table=table).exists()
    page = director_client.get(base + "1/").content.decode()
    assert "/referee/link/" in page and "<svg" in page
    director_client.post(base + "1/start/")
    round_.refresh_from_db()
    assert round_.status == "playing"

    api = client_for(RefereeAssignment.objects.get().user)
    hand_id = post(api, f"/api/v1/tables/{table.pk}/hands/", {"deal": "none"}).json()["id"]
    result = {"landlord": 0, "bid": 2, "winner": "landlord"}
    assert post(api, f"/api/v1/hands/{hand_id}/result/", result).status_code == 200
    desk = director_client.get(f"/director/t/{tournament.slug}/results/1/").content.decode()
    assert 'data-state="missing"' in desk  # 1 of 2 hands
    hand_url = f"/director/t/{tournament.slug}/hands/{hand_id}/"
    assert director_client.get(hand_url).status_code == 200
    director_client.post(
        hand_url + "correct/",
        {"landlord": 1, "bid": 3, "winner": "defenders", "bombs": 0, "rockets": 0, "reason": "x"},
    )
    hand = Hand.objects.get(pk=hand_id)
    assert hand.landlord_seat == 1 and hand.score_of(1) < 0
    number = round_.seats.get(position=2).entry.registration_order  # as the screens show it
    director_client.post(
        hand_url + "penalty/", {"entry": number, "points": -10, "reason": "slow play"}
    )
    assert Penalty.objects.get().points == -10
    director_client.post(hand_url + "void/", {"reason": "misdeal"})
    assert Hand.objects.get(pk=hand_id).status == "voided"
    printed = director_client.get(base + "1/print/").content.decode()
    assert "seating-sheet" in printed and "score-slips" in printed


def test_final_standings_wait_for_every_round_to_close(director_client: Any) -> None:
    tournament = _tournament(director_client)
    director_client.post(f"/director/t/{tournament.slug}/rounds/new/")
    refused = director_client.post(f"/director/t/{tournament.slug}/standings/publish/", follow=True)
    assert "Close every round first" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == "draft"
    page = director_client.get(f"/director/t/{tournament.slug}/standings/")
    assert page.status_code == 200 and "Not computed yet" in page.content.decode()
