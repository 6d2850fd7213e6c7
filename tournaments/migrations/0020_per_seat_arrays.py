"""Issue 20, a seat count from the profile: a hand's and a board's per-seat columns become
arrays of the table's seat count.

* ``Hand.doubled_0..2`` → ``Hand.doubled`` (one boolean a seat), ``Hand.score_0..2`` →
  ``Hand.scores`` (one integer a seat, or NULL), ``Hand.seats`` (the rule profile's seat
  count); ``Board.hand_0..2`` → ``Board.seat_cards`` (one string a seat). Every row is copied,
  so no hand loses its result; the hands' log snapshots are cleared (their next write folds
  the log again).
* The checks follow: the seat count is the profile's, the arrays have one element a seat,
  the scores sum to zero; seat positions range over the largest table (0–3), and the
  landlord and the first bidder sit at the hand's table.
* The triggers of 0010 (a closed hand's result changes only with an event) and 0011 (a
  per-seat result row says what its hand says) read the arrays.
"""

import importlib

from django.db import migrations, models
from django.db.models import F, Q
from django.db.models.lookups import Exact, In, IsNull, LessThan

import tournaments.common.seats
from tournaments.common.json_arrays import JsonArrayLength, json_int_element
from tournaments.migrations._sqlite_triggers import keeping_sqlite_triggers

_freeze = importlib.import_module("tournaments.migrations.0010_result_freeze")
_audit = importlib.import_module("tournaments.migrations.0011_audit_trail")

SEAT_COUNTS = {3: ["comp2016", "classic"], 4: []}
MAX_SEAT = 3

RESULT_FIELDS = (
    "status", "landlord_seat", "bid", "winner", "seats", "doubled", "redoubled", "bombs",
    "rockets", "spring", "anti_spring", "scores", "confirmation",
)  # fmt: skip


def _result_changed(distinct: str) -> str:
    changed = " OR ".join(f"NEW.{f} {distinct} OLD.{f}" for f in RESULT_FIELDS)
    return f"(OLD.status IN {_freeze.CLOSED} OR NEW.status IN {_freeze.CLOSED}) AND ({changed})"


def _seat_score(row: str, vendor: str) -> str:
    if vendor == "postgresql":
        return f"(h.scores ->> {row}.position)::integer"
    return f"json_extract(h.scores, '$[' || {row}.position || ']')"


def _seat_result_matches(row: str, same: str, vendor: str) -> str:
    """0011's condition, the score read from the hand's ``scores`` array."""
    return f"""
    EXISTS (
        SELECT 1 FROM tournaments_hand h
          JOIN tournaments_table tb ON tb.id = h.table_id
          JOIN tournaments_round r ON r.id = tb.round_id
          JOIN tournaments_seat s ON s.table_id = h.table_id AND s.position = {row}.position
         WHERE h.id = {row}.hand_id
           AND {_audit.COUNTED}
           AND {row}.tournament_id = r.tournament_id
           AND {row}.round_id = tb.round_id
           AND {row}.table_id = h.table_id
           AND {row}.board_id {same} h.board_id
           AND {row}.hand_number = h.number
           AND {row}.entry_id = s.entry_id
           AND {row}.is_landlord = COALESCE(h.landlord_seat = {row}.position, false)
           AND {row}.passed_out = (h.status = 'passed_out')
           AND {row}.won = (CASE WHEN h.winner = '' OR h.landlord_seat IS NULL THEN false
                                 ELSE (({row}.position = h.landlord_seat) = (h.winner = 'landlord'))
                            END)
           AND {row}.score = (CASE WHEN h.status = 'passed_out' THEN 0
                                   ELSE COALESCE({_seat_score(row, vendor)}, 0)
                              END))
    """


#: name -> (table, event, PostgreSQL condition, SQLite condition, message)
TRIGGERS = {
    "tournaments_hand_result_frozen": (
        "tournaments_hand",
        "BEFORE UPDATE",
        f"{_result_changed('IS DISTINCT FROM')} AND NOT {_freeze._EVENT_MOVED}",
        f"{_result_changed('IS NOT')} AND NOT {_freeze._EVENT_MOVED}",
        _freeze.RESULT_FROZEN,
    ),
    "tournaments_seat_result_matches_hand": (
        "tournaments_handseatresult",
        "BEFORE INSERT",
        f"NOT {_seat_result_matches('NEW', 'IS NOT DISTINCT FROM', 'postgresql')}",
        f"NOT {_seat_result_matches('NEW', 'IS', 'sqlite')}",
        _audit.SEAT_RESULT_INSERT,
    ),
    "tournaments_seat_result_delete_stale": (
        "tournaments_handseatresult",
        "BEFORE DELETE",
        _seat_result_matches("OLD", "IS NOT DISTINCT FROM", "postgresql"),
        _seat_result_matches("OLD", "IS", "sqlite"),
        _audit.SEAT_RESULT_DELETE,
    ),
}


