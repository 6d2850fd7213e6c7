"""The director's day in a real browser (issue 29, point 3): the directors' own sign-in page
(English and Chinese), a round started only once its unrefereed tables are confirmed, the
referees carried forward to the next round's tables, and the bye shown on the round page,
the print sheet and the public round page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests import factories
from tournaments.models import RefereeAssignment, Round, RoundStatus

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long director passphrase 7"


def _director(username: str = "td") -> None:
    user = factories.UserFactory(username=username, is_staff=True)
    user.set_password(PASSWORD)
    user.save()


def _sign_in(page: Any, username: str = "td") -> None:
    """Through /director/: sent to the directors' sign-in page, then back."""
    page.goto("/director/")
    expect(page).to_have_url("/director/login/?next=/director/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Director dashboard")


def _ok(page: Any) -> None:
    expect(page.locator(".messages .error")).to_have_count(0)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_directors_sign_in_on_their_own_page(new_page: Any, screenshot: Any, language: str) -> None:
    _director()
    page = new_page(language)
    page.goto("/director/")
    heading = {"en": "Director sign-in", "zh": "裁判长登录"}[language]
    expect(page.locator("h1")).to_have_text(heading)
    expect(page.locator("body")).not_to_contain_text("Django")
    screenshot(page, f"director-sign-in-{language}")
    page.fill("#id_username", "td")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    expect(page.locator("p.error[role=alert]")).to_be_visible()
    screenshot(page, f"director-sign-in-refused-{language}")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    expect(page).to_have_url("/director/")


def test_referees_carry_forward_and_the_bye_shows(new_page: Any, screenshot: Any) -> None:
    _director()
    tournament = factories.TournamentFactory(name="Carry Cup", slug="carry", is_public=True)
    for order in range(1, 5):  # one table of three and a bye
        factories.EntryFactory(tournament=tournament, registration_order=order)
    page = new_page("en")
    _sign_in(page)

    # round 1: seated, nobody referees it: the page warns, a start is refused until confirmed
    page.goto("/director/t/carry/")
    page.click("button[name=add_round]")
    _ok(page)
    page.click("#preview-seating")
    page.click("#seat-round")
    _ok(page)
    expect(page.locator("#unrefereed-warning")).to_contain_text("No referee covers tables 1")
    expect(page.locator("#byes .bye")).to_have_count(1)
    page.click("#start-round")
    expect(page.locator(".messages .error")).to_contain_text("No referee covers tables 1")
    assert Round.objects.get(tournament=tournament, number=1).status == RoundStatus.SEATED
    # a table referee and a whole-round one
    page.fill("#referees input[name=username]", "ref-one")
    page.select_option("#referees select[name=table]", label="Table 1")
    page.click("#assign-referee")
    _ok(page)
    page.fill("#referees input[name=username]", "floor")
    page.click("#assign-referee")
    _ok(page)
    expect(page.locator("#unrefereed-warning")).to_have_count(0)
    card = page.locator('#tables .card[data-table="1"] .table-referees')
    expect(card).to_contain_text("ref-one")
    expect(card).to_contain_text("floor (the whole round)")
    page.click("#start-round")
    _ok(page)
    assert Round.objects.get(tournament=tournament, number=1).status == RoundStatus.PLAYING

    # round 2: made and seated, its referees are there already, the bye is shown
    page.goto("/director/t/carry/")
    page.click("button[name=add_round]")
    _ok(page)
    expect(page.locator("h1")).to_contain_text("Round 2")
    page.click("#preview-seating")
    page.click("#seat-round")
    _ok(page)
    card = page.locator('#tables .card[data-table="1"] .table-referees')
    expect(card).to_contain_text("ref-one")
    expect(card).to_contain_text("floor (the whole round)")
    expect(page.locator("#referee-links tr[data-referee]")).to_have_count(2)
    expect(page.locator("#unrefereed-warning")).to_have_count(0)
    bye = page.locator("#byes .bye")
    expect(bye).to_have_count(1)
    name = bye.inner_text()
    screenshot(page, "director-round-referees-carried-and-bye-en")
    round_two = Round.objects.get(tournament=tournament, number=2)
    assert set(
        RefereeAssignment.objects.filter(round=round_two).values_list(
            "user__username", "table__number"
        )
    ) == {("ref-one", 1), ("floor", None)}

    page.goto("/director/t/carry/rounds/2/print/")
    expect(page.locator("#print-byes .bye")).to_have_text(name)

    # the public round page (once the round is past its draft, as it is once seated)
    public = new_page("en")
    public.goto("/t/carry/rounds/2/")
    expect(public.locator("#byes")).to_contain_text("Bye (轮空)")
    expect(public.locator("#byes .bye")).to_have_count(1)
    screenshot(public, "public-round-bye-en")
