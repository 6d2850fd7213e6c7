"""Issue 17 points 4 and 5 in a real browser (Playwright, the system Chromium): a director
publishes the final standings, a correction is refused, the results are reopened with a
reason and the confirmation, the correction goes through, the revised final is published
and the public standings say so; the export buttons' files are downloaded and read.

The same walk takes the screenshots of the "run your first tournament" walkthrough
(docs/walkthrough.md, docs/walkthrough.zh-hans.md) in both languages: into docs/img/ when
``WALKTHROUGH_SCREENSHOTS=1`` (then commit them), otherwise into the test artefacts."""

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import factories
from tests.browser.conftest import ARTEFACTS, patient
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, Round, Table, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db(transaction=True)

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
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
SHOT = {"width": 1000, "height": 700}


def _shots_dir() -> Path:
    target = DOCS_IMG if os.environ.get("WALKTHROUGH_SCREENSHOTS") == "1" else ARTEFACTS
    target.mkdir(parents=True, exist_ok=True)
    return target


@pytest.fixture
def http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies must not be Secure-only."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False


LOCALES = {"en": ("en-GB", "en"), "zh": ("zh-CN", "zh-hans")}


def _sign_in(browser: Browser, url: str, language: str) -> Any:
    director = factories.UserFactory(username="td", is_staff=True)
    director.set_password("director-pass-1")
    director.save()
    locale, cookie = LOCALES[language]
    context = patient(browser.new_context(viewport=SHOT, locale=locale, accept_downloads=True))
    context.add_cookies([{"name": "django_language", "value": cookie, "url": url}])
    page = context.new_page()
    page.goto(url + "/admin/login/?next=/director/")
    page.fill("input[name=username]", "td")
    page.fill("input[name=password]", "director-pass-1")
    page.click("input[type=submit], button[type=submit]")
    expect(page).to_have_url(url + "/director/")
    return context, page


def _ok(page: Page) -> None:
    expect(page.locator(".messages .error")).to_have_count(0)


def _shot(page: Page, name: str, language: str) -> None:
    page.screenshot(path=_shots_dir() / f"walkthrough-{language}-{name}.png")


def _referees_record_results(tournament: Tournament) -> None:
    """The referees' part (their console is the subject of its own browser tests): one
    result-only hand per table, through the same services the console's API calls."""
    for table, (landlord, winner) in zip(
        Table.objects.filter(round__tournament=tournament).order_by("number"),
        ((0, "landlord"), (1, "defenders")),
        strict=True,
    ):
        hand = hand_create(table=table).hand
        hand_record_result(hand=hand, landlord=landlord, bid=2, winner=winner)


def _download(page: Page, selector: str) -> tuple[str, str]:
    with page.expect_download() as info:
        page.click(selector)
    download = info.value
    path = download.path()
    assert path is not None
    return download.suggested_filename, Path(path).read_text(encoding="utf-8")


def _csv_rows(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")  # spreadsheet programs read the Chinese names
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))