#: The same triggers as 0010 and 0011 made them (reading the three-seat columns): what a
#: reversal puts back once the columns hold the results again.
BEFORE = {name: {**_freeze.TRIGGERS, **_audit.TRIGGERS}[name] for name in TRIGGERS}
#: The same triggers refusing nothing: while a reversal copies the results back into the
#: columns (the triggers of either schema would take that for a closed hand's result changed).
IDLE = {
    name: (table, event, "false", "0", message)
    for name, (table, event, *_, message) in TRIGGERS.items()
}


def _triggers(triggers):
    """Install ``triggers``. PostgreSQL: the functions replaced (the triggers stay); SQLite:
    the triggers dropped and created again."""

    def install(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        for name, (table, event, pg_when, sqlite_when, message) in triggers.items():
            if vendor == "postgresql":
                schema_editor.execute(_audit._pg_function(name, pg_when, message), params=None)
            elif vendor == "sqlite":
                schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}", params=None)
                schema_editor.execute(
                    _freeze._sqlite_trigger(name, f"{event} ON {table}", sqlite_when, message),
                    params=None,
                )

    return install


def _copy_to_arrays(apps, schema_editor):
    Hand = apps.get_model("tournaments", "Hand")
    Board = apps.get_model("tournaments", "Board")
    db = schema_editor.connection.alias
    for hand in Hand.objects.using(db).only(
        "pk", "doubled_0", "doubled_1", "doubled_2", "score_0", "score_1", "score_2"
    ):
        scores = [hand.score_0, hand.score_1, hand.score_2]
        Hand.objects.using(db).filter(pk=hand.pk).update(
            seats=len(scores),
            doubled=[hand.doubled_0, hand.doubled_1, hand.doubled_2],
            scores=None if scores[0] is None else scores,
            state=None,
        )
    for board in Board.objects.using(db).only("pk", "hand_0", "hand_1", "hand_2"):
        Board.objects.using(db).filter(pk=board.pk).update(
            seat_cards=[board.hand_0, board.hand_1, board.hand_2]
        )


def _copy_to_columns(apps, schema_editor):
    Hand = apps.get_model("tournaments", "Hand")
    Board = apps.get_model("tournaments", "Board")
    db = schema_editor.connection.alias
    for hand in Hand.objects.using(db).only("pk", "doubled", "scores"):
        scores = hand.scores or [None, None, None]
        Hand.objects.using(db).filter(pk=hand.pk).update(
            doubled_0=hand.doubled[0],
            doubled_1=hand.doubled[1],
            doubled_2=hand.doubled[2],
            score_0=scores[0],
            score_1=scores[1],
            score_2=scores[2],
            state=None,
        )
    for board in Board.objects.using(db).only("pk", "seat_cards"):
        Board.objects.using(db).filter(pk=board.pk).update(
            hand_0=board.seat_cards[0], hand_1=board.seat_cards[1], hand_2=board.seat_cards[2]
        )


def _zero_sum() -> Q:
    out = Q()
    for n in SEAT_COUNTS:
        elements = [json_int_element("scores", i) for i in range(n)]
        total = sum(elements[1:], start=elements[0])
        out |= Q(seats=n) & Q(*(IsNull(e, False) for e in elements)) & Q(Exact(total, 0))
    return out


def _seat_range(model: str, field: str, name: str) -> list:
    return [
        migrations.RemoveConstraint(model_name=model, name=name),
        migrations.AddConstraint(
            model_name=model,
            constraint=models.CheckConstraint(
                condition=Q(**{f"{field}__range": (0, MAX_SEAT)}), name=name
            ),
        ),
    ]


_OLD_HAND_CONSTRAINTS = (
    "hand_finished_is_complete_and_zero_sum",
    "hand_scores_zero_sum_when_set",
    "hand_scores_only_when_finished_or_passed_out",
)

