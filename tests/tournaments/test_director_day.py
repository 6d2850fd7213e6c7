"""The director's day without detours (issue 29, point 3): the public status asked and
shown, a director's preview of a tournament not public yet, referees carried forward and
the warning before a round starts without them, the bye shown wherever the round is, the
event's planned rounds, the warning before a referee's password is set, the desk's scores
by seat and signed, and a variant hand's correction form showing what it can correct."""

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from tests import factories
from tests.api.helpers import client_for
from tournaments.common.errors import ApplicationError
from tournaments.common.roles import REFEREE_GROUP
from tournaments.hands.write import hand_action_record, hand_create, hand_record_result
from tournaments.models import RefereeAssignment, Round, RoundStatus, Table, Tournament
from tournaments.rounds.services import (
    referee_assign,
    round_create,
    round_start,
    round_tables_unrefereed,
)
from tournaments.seating.services import round_seat
from tournaments.tournament.services import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def _referee(username: str) -> Any:
    user = factories.UserFactory(username=username)
    user.groups.add(Group.objects.get(name=REFEREE_GROUP))
    return user


def _tournament(count: int, **fields: Any) -> Tournament:
    tournament = factories.TournamentFactory(**fields)
    for order in range(1, count + 1):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    return tournament


def _messages(response: Any) -> list[tuple[str, str]]:
    return [(m.extra_tags, m.message) for m in get_messages(response.wsgi_request)]


# --- 1. public or not: asked, shown, previewed ------------------------------------------


def test_the_creation_form_explains_public(director_client: Any) -> None:
    page = director_client.get(reverse("director:tournament-create")).content.decode()
    assert "only directors see them, as a preview" in page
    assert "Rounds planned" in page


def test_the_tournament_page_says_whether_it_is_public_and_links_its_pages(
    director_client: Any,
) -> None:
    hidden = factories.TournamentFactory(is_public=False)
    page = director_client.get(reverse("director:tournament", args=[hidden.slug])).content
    text = page.decode()
    assert "Not public" in text and "Preview the public pages" in text
    assert f'href="/t/{hidden.slug}/" id="public-link"' in text
    shown = factories.TournamentFactory(is_public=True)
    text = director_client.get(reverse("director:tournament", args=[shown.slug])).content.decode()
    assert "Open the public pages" in text and "Not public" not in text


def test_a_director_previews_a_tournament_not_public_and_nobody_else_does(
    client: Any, director_client: Any, referee: Any
) -> None:
    table = factories.seated_table(is_public=False)
    round_ = table.round
    Round.objects.filter(pk=round_.pk).update(status=RoundStatus.SEATED)
    slug = round_.tournament.slug
    entry_id = table.seats.first().entry_id
    addresses = [
        reverse("public:tournament-detail", args=[slug]),
        reverse("public:round", args=[slug, round_.number]),
        reverse("public:player", args=[slug, entry_id]),
    ]
    for address in addresses:
        page = director_client.get(address)
        assert page.status_code == 200, address
        assert 'id="preview-banner"' in page.content.decode()
        assert "Preview — not public" in page.content.decode()
        assert "private" in page["Cache-Control"] and "no-store" in page["Cache-Control"]
    other = type(client)()
    other.force_login(referee)
    for address in addresses:
        assert type(client)().get(address).status_code == 404, address
        assert other.get(address).status_code == 404, address


def test_a_public_tournament_shows_no_preview_banner(director_client: Any) -> None:
    tournament = factories.TournamentFactory(is_public=True)
    page = director_client.get(reverse("public:tournament-detail", args=[tournament.slug]))
    assert page.status_code == 200 and "preview-banner" not in page.content.decode()


# --- 2. referees carried forward, the warning before an unrefereed start --------------


def test_referees_are_carried_forward_to_the_next_round(director: Any) -> None:
    tournament = _tournament(6)  # two tables of three
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=1)
    tables = {t.number: t for t in Table.objects.filter(round=first)}
    floor, one, two = _referee("floor"), _referee("ref-one"), _referee("ref-two")
    referee_assign(round=first, user=floor)
    referee_assign(round=first, user=one, table=tables[1])
    referee_assign(round=first, user=two, table=tables[2])
    gone = _referee("gone")
    referee_assign(round=first, user=gone)
    gone.is_active = False
    gone.save()

    second = round_create(tournament=tournament)
    # made: the whole-round referee (not the inactive account); no table yet
    assert list(
        RefereeAssignment.objects.filter(round=second).values_list("user__username", "table")
    ) == [("floor", None)]
    round_seat(round=second, seed=2)
    got = set(
        RefereeAssignment.objects.filter(round=second).values_list(
            "user__username", "table__number"
        )
    )
    assert got == {("floor", None), ("ref-one", 1), ("ref-two", 2)}
    # seated again: the tables are new, their referees carried again, nothing doubled
    round_seat(round=second, seed=3)
    assert RefereeAssignment.objects.filter(round=second).count() == 3
    # assigning what is there answers it (a retried form), one row
    again = referee_assign(round=second, user=floor)
    assert RefereeAssignment.objects.filter(round=second, user=floor).count() == 1
    assert again.table is None


