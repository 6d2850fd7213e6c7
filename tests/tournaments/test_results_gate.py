"""Issue 29 point 1, final means complete: closing a round and publishing the final standings
list every hand that does not count yet (awaiting confirmation, disputed, irregular, live,
missing) and refuse with ``results_incomplete`` until each is settled or a director excludes
it with a reason (an audited write, once); a confirmation belongs to the result it confirmed."""

from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api.exception_handlers import APPLICATION_ERROR_STATUS
from referee.rules.cards import deal_from_seed
from tests import factories
from tests.api.helpers import playing_table
from tests.at_once import at_once
from tests.play import random_hand_actions
from tournaments.common.errors import ApplicationError
from tournaments.director.selectors import confirmers, hand_log, results_desk
from tournaments.hands import selectors as hand_selectors
from tournaments.hands.confirmation import hand_confirm, hand_confirm_by_pins, hand_dispute
from tournaments.hands.corrections import hand_result_correct, hand_void
from tournaments.hands.exclusions import exclusions_shown, hand_exclude
from tournaments.hands.gate import UNSETTLED, round_gate, table_lines, tournament_gate
from tournaments.hands.table_selectors import table_hands
from tournaments.hands.write import (
    hand_action_record,
    hand_create,
    hand_deal_record,
    hand_record_result,
)
from tournaments.models import (
    Hand,
    HandExclusion,
    HandStatus,
    Round,
    RoundLog,
    RoundStatus,
    Seat,
    Table,
    Tournament,
    TournamentStatus,
)
from tournaments.rounds.services import round_close
from tournaments.standings.queries import standings_latest
from tournaments.tournament.services import tournament_finish

pytestmark = pytest.mark.django_db


def _result(table: Table, **fields: Any) -> Hand:
    result = {"landlord": 0, "bid": 2, "winner": "landlord", **fields}
    return hand_record_result(hand=hand_create(table=table).hand, **result).hand


def _irregular(table: Table) -> Hand:
    """A physical-cards hand whose deal, written in afterwards, does not fit its log."""
    deal = deal_from_seed(7)
    hand = hand_create(table=table, physical_cards=True, first_bidder=deal.first_bidder).hand
    for action in random_hand_actions(deal, seed=5):
        hand = hand_action_record(hand=hand, action=action).hand
    other = deal_from_seed(8, first_bidder=deal.first_bidder)
    return hand_deal_record(hand=hand, deal=other.to_json()).hand


def _refused(code: str, call: Any) -> ApplicationError:
    with pytest.raises(ApplicationError) as excinfo:
        call()
    assert excinfo.value.code == code, excinfo.value
    return excinfo.value


def _listed(error: ApplicationError) -> list[tuple[int, int, int, str]]:
    return [(h["round"], h["table"], h["hand"], h["state"]) for h in error.extra["hands"]]


def _confirmed_by_players(table: Table, hand: Hand, director: Any) -> Hand:
    pins = {s.position: s.entry.pin for s in Seat.objects.filter(table=table)}
    return hand_confirm_by_pins(hand=hand, pins={0: pins[0], 2: pins[2]}, recorded_by=director).hand


# --------------------------------------------------------------------------- the round gate
def test_closing_a_round_lists_every_hand_that_does_not_count_and_writes_nothing(
    director: Any,
) -> None:
    table = playing_table(requires_confirmation=True, hands_per_round=6)
    _result(table)  # 1: awaiting confirmation
    hand_dispute(hand=_result(table), reason="bid was 3", recorded_by=director)  # 2: disputed
    _irregular(table)  # 3: its written-in deal does not fit its log
    hand_void(hand=hand_create(table=table).hand, reason="misdeal", recorded_by=director)  # 4
    hand_create(table=table)  # 5: being played
    error = _refused("results_incomplete", lambda: round_close(round=table.round))
    assert _listed(error) == [
        (table.round.number, table.number, 1, "awaiting"),
        (table.round.number, table.number, 2, "disputed"),
        (table.round.number, table.number, 3, "irregular"),
        (table.round.number, table.number, 5, "playing"),
        (
            table.round.number,
            table.number,
            6,
            "missing",
        ),  # the voided hand 4 is owed: 6 hands, 4 played
        (table.round.number, table.number, 7, "missing"),
    ]
    where = f"round {table.round.number}, table {table.number}"
    assert error.message.startswith(f"6 results are missing: {where}, hand 1 — Awaiting")
    assert "hand 7 — Missing" in error.message
    assert Round.objects.get(pk=table.round_id).status == RoundStatus.PLAYING
    assert not RoundLog.objects.exists() and not HandExclusion.objects.exists()
    # the results desk shows the same hands in the same states
    lines = {
        (line.number, line.state) for row in results_desk(round=table.round) for line in row.lines
    }
    assert {(n, s) for _, _, n, s in _listed(error)} <= lines


