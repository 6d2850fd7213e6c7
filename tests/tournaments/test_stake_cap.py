"""The stake cap (封顶) of five players (R14.7): a tournament's setting, checked where it is
set, frozen once a round is seated and kept to the tournament log by the database; each
hand keeps the cap it started under. (Scores with the cap, through the API, in
``tests/api/test_variant_tournaments.py``.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.archive.restore import tournament_import
from tournaments.common.errors import ApplicationError
from tournaments.common.limits import STAKE_CAP_MAX
from tournaments.models import Hand, Round, RoundStatus, Tournament, TournamentLog
from tournaments.tournament.services import tournament_create, tournament_update

pytestmark = pytest.mark.django_db


def _create(**fields: Any) -> Tournament:
    return tournament_create(name="Capped", slug="capped", **fields)


def test_a_five_player_event_sets_a_cap_and_no_cap_is_none() -> None:
    assert _create(rule_profile="five_p", stake_cap=16).stake_cap == 16
    assert (
        tournament_create(name="B", slug="b", rule_profile="five_p", stake_cap=0).stake_cap is None
    )
    assert tournament_create(name="C", slug="c", rule_profile="five_p").stake_cap is None


@pytest.mark.parametrize("profile", ["comp2016", "classic", "four_p", "laizi", "big3"])
def test_a_game_without_a_cap_refuses_one(profile: str) -> None:
    with pytest.raises(ApplicationError) as excinfo:
        _create(rule_profile=profile, stake_cap=16)
    assert excinfo.value.code == "stake_cap_not_in_rules"
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("cap", "code"),
    [(-1, "invalid"), ("16", "invalid"), (1.5, "invalid"), (True, "invalid"),
     (STAKE_CAP_MAX + 1, "too_large"), (2**63, "too_large")],
)  # fmt: skip
def test_a_cap_out_of_range_or_not_a_whole_number_is_refused(cap: Any, code: str) -> None:
    with pytest.raises(ApplicationError) as excinfo:
        _create(rule_profile="five_p", stake_cap=cap)
    assert excinfo.value.code == code
    assert not Tournament.objects.exists()


def test_the_cap_is_logged_and_frozen_once_a_round_is_seated(director: Any) -> None:
    table = factories.seated_table(slug="frozen-cap", rule_profile="five_p")
    tournament = table.round.tournament
    tournament_update(tournament=tournament, stake_cap=64, recorded_by=director)
    log = TournamentLog.objects.filter(tournament=tournament).latest("id")
    assert log.changes == {"stake_cap": [None, 64]}
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.SEATED)
    logged = TournamentLog.objects.count()
    for change in (16, 0):  # another cap, or none: both change what the hands score
        with pytest.raises(ApplicationError) as excinfo:
            tournament_update(tournament=tournament, stake_cap=change, recorded_by=director)
        assert excinfo.value.code == "settings_frozen"
        assert excinfo.value.extra == {"fields": ["stake_cap"]}
    assert Tournament.objects.get(pk=tournament.pk).stake_cap == 64
    assert TournamentLog.objects.count() == logged
    # the same cap again (the settings form sends every field) and None change nothing
    tournament_update(tournament=tournament, stake_cap=64, name="Same", recorded_by=director)
    tournament_update(tournament=tournament, name="Again", recorded_by=director)
    assert Tournament.objects.get(pk=tournament.pk).stake_cap == 64


def test_a_new_profile_without_a_cap_asks_for_the_cap_to_go_first(director: Any) -> None:
    tournament = _create(rule_profile="five_p", stake_cap=16)
    with pytest.raises(ApplicationError) as excinfo:
        tournament_update(tournament=tournament, rule_profile="four_p", recorded_by=director)
    assert excinfo.value.code == "stake_cap_not_in_rules"
    assert Tournament.objects.get(pk=tournament.pk).rule_profile == "five_p"
    tournament_update(
        tournament=tournament, rule_profile="four_p", stake_cap=0, recorded_by=director
    )
    after = Tournament.objects.get(pk=tournament.pk)
    assert (after.rule_profile, after.stake_cap) == ("four_p", None)


def test_the_database_keeps_the_cap_to_the_log_and_to_its_games() -> None:
    five = _create(rule_profile="five_p")
    rows = Tournament.objects.filter(pk=five.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.update(stake_cap=16)  # no log row says so
    factories.tournament_set(five.pk, stake_cap=16)  # with one, it changes
    assert rows.get().stake_cap == 16
    plain = tournament_create(name="Plain", slug="plain")
    for cap in (16, 0):  # no cap in comp2016; none of 0 anywhere
        factories.tournament_log_says(plain.pk, stake_cap=cap)
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.filter(pk=plain.pk).update(stake_cap=cap)


def test_a_hand_keeps_the_cap_it_started_under_and_the_archive_keeps_both() -> None:
    table = factories.seated_table(slug="hand-cap", rule_profile="five_p", stake_cap=8)
    referee = referee_user("cap-referee")
    assign(referee, table)
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    started = post(client_for(referee), f"/api/v1/tables/{table.pk}/hands/", {"deal": "random"})
    assert started.status_code == 201, started.json()
    hand = Hand.objects.get(pk=started.json()["id"])
    assert hand.stake_cap == 8
    data = tournament_archive(tournament=table.round.tournament)
    assert data["tournament"]["stake_cap"] == 8
    hands = [h for r in data["rounds"] for t in r["tables"] for h in t["hands"]]
    assert [h["stake_cap"] for h in hands] == [8]
    copy = tournament_import(text=archive_dumps(data), slug="hand-cap-copy")
    assert copy.stake_cap == 8
    assert Hand.objects.get(table__round__tournament=copy).stake_cap == 8
    # an archive written before the cap has none, and restores as no cap
    del data["tournament"]["stake_cap"]
    for h in hands:
        del h["stake_cap"]
    old = tournament_import(text=archive_dumps(data), slug="hand-cap-old")
    assert old.stake_cap is None
    assert Hand.objects.get(table__round__tournament=old).stake_cap is None


def test_the_director_sets_the_cap_on_the_form_and_the_public_page_shows_it(
    director_client: Any,
) -> None:
    form = {
        "name": "Five", "slug": "five", "rule_profile": "five_p", "format": "table",
        "hands_per_round": 6, "rounds_planned": 0, "stake_cap": 32, "confirmed_by": "official",
        "is_public": "on",
    }  # fmt: skip
    response = director_client.post(reverse("director:tournament-create"), form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get(slug="five").stake_cap == 32
    page = director_client.get(reverse("public:tournament-detail", args=["five"])).content.decode()
    assert 'id="stake-cap"' in page and "×32" in page
    refused = director_client.post(
        reverse("director:tournament-create"),
        {**form, "slug": "three", "rule_profile": "comp2016"},
    )
    assert refused.status_code == 400
    assert "no stake cap" in refused.content.decode()
    assert not Tournament.objects.filter(slug="three").exists()
