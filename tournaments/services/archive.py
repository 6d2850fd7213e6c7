"""Restoring a tournament from its JSON archive (``tournaments.archive``).

A restore is not a referee action: it writes the archived rows directly, in one
transaction, after checking everything — the shape of every field, and every hand's log
replayed with the rules library against the hand's stored summary.  Any error names the
line (unreadable JSON) or the field (``rounds[0].tables[2].hands[1].score_0``) and
imports nothing.
"""

import json
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from referee.rules.cards import Deal
from referee.rules.errors import RulesError
from referee.rules.hand import HandState, Phase
from referee.rules.profiles import get_profile
from referee.rules.scoring import DealResult, score_result
from tournaments.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    BOARD_FIELDS,
    EVENT_FIELDS,
    HAND_FIELDS,
    PENALTY_FIELDS,
    PLAYER_FIELDS,
    TOURNAMENT_FIELDS,
)
from tournaments.errors import ApplicationError
from tournaments.models import (
    Board,
    Entry,
    Hand,
    HandEvent,
    HandEventKind,
    HandSeatResult,
    HandStatus,
    Penalty,
    Player,
    RefereeAssignment,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.services.hand_log import hand_deal
from tournaments.services.hand_results import hand_result_rows, tournament_scores_changed

ACTION_KINDS = frozenset(
    {HandEventKind.BID, HandEventKind.DOUBLE, HandEventKind.REDOUBLE, HandEventKind.PLAY}
)
RESULT_KINDS = frozenset({HandEventKind.RESULT, HandEventKind.CORRECTION})


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


def hand_log_check(hand: Hand, events: list[HandEvent], deal: Deal | None, where: str) -> None:
    """Replay the hand's log with the rules library and compare with its stored summary."""
    profile = get_profile(hand.rule_profile)
    if [e.seq for e in events] != list(range(1, len(events) + 1)):
        raise ArchiveError(f"{where}.events", "sequence numbers are not 1, 2, 3, …")
    if hand.version != len(events):
        raise ArchiveError(f"{where}.version", f"{hand.version} but the log has {len(events)}")
    kinds = {e.kind for e in events}
    if HandEventKind.VOID in kinds or hand.status == HandStatus.VOIDED:
        if hand.status != HandStatus.VOIDED or HandEventKind.VOID not in kinds:
            raise ArchiveError(f"{where}.status", "a voided hand and a void event go together")
        return
    actions = [e.payload.get("action", e.payload) for e in events if e.kind in ACTION_KINDS]
    results = [e for e in events if e.kind in RESULT_KINDS and "result" in e.payload]
    expected_status: str | None = None
    expected_scores: tuple[int, int, int] | None = None
    summary: dict[str, Any] = {}
    try:
        if results:
            r = dict(results[-1].payload["result"])
            r["doubled"] = tuple(r["doubled"])
            result = DealResult(**r)
            expected_scores = score_result(result, profile)
            expected_status = HandStatus.FINISHED
            summary = {
                "landlord_seat": result.landlord,
                "bid": result.bid,
                "winner": result.winner,
                "bombs": result.bombs,
                "rockets": result.rockets,
                "spring": result.spring,
                "anti_spring": result.anti_spring,
                "redoubled": result.redoubled,
            }
        elif HandEventKind.PASS_OUT in kinds:
            expected_status, expected_scores = HandStatus.PASSED_OUT, (0, 0, 0)
        elif actions:
            if deal is None:
                raise ArchiveError(f"{where}.deal", "a hand with actions needs its deal")
            state = HandState.from_events(deal, actions, profile)
            expected_scores = state.scores()
            expected_status = {
                Phase.FINISHED: HandStatus.FINISHED,
                Phase.PASSED_OUT: HandStatus.PASSED_OUT,
            }.get(state.phase)
            if state.phase is Phase.FINISHED:
                summary = {
                    "landlord_seat": state.landlord,
                    "bid": state.bid,
                    "winner": state.winner,
                    "bombs": state.bombs,
                    "rockets": state.rockets,
                    "spring": state.spring,
                    "anti_spring": state.anti_spring,
                }
    except RulesError as exc:
        raise ArchiveError(f"{where}.events", f"the log does not replay: {exc}") from exc
    except (TypeError, KeyError, ValueError) as exc:
        raise ArchiveError(f"{where}.events", f"unreadable result: {exc}") from exc
    if expected_status is None:
        if hand.status in (HandStatus.FINISHED, HandStatus.PASSED_OUT):
            raise ArchiveError(f"{where}.status", f"{hand.status} but the log is not complete")
        return
    if hand.status != expected_status:
        raise ArchiveError(f"{where}.status", f"{hand.status} but the log gives {expected_status}")
    if hand.scores != expected_scores:
        raise ArchiveError(
            f"{where}.score_0",
            f"scores {list(hand.scores)} but the log gives {list(expected_scores or ())}",
        )
    for name, value in summary.items():
        if getattr(hand, name) != value:
            raise ArchiveError(
                f"{where}.{name}", f"{getattr(hand, name)!r} but the log gives {value!r}"
            )


class _Restore:
    """One restore: builds and saves the rows, checking as it goes (inside a transaction)."""

    def __init__(self) -> None:
        self.users: dict[str, Any] = {}

    def user(self, name: str | None, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str) or not name:
            raise ArchiveError(where, f"expected a user name, got {name!r}")
        if name not in self.users:
            model = get_user_model()
            user = model.objects.filter(**{model.USERNAME_FIELD: name}).first()
            if user is None:
                user = model(**{model.USERNAME_FIELD: name}, is_active=False)
                user.set_unusable_password()
                user.save()
            self.users[name] = user
        return self.users[name]

    def run(self, data: Any) -> Tournament:
        if not isinstance(data, dict):
            raise ArchiveError("(top)", "expected an object")
        if data.get("format") != ARCHIVE_FORMAT:
            raise ArchiveError("format", f"expected {ARCHIVE_FORMAT!r}")
        if data.get("version") != ARCHIVE_VERSION:
            raise ArchiveError("version", f"expected {ARCHIVE_VERSION}")
        t = _get(data, "tournament", "(top)", dict)
        fields = _fields(Tournament, t, TOURNAMENT_FIELDS, "tournament")
        if Tournament.objects.filter(slug=fields["slug"]).exists():
            raise ArchiveError("tournament.slug", f"a tournament {fields['slug']!r} exists already")
        tournament = Tournament(**fields)
        _validate(tournament, "tournament", [])
        tournament.save()
        Tournament.objects.filter(pk=tournament.pk).update(
            created_at=_when(t, "created_at", "tournament")
        )
        entries = self.entries(tournament, _list(data, "entries", "(top)"))
        boards = {}
        for i, b in enumerate(_list(data, "boards", "(top)")):
            where = f"boards[{i}]"
            board = Board(tournament=tournament, **_fields(Board, b, BOARD_FIELDS, where))
            _validate(board, where, ["tournament"])
            board.save()
            boards[board.number] = board
        hands = {}
        for i, r in enumerate(_list(data, "rounds", "(top)")):
            hands.update(self.round(tournament, r, f"rounds[{i}]", entries, boards))
        for i, p in enumerate(_list(data, "penalties", "(top)")):
            self.penalty(tournament, p, f"penalties[{i}]", entries, hands)
        return tournament

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
    ) -> dict[tuple[int, int, int], Hand]:
        round_ = Round(
            tournament=tournament,
            number=_get(r, "number", where, int),
            status=_get(r, "status", where, str),
        )
        _validate(round_, where, ["tournament"])
        round_.save()
        for name in _list(r, "referees", where):
            RefereeAssignment.objects.create(
                round=round_, user=self.user(name, f"{where}.referees")
            )
        hands = {}
        for j, tb in enumerate(_list(r, "tables", where)):
            tw = f"{where}.tables[{j}]"
            table = Table(round=round_, number=_get(tb, "number", tw, int))
            _validate(table, tw, ["round"])
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
                _validate(seat, sw, ["table", "round", "entry"])
                seats.append(seat)
            Seat.objects.bulk_create(seats)
            for name in _list(tb, "referees", tw):
                RefereeAssignment.objects.create(
                    round=round_, table=table, user=self.user(name, f"{tw}.referees")
                )
            for k, h in enumerate(_list(tb, "hands", tw)):
                hand = self.hand(tournament, table, seats, h, f"{tw}.hands[{k}]", boards)
                hands[(round_.number, table.number, hand.number)] = hand
        return hands

    def hand(
        self,
        tournament: Tournament,
        table: Table,
        seats: list[Seat],
        h: Any,
        where: str,
        boards: dict[int, Board],
    ) -> Hand:
        fields = _fields(Hand, h, HAND_FIELDS, where)
        if fields["deal"] is not None and not isinstance(fields["deal"], dict):
            raise ArchiveError(f"{where}.deal", "expected an object or null")
        board_number = _get(h, "board", where, int, null=True)
        if board_number is not None and board_number not in boards:
            raise ArchiveError(f"{where}.board", f"no board {board_number}")
        hand = Hand(table=table, board=boards.get(board_number) if board_number else None, **fields)
        if hand.rule_profile != tournament.rule_profile:
            raise ArchiveError(f"{where}.rule_profile", "differs from the tournament's")
        deal: Deal | None = None
        try:
            deal = hand_deal(hand=hand)
        except RulesError as exc:
            raise ArchiveError(f"{where}.deal", str(exc)) from exc
        events = []
        for k, ev in enumerate(_list(h, "events", where)):
            ew = f"{where}.events[{k}]"
            event = HandEvent(
                **_fields(HandEvent, ev, EVENT_FIELDS, ew),
                recorded_by=self.user(ev.get("recorded_by"), f"{ew}.recorded_by"),
                recorded_at=_when_required(ev, "recorded_at", ew),
            )
            _get(ev, "payload", ew, dict)
            _validate(event, ew, ["hand", "recorded_by"])
            events.append(event)
        hand_log_check(hand, events, deal, where)
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
        )
        _validate(penalty, where, ["tournament", "entry", "hand", "recorded_by"])
        penalty.save()


def archive_loads(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"line {exc.lineno}, column {exc.colno}", exc.msg) from exc


def tournament_import(*, text: str) -> Tournament:
    """Restore the tournament archived in ``text``; all or nothing."""
    data = archive_loads(text)
    try:
        with transaction.atomic():
            tournament = _Restore().run(data)
            log_version = tournament.log_version
            tournament_scores_changed(tournament_id=tournament.pk)  # queue the standings
            Tournament.objects.filter(pk=tournament.pk).update(log_version=log_version)
    except IntegrityError as exc:
        raise ArchiveError("(database)", f"refused: {exc}") from exc
    tournament.refresh_from_db()
    return tournament
