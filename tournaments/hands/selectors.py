"""Reads of a hand for the referee's phone and the public: its state replayed from the log."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet

from referee.rules.ahead import legal_ahead
from referee.rules.cards import CARD_TEXT_OF_ID, format_cards
from referee.rules.errors import NotationError, RulesError
from referee.rules.hand import HandState
from referee.rules.physical import IMPOSSIBLE_CHECKS, PhysicalHandState
from referee.rules.profiles import capped_profile, get_profile
from referee.rules.scoring import DefenderStake, result_from_json, stakes_of_hand
from referee.rules.six_hand import SixHandState, parse_six
from tournaments.common.player_names import display_name
from tournaments.common.roles import REFEREE_GROUP, user_is_director
from tournaments.common.rows import Columns, column, fetch_one, table_name
from tournaments.common.seats import SIX_PLAYER_PROFILES, seat_count, seat_positions
from tournaments.hands.card_secrecy import ALL, NO_CARDS, NONE, CardsShown, status_shown
from tournaments.hands.replay import (
    AnyHandState,
    HandReplay,
    deal_json_shown,
    hand_bomb_classes,
    hand_deal_json,
    hand_replay,
    hand_replay_stored,
    hand_wild_due,
    hand_wild_entry,
    hand_wild_shown,
    six_state,
)
from tournaments.hands.write import (
    passed_out_possible,
    result_entry_allowed,
    result_entry_fields,
)
from tournaments.hands.writing import (
    LOCK_CLAUSE,
    LOCK_KEY_SQL,
    HandWrite,
    LockedHand,
    locked_hand,
)
from tournaments.models import (
    Board,
    Confirmation,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
    RefereeAssignment,
    Round,
    RoundStatus,
    Seat,
    Table,
    Tournament,
)
from tournaments.tournament import selectors

LIVE_STATUSES = frozenset({HandStatus.BIDDING, HandStatus.DOUBLING, HandStatus.PLAYING})


def _hands_with_table() -> QuerySet[Hand]:
    """Hands with their table, round, tournament and board (rows a hand write reuses)."""
    return Hand.objects.select_related("table__round__tournament", "board")


def hand_get(*, hand_id: int) -> Hand | None:
    # ``get``, not ``first``: no ORDER BY to add (the ORM builds it per call, measurably).
    try:
        return _hands_with_table().get(pk=hand_id)
    except Hand.DoesNotExist:
        return None


#: The hand's snapshot (``Hand.state``) is not read before the write: ``hand_write`` reads
#: it with the row lock.
_HAND = Columns(Hand, "h", defer=["state"])
_TABLE = Columns(Table, "t")
#: Not read for a write (its seating text and tie-breaks can be long).
_ROUND = Columns(Round, "r", defer=["seating_explanation"])
_TOURNAMENT = Columns(Tournament, "o", defer=["tiebreaks"])
_BOARD = Columns(Board, "b")
_USER_GROUPS: Any = get_user_model().groups.through


#: Every table's primary key column.
_PK = column(Hand, "id")
#: ``access.assigned_referee_rows`` of the table ``t`` as an EXISTS (parameters: the user's
#: id and the referee group's name).
_ASSIGNED_SQL = (
    f" EXISTS (SELECT 1 FROM {table_name(RefereeAssignment)} a"
    f" JOIN {table_name(_USER_GROUPS)} ug"
    f" ON ug.{column(_USER_GROUPS, 'user')} = a.{column(RefereeAssignment, 'user')}"
    f" JOIN {table_name(Group)} g ON g.{_PK} = ug.{column(_USER_GROUPS, 'group')}"
    f" WHERE a.{column(RefereeAssignment, 'user')} = %s"
    f" AND a.{column(RefereeAssignment, 'round')} = t.{column(Table, 'round')}"
    f" AND (a.{column(RefereeAssignment, 'table')} IS NULL"
    f" OR a.{column(RefereeAssignment, 'table')} = t.{_PK})"
    f" AND g.{column(Group, 'name')} = %s)"
)
#: The table with its round and tournament (``t``, ``r``, ``o``).
_TABLE_JOINS = (
    f" JOIN {table_name(Round)} r ON r.{_PK} = t.{column(Table, 'round')}"
    f" JOIN {table_name(Tournament)} o ON o.{_PK} = r.{column(Round, 'tournament')}"
)
#: ``hand_get_for_write``'s statement: what ``hand_get`` reads, and whether the user is a
#: referee assigned to the table; built once (the ORM would build it again on every write).
#: By hand: 680–3,250 µs a call against 7,300–14,900 µs for the ORM's ``select_related``
#: get with the assignment as an ``Exists``: it saves 6,660–11,620 µs on every hand write
#: (``bench/write_sql_bench.py``, two runs on the shared 2-core machine).
_HAND_FOR_WRITE_SQL = (
    f"SELECT {_HAND.sql}, {_TABLE.sql}, {_ROUND.sql}, {_TOURNAMENT.sql}, {_BOARD.sql},"
    f" {_ASSIGNED_SQL}"
    f" FROM {table_name(Hand)} h"
    f" JOIN {table_name(Table)} t ON t.{_PK} = h.{column(Hand, 'table')}{_TABLE_JOINS}"
    f" LEFT JOIN {table_name(Board)} b ON b.{_PK} = h.{column(Hand, 'board')}"
    f" WHERE h.{_PK} = %s"
)
#: ``hand_lock_for_write``'s statement: ``_HAND_FOR_WRITE_SQL`` with the whole hand row
#: (its snapshot, which the write replays) and, beside it, the row's version and the key's
#: event (``writing.LOCK_KEY_SQL``), to be locked (``writing.LOCK_CLAUSE``). It takes the
#: place of two statements (the read for the permission check, then the lock): 367–443 µs
#: a call against 634–736 µs for the two, saving 267–293 µs on every referee write
#: (``bench/write_sql_bench.py``, two runs of 1,000 calls, interleaved).
_HAND_LOCKED = Columns(Hand, "h")
_HAND_LOCK_FOR_WRITE_SQL = (
    f"SELECT {_HAND_LOCKED.sql}, {_TABLE.sql}, {_ROUND.sql}, {_TOURNAMENT.sql}, {_BOARD.sql},"
    f" {_ASSIGNED_SQL}, {LOCK_KEY_SQL}"
    f" FROM {table_name(Hand)} h"
    f" JOIN {table_name(Table)} t ON t.{_PK} = h.{column(Hand, 'table')}{_TABLE_JOINS}"
    f" LEFT JOIN {table_name(Board)} b ON b.{_PK} = h.{column(Hand, 'board')}"
    f" WHERE h.{_PK} = %s"
)
#: ``table_get_for_write``'s statement, the same for a table: it saves 3,720–9,330 µs on
#: every hand start against the ORM (500–2,570 µs against 4,200–11,900 µs, same bench).
_TABLE_FOR_WRITE_SQL = (
    f"SELECT {_TABLE.sql}, {_ROUND.sql}, {_TOURNAMENT.sql}, {_ASSIGNED_SQL}"
    f" FROM {table_name(Table)} t{_TABLE_JOINS} WHERE t.{_PK} = %s"
)


def hand_get_for_write(*, hand_id: int, user: Any) -> tuple[Hand, bool] | None:
    """The hand as ``hand_get`` reads it, and whether ``user`` is a referee assigned to its
    table (``access.table_write_check``'s ``assigned``), in one query."""
    row = fetch_one(_HAND_FOR_WRITE_SQL, [user.pk, REFEREE_GROUP, hand_id])
    if row is None:
        return None
    hand, end = _hand_of_row(row, _HAND)
    return hand, bool(row[end])


def hand_lock_for_write(
    *, hand_id: int, user: Any, idempotency_key: str | None
) -> tuple[LockedHand, bool] | None:
    """In the caller's transaction: ``hand_get_for_write``'s answer with the hand row
    locked (``SELECT … FOR UPDATE``) and read whole, and the event recorded under
    ``idempotency_key`` as ``writing.hand_row_lock_keyed`` sees it: the ``LockedHand`` that
    the write then takes (``writing.hand_prelocked``) instead of locking the row again."""
    sql = _HAND_LOCK_FOR_WRITE_SQL
    if connection.vendor != "sqlite":
        sql += LOCK_CLAUSE
    row = fetch_one(sql, [user.pk, REFEREE_GROUP, hand_id, hand_id, idempotency_key, hand_id])
    if row is None:
        return None
    hand, end = _hand_of_row(row, _HAND_LOCKED)
    seen_version, key_event_id = row[end + 1], row[end + 2]
    locked = locked_hand(
        hand=hand,
        idempotency_key=idempotency_key,
        seen_version=seen_version,
        key_event_id=key_event_id,
    )
    return locked, bool(row[end])


def _hand_of_row(row: Sequence[Any], hand_columns: Columns) -> tuple[Hand, int]:
    """The hand of a row of ``hand_columns`` then its table, round, tournament and board;
    and where the row goes on."""
    start = 0
    instances = []
    for columns in (hand_columns, _TABLE, _ROUND, _TOURNAMENT, _BOARD):
        instances.append(columns.instance(row, start))
        start += columns.width
    hand, table, round_, tournament, board = instances
    round_.tournament = tournament
    table.round = round_
    hand.table = table
    hand.board = board
    return hand, start


def table_get_for_write(*, table_id: int, user: Any) -> tuple[Table, bool] | None:
    """The table as ``table_get`` reads it, and whether ``user`` is a referee assigned to
    it (as ``hand_get_for_write``), in one query: a hand start reads it first."""
    row = fetch_one(_TABLE_FOR_WRITE_SQL, [user.pk, REFEREE_GROUP, table_id])
    if row is None:
        return None
    table = _TABLE.instance(row)
    table.round = _ROUND.instance(row, _TABLE.width)
    table.round.tournament = _TOURNAMENT.instance(row, _TABLE.width + _ROUND.width)
    return table, bool(row[_TABLE.width + _ROUND.width + _TOURNAMENT.width])


def table_get(*, table_id: int) -> Table | None:
    """The table with its round and tournament (every hand start reads it first)."""
    try:
        return Table.objects.select_related("round__tournament").get(pk=table_id)
    except Table.DoesNotExist:
        return None


def hand_mode(hand: Hand) -> str:
    if hand.physical_cards:
        return "physical"
    return "dealt" if hand.board_id is not None or hand.deal is not None else "result_only"


def summary_result(summary: dict[str, Any]) -> dict[str, Any]:
    """The result a hand's summary columns hold, in ``DealResult.to_json``'s form; the
    landlord, the bid and the winner None while the hand has none."""
    return {
        "landlord": summary["landlord_seat"],
        "bid": summary["bid"],
        "doubled": list(summary["doubled"]),
        "redoubled": summary["redoubled"],
        "bombs": summary["bombs"],
        "rockets": summary["rockets"],
        "spring": summary["spring"],
        "anti_spring": summary["anti_spring"],
        "winner": summary["winner"] or None,
    }


def hand_stakes(
    summary: dict[str, Any],
    profile_key: str,
    bomb_classes: dict[str, int] | None = None,
    *,
    stake_cap: int | None = None,
) -> tuple[DefenderStake, ...]:
    """Each defender's stake as the hand stands (R8.1): the bid times every factor so far,
    as the hand's rule profile counts them (``referee.rules.scoring.stakes_of_hand``: R11.1.8,
    R11.2.4 with ``bomb_classes``, ``hand_bomb_classes``, R12.11.1); none before a landlord."""
    fields = summary_result(summary)
    if fields["landlord"] is None or fields["bid"] is None:
        return ()
    fields["winner"] = fields["winner"] or "defenders"  # no part in a stake: a live hand's
    try:
        profile = capped_profile(profile_key, stake_cap)
        if profile.wild_cards:
            if bomb_classes is None:
                return ()
            fields.update({f"{name}_bombs": count for name, count in bomb_classes.items()})
        return stakes_of_hand(result_from_json(fields, profile), profile)
    except (RulesError, ValueError):  # a profile this server does not know (an imported archive)
        return ()


def _stakes(
    summary: dict[str, Any], hand: Hand, bomb_classes: dict[str, int] | None
) -> list[int | None] | None:
    """What each defender stands to win or lose now, None for the landlord; None before
    a landlord."""
    profile_key = hand.rule_profile
    stakes = hand_stakes(summary, profile_key, bomb_classes, stake_cap=hand.stake_cap)
    if not stakes:
        return None
    values = {stake.seat: stake.value for stake in stakes}
    return [values.get(seat) for seat in seat_positions(profile_key)]


def _iso(value: datetime) -> str:
    """ISO 8601, UTC as "Z" (DRF's format), so a hand read is JSON-ready."""
    return value.isoformat().replace("+00:00", "Z")


def _payload_without_plays(payload: dict[str, Any]) -> dict[str, Any]:
    """A play's (or an undone play's) payload with its cards taken out ("pass" stays)."""
    action = payload.get("action")
    if isinstance(action, dict) and action.get("play") not in (None, "pass"):
        return {**payload, "action": {**action, "play": None}}
    return payload


def _payload_without_copies(payload: dict[str, Any]) -> dict[str, Any]:
    """A six-player play's (or an undone play's) payload with its cards as the table saw them:
    rank and suit, without the copy, a storage identity (R13.10, R13.11)."""
    action = payload.get("action")
    if isinstance(action, dict) and action.get("play") not in (None, "pass"):
        try:
            cards = parse_six(action["play"])
        except NotationError:  # the log was checked when written
            return payload
        ids = sorted(card for _, card, _ in cards if card is not None)
        return {**payload, "action": {**action, "play": " ".join(CARD_TEXT_OF_ID[i] for i in ids)}}
    return payload


def _event_row(
    event: HandEvent,
    *,
    audit: bool,
    hide_deal: bool,
    hide_plays: bool = False,
    hide_copies: bool = False,
) -> dict[str, Any]:
    payload = event.payload
    if hide_deal and event.kind == HandEventKind.DEAL:
        payload = {"check": payload.get("check")}
    if hide_plays:
        payload = _payload_without_plays(payload)
    elif hide_copies:
        payload = _payload_without_copies(payload)
    row: dict[str, Any] = {
        "seq": event.seq,
        "kind": event.kind,
        "actor_seat": event.actor_seat,
        "payload": payload,
        "recorded_at": _iso(event.recorded_at),
    }
    if audit:
        row["recorded_by"] = event.recorded_by.get_username() if event.recorded_by else None
        row["device_id"] = event.device_id
    return row


def hand_detail(
    *,
    hand: Hand,
    show_cards: bool | CardsShown,
    audit: bool = False,
) -> dict[str, Any]:
    """A hand as its phone shows it: phase, turn, top play, cards left, announcements due,
    stakes per defender, the legal actions of the seat on turn (the phone's buttons) and
    the event log. ``show_cards``: which cards the reader sees, as
    ``card_secrecy.hand_cards_shown`` decides (True: every card, False: no card, the
    outcome shown)."""
    events = list(HandEvent.objects.filter(hand=hand).select_related("recorded_by").order_by("seq"))
    replay = hand_replay(hand=hand, events=events)
    out = _hand_fields(hand=hand, replay=replay, show_cards=show_cards)
    out["events"] = [_event_row(e, audit=audit, **_hidden(show_cards, hand)) for e in events]
    return _shown(out, show_cards)


def hand_write_detail(*, written: HandWrite, show_cards: bool | CardsShown) -> dict[str, Any]:
    """What a write answers (``writing.HandWrite``): the hand as ``hand_detail`` shows it,
    from what the write computed, without the event log but with ``event``, the event the
    write recorded under its Idempotency-Key (None when it appended none). A write's answer
    stays small however long the hand; the phone reads the whole hand when it needs the
    log."""
    hand = written.hand
    replay = written.replay or hand_replay_stored(hand=hand)
    out = _hand_fields(hand=hand, replay=replay, show_cards=show_cards)
    event = written.event
    out["event"] = _event_row(event, audit=False, **_hidden(show_cards, hand)) if event else None
    return _shown(out, show_cards)


def _cards_shown(show_cards: bool | CardsShown) -> CardsShown:
    # A bool says which cards only (False: none, the outcome shown); a secret board's
    # ``NONE`` comes only from ``hand_cards_shown``.
    if isinstance(show_cards, CardsShown):
        return show_cards
    return ALL if show_cards else NO_CARDS


def _hidden(show_cards: bool | CardsShown, hand: Hand) -> dict[str, bool]:
    """What of its events a reader does not see (``_event_row``'s switches): a six-player
    play's copies for a reader who does not see the deal."""
    shown = _cards_shown(show_cards)
    return {
        "hide_deal": not shown.unplayed,
        "hide_plays": not shown.played,
        "hide_copies": not shown.unplayed and hand.rule_profile in SIX_PLAYER_PROFILES,
    }


def _shown(out: dict[str, Any], show_cards: bool | CardsShown) -> dict[str, Any]:
    return out if _cards_shown(show_cards).outcome else hand_secret(out)


def _hand_fields(
    *, hand: Hand, replay: HandReplay, show_cards: bool | CardsShown
) -> dict[str, Any]:
    """A hand's fields (``hand_detail``'s) but its events, from its replay."""
    summary = replay.summary
    live = summary["status"] in LIVE_STATUSES
    shown = _cards_shown(show_cards)
    cards = shown.unplayed
    state = replay.state
    table = hand.table
    out: dict[str, Any] = {
        "id": hand.pk,
        "tournament": table.round.tournament.slug,
        "round": table.round.number,
        "table": table.number,
        "table_id": table.pk,
        "number": hand.number,
        "board": hand.board.number if hand.board is not None else None,
        "mode": hand_mode(hand),
        "rule_profile": hand.rule_profile,
        "stake_cap": hand.stake_cap,
        "seats": hand.seats,
        "version": hand.version,
        "status": summary["status"],
        "confirmation": summary["confirmation"],
        "counts": hand.counts,
        **summary_result(summary),
        "scores": summary["scores"],
        "stakes": _stakes(summary, hand, hand_bomb_classes(replay=replay)),
        "turn": None,
        "top_play": None,
        "cards_left": None,
        "announcements_due": [],
        "legal_actions": None,
        "ahead": None,
        "hands": None,
        "kitty": None,
        "deal": None,
        "seed": hand.seed if cards else None,
        "impossible_checks": list(IMPOSSIBLE_CHECKS) if hand.physical_cards else [],
        "deal_check": replay.deal_event.payload["check"] if replay.deal_event else None,
        "irregular": hand_irregular(replay=replay),
        "override": _override(replay),
    }
    if state is not None:
        _state_fields(out, replay, state, shown=shown, closed=not live)
    if cards:
        data = hand_deal_json(hand=hand)
        out["deal"] = None if data is None else deal_json_shown(replay=replay, data=data)
    six = six_state(state)
    out["six"] = _six_fields(six) if six is not None else _six_of_result(hand)
    out["wild"] = hand_wild_shown(replay=replay)
    out["wild_entry"] = hand_wild_entry(replay=replay)
    out["wild_due"] = hand_wild_due(replay=replay)
    out["bomb_classes"] = hand_bomb_classes(replay=replay)
    out["par"] = _par(hand) if shown.outcome else None
    out["secret"] = False
    return out


def _six_fields(state: SixHandState) -> dict[str, Any]:
    """What the table of a six-player hand may know of its landlord and partner (R13.11),
    from ``SixHandState.public_view`` only: the face-up card, the partner card called (or the
    landlord alone), and the partner and the event that revealed him once he is public."""
    view = state.public_view()
    return {
        "phase": view["phase"],
        "face_up": view["face_up"],
        "partner_card": view["partner_card"],
        "alone": view["alone"],
        "partner": view["partner"],
        "revealed_at": view["revealed_at"],
    }


def _six_of_result(hand: Hand) -> dict[str, Any] | None:
    """A six-player hand entered by its result (no log, no deal): the partner it names,
    public with the result (R13.11: the hand is over)."""
    if hand.status != HandStatus.FINISHED or get_profile(hand.rule_profile).game != "six_p":
        return None
    partner = hand.partner_seat
    return {
        "phase": "finished",
        "face_up": None,
        "partner_card": None,
        "alone": partner is None,
        "partner": partner,
        "revealed_at": None,
    }


def _par(hand: Hand) -> dict[str, Any] | None:
    # the par services read the hands: imported here
    from tournaments.par.selectors import hand_par_json

    return hand_par_json(hand=hand)


#: What a reader who may not see a hand's board (``card_secrecy.NONE``) reads of the hand:
#: which table plays which board, how, under which rules, and whether it is in play or
#: closed (``card_secrecy.status_shown``). Any other field, today's and any added later, is
#: emptied by ``hand_secret``.
SECRET_FIELDS_SHOWN = frozenset(
    {
        "id", "tournament", "round", "table", "table_id", "number", "board", "mode",
        "rule_profile", "seats", "status", "confirmation", "counts", "impossible_checks",
    }
)  # fmt: skip
#: The emptied fields that are lists or flags rather than null.
_SECRET_EMPTY: dict[str, Any] = {
    "announcements_due": [],
    "events": [],
    "wild_entry": False,
    "wild_due": False,
    "secret": True,
}


def hand_secret(out: dict[str, Any]) -> dict[str, Any]:
    """``out`` (``hand_detail``'s) as a reader sees it who may see nothing of its board."""
    secret = {
        key: value if key in SECRET_FIELDS_SHOWN else _SECRET_EMPTY.get(key)
        for key, value in out.items()
    }
    secret["status"] = status_shown(out["status"], NONE)
    return secret


def hand_irregular(*, replay: HandReplay) -> str | None:
    """Why the hand is held back from the standings as irregular (``deal_check_failed``:
    its written-in deal makes its log illegal), until a director keeps (with a reason),
    corrects or voids it; None when it is not."""
    return "deal_check_failed" if replay.irregular is not None else None


def irregular_hand_ids(*, hands: Iterable[Hand]) -> set[int]:
    """Of ``hands``, those held back as irregular (``deal_check_failed``): for the results
    desk's per-hand state. Only a disputed physical-cards hand can be; those are replayed."""
    candidates = [
        hand for hand in hands if hand.physical_cards and hand.confirmation == Confirmation.DISPUTED
    ]
    return {hand.pk for hand in candidates if hand_replay(hand=hand).irregular is not None}


def _override(replay: HandReplay) -> dict[str, Any] | None:
    """A director's override of the play-by-play log, shown beside the log."""
    if replay.override is None:
        return None
    return {
        "seq": replay.override.seq,
        "reason": replay.override.payload.get("reason", ""),
        "changes": replay.override_changes,
    }


def _state_fields(
    out: dict[str, Any],
    replay: HandReplay,
    state: AnyHandState,
    *,
    shown: CardsShown,
    closed: bool,
) -> None:
    show_cards = shown.unplayed
    top = state.top_play if shown.played else None
    out.update(
        turn=None if closed else state.turn,
        top_play=(
            {"seat": state.top_seat, "cards": top.text(), "kind": top.kind.value}
            if top is not None and not closed
            else None
        ),
        cards_left=list(state.card_counts),
        announcements_due=[
            {"seat": a.seat, "cards_left": a.cards_left} for a in replay.announcements_due
        ],
    )
    if isinstance(state, HandState) and state.kitty_revealed and shown.played:
        out["kitty"] = format_cards(state.deal.kitty)
    if not isinstance(state, PhysicalHandState) and show_cards:
        out["hands"] = [state.hand_cards_text(seat) for seat in range(replay.hand.seats)]
    if show_cards and not closed:
        legal = state.legal_actions()
        out["legal_actions"] = [a.to_json() for a in legal]
        if not isinstance(state, PhysicalHandState):
            ahead = legal_ahead(state, replay.hand.seats, legal)
            out["ahead"] = [entry.to_json() for entry in ahead]


def hand_audit(*, hand: Hand, shown: CardsShown = ALL) -> list[dict[str, Any]]:
    """Who did what, when, from which device; the cards as ``shown``
    (``card_secrecy.hand_cards_shown``)."""
    events = HandEvent.objects.filter(hand=hand).select_related("recorded_by").order_by("seq")
    if not shown.outcome:  # a secret board's: nothing (its length tells how the hand went)
        return []
    return [_event_row(e, audit=True, **_hidden(shown, hand)) for e in events]


def seat_row(seat: Seat) -> dict[str, Any]:
    """A seat as the referee's phone lists it: position, entry and the player's names (in
    the request's language first: ``player_names.display_name``)."""
    player = seat.entry.player
    return {
        "position": seat.position,
        "entry": seat.entry_id,
        "player": display_name(player.name, player.chinese_name),
        "name": player.name,
        "chinese_name": player.chinese_name,
    }


def assignment_tables(*, user: Any) -> list[dict[str, Any]]:
    """The tables ``user`` may write to now (playing rounds), with the tournament's name,
    seats, players (named in the request's language: ``player_names.display_name``), the
    current hand (with its confirmation, and whether it is held back as irregular), the
    hands the table may play this round and has played (a voided hand does not count:
    ``services.hands.hand_start_check`` refuses the start after the last),
    who confirms (``official`` / ``players``) and the hands still awaiting confirmation (a
    table plays on while they wait)."""
    tables = Table.objects.filter(round__status=RoundStatus.PLAYING)
    if not user_is_director(user):
        rounds = RefereeAssignment.objects.filter(user=user, table__isnull=True).values("round")
        tables = tables.filter(Q(round__in=rounds) | Q(referee_assignments__user=user)).distinct()
    seats = Seat.objects.select_related("entry__player").order_by("position")
    rows = list(
        tables.select_related("round__tournament")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .annotate(hands_played=Count("hands", filter=~Q(hands__status=HandStatus.VOIDED)))
        .order_by("round__tournament__slug", "round__number", "number")
    )
    added = selectors.table_hands_added(tables=rows)
    currents = {table.pk: table.hands.order_by("-number").first() for table in rows}
    irregular = irregular_hand_ids(hands=[h for h in currents.values() if h is not None])
    out = []
    for table in rows:
        tournament = table.round.tournament
        current = currents[table.pk]
        out.append(
            {
                "table_id": table.pk,
                "tournament": tournament.slug,
                "tournament_name": tournament.name,
                "round": table.round.number,
                "rounds_planned": tournament.rounds_planned,
                "table": table.number,
                "seats": [seat_row(seat) for seat in table.seats.all()],
                "seat_count": seat_count(tournament.rule_profile),
                "result_only": result_entry_allowed(tournament.rule_profile),
                "rule_profile": tournament.rule_profile,
                "result_fields": list(result_entry_fields(tournament.rule_profile)),
                "passed_out_possible": passed_out_possible(tournament.rule_profile),
                "current_hand": (
                    {
                        "id": current.pk,
                        "number": current.number,
                        "status": current.status,
                        "confirmation": current.confirmation,
                        "irregular": "deal_check_failed" if current.pk in irregular else None,
                    }
                    if current is not None
                    else None
                ),
                "hands_per_round": tournament.hands_per_round,
                "hands_allowed": tournament.hands_per_round + added.get(table.pk, 0),
                "hands_played": table.hands_played,
                "confirmed_by": tournament.confirmed_by,
                "awaiting_confirmation": [
                    {"id": pk, "number": number}
                    for pk, number in table.hands.filter(confirmation=Confirmation.PENDING)
                    .exclude(status=HandStatus.VOIDED)
                    .order_by("number")
                    .values_list("pk", "number")
                ],
            }
        )
    return out
