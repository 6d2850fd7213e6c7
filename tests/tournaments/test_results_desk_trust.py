"""Issue 17, points 1-2: corrections keep what was recorded and keep to the log; results
the rules cannot produce are refused, each naming its rule; passed-out hands entered
result-only; a physical deal is checked against the whole log and a failed check makes the
hand irregular until a director keeps, corrects or voids it."""

import re
from typing import Any

import pytest

from referee.rules.cards import deal_from_seed
from referee.rules.hand import HandState
from referee.rules.profiles import get_profile
from tests import factories
from tests.api.helpers import assign, client_for, post, referee_user
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.corrections import hand_irregular_keep, hand_result_correct, hand_void
from tournaments.hands.replay import hand_check_replays
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_passed_out,
    hand_record_result,
)
from tournaments.models import Hand, HandEvent, HandSeatResult, Round, RoundStatus, Table

pytestmark = pytest.mark.django_db
SEED = 7
RESULT: dict[str, Any] = {"landlord": 1, "bid": 2, "winner": "defenders"}


def refresh(hand: Hand) -> Hand:
    return Hand.objects.get(pk=hand.pk)


def written(hand: Hand) -> tuple[int, int, list[Any]]:
    """What a refusal must leave as it was: the version, the log, the per-seat rows."""
    stored = refresh(hand)
    rows = list(HandSeatResult.objects.filter(hand=hand).values_list("position", "score"))
    return stored.version, HandEvent.objects.filter(hand=hand).count(), rows


def refused(code: str, call: Any, hand: Hand) -> ApplicationError:
    before = written(hand)
    with pytest.raises(ApplicationError) as info:
        call()
    assert info.value.code == code
    assert written(hand) == before, "a refusal wrote something"
    return info.value


def logged_hand(table: Table, seed: int = SEED, play_seed: int = 1) -> tuple[Hand, Any]:
    deal = deal_from_seed(seed)
    actions = random_hand_actions(deal, seed=play_seed)
    hand = hand_create(table=table, seed=seed).hand
    for action in actions:
        hand = hand_action_record(hand=hand, action=action).hand
    result = HandState.from_events(deal, actions, get_profile("comp2016")).result()
    assert result is not None
    return refresh(hand), result


# --- 1. corrections keep what was recorded -------------------------------------------------------


def test_a_correction_keeps_the_double_it_is_given(seated_table: Table) -> None:
    hand = hand_record_result(
        hand=hand_create(table=seated_table).hand, **RESULT, doubled=(False, False, True)
    ).hand
    hand = hand_result_correct(
        hand=hand, reason="one more bomb", **RESULT, doubled=(False, False, True), bombs=1
    ).hand
    stored = refresh(hand)
    assert stored.doubled == [False, False, True] and stored.bombs == 1
    assert hand_check_replays(hand=stored) == []


def test_the_director_form_starts_from_the_current_result(
    seated_table: Table, director_client: Any
) -> None:
    """The correction form on the hand page holds every field of the result as it stands
    (doubles, redouble, spring, anti-spring), each with its value in data-old."""
    hand = hand_record_result(
        hand=hand_create(table=seated_table).hand,
        landlord=0,
        bid=3,
        winner="defenders",
        doubled=(False, True, False),
        redoubled=True,
        anti_spring=True,
    ).hand
    tournament = seated_table.round.tournament
    page = director_client.get(f"/director/t/{tournament.slug}/hands/{hand.pk}/")
    form = page.context["correct_form"]
    assert form.initial["doubled_1"] is True and form.initial["redoubled"] is True
    assert form.initial["anti_spring"] is True and form.initial["doubled_0"] is False
    html = page.content.decode()
    doubled_1 = re.search(r'<input[^>]*name="doubled_1"[^>]*>', html)
    assert doubled_1 is not None
    assert 'data-old="true"' in doubled_1.group(0) and "checked" in doubled_1.group(0)
    # saving the form as it starts changes nothing but the reason
    data = {k: v for k, v in form.initial.items() if v is not False}
    data.update(reason="checked with the table")
    director_client.post(f"/director/t/{tournament.slug}/hands/{hand.pk}/correct/", data)
    stored = refresh(hand)
    assert stored.doubled == [False, True, False] and stored.redoubled and stored.anti_spring
    assert stored.events.last().kind == "correction"


