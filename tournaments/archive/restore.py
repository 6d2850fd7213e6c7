"""Restoring a tournament from its JSON archive (``tournaments.archive.export``).

A restore is not a referee action: it writes the archived rows directly, in one
transaction, after checking everything — the shape of every field, and every hand's log
replayed by the one projection of the log (``replay.hand_replay``) and compared with the
hand's stored summary (``SUMMARY_FIELDS``).  Any error names the
line (unreadable JSON) or the field (``rounds[0].tables[2].hands[1].scores``) and
imports nothing. Older archives are read too: ``_from_version_2`` turns version 2's
three-seat columns into version 3's arrays, ``_from_version_3`` gives a version-3 archive
version 4's plan (none: ``rounds_planned`` 0) and exclusions (none) — what it had then.
An exclusion is re-checked by ``hands.exclusions.exclusion_restore`` (the checks of
``hand_exclude`` that do not depend on the moment it was made).
"""

import json
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.rules.errors import RulesError
from referee.rules.games import deal_json_checked
from referee.rules.profiles import get_profile
from tournaments.archive.export import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    BOARD_FIELDS,
    BOARD_PAR_FIELDS,
    EVENT_FIELDS,
    EXCLUSION_FIELDS,
    HAND_FIELDS,
    HAND_PAR_FIELDS,
    PENALTY_FIELDS,
    PLAYER_FIELDS,
    ROUND_FIELDS,
    ROUND_LOG_FIELDS,
    TABLE_FIELDS,
    TOURNAMENT_FIELDS,
    payload_ids_mapped,
)
from tournaments.common.errors import ApplicationError
from tournaments.common.profiles import rules_of
from tournaments.common.roles import user_is_privileged
from tournaments.common.seats import SEAT_COUNTS, seat_count
from tournaments.common.usernames import user_by_username
from tournaments.hands.exclusions import exclusion_restore
from tournaments.hands.replay import (
    SUMMARY_FIELDS,
    HandReplay,
    hand_deal_json,
    hand_replay,
    hand_summary_of_row,
)
from tournaments.hands.results import hand_result_rows
from tournaments.hands.write import passed_out_possible, result_of_json, result_payload
from tournaments.models import (
    AnalysisStatus,
    Board,
    BoardPar,
    Entry,
    Hand,
    HandEvent,
    HandEventKind,
    HandExclusion,
    HandPar,
    HandSeatResult,
    Penalty,
    Player,
    RefereeAssignment,
    Round,
    RoundBoard,
    RoundBye,
    RoundLog,
    Seat,
    Table,
    Tournament,
)
from tournaments.tournament.services import tournament_settings_check

#: What a log that cannot be replayed raises inside ``hand_replay`` (a missing payload key,
#: an undo with nothing to undo, an action the rules refuse).
_REPLAY_ERRORS = (RuntimeError, RulesError, KeyError, IndexError, TypeError, ValueError)


#: The archive versions this server reads: its own, version 3 (no plan, no exclusions) and
#: version 2 (three-seat columns).
READ_VERSIONS = (2, 3, ARCHIVE_VERSION)
#: Version 2 knew three-seat tables only.
_V2_SEATS = 3
#: Version 2's per-seat columns (``hand_<position>`` …), and the array each became in version 3.
_V2_ARRAYS = {
    "boards": {"seat_cards": tuple(f"hand_{p}" for p in range(_V2_SEATS))},  # no wild rank
    "hands": {
        "doubled": tuple(f"doubled_{p}" for p in range(_V2_SEATS)),
        "scores": tuple(f"score_{p}" for p in range(_V2_SEATS)),
    },
}


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """A version-2 archive as version 3 says it: each three-seat column group an array (the
    scores null when the three are), a hand's ``seats`` 3. A column missing is named."""

    def arrays(obj: Any, kind: str, where: str) -> Any:
        if not isinstance(obj, dict):
            return obj
        out = dict(obj)
        for array, columns in _V2_ARRAYS[kind].items():
            for name in columns:
                if name not in out:
                    raise ArchiveError(f"{where}.{name}", "missing")
            values = [out.pop(name) for name in columns]
            out[array] = None if array == "scores" and values == [None] * len(columns) else values
        if kind == "hands":
            out["seats"] = _V2_SEATS
        else:
            out["wild_rank"] = None
        return out

    upgraded = dict(data)
    boards = data.get("boards")
    if isinstance(boards, list):
        upgraded["boards"] = [arrays(b, "boards", f"boards[{i}]") for i, b in enumerate(boards)]
    rounds = []
    for i, r in enumerate(data.get("rounds") or []):
        if not isinstance(r, dict) or not isinstance(r.get("tables"), list):
            rounds.append(r)
            continue
        tables = []
        for j, tb in enumerate(r["tables"]):
            if isinstance(tb, dict) and isinstance(tb.get("hands"), list):
                where = f"rounds[{i}].tables[{j}]"
                tb = {
                    **tb,
                    "hands": [
                        arrays(h, "hands", f"{where}.hands[{k}]") for k, h in enumerate(tb["hands"])
                    ],
                }
            tables.append(tb)
        rounds.append({**r, "tables": tables})
    if isinstance(data.get("rounds"), list):
        upgraded["rounds"] = rounds
    return upgraded


