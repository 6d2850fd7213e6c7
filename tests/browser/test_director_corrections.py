"""Issue 17 point 1 in a real browser: a director's correction keeps the double it did not
touch (the form starts from the result and shows old → new before saving), and an override
of a logged hand is shown beside the log on the public hand page."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from referee.rules.cards import deal_from_seed
from referee.rules.hand import HandState
from referee.rules.profiles import get_profile
from tests import factories
from tests.browser.conftest import patient
from tests.play import random_hand_actions
from tournaments.hands.write import hand_action_record, hand_create, hand_record_result
from tournaments.models import Hand, Round, RoundStatus

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def director_page(browser: Any, live_server: Any, settings: Any) -> Iterator[Callable[[], Any]]:
    settings.SESSION_COOKIE_SECURE = False  # the live server speaks plain HTTP
    settings.CSRF_COOKIE_SECURE = False
    contexts: list[Any] = []

    def make() -> Any:
        director = factories.UserFactory(username="director-browser", is_staff=True)
        context = patient(browser.new_context(base_url=live_server.url, locale="en-GB"))
        contexts.append(context)
        client = Client()
        client.force_login(director)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _playing_round(table: Any) -> None:
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)


def test_a_correction_keeps_the_double(director_page: Callable[[], Any]) -> None:
    table = factories.seated_table()
    _playing_round(table)
    hand = hand_record_result(
        hand=hand_create(table=table).hand,
        landlord=0,
        bid=2,
        winner="defenders",
        doubled=[False, True, False],
    ).hand
    slug = table.round.tournament.slug
    page = director_page()
    page.goto(f"/director/t/{slug}/hands/{hand.pk}/")
    assert page.locator("#id_doubled_1").is_checked()  # the double is there to start from
    assert page.locator("[data-diff] li").count() == 0

    page.fill("#id_bombs", "1")
    item = page.locator("#correction-diff li[data-field='bombs']")
    item.wait_for()
    assert "0 → 1" in item.inner_text()
    assert page.locator("#correction-diff li").count() == 1  # nothing else changes
    page.fill("form[data-correction] #id_reason", "one bomb was missed")
    page.locator("form[data-correction] button[type=submit]").click()
    page.wait_for_selector(".messages li")
    assert "Result corrected." in page.locator(".messages").inner_text()

    stored = Hand.objects.get(pk=hand.pk)
    assert stored.doubled == [False, True, False]  # kept
    assert stored.bombs == 1
    assert stored.scores == [-12, 8, 4]  # seat 1 doubled: 2 × 2^(1 + 1); seat 2: 2 × 2^1
    assert page.locator("#id_doubled_1").is_checked()  # the page now starts from the new result


def test_an_override_of_a_logged_hand_shows_on_the_public_page(
    director_page: Callable[[], Any], page_en: Any
) -> None:
    table = factories.seated_table()
    _playing_round(table)
    deal = deal_from_seed(11)
    actions = random_hand_actions(deal, seed=2)
    hand = hand_create(table=table, seed=11).hand
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
    logged = HandState.from_events(deal, actions, get_profile("comp2016")).result()
    assert logged is not None
    other = "landlord" if logged.winner == "defenders" else "defenders"
    slug = table.round.tournament.slug

    page = director_page()
    page.goto(f"/director/t/{slug}/hands/{hand.pk}/")
    page.select_option("#id_winner", other)
    page.uncheck("#id_spring")  # a spring or anti-spring of the log no longer fits
    page.uncheck("#id_anti_spring")
    page.fill("form[data-correction] #id_reason", "the referee logged the wrong winner")
    page.locator("form[data-correction] button[type=submit]").click()
    page.wait_for_selector(".messages li")
    assert "its log says winner = " + logged.winner in page.locator(".messages").inner_text()
    assert Hand.objects.get(pk=hand.pk).winner == logged.winner  # refused: nothing written

    page.select_option("#id_winner", other)
    page.uncheck("#id_spring")  # a spring or anti-spring of the log no longer fits
    page.uncheck("#id_anti_spring")
    page.check("#id_override")
    page.fill("form[data-correction] #id_reason", "the referee logged the wrong winner")
    page.locator("form[data-correction] button[type=submit]").click()
    page.wait_for_selector("#hand-override")
    assert "wrong winner" in page.locator("#hand-override").inner_text()
    assert Hand.objects.get(pk=hand.pk).winner == other

    page_en.goto(f"/t/{slug}/hands/{hand.pk}/")
    override = page_en.locator("#hand-override")
    override.wait_for()
    text = override.inner_text()
    assert "the referee logged the wrong winner" in text
    winner = page_en.locator("#hand-override li[data-field='winner']").inner_text()
    side = {"landlord": "the landlord", "defenders": "the farmers (农民)"}  # in words
    assert winner == (
        f"winner: the log says {side[logged.winner]} · the override says {side[other]}"
    )
    assert page_en.locator("#steps li").count() == len(actions)  # the log stays beside it