def test_contradicts_log_names_the_field_and_the_logs_value(seated_table: Table) -> None:
    hand, logged = logged_hand(seated_table)
    other = "landlord" if logged.winner == "defenders" else "defenders"
    error = refused(
        "contradicts_log",
        lambda: (
            hand_result_correct(
                hand=hand,
                reason="the table says so",
                landlord=logged.landlord,
                bid=logged.bid,
                winner=other,
                doubled=logged.doubled,
                redoubled=logged.redoubled,
                bombs=logged.bombs,
                rockets=logged.rockets,
            ).hand
        ),
        hand,
    )
    assert error.extra["field"] == "winner" and error.extra["log_value"] == logged.winner
    assert "winner" in error.message and logged.winner in error.message


def test_bombs_beyond_the_log_contradict_it(seated_table: Table) -> None:
    hand, logged = logged_hand(seated_table)
    fields = {
        "landlord": logged.landlord, "bid": logged.bid, "winner": logged.winner,
        "doubled": logged.doubled, "redoubled": logged.redoubled, "rockets": logged.rockets,
        "spring": logged.spring, "anti_spring": logged.anti_spring,
    }  # fmt: skip
    error = refused(
        "contradicts_log",
        lambda: (
            hand_result_correct(
                hand=hand, reason="two bombs", bombs=logged.bombs + 1, **fields
            ).hand
        ),
        hand,
    )
    assert error.extra == {
        "field": "bombs",
        "log_value": logged.bombs,
        "value": logged.bombs + 1,
    }
    # the same result as the log is no contradiction
    same = hand_result_correct(hand=hand, reason="confirmed", bombs=logged.bombs, **fields).hand
    assert hand_selectors.hand_detail(hand=same, show_cards=True)["override"] is None


def test_a_director_override_stands_beside_the_log(seated_table: Table) -> None:
    hand, logged = logged_hand(seated_table)
    other = "landlord" if logged.winner == "defenders" else "defenders"
    hand = hand_result_correct(
        hand=hand,
        reason="the referee logged the wrong winner",
        landlord=logged.landlord,
        bid=logged.bid,
        winner=other,
        override=True,
    ).hand
    stored = refresh(hand)
    assert stored.winner == other
    assert hand_check_replays(hand=stored) == []
    detail = hand_selectors.hand_detail(hand=stored, show_cards=True)
    override = detail["override"]
    assert override["reason"] == "the referee logged the wrong winner"
    assert {"field": "winner", "log": logged.winner, "override": other} in override["changes"]


def test_a_logged_hand_corrected_to_passed_out_contradicts_its_log(seated_table: Table) -> None:
    hand, _ = logged_hand(seated_table)
    error = refused(
        "contradicts_log",
        lambda: hand_result_correct(hand=hand, reason="nobody bid", passed_out=True).hand,
        hand,
    )
    assert error.extra["field"] == "passed_out" and error.extra["log_value"] is False


def test_a_result_only_hand_is_corrected_to_passed_out(seated_table: Table) -> None:
    hand = hand_record_result(hand=hand_create(table=seated_table).hand, **RESULT).hand
    hand = hand_result_correct(hand=hand, reason="nobody bid in fact", passed_out=True).hand
    stored = refresh(hand)
    assert stored.status == "passed_out" and stored.scores == [0, 0, 0]
    assert stored.landlord_seat is None
    assert hand_check_replays(hand=stored) == []
    assert sorted(HandSeatResult.objects.filter(hand=hand).values_list("score", flat=True)) == [
        0,
        0,
        0,
    ]


# --- 2. results the rules cannot produce -------------------------------------------------------

CONTRADICTIONS = [
    ({"landlord": 0, "bid": 1, "winner": "landlord", "doubled": (True, False, False)}, "R4.1"),
    ({"landlord": 0, "bid": 1, "winner": "landlord", "redoubled": True}, "R4.3"),
    ({"landlord": 0, "bid": 1, "winner": "defenders", "spring": True}, "R7.2"),
    ({"landlord": 0, "bid": 1, "winner": "landlord", "anti_spring": True}, "R7.3"),
    (
        {"landlord": 0, "bid": 1, "winner": "landlord", "spring": True, "anti_spring": True},
        "R7.4",
    ),
    ({"landlord": 0, "bid": 4, "winner": "landlord"}, "R3.1"),
    ({"landlord": 0, "bid": 1, "winner": "landlord", "bombs": 14}, "R5.19"),
    ({"landlord": 0, "bid": 1, "winner": "landlord", "rockets": 2}, "R5.20"),
]


