"""Issue 29 point 1 in a real browser (Playwright, the system Chromium), in both languages: a
director corrects a confirmed hand; closing the round is refused with the list of the hands
that do not count yet; once settled the round closes; two more corrections stop the final
standings (refused, listed on the standings page); one is excluded with a reason (the public
standings say so), the other is settled, and the final standings are published.

The screenshots of the gate go to ``RESULTS_GATE_SCREENS`` (a directory) when set, otherwise
to the test artefacts."""

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import factories
from tests.browser.conftest import ARTEFACTS
from tests.browser.test_final_results import _sign_in, http_cookies  # noqa: F401 (fixture)
from tournaments.hands.confirmation import hand_confirm
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandExclusion, Round, RoundStatus, Tournament
from tournaments.models import TournamentStatus as Status
from tournaments.rounds.services import round_start
from tournaments.seating.services import round_seat

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "one": "1 result missing",
        "two": "2 results missing",
        "all": "All results in",
        "refused": "2 results are missing: round 1, table 1, hand 2 — Awaiting confirmation; "
        "round 1, table 2, hand 2 — Awaiting confirmation. Settle each",
        "round": "1 result is missing: round 1, table 1, hand 1 — Awaiting confirmation. Settle",
        "excluded": "Excluded: round 1, table 2, hand 2 — scoresheet lost",
        "awaiting": "Awaiting confirmation",
    },
    "zh": {
        "one": "缺少 1 个成绩",
        "two": "缺少 2 个成绩",
        "all": "成绩已全部收齐",
        "refused": "缺少 2 个成绩：第 1 轮第 1 桌第 2 副 — 待确认; "
        "第 1 轮第 2 桌第 2 副 — 待确认。请",
        "round": "缺少 1 个成绩：第 1 轮第 1 桌第 1 副 — 待确认。请",
        "excluded": "已排除：第 1 轮第 2 桌第 2 副 — scoresheet lost",
        "awaiting": "待确认",
    },
}


def _screens() -> Path:
    target = Path(os.environ.get("RESULTS_GATE_SCREENS") or ARTEFACTS)
    target.mkdir(parents=True, exist_ok=True)
    return target


def _round_played(second: Any) -> Tournament:
    """Two tables of a round being played, each with its two hands recorded by a referee
    and confirmed by a second official (the console and the desk have their own tests)."""
    tournament = factories.TournamentFactory(
        slug="gate", name="Gate open", hands_per_round=2, requires_confirmation=True
    )
    for order in range(1, 7):
        factories.EntryFactory(tournament=tournament, registration_order=order)
    round_ = Round.objects.create(tournament=tournament, number=1)
    round_seat(round=round_, seed=1)
    round_start(round=round_)
    referee = factories.UserFactory(username="ref-gate")
    for table in round_.tables.order_by("number"):
        for _ in range(2):
            hand = hand_create(table=table).hand
            hand = hand_record_result(
                hand=hand, landlord=0, bid=2, winner="landlord", recorded_by=referee
            ).hand
            hand_confirm(hand=hand, recorded_by=second)
    return tournament


def _hand(tournament: Tournament, table: int, number: int) -> Hand:
    return Hand.objects.get(table__round__tournament=tournament, table__number=table, number=number)


def _correct(page: Page, url: str, hand: Hand) -> None:
    page.goto(f"{url}/director/t/gate/hands/{hand.pk}/")
    correct = page.locator("form[action$='/correct/']")
    correct.locator("select[name=landlord]").select_option("1")
    correct.locator("input[name=reason], textarea[name=reason]").fill("scoresheet misread")
    correct.locator("button[type=submit]").click()
    expect(page.locator(".messages .error")).to_have_count(0)
    expect(page.locator("#hand-confirmation")).to_have_attribute("data-state", "awaiting")
    # the earlier confirmer is history: nobody confirmed the corrected result
    expect(page.locator("#hand-confirmation .confirmed-by")).to_have_count(0)


