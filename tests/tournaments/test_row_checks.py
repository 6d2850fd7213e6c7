"""A hand's trigger checks (``tournaments.common.row_checks``): on PostgreSQL one trigger that
an UPDATE of the snapshot and version does not fire, on SQLite CHECKs; the same refusals,
named by the check, on both."""

from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

from tests import factories
from tournaments.common.row_checks import TriggerCheck, check_sql, trigger_checks_of
from tournaments.models import Hand

pytestmark = pytest.mark.django_db


def test_every_check_of_a_hand_but_its_versions_is_a_trigger_check() -> None:
    checks = [c for c in Hand._meta.constraints if type(c).__name__.endswith("CheckConstraint")]
    names = {c.name for c in trigger_checks_of(Hand)}
    assert {c.name for c in checks} == {"hand_version_non_negative"}
    assert len(names) == 26 and all(isinstance(c, TriggerCheck) for c in trigger_checks_of(Hand))


def test_the_database_holds_every_trigger_check_once() -> None:
    names = {c.name for c in trigger_checks_of(Hand)}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT conname FROM pg_constraint"
                " WHERE conrelid = 'tournaments_hand'::regclass AND contype = 'c'"
            )
            native = {name for (name,) in cursor.fetchall()}
            cursor.execute(
                "SELECT prosrc FROM pg_proc WHERE proname = 'tournaments_hand_row_checks'"
            )
            (source,) = cursor.fetchone()
            cursor.execute(
                "SELECT a.attname FROM pg_trigger t"
                " JOIN pg_attribute a ON a.attrelid = t.tgrelid AND a.attnum = ANY (t.tgattr)"
                " WHERE t.tgname = 'tournaments_hand_z_row_checks'"
            )
            columns = {name for (name,) in cursor.fetchall()}
            # a CHECK of its own for the version, none for the trigger checks
            assert "hand_version_non_negative" in native and not native & names
            for name in names:
                assert source.count(f"CONSTRAINT = '{name}'") == 1
            # the trigger fires on the columns its checks read, never for a snapshot write
            read = {
                field.column
                for field in Hand._meta.concrete_fields
                for check in trigger_checks_of(Hand)
                if f'"tournaments_hand"."{field.column}"' in check_sql(Hand, _Editor(), check)
            }
            assert columns == read and not columns & {"state", "version"}
        else:
            cursor.execute("SELECT sql FROM sqlite_master WHERE name = 'tournaments_hand'")
            (table,) = cursor.fetchone()
            for name in (*names, "hand_version_non_negative"):
                assert table.count(f'CONSTRAINT "{name}" CHECK') == 1


class _Editor:
    """What ``check_sql`` asks of a schema editor: the connection and its quoting."""

    connection = connection

    @staticmethod
    def quote_value(value: Any) -> str:
        with connection.schema_editor() as editor:
            return str(editor.quote_value(value))


@pytest.mark.parametrize(
    ("values", "name"),
    [
        ({"bid": 4}, "hand_bid_range"),
        ({"status": "abandoned"}, "hand_status_known"),
        ({"rockets": 2}, "hand_rockets_range"),
        ({"winner": "nobody"}, "hand_winner_known"),
        ({"spring": True, "anti_spring": True}, "hand_not_spring_and_anti_spring"),
        ({"number": 0}, "hand_number_positive"),
        ({"pin_failures": -1}, "hand_pin_failures_non_negative"),
        ({"confirmation": "maybe"}, "hand_confirmation_known"),
        ({"doubled": [False, False, 1]}, "hand_doubled_flags_boolean"),
        ({"version": -1}, "hand_version_non_negative"),
    ],
    ids=lambda item: item if isinstance(item, str) else None,
)
def test_a_write_that_breaks_a_check_is_refused_in_its_name(
    values: dict[str, Any], name: str
) -> None:
    hand = factories.HandFactory()
    with pytest.raises(IntegrityError, match=name), transaction.atomic():
        Hand.objects.filter(pk=hand.pk).update(**values)
    table = factories.seated_table()
    profile = table.round.tournament.rule_profile
    with pytest.raises(IntegrityError, match=name), transaction.atomic():
        Hand.objects.create(table=table, rule_profile=profile, **{"number": 1, **values})


def test_a_snapshot_and_version_write_is_accepted_and_a_sound_insert_too() -> None:
    hand = factories.HandFactory()
    Hand.objects.filter(pk=hand.pk).update(state={"actions": []}, version=hand.version + 1)
    hand.refresh_from_db()
    assert hand.state == {"actions": []}
