"""A hand's event log replayed: the rules state and the summary its row must hold.

The hand row is a projection of its log (STYLE: "fields that are not a projection of the
log" are a bug). ``hand_replay`` reads the log once; ``HandReplay.summary`` is what the
services write to the row and what the projection test compares the row with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any

from django.utils.translation import gettext as _

from referee.rules.cards import Deal, rank_text
from referee.rules.errors import RulesError
from referee.rules.four_hand import FourHandState
from referee.rules.games import WILD, big3_hearts, state_replayed
from referee.rules.hand import Announcement, HandState, Phase
from referee.rules.laizi import parse_wild
from referee.rules.laizi_hand import LaiziHandState
from referee.rules.physical import PhysicalHandState
from referee.rules.profiles import capped_profile, get_profile
from referee.rules.six_hand import SixHandState
from tournaments.common.errors import ApplicationError
from tournaments.common.profiles import rules_of
from tournaments.common.rows import update
from tournaments.common.seats import no_doubles
from tournaments.hands.boards import board_deal_json
from tournaments.models import (
    ACTION_KINDS,
    Confirmation,
    Hand,
    HandEvent,
    HandEventKind,
    HandStatus,
)

AnyHandState = HandState | PhysicalHandState | FourHandState

#: The hand row's columns that are a projection of its log.
SUMMARY_FIELDS = (
    "status", "landlord_seat", "bid", "winner", "doubled", "redoubled", "bombs", "rockets",
    "spring", "anti_spring", "scores", "confirmation", "rule_profile_hash", "deal",
    "partner_seat",
)  # fmt: skip

#: The result fields a correction is compared on with the play-by-play log, in order: the
#: first contradiction is named in it, and an override's changes are listed in it (a stored
#: payload's keys come back in another order from PostgreSQL's jsonb).
RESULT_FIELDS = (
    "passed_out", "landlord", "partner", "bid", "winner", "doubled", "redoubled", "bombs",
    "rockets", "spring", "anti_spring",
)  # fmt: skip

_STATUS_OF_PHASE = {
    Phase.BIDDING: HandStatus.BIDDING,
    Phase.DOUBLING: HandStatus.DOUBLING,
    Phase.PLAYING: HandStatus.PLAYING,
    # six players: the landlord's call of the partner card opens the play (R13.4, R13.8);
    # ``phase`` tells the two apart where it matters
    Phase.CALLING: HandStatus.PLAYING,
    # six players, physical cards: over, but the partner to be named (R13.8): still live
    Phase.NAMING: HandStatus.PLAYING,
    Phase.FINISHED: HandStatus.FINISHED,
    Phase.PASSED_OUT: HandStatus.PASSED_OUT,
}

#: Messages for the rules library's codes (SPEC R9.1), in the request's language.
RULES_MESSAGES = {
    "out_of_turn": lambda: _("It is not this seat's turn."),
    "not_held": lambda: _("The seat does not hold these cards."),
    "invalid_combination": lambda: _("These cards are not a legal combination."),
    "does_not_beat": lambda: _("These cards do not beat the play on the table."),
    "lead_pass": lambda: _("The leader must play; a lead cannot be passed."),
    "invalid_bid": lambda: _("This bid is not allowed now."),
    "invalid_double": lambda: _("This double or redouble is not allowed now."),
    "phase": lambda: _("This action is not allowed in the hand's current phase."),
    "bad_notation": lambda: _("The cards could not be read."),
    "bad_request": lambda: _("The action must be a bid, double, redouble, play or pass."),
    "invalid_deal": lambda: _(
        "The deal does not split the pack into the seats' hands and the kitty as the rules say."
    ),
    "invalid_result": lambda: _("The result contradicts itself."),
    "wrong_partner_card": lambda: _(
        "The landlord calls the highest card he holds exactly twice (R13.4), or none."
    ),
    "impossible_result": lambda: _("No deal of one pack can give this result."),
}


def rules_error(exc: RulesError, **details: Any) -> ApplicationError:
    """The rules library's error as the application error, with its code and a localised
    message; the library's own (English) explanation goes in ``details.rule``."""
    message = RULES_MESSAGES.get(exc.code, lambda: _("The rules refuse this."))()
    extra: dict[str, Any] = {"rule": exc.message, **details}
    if exc.index is not None and "index" not in extra:
        extra["index"] = exc.index
    rule_number = getattr(exc, "rule", "")
    if rule_number:
        extra["rule_number"] = rule_number
    return ApplicationError(exc.code, message, extra=extra)