@pytest.mark.usefixtures("http_cookies")
@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_results_gate_refuses_lists_excludes_and_lets_the_final_through(
    live_server: Any, browser: Browser, language: str
) -> None:
    url = live_server.url
    words = WORDS[language]
    second = factories.UserFactory(username="second-official", is_staff=True)
    tournament = _round_played(second)
    context, page = _sign_in(browser, url, language)
    context.set_default_timeout(20_000)
    screens = _screens()

    def shot(on: Page, name: str) -> None:
        on.screenshot(path=str(screens / f"gate-{language}-{name}.png"), full_page=True)

    # 1. A confirmed hand corrected: the round does not close; the round page lists it.
    _correct(page, url, _hand(tournament, 1, 1))
    page.goto(f"{url}/director/t/gate/rounds/1/")
    expect(page.locator("#gate-summary")).to_contain_text(words["one"])
    page.click("#close-round")
    expect(page.locator(".messages .results_incomplete")).to_contain_text(words["round"])
    expect(page.locator('#gate-unsettled li[data-table="1"][data-hand="1"]')).to_contain_text(
        words["awaiting"]
    )
    shot(page, "round-refused")
    assert Round.objects.get(tournament=tournament).status == RoundStatus.PLAYING

    # 2. Settled (a second official confirms it): the round closes.
    hand_confirm(hand=_hand(tournament, 1, 1), recorded_by=second)
    page.goto(f"{url}/director/t/gate/rounds/1/")
    expect(page.locator("#gate-summary")).to_have_text("✔ " + words["all"])
    page.click("#close-round")
    expect(page.locator(".messages .error")).to_have_count(0)
    assert Round.objects.get(tournament=tournament).status == RoundStatus.CLOSED

    # 3. Two more corrections after the close: the final standings wait for both.
    _correct(page, url, _hand(tournament, 1, 2))
    _correct(page, url, _hand(tournament, 2, 2))
    page.goto(f"{url}/director/t/gate/standings/")
    expect(page.locator("#gate-summary")).to_contain_text(words["two"])
    page.click("#publish-final")
    expect(page.locator(".messages .results_incomplete")).to_contain_text(words["refused"])
    expect(page.locator("#gate-unsettled li")).to_have_count(2)
    shot(page, "publication-refused")
    assert Tournament.objects.get(pk=tournament.pk).status != Status.FINISHED

    # 4. One excluded, with a reason: the public standings say so.
    row = page.locator('#gate-unsettled li[data-table="2"][data-hand="2"]')
    row.locator("input[name=reason]").fill("scoresheet lost")
    row.locator("button[data-exclude]").click()
    expect(page.locator(".messages .error")).to_have_count(0)
    expect(page.locator("#gate-summary")).to_contain_text(words["one"])
    expect(page.locator("#gate-excluded li")).to_contain_text(words["excluded"])
    shot(page, "publication-one-excluded")
    exclusion = HandExclusion.objects.get()
    assert (exclusion.number, exclusion.state, exclusion.reason) == (
        2,
        "awaiting",
        "scoresheet lost",
    )
    public = context.new_page()
    public.goto(f"{url}/t/gate/standings/")
    expect(public.locator("#exclusions li")).to_have_text(words["excluded"])
    shot(public, "public-excluded")

    # 5. The other settled: the final standings are published, the exclusion stays shown.
    hand_confirm(hand=_hand(tournament, 1, 2), recorded_by=second)
    page.goto(f"{url}/director/t/gate/standings/")
    expect(page.locator("#gate-summary")).to_have_text("✔ " + words["all"])
    shot(page, "publication-open")
    page.click("#publish-final")
    expect(page.locator(".messages .error")).to_have_count(0)
    expect(page.locator("#reopen-form")).to_be_visible()
    assert Tournament.objects.get(pk=tournament.pk).status == Status.FINISHED
    # a reload asks the server again: a second goto within the page's max-age=1 of the first
    # read would be answered from the browser's cache (tests/browser/test_par_traveller.py)
    public.reload()
    expect(public.locator(".badge.final")).to_be_visible()
    expect(public.locator("#exclusions li")).to_have_text(words["excluded"])
    shot(public, "public-final")
    context.close()