@pytest.mark.parametrize(("fields", "rule"), CONTRADICTIONS)
def test_each_contradiction_is_refused_with_its_rule(
    seated_table: Table, fields: dict[str, Any], rule: str
) -> None:
    hand = hand_create(table=seated_table).hand
    error = refused("invalid_result", lambda: hand_record_result(hand=hand, **fields).hand, hand)
    assert error.extra["rule_number"] == rule
    assert str(error.extra["rule"]).startswith(f"{rule}:")


IMPOSSIBLE = [
    # the hand: 22 cards for a landlord who holds 20
    ({"winner": "landlord", "bombs": 5, "rockets": 1, "spring": True}, "R7.2"),
    ({"winner": "landlord", "bombs": 6, "spring": True}, "R7.2"),
    ({"winner": "defenders", "bombs": 10, "anti_spring": True}, "R7.3"),
    ({"winner": "defenders", "bombs": 9, "rockets": 1, "anti_spring": True}, "R7.3"),
    ({"winner": "defenders", "bombs": 13}, "R7.1"),
    ({"winner": "landlord", "bombs": 13, "rockets": 1}, "R7.1"),
]


@pytest.mark.parametrize(("fields", "rule"), IMPOSSIBLE)
def test_what_no_deal_can_give_is_refused_naming_the_rule(
    seated_table: Table, fields: dict[str, Any], rule: str
) -> None:
    hand = hand_create(table=seated_table).hand
    error = refused(
        "impossible_result",
        lambda: hand_record_result(hand=hand, landlord=1, bid=3, **fields).hand,
        hand,
    )
    assert error.extra["rule_number"] == rule


def test_a_correction_is_held_to_the_same_bounds(seated_table: Table) -> None:
    hand = hand_record_result(hand=hand_create(table=seated_table).hand, **RESULT).hand
    refused(
        "impossible_result",
        lambda: (
            hand_result_correct(
                hand=hand,
                reason="more bombs",
                landlord=1,
                bid=3,
                winner="landlord",
                bombs=5,
                rockets=1,
                spring=True,
            ).hand
        ),
        hand,
    )


def test_the_bounds_are_accepted_where_a_deal_reaches_them(seated_table: Table) -> None:
    hand = hand_record_result(
        hand=hand_create(table=seated_table).hand,
        landlord=1,
        bid=3,
        winner="landlord",
        bombs=4,
        rockets=1,
        spring=True,
    ).hand
    assert refresh(hand).scores == [-3 * 2**6, 6 * 2**6, -3 * 2**6]


# --- passed out, result-only, over HTTP --------------------------------------------------------


def _playing(table: Table) -> Table:
    Round.objects.filter(pk=table.round_id).update(status=RoundStatus.PLAYING)
    table.round.refresh_from_db()
    return table


def test_passed_out_entered_result_only_over_http(seated_table: Table) -> None:
    table = _playing(seated_table)
    ref = referee_user("passed-out-ref")
    assign(ref, table)
    hand = hand_create(table=table).hand
    answer = post(client_for(ref), f"/api/v1/hands/{hand.pk}/passed-out/", {})
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["status"] == "passed_out" and body["scores"] == [0, 0, 0]
    assert HandSeatResult.objects.filter(hand=hand, score=0, passed_out=True).count() == 3


def test_passed_out_refused_for_each_role_that_may_not_write(seated_table: Table) -> None:
    table = _playing(seated_table)
    other_table = factories.TableFactory(round=table.round, number=table.number + 1)
    other_ref = referee_user("other-table-ref")
    assign(other_ref, other_table)
    plain = factories.UserFactory(username="plain-user")
    hand = hand_create(table=table).hand
    url = f"/api/v1/hands/{hand.pk}/passed-out/"
    for user, status, code in (
        (None, 401, "not_authenticated"),
        (other_ref, 403, "not_assigned"),
        (plain, 403, "permission_denied"),
    ):
        before = written(hand)
        answer = post(client_for(user), url, {})
        assert answer.status_code == status, answer.json()
        assert answer.json()["code"] == code
        assert written(hand) == before


def test_passed_out_of_a_logged_hand_is_refused(seated_table: Table) -> None:
    hand = hand_create(table=seated_table, seed=SEED).hand
    deal = deal_from_seed(SEED)
    first = random_hand_actions(deal, seed=1)[0]
    hand = hand_action_record(hand=hand, action=first).hand
    refused("hand_logged_live", lambda: hand_record_passed_out(hand=hand).hand, hand)


