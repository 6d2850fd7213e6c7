"""Management commands: the random tournament, CSV export, and the JSON archive round trip."""

import csv
import json
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction

from tests import factories
from tournaments.archive.export import archive_dumps, tournament_archive
from tournaments.common.seats import MAX_SEATS
from tournaments.models import (
    Entry,
    Hand,
    HandEvent,
    HandSeatResult,
    Penalty,
    Player,
    Round,
    StandingSnapshot,
    Tournament,
)
from tournaments.standings.queries import standings_compute, standings_latest
from tournaments.tournament.generate import GenerateOptions, tournament_generate
from tournaments.tournament.penalties import penalty_create
from tournaments.tournament.services import (
    tournament_finish,
    tournament_reopen,
    tournament_update,
)

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Generated:
    """A generated tournament as an archive, with what was seen of it before the export."""

    archive: str
    ranking: list[tuple[int, int, int]]
    seat_results: int
    log_version: int


def _generate(**options: Any) -> Tournament:
    tournament = tournament_generate(options=GenerateOptions(**options))
    entry = Entry.objects.filter(tournament=tournament).order_by("registration_order").first()
    assert entry is not None
    # The generated tournament is finished (its results final): a late penalty needs the
    # results reopened, with a reason, and the final standings published again.
    director = get_user_model().objects.create(username=f"gen-{tournament.pk}", is_staff=True)
    tournament_reopen(tournament=tournament, reason="late penalty", recorded_by=director)
    tournament_update(tournament=tournament, rounds_planned=2, recorded_by=director)
    penalty_create(
        entry=entry, points=-3, reason="R9.2 late", recorded_by=director, idempotency_key="late-1"
    )
    return tournament_finish(tournament=tournament, recorded_by=director)


@pytest.fixture(scope="module")
def generated_archive(django_db_setup: Any, django_db_blocker: Any) -> Generated:
    """Generated once for the module (every action goes through the write path, which is
    what takes the time) and rolled back; the tests import its archive into their empty
    database: the round trip below shows that gives the same tournament."""
    with django_db_blocker.unblock(), transaction.atomic():
        tournament = _generate(players=7, rounds=2, hands=2, format="duplicate", seed=3)
        tournament.refresh_from_db()
        generated = Generated(
            archive=archive_dumps(tournament_archive(tournament=tournament)),
            ranking=_ranking(tournament),
            seat_results=HandSeatResult.objects.filter(tournament=tournament).count(),
            log_version=tournament.log_version,
        )
        transaction.set_rollback(True)
    return generated


def _ranking(tournament: Tournament) -> list[tuple[int, int, int]]:
    return [
        (s.rank, s.total, s.registration_order) for s in standings_compute(tournament=tournament)
    ]


