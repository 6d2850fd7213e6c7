"""Seat names (issue 17.6): one wording, the wind and the number together, on the public
pages, the director's screens and forms, the print sheets and the services' messages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from tests.public_data import hand_played, tournament_with_tables
from tournaments.common.errors import ApplicationError
from tournaments.common.seat_names import seat_name, seat_names, seat_wind
from tournaments.director.forms import CorrectionForm
from tournaments.hands.write import hand_announcement_record

pytestmark = pytest.mark.django_db


def test_a_seat_is_named_by_its_wind_and_its_number() -> None:
    with translation.override("en"):
        assert seat_names() == [  # every seat some table has: a six-seat table's too
            "East (东) · seat 0",
            "South (南) · seat 1",
            "West (西) · seat 2",
            "North (北) · seat 3",
            "Seat 4",  # four winds only
            "Seat 5",
        ]
        assert seat_wind(4) == seat_wind(5) == "—"
    with translation.override("zh-hans"):
        assert seat_names() == [
            "东 · 0 号座",
            "南 · 1 号座",
            "西 · 2 号座",
            "北 · 3 号座",
            "4 号座",
            "5 号座",
        ]
    assert seat_name(None) == "—"
    assert seat_name(7) == "7"
    assert (seat_name(1.0), seat_name(True)) == ("1.0", "True")  # type: ignore[arg-type]


def test_the_result_forms_name_the_seats() -> None:
    with translation.override("en"):
        form = CorrectionForm()
        assert str(form.fields["doubled_1"].label) == "South (南) · seat 1 doubled (加倍)"
        landlord = [str(label) for _, label in form["landlord"].field.choices]  # type: ignore[attr-defined]
        assert landlord == ["East (东) · seat 0", "South (南) · seat 1", "West (西) · seat 2"]
    with translation.override("zh-hans"):
        assert str(CorrectionForm().fields["doubled_2"].label) == "西 · 2 号座加倍"


def test_the_services_name_a_seat_as_the_pages_do() -> None:
    _, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5, upto=2)
    with translation.override("en"), pytest.raises(ApplicationError) as refused:
        hand_announcement_record(hand=hand, seat=2)
    assert refused.value.code == "no_announcement_due"
    assert refused.value.message == "West (西) · seat 2 has no announcement due."


def test_director_screens_and_print_sheets_name_the_seats(director_client: Any) -> None:
    tournament, tables = tournament_with_tables(tables=1)
    hand = hand_played(tables[0], seed=5)
    slug = tournament.slug
    east = tables[0].seats.get(position=0).entry.player
    pages = {
        "hand": reverse("director:hand", args=[slug, hand.pk]),
        "desk": reverse("director:results", args=[slug, 1]),
        "round": reverse("director:round", args=[slug, 1]),
        "print": reverse("director:print", args=[slug, 1]),
    }
    for name, url in pages.items():
        body = director_client.get(url, headers={"accept-language": "en"}).content.decode()
        assert f"East (东) · seat 0: {east}" in body, name
        assert "West (西) · seat 2" in body, name
    chinese = director_client.get(pages["hand"], headers={"accept-language": "zh-hans"})
    assert f"东 · 0 号座: {east}" in chinese.content.decode()


def test_the_players_confirmation_page_names_the_seats(director_client: Any) -> None:
    _, tables = tournament_with_tables(tables=1, confirmed_by="players", requires_confirmation=True)
    hand = hand_played(tables[0], seed=5)
    url = reverse("referee:hand-confirm", args=[hand.pk])
    body = director_client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "South (南) · seat 1" in body