def test_impossible_result_over_http_sends_the_rule(seated_table: Table) -> None:
    table = _playing(seated_table)
    ref = referee_user("bounds-ref")
    assign(ref, table)
    hand = hand_create(table=table).hand
    answer = post(
        client_for(ref),
        f"/api/v1/hands/{hand.pk}/result/",
        {"landlord": 1, "bid": 3, "winner": "landlord", "bombs": 5, "rockets": 1, "spring": True},
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "impossible_result"
    assert body["details"]["rule_number"] == "R7.2"
    assert "at most 4 bombs and the rocket" in body["details"]["rule"]
    assert refresh(hand).version == 0


def test_only_a_director_overrides_a_log_over_http(seated_table: Table, director: Any) -> None:
    table = _playing(seated_table)
    ref = referee_user("override-ref")
    assign(ref, table)
    hand, logged = logged_hand(table)
    other = "landlord" if logged.winner == "defenders" else "defenders"
    body = {
        "landlord": logged.landlord,
        "bid": logged.bid,
        "winner": other,
        "reason": "wrong winner",
        "override": True,
    }
    url = f"/api/v1/hands/{hand.pk}/correction/"
    before = written(hand)
    denied = post(client_for(ref), url, body)
    assert denied.status_code == 403 and denied.json()["code"] == "permission_denied"
    without = post(client_for(director), url, {**body, "override": False})
    assert without.status_code == 409 and without.json()["code"] == "contradicts_log"
    assert without.json()["details"]["field"] == "winner"
    assert written(hand) == before
    done = post(client_for(director), url, body)
    assert done.status_code == 200, done.json()
    assert done.json()["override"]["changes"][0]["field"] in ("winner", "spring", "anti_spring")
    assert done.json()["winner"] == other


# --- physical cards -----------------------------------------------------------------------------


def test_a_deal_written_in_while_the_hand_is_live_is_refused(seated_table: Table) -> None:
    deal = deal_from_seed(SEED)
    actions = random_hand_actions(deal, seed=5)
    hand = hand_create(table=seated_table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in actions[:4]:
        hand = hand_action_record(hand=hand, action=action).hand
    refused("hand_live", lambda: hand_deal_record(hand=hand, deal=deal.to_json()).hand, hand)


def _irregular_hand(table: Table) -> Hand:
    deal = deal_from_seed(SEED)
    hand = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        hand = hand_action_record(hand=hand, action=action).hand
    assert refresh(hand).counts
    other = deal_from_seed(SEED + 1, first_bidder=deal.first_bidder)
    return hand_deal_record(hand=hand, deal=other.to_json()).hand


def test_a_failed_deal_check_makes_the_hand_irregular_until_kept(seated_table: Table) -> None:
    hand = _irregular_hand(seated_table)
    stored = refresh(hand)
    assert not stored.counts and not HandSeatResult.objects.filter(hand=hand).exists()
    detail = hand_selectors.hand_detail(hand=stored, show_cards=True)
    assert detail["irregular"] == "deal_check_failed"
    refused("reason_required", lambda: hand_irregular_keep(hand=stored, reason=" ").hand, stored)

    kept = hand_irregular_keep(hand=stored, reason="the deal was written in wrongly").hand
    stored = refresh(kept)
    assert stored.counts and HandSeatResult.objects.filter(hand=hand).count() == 3
    assert hand_selectors.hand_detail(hand=stored, show_cards=True)["irregular"] is None
    assert hand_check_replays(hand=stored) == []
    refused("hand_not_irregular", lambda: hand_irregular_keep(hand=stored, reason="x").hand, stored)


def test_an_irregular_hand_counts_again_once_voided_or_corrected(seated_table: Table) -> None:
    hand = _irregular_hand(seated_table)
    voided = refresh(hand_void(hand=hand, reason="misdeal").hand)
    assert voided.status == "voided"
    assert hand_selectors.hand_detail(hand=voided, show_cards=True)["irregular"] is None

    other = _irregular_hand(factories.seated_table())
    corrected = hand_result_correct(
        hand=other, reason="as the table agreed", **RESULT, override=True
    ).hand
    stored = refresh(corrected)
    assert stored.counts and stored.winner == "defenders"
    assert hand_selectors.hand_detail(hand=stored, show_cards=True)["irregular"] is None


def test_the_results_desk_marks_an_irregular_hand(
    seated_table: Table, director_client: Any
) -> None:
    hand = _irregular_hand(seated_table)
    tournament = seated_table.round.tournament
    url = f"/director/t/{tournament.slug}/results/{seated_table.round.number}/"
    page = director_client.get(url)
    assert page.status_code == 200
    assert page.context["irregular"] == {hand.pk}
    assert 'data-irregular="deal_check_failed"' in page.content.decode()
    hand_irregular_keep(hand=hand, reason="kept")
    assert director_client.get(url).context["irregular"] == set()


def test_the_director_screens_show_the_rule_of_a_refusal(
    seated_table: Table, director_client: Any
) -> None:
    hand = hand_record_result(hand=hand_create(table=seated_table).hand, **RESULT).hand
    slug = seated_table.round.tournament.slug
    before = written(hand)
    page = director_client.post(
        f"/director/t/{slug}/hands/{hand.pk}/correct/",
        {"landlord": 1, "bid": 3, "winner": "landlord", "bombs": 5, "rockets": 1,
         "spring": "on", "reason": "typo"},
        follow=True,
    )  # fmt: skip
    text = page.content.decode()
    assert "R7.2: in a spring neither defender plays a card" in text
    assert written(hand) == before


def test_the_director_records_a_result_only_hand_as_passed_out(
    seated_table: Table, director_client: Any
) -> None:
    hand = hand_create(table=seated_table).hand
    slug = seated_table.round.tournament.slug
    page = director_client.get(f"/director/t/{slug}/hands/{hand.pk}/")
    assert "/passed_out/" in page.content.decode()
    director_client.post(f"/director/t/{slug}/hands/{hand.pk}/passed_out/", {})
    stored = refresh(hand)
    assert stored.status == "passed_out" and stored.scores == [0, 0, 0]


def test_an_irregular_hand_is_not_confirmed_past_the_director(
    seated_table: Table, director: Any
) -> None:
    from tournaments.hands.confirmation import hand_confirm

    hand = _irregular_hand(seated_table)
    stored = refresh(hand)
    refused("hand_irregular", lambda: hand_confirm(hand=stored, recorded_by=director).hand, stored)


def test_overrides_passed_out_corrections_and_irregular_hands_round_trip_the_archive() -> None:
    import json

    from tournaments.archive.export import archive_dumps, tournament_archive
    from tournaments.archive.restore import tournament_import

    table = factories.seated_table(slug="trust-archived")
    logged, result = logged_hand(table)
    other = "landlord" if result.winner == "defenders" else "defenders"
    hand_result_correct(
        hand=logged, reason="override", landlord=result.landlord, bid=result.bid,
        winner=other, override=True,
    )  # fmt: skip
    result_only = hand_record_result(hand=hand_create(table=table).hand, **RESULT).hand
    hand_result_correct(hand=result_only, reason="nobody bid", passed_out=True)
    _irregular_hand(table)
    data: dict[str, Any] = json.loads(
        archive_dumps(tournament_archive(tournament=table.round.tournament))
    )
    data["tournament"]["slug"] = "trust-restored"
    restored = tournament_import(text=archive_dumps(data))
    original = {
        h.number: (h.status, h.winner, h.scores, h.counts)
        for h in Hand.objects.filter(table__round__tournament=table.round.tournament)
    }
    copied = {
        h.number: (h.status, h.winner, h.scores, h.counts)
        for h in Hand.objects.filter(table__round__tournament=restored)
    }
    assert copied == original
    assert HandSeatResult.objects.filter(tournament=restored).count() == 6  # irregular: none


def test_the_hand_pages_read_every_new_state(seated_table: Table, director_client: Any) -> None:
    """A passed-out correction, an override and an irregular hand: the public and the
    director's hand pages and the API read them (no error)."""
    from django.test import Client

    _playing(seated_table)  # the public sees hands of rounds past their draft
    slug = seated_table.round.tournament.slug
    corrected = hand_record_result(hand=hand_create(table=seated_table).hand, **RESULT).hand
    hand_result_correct(hand=corrected, reason="nobody bid", passed_out=True)
    logged, result = logged_hand(seated_table)
    other = "landlord" if result.winner == "defenders" else "defenders"
    hand_result_correct(
        hand=logged, reason="public override", landlord=result.landlord, bid=result.bid,
        winner=other, override=True,
    )  # fmt: skip
    irregular = _irregular_hand(seated_table)
    for hand in (corrected, logged, irregular):
        assert Client().get(f"/t/{slug}/hands/{hand.pk}/").status_code == 200
        assert director_client.get(f"/director/t/{slug}/hands/{hand.pk}/").status_code == 200
    public = Client().get(f"/t/{slug}/hands/{logged.pk}/").content.decode()
    assert 'id="hand-override"' in public and "public override" in public
    director_page = director_client.get(f"/director/t/{slug}/hands/{irregular.pk}/")
    assert 'id="hand-irregular"' in director_page.content.decode()
