"""Issue 16, point 5: the archive import trusts nothing it reads.  Every result is re-scored
by ``referee.rules.scoring`` and the settings pass the director's checks; a mismatch
refuses the whole import, naming the hand (or the setting)."""

import json
from typing import Any

import pytest

from tests import factories
from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.archive.restore import ArchiveError, tournament_import
from tournaments.hands.corrections import hand_result_correct
from tournaments.hands.write import hand_create, hand_record_result
from tournaments.models import Hand, HandEvent, HandSeatResult, Tournament

pytestmark = pytest.mark.django_db
HAND = "rounds[0].tables[0].hands"


@pytest.fixture
def archive() -> dict[str, Any]:
    """Hand 1: bid 1, landlord seat 0 won, no doubles (2 / -1 / -1); hand 2 corrected."""
    table = factories.seated_table(slug="archived")
    hand_record_result(hand=hand_create(table=table).hand, landlord=0, bid=1, winner="landlord")
    second = hand_record_result(
        hand=hand_create(table=table).hand, landlord=1, bid=2, winner="landlord"
    ).hand
    hand_result_correct(hand=second, landlord=1, bid=3, winner="defenders", reason="misheard")
    data: dict[str, Any] = json.loads(
        archive_dumps(tournament_archive(tournament=table.round.tournament))
    )
    data["tournament"]["slug"] = "restored"
    return data


def _counts() -> tuple[int, ...]:
    return (
        Tournament.objects.count(),
        Hand.objects.count(),
        HandEvent.objects.count(),
        HandSeatResult.objects.count(),
    )


def _refused(data: dict[str, Any], where: str) -> str:
    before = _counts()
    with pytest.raises(ArchiveError) as excinfo:
        tournament_import(text=archive_dumps(data))
    assert _counts() == before
    assert where in str(excinfo.value)
    return str(excinfo.value)


def _result_event(hand: dict[str, Any], kind: str = "result") -> tuple[int, dict[str, Any]]:
    return next((k, e) for k, e in enumerate(hand["events"]) if e["kind"] == kind)


def test_the_untouched_archive_imports(archive: dict[str, Any]) -> None:
    restored = tournament_import(text=archive_dumps(archive))
    assert HandSeatResult.objects.filter(tournament=restored).count() == 6


def test_scores_no_rule_gives_are_refused_naming_the_hand(archive: dict[str, Any]) -> None:
    hand = archive["rounds"][0]["tables"][0]["hands"][0]
    k, event = _result_event(hand)
    assert event["payload"]["scores"] == [2, -1, -1]
    event["payload"]["scores"] = [7, -3, -4]  # zero-sum, and the hand row agrees with the log
    hand.update(scores=[7, -3, -4])
    message = _refused(archive, f"{HAND}[0].events[{k}].payload.scores")
    assert "[7, -3, -4]" in message and "[2, -1, -1]" in message


def test_a_correction_is_re_scored_too(archive: dict[str, Any]) -> None:
    hand = archive["rounds"][0]["tables"][0]["hands"][1]
    k, event = _result_event(hand, "correction")
    assert event["payload"]["scores"] == [3, -6, 3]
    event["payload"]["scores"] = [4, -6, 2]
    hand.update(scores=[4, -6, 2])
    _refused(archive, f"{HAND}[1].events[{k}].payload.scores")


def test_a_result_the_rules_cannot_score_is_refused(archive: dict[str, Any]) -> None:
    hand = archive["rounds"][0]["tables"][0]["hands"][0]
    k, event = _result_event(hand)
    event["payload"]["result"]["bid"] = 9
    _refused(archive, f"{HAND}[0].events[{k}].payload.result")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"tiebreaks": ["tops"]}, "tournament.tiebreaks"),  # duplicate play only
        ({"tiebreaks": ["registration", "registration"]}, "tournament.tiebreaks"),
        ({"tiebreaks": "registration"}, "tournament.tiebreaks"),
        ({"rule_profile": "house-rules"}, "tournament.rule_profile"),
    ],
)
def test_settings_the_director_forms_refuse_are_refused(
    archive: dict[str, Any], change: dict[str, Any], where: str
) -> None:
    archive["tournament"].update(change)
    _refused(archive, where)