def test_the_refusal_is_in_chinese_for_a_chinese_reader() -> None:
    table = playing_table(hands_per_round=1)
    with translation.override("zh-hans"):
        error = _refused("results_incomplete", lambda: round_close(round=table.round))
    where = f"第 {table.round.number} 轮第 {table.number} 桌第 1 副 — 未打"
    assert error.message.startswith(f"缺少 1 个成绩：{where}。"), error.message


def test_a_round_closes_once_every_hand_counts_or_is_excluded(director: Any) -> None:
    table = playing_table(hands_per_round=2)
    _result(table)
    error = _refused("results_incomplete", lambda: round_close(round=table.round))
    assert _listed(error) == [(table.round.number, table.number, 2, "missing")]
    hand_exclude(table=table, number=2, reason="table left early", recorded_by=director)
    assert round_gate(round=table.round).open
    assert round_close(round=table.round, recorded_by=director).status == RoundStatus.CLOSED


# --------------------------------------------------------------------------- the walk
def test_a_corrected_hand_stops_the_final_standings_until_settled_or_excluded(
    director: Any,
) -> None:
    """The walk of issue 29: three hands confirmed by the players, the round closed, two of
    them corrected: they await confirmation again and the final standings wait for them."""
    table = playing_table(requires_confirmation=True, confirmed_by="players", hands_per_round=3)
    hands = [_confirmed_by_players(table, _result(table), director) for _ in range(3)]
    round_close(round=table.round, recorded_by=director)
    first, second = (
        hand_result_correct(
            hand=hand, reason="misread", landlord=1, bid=1, winner="landlord", recorded_by=director
        ).hand
        for hand in hands[:2]
    )
    assert first.confirmation == second.confirmation == "pending"
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    version = tournament.log_version
    error = _refused("results_incomplete", lambda: tournament_finish(tournament=tournament))
    assert _listed(error) == [
        (table.round.number, table.number, 1, "awaiting"),
        (table.round.number, table.number, 2, "awaiting"),
    ]
    assert error.extra["hands"][0]["hand_id"] == first.pk
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.status != TournamentStatus.FINISHED, stored.log_version) == (True, version)

    hand_exclude(table=table, number=1, reason="scoresheet lost", recorded_by=director)
    error = _refused("results_incomplete", lambda: tournament_finish(tournament=tournament))
    assert _listed(error) == [(table.round.number, table.number, 2, "awaiting")]
    hand_confirm(hand=second, recorded_by=factories.UserFactory(is_staff=True))
    finished = tournament_finish(tournament=tournament, recorded_by=director)
    assert finished.status == TournamentStatus.FINISHED
    played = {row.entry_id: row.hands_played for row in standings_latest(tournament=finished)}
    assert set(played.values()) == {2}  # hands 2 and 3; hand 1 excluded, counted nowhere
    shown = list(exclusions_shown(tournament=finished))
    assert [(e.number, e.state, e.reason, e.recorded_by) for e in shown] == [
        (1, "awaiting", "scoresheet lost", director)
    ]