_NEW_HAND_CONSTRAINTS = (
    models.CheckConstraint(
        condition=~Q(status="finished")
        | Q(landlord_seat__isnull=False, bid__isnull=False, scores__isnull=False) & ~Q(winner=""),
        name="hand_finished_is_complete",
    ),
    models.CheckConstraint(
        condition=Q(status__in=["finished", "passed_out"]) | Q(scores__isnull=True),
        name="hand_scores_only_when_finished_or_passed_out",
    ),
    models.CheckConstraint(
        condition=Q(
            *(Q(seats=n, rule_profile__in=keys) for n, keys in SEAT_COUNTS.items() if keys),
            _connector=Q.OR,
        ),
        name="hand_seats_of_profile",
    ),
    models.CheckConstraint(condition=Q(landlord_seat__lt=F("seats")), name="hand_landlord_at_table"),
    models.CheckConstraint(
        condition=Q(first_bidder__lt=F("seats")), name="hand_first_bidder_at_table"
    ),
    models.CheckConstraint(
        condition=Q(Exact(JsonArrayLength("doubled"), F("seats"))), name="hand_doubled_one_a_seat"
    ),
    models.CheckConstraint(
        condition=Q(scores__isnull=True)
        | Q(Exact(JsonArrayLength("scores"), F("seats"))) & _zero_sum(),
        name="hand_scores_one_a_seat_zero_sum",
    ),
)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0019_hand_state")]

    operations = [
        # reversed, last: the triggers of 0010 and 0011 again, the columns filled
        migrations.RunPython(migrations.RunPython.noop, _triggers(BEFORE)),
        *keeping_sqlite_triggers(
            [
                # the board's columns may be NULL while they go: reversed, they come back
                # empty and are filled from the arrays before they are NOT NULL again
                *(
                    migrations.AlterField(
                        model_name="board",
                        name=f"hand_{seat}",
                        field=models.CharField(
                            max_length=200, null=True, verbose_name=f"hand of seat {seat}"
                        ),
                    )
                    for seat in range(3)
                ),
                migrations.AddField(
                    model_name="hand",
                    name="seats",
                    field=models.SmallIntegerField(
                        default=3,
                        help_text="Seats at the table: the rule profile's.",
                        verbose_name="seats",
                    ),
                ),
                migrations.AddField(
                    model_name="hand",
                    name="doubled",
                    field=models.JSONField(
                        default=tournaments.common.seats.no_doubles, verbose_name="doubled, by seat"
                    ),
                ),
                migrations.AddField(
                    model_name="hand",
                    name="scores",
                    field=models.JSONField(blank=True, null=True, verbose_name="scores, by seat"),
                ),
                migrations.AddField(
                    model_name="board",
                    name="seat_cards",
                    field=models.JSONField(null=True, verbose_name="cards, by seat"),
                ),
                *(
                    migrations.RemoveConstraint(model_name="hand", name=name)
                    for name in _OLD_HAND_CONSTRAINTS
                ),
                migrations.RunPython(_copy_to_arrays, _copy_to_columns),
                *(
                    migrations.RemoveField(model_name="hand", name=name)
                    for name in (
                        "doubled_0", "doubled_1", "doubled_2", "score_0", "score_1", "score_2",
                    )
                ),  # fmt: skip
                *(
                    migrations.RemoveField(model_name="board", name=name)
                    for name in ("hand_0", "hand_1", "hand_2")
                ),
                migrations.AlterField(
                    model_name="board",
                    name="seat_cards",
                    field=models.JSONField(verbose_name="cards, by seat"),
                ),
                *(
                    migrations.AddConstraint(model_name="hand", constraint=constraint)
                    for constraint in _NEW_HAND_CONSTRAINTS
                ),
                migrations.AddConstraint(
                    model_name="board",
                    constraint=models.CheckConstraint(
                        condition=Q(In(JsonArrayLength("seat_cards"), [3, 4])),
                        name="board_hands_one_a_seat",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="board",
                    constraint=models.CheckConstraint(
                        condition=Q(LessThan(F("first_bidder"), JsonArrayLength("seat_cards"))),
                        name="board_first_bidder_at_table",
                    ),
                ),
                *_seat_range("hand", "landlord_seat", "hand_landlord_seat_range"),
                *_seat_range("hand", "first_bidder", "hand_first_bidder_range"),
                *_seat_range("handevent", "actor_seat", "hand_event_actor_seat_range"),
                *_seat_range("handseatresult", "position", "seat_result_position_range"),
                *_seat_range("table", "first_bidder", "table_first_bidder_range"),
                *_seat_range("board", "first_bidder", "board_first_bidder_range"),
                *_seat_range("seat", "position", "seat_position_range"),
                migrations.AlterField(
                    model_name="seat",
                    name="position",
                    field=models.SmallIntegerField(
                        choices=[(0, "Seat 0"), (1, "Seat 1"), (2, "Seat 2"), (3, "Seat 3")],
                        verbose_name="position",
                    ),
                ),
            ]
        ),
        migrations.RunPython(_triggers(TRIGGERS), _triggers(IDLE)),
    ]