@dataclass(frozen=True, slots=True)
class LoggedAction:
    """An action event in force as the snapshot keeps it (the fields a write reads)."""

    seq: int
    kind: str
    actor_seat: int | None
    payload: dict[str, Any]


@dataclass
class HandReplay:
    """What replaying a hand's events gives."""

    hand: Hand
    events: list[HandEvent]
    state: AnyHandState | None = None
    result_event: HandEvent | None = None
    #: A result-only pass-out (流局): no result event, scores 0.
    passed_out: bool = False
    voided: bool = False
    confirmation: str = Confirmation.NOT_REQUIRED
    deal_event: HandEvent | None = None
    announced: set[tuple[int, int, int]] = field(default_factory=set)
    #: The event that closed the hand (its last play, or a result), if it is closed.
    closing: HandEvent | None = None
    #: A director's correction in force that overrides the play-by-play log (its payload
    #: keeps the log's own result beside the override's).
    override: HandEvent | None = None
    #: A written-in deal whose check failed (the log breaks the deal) and that no director
    #: has kept, corrected or voided since: the hand does not count (irregular).
    irregular: HandEvent | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    #: The log folded (what ``Hand.state`` stores).
    snapshot: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def actions(self) -> list[Any]:
        """Action events in force (undone ones removed), in order: the log's own
        ``HandEvent``s when it was read, else ``LoggedAction``s from the snapshot (the same
        ``seq``, ``kind``, ``actor_seat`` and ``payload["action"]``; typed Any for the
        readers that take them for events). Made when first read (few writes read it)."""
        by_seq = {event.seq: event for event in self.events}
        return [
            by_seq.get(seq) or LoggedAction(seq, kind, seat, {"action": action})
            for seq, kind, seat, action in self.snapshot["actions"]
        ]

    @property
    def announcements_due(self) -> list[Announcement]:
        """报牌 the state made due that no announce / announce_missing event answers yet."""
        if self.state is None:
            return []
        return [a for a in self.state.announcements if tuple(a) not in self.announced]

    @property
    def status(self) -> str:
        return str(self.summary["status"])

    @property
    def override_changes(self) -> list[dict[str, Any]]:
        """A director override in force, field by field: what the play-by-play log says
        and what the override says (empty when no override is in force)."""
        if self.override is None:
            return []
        payload = self.override.payload
        logged: dict[str, Any] = payload.get("log_result") or {}
        wanted: dict[str, Any] = (
            {"passed_out": True, "landlord": None}
            if payload.get("passed_out")
            else {"passed_out": False, **payload.get("result", {})}
        )
        return [
            {"field": name, "log": logged[name], "override": wanted[name]}
            for name in RESULT_FIELDS
            if name in logged and name in wanted and logged[name] != wanted[name]
        ]


def hand_deal_json(*, hand: Hand) -> dict[str, Any] | None:
    """The hand's known deal as JSON (its board's, or its own: server-dealt or written in),
    the wild rank of a ``laizi`` deal included: callers showing it keep that back until the
    landlord is known (``deal_json_shown``)."""
    if hand.board_id is not None:
        board = hand.board
        assert board is not None
        data = board_deal_json(board)
        if get_profile(hand.rule_profile).game == "big3":
            # a Big Three board names its first bidder by the hearts (R12.4, R12.12.1):
            # its cards keep their suits, so where each heart lies is read off them
            hearts = big3_hearts(board.seat_cards, board.kitty)
            if hearts is not None:
                data["hearts"] = hearts
        return data
    return hand.deal


def hand_wild_shown(*, replay: HandReplay) -> str | None:
    """A ``laizi`` hand's wild rank (``"7"``) once its landlord is known, None before (it is
    drawn then, R11.2.1; a physical-cards hand's until the referee types it in) and on the
    other profiles."""
    state = replay.state
    if not isinstance(state, LaiziHandState | PhysicalHandState) or state.landlord is None:
        return None
    return None if state.wild is None else rank_text(state.wild)


