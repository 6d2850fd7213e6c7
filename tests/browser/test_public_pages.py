"""A spectator's pages in a real browser: the live board follows a referee's hand without a
reload, the hand page steps through a complete hand, the Chinese pages read in Chinese, and
every page is photographed in both languages (tests/browser/artefacts/)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests import factories
from tests.browser.phone import PHONE, fits, sideways
from tests.public_data import hand_play, hand_played, tournament_with_tables
from tournaments.models import Hand, HandStatus
from tournaments.standings.snapshots import standings_snapshot_update

pytestmark = pytest.mark.django_db(transaction=True)


def test_live_board_updates_when_a_referee_finishes_a_hand(page_en: Any, screenshot: Any) -> None:
    tournament, tables = tournament_with_tables(tables=2)
    hand = hand_played(tables[0], seed=21, upto=4)
    page_en.goto(reverse("public:live", args=[tournament.slug]))
    card = page_en.locator('section[data-table="1"]')
    assert "Playing" in card.inner_text() or "Doubling" in card.inner_text()
    assert card.locator(".scores").count() == 0

    hand_play(Hand.objects.get(pk=hand.pk), seed=21, start=4)  # the referee plays it out
    finished = Hand.objects.get(pk=hand.pk)
    assert finished.status == HandStatus.FINISHED

    scores = card.locator(".scores")
    scores.wait_for(state="visible")  # the poll brought it in: no reload
    assert finished.scores is not None and len(finished.scores) == 3
    assert " / ".join(str(score) for score in finished.scores) in scores.inner_text()
    assert "Finished" in card.inner_text()
    screenshot(page_en, "live-board-en")


def test_hand_page_steps_through_a_complete_hand(page_en: Any, screenshot: Any) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5)
    page_en.goto(reverse("public:hand", args=[tournament.slug, hand.pk]))
    steps = page_en.locator("#steps .step")
    total = steps.count()
    assert total >= hand.events.filter(kind__in=["bid", "double", "redouble", "play"]).count()
    visible = page_en.locator("#steps .step:not(.hidden)")
    assert visible.count() == 0  # the replay starts before the first bid
    assert page_en.locator(".stepper .position").inner_text() == f"0 / {total}"
    for n in range(1, 4):
        page_en.get_by_role("button", name="Next").click()
        assert visible.count() == n
    assert "bids" in page_en.locator("#steps .step.current").inner_text() or "bid" in (
        page_en.locator("#steps .step").first.inner_text()
    )
    page_en.get_by_role("button", name="End").click()
    assert visible.count() == total
    assert page_en.locator(".stepper .position").inner_text() == f"{total} / {total}"
    breakdown = page_en.locator("table.breakdown")
    assert str(hand.score_of(0)) in breakdown.inner_text()
    screenshot(page_en, "hand-replay-en")


def _pages(tournament: Any, hand: Hand, board: int | None) -> dict[str, str]:
    slug = tournament.slug
    entry = hand.table.seats.get(position=0).entry_id
    pages = {
        "tournaments": reverse("public:home"),
        "tournament": reverse("public:tournament-detail", args=[slug]),
        "round": reverse("public:round", args=[slug, 1]),
        "live-board": reverse("public:live", args=[slug]),
        "hand-replay": reverse("public:hand", args=[slug, hand.pk]),
        "player": reverse("public:player", args=[slug, entry]),
        "standings": reverse("public:standings", args=[slug]),
    }
    if board is not None:
        pages["board"] = reverse("public:board", args=[slug, board])
    return pages


def test_every_page_in_both_languages(new_page: Any, screenshot: Any) -> None:
    tournament, tables = tournament_with_tables(tables=3, format="duplicate", name="Chengdu Open")
    board = factories.BoardFactory(tournament=tournament, number=1)
    hands = [hand_played(table, seed=0, board=board) for table in tables]
    standings_snapshot_update(tournament_id=tournament.pk)
    pages = _pages(tournament, hands[0], board.number)
    for language in ("en", "zh"):
        page = new_page(language)
        for name, url in pages.items():
            response = page.goto(url)
            assert response.status == 200, (language, name)
            if name == "hand-replay":
                page.locator('[data-step="last"]').click()  # the whole hand in the picture
            assert page.locator("html").get_attribute("lang") == (
                "zh-hans" if language == "zh" else "en"
            )
            screenshot(page, f"{name}-{language}")
        if language == "zh":
            page.goto(pages["hand-replay"])
            body = page.locator("main").inner_text()
            for term in ("地主", "农民", "叫分", "底牌"):
                assert term in body, term
            for english in ("Replay", "Score", "Kitty", "Seat", "landlord"):
                assert english not in body, english
            page.goto(pages["standings"])
            assert "排名" in page.locator("main").inner_text()


def test_phone_layout_and_print(new_page: Any, screenshot: Any) -> None:
    tournament, tables = tournament_with_tables(tables=2)
    for table in tables:
        hand_played(table, seed=3)
    phone = new_page("zh", viewport=PHONE, is_mobile=True)
    phone.goto(reverse("public:round", args=[tournament.slug, 1]))
    assert fits(phone), sideways(phone)  # no sideways scrolling on a phone
    screenshot(phone, "round-phone-zh")
    phone.emulate_media(media="print")
    assert phone.locator("header").is_hidden()
    screenshot(phone, "round-print-zh")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_public_page_fits_a_phone(new_page: Any, language: str) -> None:
    """A spectator's phone (390 px) scrolls every public page down, never sideways: wide
    tables (the traveller, the score breakdown, the standings) scroll inside their box."""
    tournament, tables = tournament_with_tables(tables=3, format="duplicate", name="Chengdu Open")
    board = factories.BoardFactory(tournament=tournament, number=1)
    hands = [hand_played(table, seed=0, board=board) for table in tables]
    standings_snapshot_update(tournament_id=tournament.pk)
    phone = new_page(language, viewport=PHONE, is_mobile=True)
    for name, url in _pages(tournament, hands[0], board.number).items():
        assert phone.goto(url).status == 200, name
        if name == "hand-replay":
            phone.locator('[data-step="last"]').click()  # the whole hand, its breakdown shown
        assert fits(phone), (name, sideways(phone))