# --------------------------------------------------------------------------- confirmers
def test_a_correction_makes_the_earlier_confirmers_history(director: Any) -> None:
    table = playing_table(requires_confirmation=True, confirmed_by="players", hands_per_round=1)
    hand = _confirmed_by_players(table, _result(table), director)
    seats = {s.position: s.entry for s in Seat.objects.filter(table=table)}
    assert confirmers(hands=[hand]) == {hand.pk: f"{seats[0]}, {seats[2]}"}
    api_row = table_hands(table=table)["hands"][0]
    assert (api_row["state"], api_row["confirmed_by"]) == ("confirmed", "players")
    assert api_row["confirmer"]

    corrected = hand_result_correct(
        hand=hand, reason="misread", landlord=1, bid=1, winner="landlord", recorded_by=director
    ).hand
    assert corrected.confirmation == "pending"
    assert confirmers(hands=[corrected]) == {}
    api_row = table_hands(table=table)["hands"][0]
    assert (api_row["state"], api_row["confirmed_by"], api_row["confirmer"]) == (
        "awaiting",
        None,
        "",
    )
    # the log keeps the players' confirmation, as one of the earlier result
    log = hand_log(
        events=hand_selectors.hand_detail(hand=corrected, show_cards=True, audit=True)["events"]
    )
    confirm = next(line for line in log if line.kind == "confirm")
    assert "earlier result" in confirm.text

    # confirmed again by an official: that confirmation is the hand's, the players' is not
    second = factories.UserFactory(username="second-director", is_staff=True)
    again = hand_confirm(hand=corrected, recorded_by=second).hand
    assert confirmers(hands=[again]) == {again.pk: "second-director"}
    log = hand_log(
        events=hand_selectors.hand_detail(hand=again, show_cards=True, audit=True)["events"]
    )
    texts = [line.text for line in log if line.kind == "confirm"]
    assert "earlier result" in texts[0] and "earlier result" not in texts[1]


# --------------------------------------------------------------------------- exclusions
def _counts() -> tuple[int, list[int]]:
    return HandExclusion.objects.count(), list(
        Tournament.objects.order_by("pk").values_list("log_version", flat=True)
    )


def test_each_refusal_of_an_exclusion_has_its_code_and_writes_nothing(director: Any) -> None:
    table = playing_table(hands_per_round=3)
    counted = _result(table)
    voided = hand_void(hand=_result(table), reason="misdeal", recorded_by=director).hand
    before = _counts()
    cases = [
        ("reason_required", dict(number=3, reason=" ", recorded_by=director)),
        ("director_required", dict(number=3, reason="why", recorded_by=None)),
        ("director_required", dict(number=3, reason="why", recorded_by=factories.UserFactory())),
        ("invalid", dict(number=0, reason="why", recorded_by=director)),
        ("invalid", dict(number="3", reason="why", recorded_by=director)),
        ("invalid", dict(number=True, reason="why", recorded_by=director)),
        ("hand_counts", dict(number=counted.number, reason="why", recorded_by=director)),
        ("hand_counts", dict(number=voided.number, reason="why", recorded_by=director)),
        ("hand_counts", dict(number=9, reason="why", recorded_by=director)),  # not owed
    ]
    for code, arguments in cases:
        _refused(code, lambda arguments=arguments: hand_exclude(table=table, **arguments))
        assert _counts() == before, code


def test_an_exclusion_is_made_once_and_its_retry_answers_it(director: Any) -> None:
    table = playing_table(hands_per_round=1)
    version = Tournament.objects.get(pk=table.round.tournament_id).log_version
    made = hand_exclude(table=table, number=1, reason="no show", recorded_by=director)
    assert (made.hand, made.state, made.recorded_by) == (None, "missing", director)
    again = hand_exclude(table=table, number=1, reason="no show", recorded_by=director)
    assert again.pk == made.pk and HandExclusion.objects.count() == 1
    assert Tournament.objects.get(pk=table.round.tournament_id).log_version == version + 1
    before = _counts()
    error = _refused(
        "hand_already_excluded",
        lambda: hand_exclude(table=table, number=1, reason="other", recorded_by=director),
    )
    assert "no show" in error.message and _counts() == before


@pytest.mark.django_db(transaction=True)
def test_concurrent_exclusions_of_one_hand_write_one(director: Any) -> None:
    table = playing_table(hands_per_round=1)
    outcomes = at_once(
        lambda: hand_exclude(table=table, number=1, reason="no show", recorded_by=director), 4
    )
    assert all(isinstance(o, HandExclusion) for o in outcomes), outcomes
    assert len({o.pk for o in outcomes}) == 1 and HandExclusion.objects.count() == 1