def hand_wild_entry(*, replay: HandReplay) -> bool:
    """A live physical-cards ``laizi`` hand whose landlord is known and which no card has been
    played in: its referee types in the wild rank drawn (R11.2.1), or types it again."""
    state = replay.state
    return (
        isinstance(state, PhysicalHandState)
        and state.profile.wild_cards
        and state.landlord is not None
        and not state.plays
        and not state.is_over
        and replay.result_event is None
        and not replay.voided
    )


def hand_wild_due(*, replay: HandReplay) -> bool:
    """``hand_wild_entry`` with no wild rank typed in yet: no card is played before it."""
    state = replay.state
    return (
        hand_wild_entry(replay=replay)
        and isinstance(state, PhysicalHandState)
        and state.wild is None
    )


def hand_bomb_classes(*, replay: HandReplay) -> dict[str, int] | None:
    """A ``laizi`` hand's bombs by class (R11.2.3); None on the other profiles."""
    state = replay.state
    if isinstance(state, LaiziHandState | PhysicalHandState):
        return state.bomb_classes
    return None


def deal_json_shown(*, replay: HandReplay, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a deal's JSON) as a reader allowed the cards sees it: without the wild rank
    while the auction runs (``hand_wild_shown``)."""
    wild = hand_wild_shown(replay=replay)
    shown = {key: value for key, value in data.items() if key != WILD}
    return shown if wild is None else {**shown, WILD: wild}


def hand_deal(*, hand: Hand) -> Deal | None:
    """The known deal of a three-player hand (``hand_deal_json`` read); None without one."""
    data = hand_deal_json(hand=hand)
    return None if data is None else Deal.from_json(data)


def hand_state_new(*, hand: Hand) -> AnyHandState | None:
    """An empty rules state for the hand, or None for a result-only hand (no deal, not
    physical cards)."""
    return _state_of(hand, [], checked=False)


def hand_replay(*, hand: Hand, events: list[HandEvent] | None = None) -> HandReplay:
    """Replay ``hand``'s log (its events, in order) into a state and a row summary."""
    if events is None:
        events = list(hand.events.order_by("seq"))
    snapshot = snapshot_new()
    for event in events:
        snapshot_fold(snapshot, event)
    return replay_of_snapshot(hand=hand, snapshot=snapshot, events=events, checked=True)


# --------------------------------------------------------------------------- snapshot
# A hand's snapshot (``Hand.state``, written by the write that appends an event, in its
# transaction) is its log folded: the actions in force and the few events the summary and
# the checks of the next write depend on, as JSON. ``replay_of_snapshot`` rebuilds the
# replay from it (the rules state from the deal and the actions: well under a millisecond
# for a whole hand), so a write reads no log; ``hand_check_replays`` (the projection test,
# ``manage.py hand_audit``) holds it equal to the fold of the log. A NULL snapshot (a hand
# written before the column existed, or imported) is rebuilt from the log by the next write.

#: An event as the snapshot keeps it.
EventJson = dict[str, Any]


def snapshot_new() -> dict[str, Any]:
    """The snapshot of an empty log."""
    return {
        "actions": [],
        "result": None,
        "passed_out": False,
        "voided": False,
        "confirmation": str(Confirmation.NOT_REQUIRED),
        "deal": None,
        "announced": [],
        "closing": None,
        "irregular": None,
        "wild": None,
    }


def _event_json(event: HandEvent) -> EventJson:
    return {
        "seq": event.seq,
        "kind": str(event.kind),
        "payload": event.payload,
        "actor_seat": event.actor_seat,
        "recorded_by": event.recorded_by_id,
    }


def snapshot_fold(snapshot: dict[str, Any], event: HandEvent) -> None:
    """Fold one more ``event`` of the log into ``snapshot`` (in place)."""
    kind = event.kind
    payload = event.payload
    if kind in ACTION_KINDS:
        snapshot["actions"].append([event.seq, str(kind), event.actor_seat, payload["action"]])
    elif kind == HandEventKind.UNDO:
        snapshot["actions"].pop()
        snapshot["closing"] = None
    elif kind in (HandEventKind.RESULT, HandEventKind.CORRECTION):
        snapshot["result"] = _event_json(event)
        snapshot["irregular"] = None
    elif kind == HandEventKind.PASS_OUT:
        snapshot["passed_out"] = True
    elif kind == HandEventKind.VOID:
        snapshot["voided"] = True
        snapshot["irregular"] = None
    elif kind == HandEventKind.CONFIRM and payload.get("keep"):
        # a director kept an irregular hand as played, with a reason: it counts again
        snapshot["irregular"] = None
        closing = snapshot["closing"]
        snapshot["confirmation"] = str(
            Confirmation.CONFIRMED
            if closing is not None and closing["payload"].get("needs_confirmation")
            else Confirmation.NOT_REQUIRED
        )
    elif kind == HandEventKind.CONFIRM and snapshot["irregular"] is None:
        snapshot["confirmation"] = str(Confirmation.CONFIRMED)
    elif kind == HandEventKind.DISPUTE:
        snapshot["confirmation"] = str(Confirmation.DISPUTED)
    elif kind in (HandEventKind.ANNOUNCE, HandEventKind.ANNOUNCE_MISSING):
        snapshot["announced"].append(
            [payload["seat"], payload["cards_left"], payload["action_index"]]
        )
    elif kind == HandEventKind.WILD:
        snapshot["wild"] = payload["wild"]
    elif kind == HandEventKind.DEAL:
        snapshot["deal"] = _event_json(event)
        check = payload.get("check") or {}
        snapshot["irregular"] = None if check.get("ok", True) else snapshot["deal"]
    if payload.get("closes") or kind in (HandEventKind.RESULT, HandEventKind.CORRECTION):
        snapshot["closing"] = _event_json(event)
        snapshot["confirmation"] = str(
            Confirmation.PENDING if payload.get("needs_confirmation") else Confirmation.NOT_REQUIRED
        )


def result_replaced(kind: str, payload: Mapping[str, Any]) -> bool:
    """Whether a log event gives the hand another result, or takes its result away: a
    result or correction entered, an action or a pass-out that closes the hand, an undo, a
    void. A confirmation before such an event confirmed an earlier result, not the hand's."""
    replacing = (HandEventKind.RESULT, HandEventKind.CORRECTION, HandEventKind.UNDO)
    return kind in (*replacing, HandEventKind.VOID) or bool(payload.get("closes"))


def result_confirm_event(*, hand: Hand, events: Iterable[HandEvent]) -> HandEvent | None:
    """The ``confirm`` event that confirmed ``hand``'s current result (a director's *keep as
    played* included), or None: a confirmation belongs to the result it confirmed. A hand
    corrected since awaits confirmation again, and whoever confirmed the earlier result is
    history (the log keeps it), not the hand's state."""
    if hand.confirmation != Confirmation.CONFIRMED:
        return None
    found = None
    for event in sorted(events, key=lambda e: e.seq):
        if result_replaced(event.kind, event.payload):
            found = None
        elif event.kind == HandEventKind.CONFIRM:
            found = event
    return found


def _event_of(hand: Hand, data: EventJson | None, by_seq: dict[int, HandEvent]) -> Any:
    """The log's event that ``data`` keeps: the one read, or an unsaved copy of it."""
    if data is None:
        return None
    found = by_seq.get(data["seq"])
    if found is not None:
        return found
    return HandEvent(
        hand=hand,
        seq=data["seq"],
        kind=data["kind"],
        payload=data["payload"],
        actor_seat=data["actor_seat"],
        recorded_by_id=data["recorded_by"],
    )


def replay_of_snapshot(
    *,
    hand: Hand,
    snapshot: dict[str, Any],
    events: list[HandEvent] | None = None,
    state: AnyHandState | None = None,
    checked: bool = False,
) -> HandReplay:
    """The replay ``snapshot`` stands for: the state rebuilt from the deal and the actions
    in force, and the summary. With ``events`` (the log read), its events are the log's
    own; without, unsaved copies (and the replay's ``events`` is empty). ``state``: the
    rules state after the snapshot's actions, when the caller has it (not rebuilt).
    ``checked``: re-check every action's legality (a log read to be audited); by default
    the actions are re-applied as accepted (``HandState.replay``): the row's snapshot holds
    only actions its writes checked."""
    by_seq = {event.seq: event for event in events or ()}
    replay = HandReplay(hand=hand, events=events or [], snapshot=snapshot)
    replay.result_event = _event_of(hand, snapshot["result"], by_seq)
    result = replay.result_event
    replay.override = result if result is not None and result.payload.get("override") else None
    replay.passed_out = snapshot["passed_out"]
    replay.voided = snapshot["voided"]
    replay.confirmation = snapshot["confirmation"]
    replay.deal_event = _event_of(hand, snapshot["deal"], by_seq)
    replay.announced = {(s, c, i) for s, c, i in snapshot["announced"]}
    replay.closing = _event_of(hand, snapshot["closing"], by_seq)
    replay.irregular = _event_of(hand, snapshot["irregular"], by_seq)
    replay.state = (
        state
        if state is not None
        else _state_of(
            hand,
            [action for _, _, _, action in snapshot["actions"]],
            checked,
            wild=snapshot.get("wild"),
        )
    )
    deal_json = hand.deal if not hand.physical_cards else None
    if replay.deal_event is not None:
        deal_json = replay.deal_event.payload["deal"]
    replay.summary = _summary(hand, replay, replay.closing, deal_json)
    return replay


def _state_of(
    hand: Hand, actions: list[dict[str, Any]], checked: bool, *, wild: str | None = None
) -> AnyHandState | None:
    """The rules state after ``actions`` (the log replayed without the per-action undo
    snapshots a live ``push`` keeps; re-checked, or re-applied as accepted), or None for a
    result-only hand. ``wild``: a physical-cards laizi hand's wild rank as typed in."""
    profile = rules_of(hand)
    try:
        if hand.physical_cards:
            physical = PhysicalHandState.from_events if checked else PhysicalHandState.replay
            drawn = None if wild is None else parse_wild(wild)
            return physical(hand.first_bidder or 0, actions, profile, wild=drawn)
        if not profile.is_three_player:
            data = hand_deal_json(hand=hand)
            return None if data is None else state_replayed(profile, data, actions)
        deal = hand_deal(hand=hand)
        if deal is None:
            return None
        rebuild = HandState.from_events if checked else HandState.replay
        return rebuild(deal, actions, profile)
    except RulesError as exc:  # the log was checked when written: a broken log is a bug
        raise RuntimeError(f"hand {hand.pk} log does not replay: {exc}") from exc


def _summary(
    hand: Hand, replay: HandReplay, closing: HandEvent | None, deal_json: Any
) -> dict[str, Any]:
    seats = hand.seats
    out: dict[str, Any] = {
        "status": HandStatus.BIDDING,
        "landlord_seat": None,
        "bid": None,
        "winner": "",
        "doubled": no_doubles(seats),
        "redoubled": False,
        "bombs": 0,
        "rockets": 0,
        "spring": False,
        "anti_spring": False,
        "scores": None,
        "confirmation": Confirmation.NOT_REQUIRED,
        "rule_profile_hash": "",
        "deal": deal_json,
        "partner_seat": None,
    }
    profile_hash = _profile_hash(hand.rule_profile, hand.stake_cap)
    result = replay.result_event
    state = replay.state
    if result is not None and result.payload.get("passed_out"):
        # a correction to 流局 (R2.4, R10.4.5): everybody passed, 0 for every seat
        out.update(
            status=HandStatus.PASSED_OUT,
            rule_profile_hash=result.payload.get("rule_profile_hash", profile_hash),
        )
        out["scores"] = [0] * seats
    elif result is not None:
        out.update(
            _result_columns(result.payload["result"], seats),
            status=HandStatus.FINISHED,
            rule_profile_hash=result.payload.get("rule_profile_hash", profile_hash),
        )
        out["scores"] = list(result.payload["scores"])
    elif replay.passed_out:
        out.update(status=HandStatus.PASSED_OUT, rule_profile_hash=profile_hash)
        out["scores"] = [0] * seats
    elif state is not None:
        out.update(
            status=_STATUS_OF_PHASE[state.phase],
            landlord_seat=state.landlord,
            bid=state.bid,
            winner=state.winner or "",
            doubled=[d is True for d in state.doubled],
            redoubled=state.redoubled is True,
            bombs=state.bombs,
            rockets=state.rockets,
            spring=state.spring,
            anti_spring=state.anti_spring,
        )
        six = six_state(state)
        if six is not None and six.partner_public:  # R13.11: public only
            out["partner_seat"] = six.partner
        if state.is_over:
            scores = state.scores()
            assert scores is not None
            out["scores"] = list(scores)
            out["rule_profile_hash"] = profile_hash
    if out["status"] in (HandStatus.FINISHED, HandStatus.PASSED_OUT) and closing is not None:
        out["confirmation"] = replay.confirmation
    if replay.voided:
        out.update(status=HandStatus.VOIDED, scores=None)
        out["confirmation"] = Confirmation.NOT_REQUIRED
    return out


def six_state(state: object) -> SixHandState | None:
    """A six-player hand's rules state, dealt or from physical cards (``partner``,
    ``partner_public``, ``public_view``); None in every other game."""
    if isinstance(state, SixHandState):
        return state
    return state.six if isinstance(state, PhysicalHandState) else None


def _result_columns(result: dict[str, Any], seats: int) -> dict[str, Any]:
    """A stored result (checked when written) as the hand row's summary columns hold it:
    six players' has no bid (the base, 1: R13.3), no doubling and no rocket, and names the
    partner (public: the hand is over)."""
    return {
        "landlord_seat": result["landlord"],
        "partner_seat": result.get("partner"),
        "bid": result.get("bid", 1),
        "winner": result["winner"],
        "doubled": list(result.get("doubled") or no_doubles(seats)),
        "redoubled": result.get("redoubled", False),
        "bombs": result.get("bombs", 0),
        "rockets": result.get("rockets", 0),
        "spring": result.get("spring", False),
        "anti_spring": result.get("anti_spring", False),
    }


@cache
def _profile_hash(key: str, stake_cap: int | None) -> str:
    """A profile's content hash, with the event's cap (profiles are frozen: computed once per
    process)."""
    return capped_profile(key, stake_cap).content_hash


def hand_summary_set(*, hand: Hand, replay: HandReplay) -> list[str]:
    """Put the replayed summary and snapshot on the (locked) hand row, in memory; returns
    the fields to write (``hand_row_write``): the summary's that changed (a play mid-hand
    changes none; the deal is not rewritten each time), the snapshot and the version."""
    changed = [name for name in SUMMARY_FIELDS if getattr(hand, name) != replay.summary[name]]
    for name in changed:
        setattr(hand, name, replay.summary[name])
    hand.state = replay.snapshot
    return [*changed, "state", "version"]


def hand_row_write(*, hand: Hand, fields: list[str]) -> None:
    """Write ``fields`` of the hand row (``hand_summary_set``'s)."""
    # By hand (``rows.update``): 1,020–3,620 µs against 1,520–4,010 µs for
    # ``save(update_fields=…)``, saving 390–500 µs on every hand write
    # (``bench/write_sql_bench.py``, two runs on the shared 2-core machine).
    update(hand, fields)


def hand_summary_of_row(*, hand: Hand) -> dict[str, Any]:
    """The stored summary, to compare with a replay's."""
    return {name: getattr(hand, name) for name in SUMMARY_FIELDS}


def hand_check_replays(*, hand: Hand, events: list[HandEvent] | None = None) -> list[str]:
    """Fields whose stored value differs from the replay of the log (``events``, default:
    read), empty when sound: the summary's, and ``state`` when the stored snapshot is not
    the log folded (a NULL snapshot is sound: the next write rebuilds it from the log)."""
    stored = hand_summary_of_row(hand=hand)
    replayed = hand_replay(hand=hand, events=events)
    wrong = [name for name in SUMMARY_FIELDS if stored[name] != replayed.summary[name]]
    if hand.state is not None and hand.state != replayed.snapshot:
        wrong.append("state")
    return wrong


def hand_replay_stored(*, hand: Hand) -> HandReplay:
    """The replay of ``hand`` as its row holds it: from its snapshot (no read of the log),
    or from its log when it has none yet."""
    if hand.state is None:
        return hand_replay(hand=hand)
    return replay_of_snapshot(hand=hand, snapshot=hand.state)


__all__ = [
    "RESULT_FIELDS",
    "SUMMARY_FIELDS",
    "AnyHandState",
    "HandReplay",
    "hand_check_replays",
    "hand_deal",
    "hand_replay",
    "hand_replay_stored",
    "hand_row_write",
    "hand_state_new",
    "hand_summary_of_row",
    "hand_summary_set",
    "replay_of_snapshot",
    "rules_error",
    "six_state",
    "snapshot_fold",
    "snapshot_new",
]
