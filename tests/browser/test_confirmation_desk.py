"""Issue 17 point 3 in a real browser: the players confirm a hand with the PINs of their
table cards on the referee's phone; the results desk shows each hand's state, refreshes by
itself and confirms from its buttons. Screenshots of the desk in each state go to
tests/browser/artefacts/ (desk-table-<state>.png, desk-hand-<state>.png)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from referee.rules.cards import deal_from_seed
from tests import factories
from tests.browser.conftest import patient
from tests.play import random_hand_actions
from tests.public_data import hand_played, tournament_with_tables
from tournaments.common.roles import REFEREE_GROUP
from tournaments.hands.confirmation import hand_confirm, hand_confirm_by_pins, hand_dispute
from tournaments.hands.corrections import hand_void
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_result,
)
from tournaments.models import Hand, RefereeAssignment, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def signed_in(browser: Any, live_server: Any, settings: Any) -> Iterator[Any]:
    """``signed_in(user)``: a page whose context carries ``user``'s session."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    contexts: list[Any] = []

    def make(user: Any) -> Any:
        context = patient(
            browser.new_context(
                base_url=live_server.url, locale="en-GB", viewport={"width": 1280, "height": 900}
            )
        )
        contexts.append(context)
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"].value
        context.add_cookies([{"name": "sessionid", "value": cookie, "url": live_server.url}])
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def _pins(table: Table) -> dict[int, str]:
    return {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}


def _result(table: Table, recorder: Any, landlord: int = 0) -> Hand:
    return hand_record_result(
        hand=hand_create(table=table).hand, landlord=landlord, bid=2, winner="landlord",
        recorded_by=recorder,
    ).hand  # fmt: skip


def test_players_confirm_with_their_pins_on_the_referees_phone(
    signed_in: Any, screenshot: Any
) -> None:
    _, (table,) = tournament_with_tables(
        tables=1, requires_confirmation=True, confirmed_by="players"
    )
    referee = factories.UserFactory(username="table-referee")
    referee.groups.add(Group.objects.get_or_create(name=REFEREE_GROUP)[0])
    RefereeAssignment.objects.create(round=table.round, table=table, user=referee)
    hand = _result(table, referee, landlord=1)
    pins = _pins(table)
    page = signed_in(referee)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.goto(f"/referee/hands/{hand.pk}/confirm/")
    assert page.locator("#confirm-state").get_attribute("data-state") == "awaiting"
    screenshot(page, "confirm-pins-form")

    wrong = "0000" if pins[0] != "0000" else "1111"
    page.fill("#pin_1", pins[1])
    page.fill("#pin_0", wrong)
    page.get_by_role("button", name="Confirm the result").click()
    alert = page.locator("p.error[role=alert]")
    assert alert.get_attribute("data-code") == "pin_wrong"
    assert "4 tries left" in alert.inner_text()
    assert Hand.objects.get(pk=hand.pk).confirmation == "pending"
    screenshot(page, "confirm-pins-wrong")

    page.fill("#pin_1", pins[1])  # the landlord
    page.fill("#pin_2", pins[2])  # a farmer
    page.get_by_role("button", name="Confirm the result").click()
    assert page.locator("#confirm-state").get_attribute("data-state") == "confirmed"
    names = page.locator(".confirmed-by").inner_text()
    seats = {s.position: str(s.entry) for s in Seat.objects.filter(table=table)}
    assert seats[1] in names and seats[2] in names and seats[0] not in names
    assert Hand.objects.get(pk=hand.pk).confirmation == "confirmed"
    assert page.locator("#confirm-pins").count() == 0
    screenshot(page, "confirm-pins-done")


def _irregular(table: Table) -> Hand:
    """A physical-cards hand whose deal, written in afterwards, does not fit its log."""
    deal = deal_from_seed(7)
    hand = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        hand = hand_action_record(hand=hand, action=action).hand
    other = deal_from_seed(8, first_bidder=deal.first_bidder)
    return hand_deal_record(hand=hand, deal=other.to_json()).hand


def test_the_desk_shows_each_state_refreshes_by_itself_and_confirms(
    signed_in: Any, screenshot: Any
) -> None:
    tournament, tables = tournament_with_tables(
        tables=4, requires_confirmation=True, confirmed_by="players", hands_per_round=2
    )
    director = factories.UserFactory(username="the-director", is_staff=True)
    recorder = factories.UserFactory(username="recorder", is_staff=True)
    t1, t2, t3, t4 = tables
    awaiting = _result(t1, recorder)  # awaiting confirmation, and the table plays on:
    hand_played(t1, seed=3, upto=4)  # playing
    hand_confirm(hand=_result(t2, recorder), recorded_by=director)  # confirmed
    disputed = hand_dispute(
        hand=_result(t2, recorder), reason="bid was 3", recorded_by=director
    ).hand
    hand_void(hand=hand_create(table=t3).hand, reason="misdeal", recorded_by=director)  # voided
    _irregular(t3)  # its written-in deal does not fit its log
    hand_confirm(hand=_result(t4, recorder), recorded_by=director)
    # A hand closed while confirmation was off (the setting is frozen once a round is seated,
    # so the row is set directly): finished, it counts; turning it back on changes neither.
    factories.tournament_set(tournament.pk, requires_confirmation=False)
    _result(t4, recorder)
    factories.tournament_set(tournament.pk, requires_confirmation=True)

    page = signed_in(director)
    page.goto(f"/director/t/{tournament.slug}/results/1/")
    rows = {n: page.locator(f'#results-desk tr[data-table="{n}"]') for n in (1, 2, 3, 4)}
    states = {n: row.get_attribute("data-state") for n, row in rows.items()}
    assert states == {1: "awaiting", 2: "disputed", 3: "irregular", 4: "finished"}
    hand_states = {
        li.get_attribute("data-state") for li in page.locator("#results-desk li[data-state]").all()
    }
    assert hand_states == {
        "awaiting", "playing", "confirmed", "disputed", "irregular", "voided", "missing",
        "finished",
    }  # fmt: skip
    artefacts = screenshot(page, "desk-all-states").parent
    for n, state in states.items():
        rows[n].screenshot(path=str(artefacts / f"desk-table-{state}.png"))
    for state in hand_states:
        page.locator(f'#results-desk li[data-state="{state}"]').first.screenshot(
            path=str(artefacts / f"desk-hand-{state}.png")
        )
    assert "recorder" not in rows[2].locator(".confirmed-by").inner_text()
    assert "the-director" in rows[2].locator(".confirmed-by").inner_text()
    assert "Table 1 · Hand 1" in page.locator("#awaiting-confirmation").inner_text()

    # the players confirm table 1's hand on the referee's phone: the desk follows, no reload
    pins = _pins(t1)
    hand_confirm_by_pins(hand=awaiting, pins={0: pins[0], 1: pins[1]}, recorded_by=None)
    page.locator(
        '#results-desk tr[data-table="1"] li[data-hand="1"][data-state="confirmed"]'
    ).wait_for()
    assert rows[1].get_attribute("data-state") == "playing"
    assert "Nothing awaits confirmation." in page.locator("#awaiting-confirmation").inner_text()
    screenshot(page, "desk-refreshed")

    # the director confirms the disputed hand from the desk
    page.locator(f'button[data-confirm-hand="{disputed.pk}"]').click()
    page.locator(".messages .success").wait_for()
    assert Hand.objects.get(pk=disputed.pk).confirmation == "confirmed"
    assert page.locator('#results-desk tr[data-table="2"]').get_attribute("data-state") == (
        "finished"
    )
    screenshot(page, "desk-confirmed")