def test_no_exclusion_once_the_final_standings_are_published(director: Any) -> None:
    table = playing_table(hands_per_round=2)
    _result(table)
    hand_exclude(table=table, number=2, reason="no show", recorded_by=director)
    round_close(round=table.round)
    tournament = tournament_finish(tournament=table.round.tournament)
    other = Table.objects.create(round=table.round, number=2)
    before = _counts()
    _refused(
        "results_final",
        lambda: hand_exclude(table=other, number=1, reason="late", recorded_by=director),
    )
    assert _counts() == before and tournament.status == TournamentStatus.FINISHED


def test_the_database_keeps_an_exclusion_once_and_unchanged(director: Any) -> None:
    table = playing_table(hands_per_round=1)
    made = hand_exclude(table=table, number=1, reason="no show", recorded_by=director)
    with pytest.raises(IntegrityError), transaction.atomic():
        HandExclusion.objects.create(table=table, number=1, state="missing", reason="again")
    for write in (
        lambda: HandExclusion.objects.filter(pk=made.pk).update(reason="edited"),
        lambda: HandExclusion.objects.filter(pk=made.pk).delete(),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            write()
    assert HandExclusion.objects.get(pk=made.pk).reason == "no show"


def test_an_exclusion_is_not_shown_once_its_hand_counts(director: Any) -> None:
    table = playing_table(requires_confirmation=True, hands_per_round=1)
    hand = _result(table)
    hand_exclude(table=table, number=1, reason="no referee", recorded_by=director)
    tournament = table.round.tournament
    assert [e.number for e in exclusions_shown(tournament=tournament)] == [1]
    hand_confirm(hand=hand, recorded_by=director)
    assert list(exclusions_shown(tournament=tournament)) == []
    assert tournament_gate(tournament=tournament).open


def test_a_forced_close_excludes_each_hand_it_lists(director: Any) -> None:
    table = playing_table(requires_confirmation=True, hands_per_round=2)
    pending = _result(table)
    _refused(
        "director_required",
        lambda: round_close(round=table.round, force=True, reason="time", recorded_by=None),
    )
    assert not HandExclusion.objects.exists()
    round_close(round=table.round, force=True, reason="out of time", recorded_by=director)
    assert [(e.number, e.hand_id, e.state, e.reason) for e in HandExclusion.objects.all()] == [
        (1, pending.pk, "awaiting", "out of time"),
        (2, None, "missing", "out of time"),
    ]


def test_the_api_would_answer_409_to_each_refusal_of_the_gate() -> None:
    for code in ("results_incomplete", "hand_already_excluded", "hand_counts"):
        assert APPLICATION_ERROR_STATUS[code] == 409


# --------------------------------------------------------------------------- the rule
OUTCOMES = st.sampled_from(["counted", "awaiting", "voided"])


@settings(max_examples=80, deadline=None)
@given(outcomes=st.lists(OUTCOMES, max_size=8), live=st.booleans(), wanted=st.integers(1, 8))
def test_a_table_owes_the_round_s_hands_less_those_played(
    outcomes: list[str], live: bool, wanted: int
) -> None:
    """``table_lines`` (unsaved rows): one line a hand, then one missing line a hand owed;
    numbers run on without a gap; a table's unsettled lines are exactly its hands that do
    not count, its live hand and what it owes."""
    rows = [
        Hand(
            pk=i + 1,
            number=i + 1,
            status=HandStatus.VOIDED if o == "voided" else HandStatus.FINISHED,
            confirmation="pending" if o == "awaiting" else "not_required",
        )
        for i, o in enumerate(outcomes)
    ]
    if live:
        rows.append(Hand(pk=len(rows) + 1, number=len(rows) + 1, status=HandStatus.PLAYING))
    lines = table_lines(hands=rows, wanted=wanted, irregular=set())
    played = sum(1 for h in rows if h.status != HandStatus.VOIDED)
    assert [line.number for line in lines] == list(range(1, len(lines) + 1))
    assert sum(1 for line in lines if line.state == "missing") == max(0, wanted - played)
    unsettled = {line.number for line in lines if line.state in UNSETTLED}
    not_counting = {h.number for h in rows if not h.counts and h.status != HandStatus.VOIDED}
    missing = {line.number for line in lines if line.hand is None}
    assert unsettled == not_counting | missing