@pytest.mark.parametrize("language", ["en", "zh"])
def test_final_publication_refused_correction_reopen_and_revised_final(
    live_server: Any, browser: Browser, http_cookies: None, language: str
) -> None:
    url = live_server.url
    context, page = _sign_in(browser, url, language)

    def shot(name: str, on: Page = page) -> None:
        _shot(on, name, language)

    # 1. A new tournament, its players imported from a CSV file.
    page.goto(f"{url}/director/new/")
    page.fill("input[name=name]", "Saturday club event")
    page.fill("input[name=slug]", "saturday")
    page.fill("input[name=hands_per_round]", "1")
    shot("new")
    page.click("button[type=submit]")
    _ok(page)
    page.goto(f"{url}/director/t/saturday/entries/")
    page.fill("textarea[name=text]", PLAYERS)
    page.click("button[name=preview]")
    expect(page.locator("#import-preview tbody tr")).to_have_count(6)
    shot("import-preview")
    page.click("button[name=confirm]")
    _ok(page)

    # 2. A round: seat it, assign a referee, start it; the referees record the results.
    page.goto(f"{url}/director/t/saturday/")
    page.click("button[name=add_round]")
    _ok(page)
    page.click("#preview-seating")
    page.click("#seat-round")
    _ok(page)
    page.fill("#referees input[name=username]", "ref-one")
    page.click("#assign-referee")
    _ok(page)
    page.click("#start-round")
    _ok(page)
    shot("round")
    tournament = Tournament.objects.get(slug="saturday")
    _referees_record_results(tournament)
    page.goto(f"{url}/director/t/saturday/results/1/")
    expect(page.locator("#results-desk tr[data-state=finished]")).to_have_count(2)
    shot("results")
    page.goto(f"{url}/director/t/saturday/rounds/1/")
    page.click("#close-round")
    _ok(page)

    # 3. The final standings, published: the public page says "Final".
    page.goto(f"{url}/director/t/saturday/standings/")
    page.click("#recompute")
    page.click("#publish-final")
    _ok(page)
    expect(page.locator("#reopen-form")).to_be_visible()
    shot("final")
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    public = context.new_page()
    public.goto(f"{url}/t/saturday/standings/")
    expect(public.locator(".badge.final")).to_have_text({"en": "Final", "zh": "最终"}[language])
    expect(public.locator("#final-revised")).to_have_count(0)
    public.close()

    # 4. A correction now is refused: the results are final.
    hand = Hand.objects.get(table__number=1, table__round__tournament=tournament)
    before = (hand.landlord_seat, hand.scores, hand.version)
    page.goto(f"{url}/director/t/saturday/hands/{hand.pk}/")
    correct = page.locator("form[action$='/correct/']")
    correct.locator("select[name=landlord]").select_option("2")
    correct.locator("input[name=reason], textarea[name=reason]").fill("scoresheet misread")
    correct.locator("button[type=submit]").click()
    expect(page.locator(".messages .results_final")).to_be_visible()
    shot("correction-refused")
    hand.refresh_from_db()
    assert (hand.landlord_seat, hand.scores, hand.version) == before

    # 5. Reopen: a reason and the confirmation box (the browser refuses the form without).
    page.goto(f"{url}/director/t/saturday/standings/")
    page.fill("#reopen-reason", "Table 1 scoresheet misread")
    page.click("#reopen-final")
    assert Tournament.objects.get(pk=tournament.pk).status == TournamentStatus.FINISHED
    page.check("#reopen-confirm")
    shot("reopen")
    page.click("#reopen-final")
    _ok(page)
    expect(page.locator("#publish-final")).to_be_visible()

    # 6. The correction goes through; the final standings are published again.
    page.goto(f"{url}/director/t/saturday/hands/{hand.pk}/")
    correct = page.locator("form[action$='/correct/']")
    correct.locator("select[name=landlord]").select_option("2")
    correct.locator("input[name=reason], textarea[name=reason]").fill("scoresheet misread")
    correct.locator("button[type=submit]").click()
    _ok(page)
    hand.refresh_from_db()
    assert hand.landlord_seat == 2
    page.goto(f"{url}/director/t/saturday/rounds/1/")
    page.fill("#reopen-round-form input[name=reason]", "keep the round's record")
    page.check("#reopen-round-form input[name=confirm]")
    page.click("#reopen-round")
    _ok(page)
    page.click("#close-round")
    _ok(page)
    page.goto(f"{url}/director/t/saturday/standings/")
    page.click("#recompute")
    page.click("#publish-final")
    _ok(page)
    expect(page.locator("#final-revision")).to_contain_text("Table 1 scoresheet misread")
    public = context.new_page()
    public.goto(f"{url}/t/saturday/standings/")
    revised = public.locator("#final-revised")
    expect(revised).to_contain_text({"en": "Final, revised", "zh": "最终排名"}[language])
    expect(revised).to_contain_text(
        {"en": ": Table 1 scoresheet misread", "zh": "修订：Table 1 scoresheet misread"}[language]
    )
    shot("public-revised", public)
    public.close()

    # 7. The export buttons: each file downloaded, opened and checked.
    page.goto(f"{url}/director/t/saturday/")
    page.locator("#exports").scroll_into_view_if_needed()
    shot("exports")
    name, text = _download(page, "#export-archive")
    assert name == "saturday.json"
    archive = json.loads(text)
    assert archive["tournament"]["slug"] == "saturday"
    assert len(archive["entries"]) == 6 and len(archive["rounds"]) == 1
    name, text = _download(page, "#export-hands")
    hands = _csv_rows(text)
    assert name == "saturday-hands.csv" and len(hands) == 3
    assert hands[1][:3] == ["1", "1", "1"] and hands[1][6] == "2"  # the corrected landlord
    name, text = _download(page, "#export-standings")
    standings = _csv_rows(text)
    assert name == "saturday-standings.csv" and len(standings) == 7
    assert {row[3] for row in standings[1:]} == {"李伟", "王芳", "张敏", "刘洋", "陈杰", "杨丽"}
    assert sum(int(row[6]) for row in standings[1:]) == 0  # deal scores sum to zero
    page.goto(f"{url}/director/t/saturday/rounds/1/")
    name, text = _download(page, "#round-export-hands")
    assert name == "saturday-round-1-hands.csv" and _csv_rows(text) == hands
    name, text = _download(page, "#round-export-archive")
    assert json.loads(text)["part"] == {"round": 1}
    name, text = _download(page, "#round-export-standings")
    assert name == "saturday-round-1-standings.csv" and _csv_rows(text) == standings
    assert Round.objects.get(tournament=tournament).status == "closed"
    context.close()