@pytest.fixture
def generated(
    generated_archive: Generated, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> Tournament:
    path = tmp_path / "generated.json"
    path.write_text(generated_archive.archive, encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=True):  # the standings task runs
        call_command("tournament_import", str(path), stdout=StringIO())
    return Tournament.objects.get()


def test_the_generator_plays_every_hand_and_seats_byes(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        generated = _generate(players=7, rounds=2, hands=2, format="duplicate", seed=3)
    hands = Hand.objects.filter(table__round__tournament=generated)
    assert hands.count() == 2 * 2 * 2  # 7 players: 2 tables and one bye per round
    assert set(hands.values_list("status", flat=True)) <= {"finished", "passed_out"}
    assert all(hand.events.exists() for hand in hands)  # played action by action
    assert Round.objects.filter(tournament=generated).count() == 2
    # Byes: never the same player twice while avoidable.
    played = {
        e.pk: e.seat_results.values("round_id").distinct().count()
        for e in Entry.objects.filter(tournament=generated)
    }
    assert sorted(played.values()) == [1, 1] + [2] * 5
    # Every hand sits on a board shared by all tables of its round.
    boards = hands.values("table__round", "number").distinct()
    for row in boards:
        same = hands.filter(table__round=row["table__round"], number=row["number"])
        assert same.values("board").distinct().count() == 1
    assert standings_latest(tournament=generated).count() == 7


def test_the_generator_is_deterministic_from_its_seed(
    django_capture_on_commit_callbacks: Any,
) -> None:
    def scores(slug: str) -> list[tuple[Any, ...]]:
        with django_capture_on_commit_callbacks(execute=True):
            t = tournament_generate(
                options=GenerateOptions(players=3, rounds=2, hands=1, seed=11, slug=slug)
            )
        return list(
            Hand.objects.filter(table__round__tournament=t)
            .order_by("pk")
            .values_list("status", "scores")
        )

    assert scores("one") == scores("two")


def test_csv_export_has_a_bom_and_chinese_names(generated: Tournament, tmp_path: Path) -> None:
    call_command(
        "tournament_export_csv", generated.slug, directory=str(tmp_path), stdout=StringIO()
    )
    raw = (tmp_path / f"{generated.slug}-standings.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert len(rows) == 7
    latest = list(standings_latest(tournament=generated))
    assert [int(r["rank"]) for r in rows] == [s.rank for s in latest]
    assert rows[0]["chinese_name"] == latest[0].entry.player.chinese_name
    assert any("\u4e00" <= ch <= "\u9fff" for ch in rows[0]["chinese_name"])
    hands = (tmp_path / f"{generated.slug}-hands.csv").read_text(encoding="utf-8-sig")
    assert len(hands.splitlines()) == 1 + 8


def export(slug: str) -> str:
    out = StringIO()
    call_command("tournament_export", slug, stdout=out)
    return out.getvalue()


def test_export_import_export_is_byte_identical(
    generated_archive: Generated, generated: Tournament
) -> None:
    """``generated`` is the archive imported (by the command) into an empty database."""
    assert export(generated.slug) == generated_archive.archive
    # The per-seat rows and the standings follow from the restored hands.
    assert HandSeatResult.objects.filter(tournament=generated).count() == (
        generated_archive.seat_results
    )
    assert _ranking(generated) == generated_archive.ranking
    assert [(s.rank, s.total) for s in standings_latest(tournament=generated)] == [
        (rank, total) for rank, total, _ in generated_archive.ranking
    ]
    assert generated.log_version == generated_archive.log_version
    assert generated.rounds_planned == 2  # the plan, archived since version 4


def test_an_archive_imports_again_into_its_own_instance_as_a_copy(
    generated_archive: Generated, generated: Tournament, tmp_path: Path
) -> None:
    """Into the instance that holds it already: refused under its own slug (naming the way
    out, nothing written), imported as a copy with --slug: the same tournament, its
    penalties' idempotency keys included (they are per tournament and user)."""
    path = tmp_path / "again.json"
    path.write_text(generated_archive.archive, encoding="utf-8")
    counts = (Tournament.objects.count(), Penalty.objects.count(), Hand.objects.count())
    with pytest.raises(CommandError, match=r"exists already.*--slug"):
        call_command("tournament_import", str(path), stdout=StringIO())
    assert (Tournament.objects.count(), Penalty.objects.count(), Hand.objects.count()) == counts

    out = StringIO()
    call_command("tournament_import", str(path), "--slug", "copy", stdout=out)
    assert "imported copy" in out.getvalue()
    copy = Tournament.objects.get(slug="copy")
    expected = json.loads(generated_archive.archive)
    expected["tournament"]["slug"] = "copy"
    assert json.loads(export("copy")) == expected
    assert export(generated.slug) == generated_archive.archive  # the original untouched
    keys = Penalty.objects.filter(idempotency_key="late-1")
    assert {p.tournament_id for p in keys} == {generated.pk, copy.pk}
    assert len({p.recorded_by_id for p in keys}) == 1  # the same director, twice

    # A retry of the original penalty still finds the original, not the copy's.
    original = keys.get(tournament=generated)
    again = penalty_create(
        entry=original.entry,
        points=original.points,
        reason=original.reason,
        recorded_by=original.recorded_by,
        idempotency_key="late-1",
    )
    assert again.pk == original.pk


def test_a_version_2_archive_with_boards_imports_as_the_same_tournament(
    generated_archive: Generated, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    """A duplicate tournament's archive from before the per-seat arrays (its boards' cards in
    ``hand_0..2``, its hands' ``doubled_<p>`` and ``score_<p>``) imports and exports as the
    current archive less what version 4 added (no plan), its per-seat rows and standings
    unchanged."""
    old = factories.archive_as_version_2(json.loads(generated_archive.archive))
    assert old["boards"] and "seat_cards" not in old["boards"][0]
    path = tmp_path / "old.json"
    path.write_text(archive_dumps(old), encoding="utf-8")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("tournament_import", str(path), stdout=StringIO())
    restored = Tournament.objects.get()
    current = factories.archive_without_version_4(json.loads(generated_archive.archive))
    assert export(restored.slug) == archive_dumps(current)
    assert HandSeatResult.objects.filter(tournament=restored).count() == (
        generated_archive.seat_results
    )
    assert _ranking(restored) == generated_archive.ranking


def _archive_with(generated: Generated, change: Any) -> str:
    data = json.loads(generated.archive)
    change(data)
    return archive_dumps(data)


def _first_hand(data: dict[str, Any]) -> dict[str, Any]:
    return data["rounds"][0]["tables"][0]["hands"][0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: _first_hand(d)["scores"].__setitem__(0, 99), "rounds[0].tables[0].hands[0]"),
        (lambda d: _first_hand(d)["scores"].pop(), "rounds[0].tables[0].hands[0].scores"),
        (lambda d: _first_hand(d)["doubled"].pop(), "rounds[0].tables[0].hands[0].doubled"),
        (lambda d: d["boards"][0]["seat_cards"].pop(), "boards[0].seat_cards"),
        (lambda d: _first_hand(d).update(status="bidding"), "rounds[0].tables[0].hands[0].status"),
        (lambda d: _first_hand(d)["events"].pop(), "rounds[0].tables[0].hands[0]"),
        (
            lambda d: d["rounds"][1]["tables"][0]["seats"][0].update(entry=77),
            "rounds[1].tables[0].seats[0].entry: no entry 77",
        ),
        (lambda d: d["entries"][3].update(withdrawn="no"), "entries[3].withdrawn"),
        (lambda d: d["boards"][0].update(first_bidder=MAX_SEATS), "boards[0].first_bidder"),
        (lambda d: d["tournament"].update(tiebreaks=["luck"]), "tournament.tiebreaks"),
        (lambda d: d["penalties"][0].pop("points"), "penalties[0].points: missing"),
        (lambda d: d.update(version=9), "version"),
    ],
)
def test_a_bad_archive_names_the_field_and_imports_nothing(
    generated_archive: Generated, tmp_path: Path, change: Any, message: str
) -> None:
    counts = (Tournament.objects.count(), Player.objects.count(), HandEvent.objects.count())
    path = tmp_path / "bad.json"
    path.write_text(_archive_with(generated_archive, change), encoding="utf-8")
    with pytest.raises(CommandError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call_command("tournament_import", str(path), stdout=StringIO())
    assert (Tournament.objects.count(), Player.objects.count(), HandEvent.objects.count()) == counts


def test_unreadable_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n "format": "doudizhu-tournament-archive",\n "version": 1,,\n}', "utf-8")
    with pytest.raises(CommandError, match="line 3"):
        call_command("tournament_import", str(path), stdout=StringIO())
    assert Tournament.objects.count() == 0


def test_recompute_command_stores_the_current_version(generated: Tournament) -> None:
    StandingSnapshot.objects.filter(tournament=generated).delete()
    call_command("standings_recompute", generated.slug, stdout=StringIO())
    generated.refresh_from_db()
    assert [s.entry_id for s in standings_latest(tournament=generated)] == [
        s.entry_id
        for s in sorted(
            standings_compute(tournament=generated), key=lambda s: (s.rank, s.registration_order)
        )
    ]
    with pytest.raises(CommandError, match="no tournament nope"):
        call_command("standings_recompute", "nope", stdout=StringIO())