def test_a_table_the_last_round_did_not_have_gets_no_table_referee() -> None:
    tournament = _tournament(3)
    first = round_create(tournament=tournament)
    round_seat(round=first, seed=1)
    referee_assign(round=first, user=_referee("ref-one"), table=first.tables.get())
    for order in (4, 5, 6):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    second = round_create(tournament=tournament)
    round_seat(round=second, seed=2)
    assert round_tables_unrefereed(round=second) == [2]


def test_a_round_with_unrefereed_tables_starts_only_when_confirmed(director_client: Any) -> None:
    tournament = _tournament(6)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    referee_assign(round=round_, user=_referee("ref-one"), table=round_.tables.get(number=1))
    with pytest.raises(ApplicationError) as refused:
        round_start(round=round_, referees_required=True)
    assert refused.value.code == "tables_without_referee"
    assert refused.value.extra["tables"] == [2]
    base = f"/director/t/{tournament.slug}/rounds/{round_.number}/"
    page = director_client.get(base).content.decode()
    assert 'id="unrefereed-warning"' in page and "No referee covers tables 2" in page
    response = director_client.post(base + "start/")
    assert ("error tables_without_referee" in [m[0] for m in _messages(response)]) or any(
        "tables_without_referee" in tags for tags, _ in _messages(response)
    )
    round_.refresh_from_db()
    assert round_.status == RoundStatus.SEATED
    director_client.post(base + "start/", {"confirm": "on"})
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PLAYING


def test_a_whole_round_referee_covers_every_table_and_the_round_page_says_so(
    director_client: Any,
) -> None:
    tournament = _tournament(6)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    referee_assign(round=round_, user=_referee("floor"))
    assert round_tables_unrefereed(round=round_) == []
    page = director_client.get(f"/director/t/{tournament.slug}/rounds/1/").content.decode()
    assert page.count('<span class="referee">floor</span>') == 2
    assert "unrefereed-warning" not in page
    director_client.post(f"/director/t/{tournament.slug}/rounds/1/start/")
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PLAYING


# --- 3. the bye ---------------------------------------------------------------------------


def test_the_bye_is_shown_on_the_round_page_print_public_round_and_player_page(
    client: Any, director_client: Any
) -> None:
    tournament = _tournament(4)  # one table of three, one bye
    round_ = round_create(tournament=tournament)
    seating = round_seat(round=round_, seed=1)
    assert len(seating.byes) == 1
    bye = tournament.entries.get(pk=seating.byes[0])
    name = str(bye.player)
    slug = tournament.slug
    for address in (
        f"/director/t/{slug}/rounds/1/",
        f"/director/t/{slug}/rounds/1/print/",
    ):
        page = director_client.get(address).content.decode()
        assert "Bye (轮空)" in page and f'<span class="bye">{name}</span>' in page, address
    public = client.get(reverse("public:round", args=[slug, 1])).content.decode()
    assert 'id="byes"' in public and bye.player.name in public.split('id="byes"')[1]
    player = client.get(reverse("public:player", args=[slug, bye.pk])).content.decode()
    assert 'id="bye-rounds"' in player and "Round 1" in player.split('id="bye-rounds"')[1]


# --- 4. the plan: rounds planned ------------------------------------------------------------


def test_rounds_planned_show_round_n_of_m_and_what_is_left(
    client: Any, director_client: Any, referee: Any
) -> None:
    tournament = _tournament(3)
    tournament_update(tournament=tournament, rounds_planned=5)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=1)
    slug = tournament.slug
    director_page = director_client.get(f"/director/t/{slug}/rounds/1/").content.decode()
    assert "Round 1 of 5" in director_page and "1 of 5 rounds made, 4 to go" in director_page
    tournament_page = director_client.get(f"/director/t/{slug}/").content.decode()
    assert "1 of 5 rounds made, 4 to go" in tournament_page
    zh = director_client.get(
        f"/director/t/{slug}/rounds/1/", headers={"accept-language": "zh-hans"}
    )
    assert "第 1 轮，共 5 轮" in zh.content.decode()
    public = client.get(reverse("public:round", args=[slug, 1])).content.decode()
    assert "Round 1 of 5" in public
    referee_assign(round=round_, user=referee)
    round_start(round=round_)
    rows = client_for(referee).get("/api/v1/assignments/").json()
    assert rows[0]["round"] == 1 and rows[0]["rounds_planned"] == 5


