"""A director runs a 6-player, 2-round tournament in the browser: import the players,
seat, assign referees (one-time links), results entered by two referees on their phones,
rounds closed, standings published."""

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests import factories
from tests.browser.conftest import patient
from tournaments.models import Entry, Hand, Round, Tournament
from tournaments.standings.queries import standings_latest

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = "name,chinese_name,club\n" + "\n".join(
    f"{name},{zh},{club}"
    for name, zh, club in (
        ("Li Wei", "李伟", "Haidian"),
        ("Wang Fang", "王芳", "Haidian"),
        ("Zhang Min", "张敏", "Chaoyang"),
        ("Liu Yang", "刘洋", "Chaoyang"),
        ("Chen Jie", "陈杰", "Xicheng"),
        ("Yang Li", "杨丽", "Xicheng"),
    )
)
RESULTS = {1: ("0", "2", "landlord"), 2: ("1", "3", "defenders")}


def _director_page(browser: Browser, url: str) -> tuple[BrowserContext, Page]:
    director = factories.UserFactory(username="td", is_staff=True)
    director.set_password("director-pass-1")
    director.save()
    context = patient(browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB"))
    page = context.new_page()
    page.goto(url + "/admin/login/?next=/director/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "director-pass-1")
    page.click("input[type=submit], button[type=submit]")
    expect(page.locator("h1")).to_have_text("Director dashboard")
    return context, page


def _ok(page: Page) -> None:
    expect(page.locator(".messages .error")).to_have_count(0)


def _referee_enters_result(
    browser: Browser, link: str, table: int, result: tuple[str, str, str], shot: Path | None
) -> dict[str, Any]:
    context = patient(browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB"))
    page = context.new_page()
    request_lines: list[str] = []  # what an access log records: method and URL, never the body
    page.on("request", lambda request: request_lines.append(f"{request.method} {request.url}"))
    page.goto(link)  # the sign-in code is in the link's "#" part: the page's JS copies it
    expect(page.locator("#sign-in-code")).to_have_value(link.partition("#")[2])
    assert "#" not in page.url  # taken out of the address bar
    page.click("#link-sign-in")  # only this POST signs in
    expect(page.locator("#app h1")).to_have_text("My tables now")
    token = link.partition("#")[2].partition(".")[2]
    assert any(line.startswith("POST ") for line in request_lines)
    assert not [line for line in request_lines if token in line]
    page.click(f"button.table-open[data-table='{table}']")
    page.click("button[data-deal=none]")
    expect(page.locator("form.result-form")).to_be_visible()
    page.select_option("select[name=landlord]", result[0])
    page.fill("input[name=bid]", result[1])
    page.select_option("select[name=winner]", result[2])
    if shot is not None:
        page.screenshot(path=shot, full_page=True)
    page.click("form.result-form button[type=submit]")
    # the summary with the server's scores, then Save
    expect(page.locator("#summary-scores li")).to_have_count(3)
    page.click("#save-result")
    expect(page.locator("section.hand")).to_have_attribute("data-status", "finished")
    state = page.locator("#hand-state").inner_text()
    context.close()
    return {"state": state}


def _play_round(
    browser: Browser, page: Page, url: str, slug: str, number: int, artefacts: Path
) -> None:
    page.goto(f"{url}/director/t/{slug}/")
    page.click("button[name=add_round]")
    _ok(page)
    expect(page.locator("h1")).to_contain_text(f"Round {number}")
    page.click("#preview-seating")
    expect(page.locator("#seating-preview")).to_be_visible()
    page.screenshot(path=artefacts / f"director-en-round{number}-preview.png", full_page=True)
    page.click("#seat-round")
    _ok(page)
    expect(page.locator("#tables .card")).to_have_count(2)
    for table, username in ((1, "ref-one"), (2, "ref-two")):
        page.fill("input[name=username]", username)
        page.select_option("select[name=table]", label=f"Table {table}")
        page.click("#assign-referee")
        _ok(page)
    page.click("#start-round")
    _ok(page)
    page.screenshot(path=artefacts / f"director-en-round{number}.png", full_page=True)
    links = {
        name: page.locator(f"tr[data-referee='{name}'] a.login-link").get_attribute("href")
        for name in ("ref-one", "ref-two")
    }
    for table, name in ((1, "ref-one"), (2, "ref-two")):
        shot = artefacts / "console-en-result-form.png" if number == 1 and table == 1 else None
        _referee_enters_result(browser, str(links[name]), table, RESULTS[table], shot)
    page.goto(f"{url}/director/t/{slug}/results/{number}/")
    expect(page.locator("#results-desk tr[data-state=finished]")).to_have_count(2)
    page.screenshot(path=artefacts / f"director-en-results{number}.png", full_page=True)
    page.goto(f"{url}/director/t/{slug}/rounds/{number}/")
    page.click("#close-round")
    _ok(page)


def test_director_runs_a_two_round_tournament_in_the_browser(
    live_server: Any, console_browser: Browser, http_cookies: None, artefacts: Path
) -> None:
    url = live_server.url
    context, page = _director_page(console_browser, url)
    page.click("text=New tournament")
    page.fill("input[name=name]", "Saturday club event")
    page.fill("input[name=slug]", "saturday")
    page.fill("input[name=hands_per_round]", "1")
    page.click("button[type=submit]")
    _ok(page)
    page.click("nav.tabs >> text=Entries")
    page.fill("textarea[name=text]", PLAYERS)
    page.click("button[name=preview]")
    expect(page.locator("#import-preview tbody tr")).to_have_count(6)
    assert Entry.objects.count() == 0  # the preview writes nothing
    page.screenshot(path=artefacts / "director-en-import-preview.png", full_page=True)
    page.click("button[name=confirm]")
    _ok(page)
    assert Entry.objects.filter(tournament__slug="saturday").count() == 6

    for number in (1, 2):
        _play_round(console_browser, page, url, "saturday", number, artefacts)

    tournament = Tournament.objects.get(slug="saturday")
    assert [r.status for r in Round.objects.filter(tournament=tournament)] == ["closed"] * 2
    hands = Hand.objects.filter(table__round__tournament=tournament)
    assert hands.count() == 4 and all(h.status == "finished" for h in hands)
    for hand in hands:
        assert hand.scores is not None and len(hand.scores) == hand.seats == 3
        assert sum(hand.scores) == 0
        assert hand.table.referee_assignments.get().user.username in {"ref-one", "ref-two"}

    # Standings: recompute, publish the final ones.
    page.click("nav.tabs >> text=Standings")
    page.click("#recompute")
    _ok(page)
    page.click("#publish-final")
    _ok(page)
    expect(page.locator("#standings tbody tr")).to_have_count(6)
    expect(page.locator("#standings-version")).to_contain_text("Up to date")
    page.screenshot(path=artefacts / "director-en-standings.png", full_page=True)
    tournament.refresh_from_db()
    assert tournament.status == "finished" and tournament.is_public
    totals: dict[int, int] = {}
    for hand in hands:
        for seat in hand.table.seats.all():
            score = hand.score_of(seat.position)
            assert score is not None
            totals[seat.entry_id] = totals.get(seat.entry_id, 0) + score
    shown = {row.entry_id: row.total for row in standings_latest(tournament=tournament)}
    assert shown == totals

    # The same screens in 简体中文.
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": url}])
    page.goto(f"{url}/director/t/saturday/rounds/2/")
    expect(page.locator("h1")).to_contain_text("第 2 轮")
    page.screenshot(path=artefacts / "director-zh-round2.png", full_page=True)
    page.goto(f"{url}/director/t/saturday/results/2/")
    page.screenshot(path=artefacts / "director-zh-results2.png", full_page=True)
    page.goto(f"{url}/director/t/saturday/entries/")
    page.screenshot(path=artefacts / "director-zh-entries.png", full_page=True)
    page.goto(f"{url}/director/t/saturday/standings/")
    expect(page.locator("h1")).to_contain_text("排名")
    page.screenshot(path=artefacts / "director-zh-standings.png", full_page=True)
    context.close()