def _from_version_3(data: dict[str, Any]) -> dict[str, Any]:
    """A version-3 archive as version 4 says it: no rounds planned (``rounds_planned`` 0,
    the default of migration 0028) and no table with an exclusion (there were none)."""
    upgraded = dict(data)
    if isinstance(data.get("tournament"), dict):
        upgraded["tournament"] = {"rounds_planned": 0, **data["tournament"]}
    if isinstance(data.get("rounds"), list):
        upgraded["rounds"] = [
            {
                **r,
                "tables": [
                    {"exclusions": [], **tb} if isinstance(tb, dict) else tb for tb in r["tables"]
                ],
            }
            if isinstance(r, dict) and isinstance(r.get("tables"), list)
            else r
            for r in data["rounds"]
        ]
    return upgraded


def _per_seat(fields: dict[str, Any], name: str, where: str, kind: type, seats: int) -> None:
    """``fields[name]`` is a list of ``seats`` values of type ``kind`` (no bool for int)."""
    value = fields[name]
    if not isinstance(value, list) or not value:
        raise ArchiveError(f"{where}.{name}", f"expected a list, got {value!r}")
    if len(value) != seats:
        raise ArchiveError(f"{where}.{name}", f"expected {seats} values, one a seat")
    for item in value:
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            raise ArchiveError(f"{where}.{name}", f"expected {_kind_name(kind)}s, got {item!r}")
    if kind is str and len(value) not in SEAT_COUNTS:
        raise ArchiveError(f"{where}.{name}", f"expected one of {list(SEAT_COUNTS)} values")


class ArchiveError(ApplicationError):
    def __init__(self, where: str, message: str):
        super().__init__("archive_invalid", f"{where}: {message}", extra={"field": where})


def _get(
    obj: Any, key: str, where: str, kind: type | tuple[type, ...], *, null: bool = False
) -> Any:
    if not isinstance(obj, dict):
        raise ArchiveError(where, "expected an object")
    if key not in obj:
        raise ArchiveError(f"{where}.{key}", "missing")
    value = obj[key]
    if value is None and null:
        return None
    bad_bool = isinstance(value, bool) and kind in (int, (int,))
    if not isinstance(value, kind) or bad_bool:
        raise ArchiveError(f"{where}.{key}", f"expected {_kind_name(kind)}, got {value!r}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {
        int: "an integer",
        str: "text",
        bool: "true or false",
        list: "a list",
        dict: "an object",
    }
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _when(obj: dict[str, Any], key: str, where: str, *, null: bool = False) -> datetime | None:
    text = _get(obj, key, where, str, null=null)
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ArchiveError(f"{where}.{key}", f"not an ISO 8601 time: {text!r}") from exc
    if value.tzinfo is None:
        raise ArchiveError(f"{where}.{key}", "a time needs its UTC offset")
    return value


def _when_required(obj: dict[str, Any], key: str, where: str) -> datetime:
    value = _when(obj, key, where)
    assert value is not None  # _when refuses null unless asked
    return value


def _list(obj: Any, key: str, where: str) -> list[Any]:
    return _get(obj, key, where, list)