def test_rounds_planned_beyond_the_limit_is_refused_with_a_code() -> None:
    with pytest.raises(ApplicationError) as refused:
        tournament_create(name="Big", slug="big", rounds_planned=10**9)
    assert refused.value.code == "too_large"
    tournament = tournament_create(name="Plan", slug="plan", rounds_planned=7)
    with pytest.raises(ApplicationError) as refused:
        tournament_update(tournament=tournament, rounds_planned=-1)
    tournament.refresh_from_db()
    assert tournament.rounds_planned == 7


def test_the_creation_form_saves_the_plan(director_client: Any) -> None:
    response = director_client.post(
        reverse("director:tournament-create"),
        {
            "name": "Planned",
            "slug": "planned",
            "rule_profile": "comp2016",
            "format": "table",
            "hands_per_round": 4,
            "rounds_planned": 6,
            "confirmed_by": "official",
        },
    )
    assert response.status_code == 302
    assert Tournament.objects.get(slug="planned").rounds_planned == 6


# --- 5. a referee's password: the warning ---------------------------------------------------


def test_setting_a_referees_password_warns_that_it_signs_them_out(
    director_client: Any, seated_table: Table
) -> None:
    referee = _referee("ref-pw")
    base = f"/director/t/{seated_table.round.tournament.slug}/rounds/{seated_table.round.number}/"
    page = director_client.get(base).content.decode()
    assert 'id="password-warning"' in page and "signs this referee out" in page
    form = {
        "username": "ref-pw",
        "password": "a long new pass 9",
        "password_again": "a long new pass 9",
    }
    unconfirmed = director_client.post(base + "referee_password/", form)
    assert any("confirmation_required" in tags for tags, _ in _messages(unconfirmed))
    referee.refresh_from_db()
    assert not referee.check_password("a long new pass 9")
    done = director_client.post(base + "referee_password/", {**form, "confirm": "on"})
    texts = [text for _, text in _messages(done)]
    assert any("is signed out of every phone" in text for text in texts)
    referee.refresh_from_db()
    assert referee.check_password("a long new pass 9")


# --- 6. the desk's scores; a variant hand's correction form ---------------------------------


def test_the_desk_shows_scores_by_seat_signed(director_client: Any, seated_table: Table) -> None:
    Round.objects.filter(pk=seated_table.round_id).update(status=RoundStatus.PLAYING)
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, landlord=0, bid=2, winner="landlord")
    hand.refresh_from_db()
    slug = seated_table.round.tournament.slug
    desk = director_client.get(f"/director/t/{slug}/results/{seated_table.round.number}/")
    text = desk.content.decode()
    assert "[" + ", ".join(str(s) for s in hand.scores) + "]" not in text
    assert 'East (东) · seat 0 <b class="num">+4</b>' in text
    assert 'South (南) · seat 1 <b class="num">-2</b>' in text
    detail = director_client.get(f"/director/t/{slug}/hands/{hand.pk}/").content.decode()
    assert 'id="hand-scores"><span class="seat-scores">' in detail


@pytest.mark.parametrize("profile", ["four_p", "laizi"])
def test_a_variant_hands_correction_form_shows_only_what_it_can_correct(
    director_client: Any, profile: str
) -> None:
    table = factories.seated_table(rule_profile=profile)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    hand = hand_create(table=table, random_deal=True, first_bidder=0).hand
    seats = 4 if profile == "four_p" else 3
    for seat in range(seats):  # nobody bids: 流局, a closed hand
        hand = hand_action_record(hand=hand, action={"seat": seat, "bid": 0}).hand
    assert hand.status == "passed_out"
    slug = table.round.tournament.slug
    page = director_client.get(f"/director/t/{slug}/hands/{hand.pk}/").content.decode()
    form = page.split("data-correction>")[1].split("</form>")[0]
    assert 'name="passed_out"' in form and 'name="reason"' in form
    for field in (
        "landlord",
        "bid",
        "winner",
        "doubled_0",
        "redoubled",
        "bombs",
        "rockets",
        "spring",
    ):
        assert f'name="{field}"' not in form, field
    assert 'id="result-from-log"' in page


def test_a_three_player_hands_correction_form_keeps_every_field(
    director_client: Any, seated_table: Table
) -> None:
    Round.objects.filter(pk=seated_table.round_id).update(status=RoundStatus.PLAYING)
    hand = hand_create(table=seated_table).hand
    hand_record_result(hand=hand, landlord=0, bid=1, winner="landlord")
    slug = seated_table.round.tournament.slug
    page = director_client.get(f"/director/t/{slug}/hands/{hand.pk}/").content.decode()
    form = page.split("data-correction>")[1].split("</form>")[0]
    for field in ("landlord", "bid", "winner", "doubled_0", "bombs", "passed_out", "reason"):
        assert f'name="{field}"' in form, field
    assert 'id="result-from-log"' not in page