def _fields(model: type, obj: dict[str, Any], names: tuple[str, ...], where: str) -> dict[str, Any]:
    """The plain fields ``names`` of ``obj``, typed as the model's fields."""
    out: dict[str, Any] = {}
    for name in names:
        field = model._meta.get_field(name)  # type: ignore[attr-defined]
        if name not in obj:
            raise ArchiveError(f"{where}.{name}", "missing")
        value = obj[name]
        if value is None:
            if not field.null:
                raise ArchiveError(f"{where}.{name}", "may not be null")
        elif field.get_internal_type() in ("BooleanField",):
            _get(obj, name, where, bool)
        elif "Integer" in field.get_internal_type():
            _get(obj, name, where, int)
        elif field.get_internal_type() in ("CharField", "TextField", "SlugField"):
            _get(obj, name, where, str)
        out[name] = value
    return out


def _validate(instance: Any, where: str, exclude: list[str]) -> None:
    try:
        instance.full_clean(exclude=exclude, validate_unique=False)
    except ValidationError as exc:
        fields = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        name, messages = next(iter(fields.items()))
        if name in ("", "__all__"):
            name = _constraint_field(instance, " ".join(messages))
        path = f"{where}.{name}" if name else where
        raise ArchiveError(path, " ".join(messages)) from exc


def _constraint_field(instance: Any, message: str) -> str:
    """The first field a violated constraint (named in ``message``) is about, if any."""
    for constraint in instance._meta.constraints:
        if constraint.name not in message:
            continue
        if getattr(constraint, "fields", None):
            return str(constraint.fields[0])
        condition = getattr(constraint, "condition", None)
        stack = [condition] if condition is not None else []
        while stack:
            node = stack.pop(0)
            for child in getattr(node, "children", ()):
                if isinstance(child, tuple):
                    return str(child[0]).split("__")[0]
                stack.append(child)
    return ""


def result_event_rescore(hand: Hand, event: HandEvent, where: str) -> None:
    """A result (or correction) event's scores are what ``referee.rules.scoring`` gives its
    result under the hand's rule profile, as on the write path (``hands.result_payload``)."""
    payload = event.payload
    if payload.get("passed_out") is True:  # a correction to 流局: 0 for every seat
        if not passed_out_possible(hand.rule_profile):
            raise ArchiveError(f"{where}.payload.passed_out", "these rules pass out no deal")
        if payload.get("scores") != [0] * hand.seats:
            raise ArchiveError(f"{where}.payload.scores", "a passed-out hand scores 0 a seat")
        return
    r = payload.get("result")
    if not isinstance(r, dict):
        raise ArchiveError(f"{where}.payload.result", "expected an object")
    try:
        profile = rules_of(hand)
        expected = result_payload(result_of_json(r, profile), profile)
    except (ApplicationError, RulesError) as exc:
        raise ArchiveError(f"{where}.payload.result", f"no rule scores it: {exc}") from exc
    if payload.get("scores") != expected["scores"]:
        raise ArchiveError(
            f"{where}.payload.scores",
            f"{payload.get('scores')!r} but the rules give {expected['scores']!r}",
        )


def hand_log_check(hand: Hand, events: list[HandEvent], where: str) -> HandReplay:
    """The hand's stored summary is what replaying its log gives (``replay.hand_replay``,
    the projection the write path uses), field by field; every result or correction event
    is re-scored by ``referee.rules.scoring``. Answers the replay (its snapshot is the
    imported row's ``state``: the archive does not carry it, the log does)."""
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        raise ArchiveError(f"{where}.events", "sequence numbers are not 1, 2, 3, …")
    for k, event in enumerate(events):
        if event.kind in (HandEventKind.RESULT, HandEventKind.CORRECTION):
            result_event_rescore(hand, event, f"{where}.events[{k}]")
    if hand.version != len(events):
        raise ArchiveError(f"{where}.version", f"{hand.version} but the log has {len(events)}")
    try:
        replay = hand_replay(hand=hand, events=events)
    except _REPLAY_ERRORS as exc:
        raise ArchiveError(f"{where}.events", f"the log does not replay: {exc}") from exc
    replayed = replay.summary
    stored = hand_summary_of_row(hand=hand)
    for name in SUMMARY_FIELDS:
        if stored[name] != replayed[name]:
            raise ArchiveError(
                f"{where}.{name}", f"{stored[name]!r} but the log gives {replayed[name]!r}"
            )
    return replay


def settings_check(fields: dict[str, Any]) -> None:
    """The archived settings pass the checks ``tournament_create`` / ``tournament_update``
    apply to the director's forms (rule profile, format, tie-break chain)."""
    try:
        tournament_settings_check(
            rule_profile=fields.get("rule_profile"),
            format=fields.get("format"),
            tiebreaks=fields.get("tiebreaks"),
            stake_cap=fields.get("stake_cap"),
        )
    except ApplicationError as exc:
        field = "tiebreaks" if exc.code == "invalid_tiebreaks" else "rule_profile"
        raise ArchiveError(f"tournament.{field}", exc.message) from exc


class _Restore:
    """One restore: builds and saves the rows, checking as it goes (inside a transaction)."""

    def __init__(self, *, slug: str | None = None) -> None:
        self.slug = slug
        self.users: dict[str, Any] = {}
        self.entries_by_order: dict[int, Entry] = {}
        self.hands: dict[tuple[int, int, int], Hand] = {}
        #: board id → its restored par (``board_par``)
        self.board_pars: dict[int, BoardPar] = {}

    def board_par(self, board: Board, obj: Any, where: str) -> None:
        """A board's archived par (optional: null or absent, none), stored as done."""
        data = _get(obj, "par", where, dict, null=True) if "par" in obj else None
        if data is None:
            return
        row = BoardPar(
            board=board,
            status=AnalysisStatus.DONE,
            **_fields(BoardPar, data, BOARD_PAR_FIELDS, f"{where}.par"),
        )
        _validate(row, f"{where}.par", ["board", "requested_by"])
        row.save()
        self.board_pars[board.pk] = row

    def hand_par(self, hand: Hand, obj: Any, where: str) -> None:
        """Where an archived hand left par (optional), under its board's par."""
        data = _get(obj, "par", where, dict, null=True) if "par" in obj else None
        if data is None:
            return
        board_par = self.board_pars.get(hand.board_id or 0)
        if board_par is None:
            raise ArchiveError(f"{where}.par", "a hand's par needs its board's par")
        row = HandPar(
            hand=hand,
            board_par=board_par,
            **_fields(HandPar, data, HAND_PAR_FIELDS, f"{where}.par"),
        )
        _validate(row, f"{where}.par", ["hand", "board_par"])
        row.save()

    def payload_ids(self, payload: dict[str, Any], where: str) -> Any:
        """An archived payload's registration orders and hand keys as the new ids."""

        def entry(order: Any) -> int:
            if not isinstance(order, int) or order not in self.entries_by_order:
                raise ArchiveError(where, f"no entry {order!r}")
            return self.entries_by_order[order].pk

        def hand(key: Any) -> int:
            ref = (
                tuple(key.get(k) for k in ("round", "table", "hand"))
                if isinstance(key, dict)
                else None
            )
            if ref not in self.hands:
                raise ArchiveError(where, f"no hand {key!r}")
            return self.hands[ref].pk

        return payload_ids_mapped(payload, entry=entry, hand=hand)

    def user(self, name: str | None, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str) or not name:
            raise ArchiveError(where, f"expected a user name, got {name!r}")
        if name not in self.users:
            model = get_user_model()
            # The account of that name in any case (names differ by more than case).
            user = user_by_username(name)
            if user is None:
                user = model(**{model.USERNAME_FIELD: name}, is_active=False)
                user.set_unusable_password()
                user.save()
            self.users[name] = user
        return self.users[name]

    def referee(self, name: Any, where: str) -> Any:
        """The account of a referee assignment: never staff, superuser or holder of a
        permission (issue 16: an assignment is only for a plain referee account)."""
        user = self.user(name, where)
        if user is not None and user_is_privileged(user):
            raise ArchiveError(
                where,
                f"{name} is a staff, superuser or permission-holding account: only a plain "
                "referee account can be assigned",
            )
        return user

    def run(self, data: Any) -> Tournament:
        if not isinstance(data, dict):
            raise ArchiveError("(top)", "expected an object")
        if data.get("format") != ARCHIVE_FORMAT:
            raise ArchiveError("format", f"expected {ARCHIVE_FORMAT!r}")
        if data.get("version") not in READ_VERSIONS:
            raise ArchiveError("version", f"expected one of {list(READ_VERSIONS)}")
        if data["version"] == 2:
            data = _from_version_2(data)
        if data["version"] in (2, 3):
            data = _from_version_3(data)
        t = _get(data, "tournament", "(top)", dict)
        t = {"stake_cap": None, **t}  # archived before the cap (version 4 too): none
        fields = _fields(Tournament, t, TOURNAMENT_FIELDS, "tournament")
        settings_check(fields)
        if self.slug is not None:  # a copy, beside the original (e.g. in the same instance)
            fields["slug"] = self.slug
        if Tournament.objects.filter(slug=fields["slug"]).exists():
            raise ArchiveError(
                "tournament.slug",
                f"a tournament {fields['slug']!r} exists already; import the archive as a "
                "copy under another slug (manage.py tournament_import --slug)",
            )
        tournament = Tournament(**fields)
        _validate(tournament, "tournament", [])
        tournament.save()
        Tournament.objects.filter(pk=tournament.pk).update(
            created_at=_when(t, "created_at", "tournament")
        )
        entries = self.entries(tournament, _list(data, "entries", "(top)"))
        self.entries_by_order = entries
        boards = {}
        for i, b in enumerate(_list(data, "boards", "(top)")):
            where = f"boards[{i}]"
            if isinstance(b, dict):
                b = {"face_up": "", **b}  # archived before six players: none
            fields = _fields(Board, b, BOARD_FIELDS, where)
            _per_seat(fields, "seat_cards", where, str, len(_list(b, "seat_cards", where)))
            board = Board(tournament=tournament, **fields)
            _validate(board, where, ["tournament"])
            board.save()
            boards[board.number] = board
            self.board_par(board, b, where)
        logs = []
        for i, r in enumerate(_list(data, "rounds", "(top)")):
            round_ = self.round(tournament, r, f"rounds[{i}]", entries, boards)
            logs.append((round_, r, f"rounds[{i}]"))
        for round_, r, where in logs:  # a log row may name hands of its round
            self.round_log(round_, r, where)
        for i, p in enumerate(_list(data, "penalties", "(top)")):
            self.penalty(tournament, p, f"penalties[{i}]", entries, self.hands)
        return tournament

    def round_log(self, round_: Round, r: dict[str, Any], where: str) -> None:
        rows = []
        for k, item in enumerate(_list(r, "log", where)):
            lw = f"{where}.log[{k}]"
            row = RoundLog(
                round=round_,
                **_fields(RoundLog, item, ROUND_LOG_FIELDS, lw),
                payload=self.payload_ids(_get(item, "payload", lw, dict), f"{lw}.payload"),
                recorded_by=self.user(item.get("recorded_by"), f"{lw}.recorded_by"),
                recorded_at=_when_required(item, "recorded_at", lw),
            )
            _validate(row, lw, ["round", "recorded_by"])
            rows.append(row)
        RoundLog.objects.bulk_create(rows)

    def entries(self, tournament: Tournament, items: list[Any]) -> dict[int, Entry]:
        entries = {}
        for i, e in enumerate(items):
            where = f"entries[{i}]"
            p = _get(e, "player", where, dict)
            player = Player(**_fields(Player, p, PLAYER_FIELDS, f"{where}.player"))
            _validate(player, f"{where}.player", [])
            player.save()
            entry = Entry(
                tournament=tournament,
                player=player,
                registration_order=_get(e, "registration_order", where, int),
                withdrawn=_get(e, "withdrawn", where, bool),
            )
            _validate(entry, where, ["tournament", "player"])
            if entry.registration_order in entries:
                raise ArchiveError(f"{where}.registration_order", "given twice")
            entry.save()
            entries[entry.registration_order] = entry
        return entries

    def round(
        self,
        tournament: Tournament,
        r: Any,
        where: str,
        entries: dict[int, Entry],
        boards: dict[int, Board],
    ) -> Round:
        round_ = Round(tournament=tournament, **_fields(Round, r, ROUND_FIELDS, where))
        _validate(round_, where, ["tournament"])
        round_.save()
        byes = []
        for k, order in enumerate(_list(r, "byes", where)):
            if not isinstance(order, int) or order not in entries:
                raise ArchiveError(f"{where}.byes[{k}]", f"no entry {order!r}")
            byes.append(RoundBye(round=round_, entry=entries[order]))
        RoundBye.objects.bulk_create(byes)
        round_boards = []
        for k, rb in enumerate(_list(r, "boards", where)):
            bw = f"{where}.boards[{k}]"
            number = _get(rb, "board", bw, int)
            if number not in boards:
                raise ArchiveError(f"{bw}.board", f"no board {number}")
            row = RoundBoard(
                round=round_,
                section=_get(rb, "section", bw, int),
                hand_number=_get(rb, "hand_number", bw, int),
                board=boards[number],
            )
            _validate(row, bw, ["round", "board"])
            round_boards.append(row)
        RoundBoard.objects.bulk_create(round_boards)
        for name in _list(r, "referees", where):
            RefereeAssignment.objects.create(
                round=round_, user=self.referee(name, f"{where}.referees")
            )
        for j, tb in enumerate(_list(r, "tables", where)):
            tw = f"{where}.tables[{j}]"
            table = Table(round=round_, **_fields(Table, tb, TABLE_FIELDS, tw))
            _validate(table, tw, ["round"])
            table_seats = seat_count(tournament.rule_profile)
            if table.first_bidder is not None and table.first_bidder >= table_seats:
                raise ArchiveError(f"{tw}.first_bidder", f"a seat 0..{table_seats - 1}")
            table.save()
            seats = []
            for k, s in enumerate(_list(tb, "seats", tw)):
                sw = f"{tw}.seats[{k}]"
                order = _get(s, "entry", sw, int)
                if order not in entries:
                    raise ArchiveError(f"{sw}.entry", f"no entry {order}")
                seat = Seat(
                    table=table,
                    round=round_,
                    position=_get(s, "position", sw, int),
                    entry=entries[order],
                )
                if not 0 <= seat.position < table_seats:
                    raise ArchiveError(f"{sw}.position", f"a seat 0..{table_seats - 1}")
                _validate(seat, sw, ["table", "round", "entry"])
                seats.append(seat)
            Seat.objects.bulk_create(seats)
            for name in _list(tb, "referees", tw):
                RefereeAssignment.objects.create(
                    round=round_, table=table, user=self.referee(name, f"{tw}.referees")
                )
            hands = {}
            for k, h in enumerate(_list(tb, "hands", tw)):
                hand = self.hand(tournament, table, seats, h, f"{tw}.hands[{k}]", boards)
                self.hand_par(hand, h, f"{tw}.hands[{k}]")
                self.hands[(round_.number, table.number, hand.number)] = hand
                hands[hand.number] = hand
            for k, ex in enumerate(_list(tb, "exclusions", tw)):
                self.exclusion(table, hands, ex, f"{tw}.exclusions[{k}]")
        return round_

    def exclusion(self, table: Table, hands: dict[int, Hand], ex: Any, where: str) -> None:
        """One of the table's exclusions, re-checked by ``exclusion_restore``."""
        fields = _fields(HandExclusion, ex, EXCLUSION_FIELDS, where)
        number = _get(ex, "hand", where, int, null=True)
        if number is not None and number not in hands:
            raise ArchiveError(f"{where}.hand", f"no hand {number} at the table")
        try:
            exclusion_restore(
                table=table,
                hand=None if number is None else hands[number],
                **fields,
                recorded_by=self.user(ex.get("recorded_by"), f"{where}.recorded_by"),
                recorded_at=_when_required(ex, "recorded_at", where),
            )
        except ApplicationError as exc:
            fields_named = exc.extra.get("fields")
            field = next(iter(fields_named), "") if isinstance(fields_named, dict) else ""
            raise ArchiveError(
                f"{where}.{field}" if field else where, exc.message.removeprefix(f"{field}: ")
            ) from exc

    def hand(
        self,
        tournament: Tournament,
        table: Table,
        seats: list[Seat],
        h: Any,
        where: str,
        boards: dict[int, Board],
    ) -> Hand:
        if isinstance(h, dict):
            h = {"stake_cap": None, "partner_seat": None, **h}  # archived before them: none
        fields = _fields(Hand, h, HAND_FIELDS, where)
        if fields["seats"] not in SEAT_COUNTS:
            raise ArchiveError(f"{where}.seats", f"expected one of {list(SEAT_COUNTS)}")
        _per_seat(fields, "doubled", where, bool, fields["seats"])
        if fields["scores"] is not None:
            _per_seat(fields, "scores", where, int, fields["seats"])
        if fields["deal"] is not None and not isinstance(fields["deal"], dict):
            raise ArchiveError(f"{where}.deal", "expected an object or null")
        board_number = _get(h, "board", where, int, null=True)
        if board_number is not None and board_number not in boards:
            raise ArchiveError(f"{where}.board", f"no board {board_number}")
        hand = Hand(table=table, board=boards.get(board_number) if board_number else None, **fields)
        if hand.rule_profile != tournament.rule_profile:
            raise ArchiveError(f"{where}.rule_profile", "differs from the tournament's")
        try:
            deal = hand_deal_json(hand=hand)
            if deal is not None:
                deal_json_checked(get_profile(hand.rule_profile), deal)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            raise ArchiveError(f"{where}.deal", str(exc)) from exc
        events = []
        for k, ev in enumerate(_list(h, "events", where)):
            ew = f"{where}.events[{k}]"
            event = HandEvent(
                **_fields(HandEvent, ev, EVENT_FIELDS, ew),
                payload=_get(ev, "payload", ew, dict),
                recorded_by=self.user(ev.get("recorded_by"), f"{ew}.recorded_by"),
                recorded_at=_when_required(ev, "recorded_at", ew),
            )
            if event.kind == HandEventKind.SEAT_CORRECTION:
                event.payload = self.payload_ids(event.payload, f"{ew}.payload")
            _validate(event, ew, ["hand", "recorded_by"])
            events.append(event)
        hand.state = hand_log_check(hand, events, where).snapshot
        _validate(hand, where, ["table", "board"])
        hand.save()
        for event in events:
            event.hand = hand
        HandEvent.objects.bulk_create(events)
        if hand.counts:
            HandSeatResult.objects.bulk_create(
                hand_result_rows(
                    hand=hand, seats=seats, tournament_id=tournament.pk, round_id=table.round_id
                )
            )
        return hand

    def penalty(
        self,
        tournament: Tournament,
        p: Any,
        where: str,
        entries: dict[int, Entry],
        hands: dict[tuple[int, int, int], Hand],
    ) -> None:
        order = _get(p, "entry", where, int)
        if order not in entries:
            raise ArchiveError(f"{where}.entry", f"no entry {order}")
        key = _get(p, "hand", where, dict, null=True)
        hand = None
        if key is not None:
            ref = tuple(_get(key, k, f"{where}.hand", int) for k in ("round", "table", "hand"))
            if ref not in hands:
                raise ArchiveError(f"{where}.hand", f"no hand {ref}")
            hand = hands[ref]
        penalty = Penalty(
            tournament=tournament,
            entry=entries[order],
            hand=hand,
            **_fields(Penalty, p, PENALTY_FIELDS, where),
            recorded_by=self.user(p.get("recorded_by"), f"{where}.recorded_by"),
            recorded_at=_when_required(p, "recorded_at", where),
            revoked_at=_when(p, "revoked_at", where, null=True),
            revoked_by=self.user(p.get("revoked_by"), f"{where}.revoked_by"),
        )
        _validate(penalty, where, ["tournament", "entry", "hand", "recorded_by", "revoked_by"])
        penalty.save()


def archive_loads(text: str) -> Any:
    if not isinstance(text, str | bytes):
        raise ArchiveError("(file)", "an archive is JSON text")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"line {exc.lineno}, column {exc.colno}", exc.msg) from exc


def tournament_import(*, text: str, slug: str | None = None) -> Tournament:
    """Restore the tournament archived in ``text``; all or nothing. With ``slug``, as a copy
    under that slug (everything else as archived): an archive can then be imported again
    into the instance it came from, its penalties' idempotency keys included (they are per
    tournament and user)."""
    from tournaments.standings.snapshots import standings_request

    data = archive_loads(text)
    try:
        with transaction.atomic():
            tournament = _Restore(slug=slug).run(data)
            tournament_id = tournament.pk
            # Queue the standings (a finished tournament's too: the import writes no change).
            transaction.on_commit(lambda: standings_request(tournament_id=tournament_id))
    except IntegrityError as exc:
        raise ArchiveError("(database)", f"refused: {exc}") from exc
    tournament.refresh_from_db()
    return tournament
