"""Input and output shapes of the referee API (also what the OpenAPI schema shows)."""

import copy
import re
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from referee.api.schema import RESULT_FIELDS
from referee.rules.six_five_scoring import MAX_BOMBS_SIX
from tournaments.common.errors import ApplicationError
from tournaments.common.seats import MAX_SEATS, SEAT_COUNTS
from tournaments.common.validation import PENALTY_POINTS_MAX

REASON_MAX = 2000


#: Text PostgreSQL can store: no NUL character (DRF refuses them too).
NO_NUL = r"^[^\x00]*$"


#: Whitespace to Python's ``str.strip`` (which DRF trims) and to JSON Schema's ``\s``
#: together, spelled out so that the API and the schema's regex dialect agree.
_SPACE = r"\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

#: Text with at least one visible character (one that is neither whitespace nor NUL).
VISIBLE = rf"^[^\x00]*[^\x00{_SPACE}][^\x00]*$"


def reason_field() -> serializers.RegexField:
    """A reason: free text with at least one visible character."""
    return serializers.RegexField(VISIBLE, max_length=REASON_MAX)


def cards_field(max_length: int) -> serializers.RegexField:
    """Card text as typed (the rules library reads it)."""
    return serializers.RegexField(VISIBLE, max_length=max_length, trim_whitespace=False)


def seat_field(**kwargs: Any) -> serializers.IntegerField:
    """A seat position of some table (0 … 3); the services hold it to the hand's table."""
    return serializers.IntegerField(min_value=0, max_value=MAX_SEATS - 1, **kwargs)


#: Fields made of other fields or serializers, which a shallow copy would share.
_COMPOUND = (serializers.ListField, serializers.DictField, serializers.BaseSerializer)


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not know (a typo must not be silently ignored)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields, each a shallow copy of the class's: DRF deep-copies them for
        every instance, which builds each field again (its validators, its messages) — 770
        of ActionInput's 1,160 µs a validation, on every referee write (timeit, the shared
        2-core machine). A request changes a field only when it is bound (its name, parent,
        label and source: set on the copy); what the copies share (validators, messages,
        choices) is read only. Compound fields (a list's child, a nested serializer) are
        deep-copied as DRF does: their children are bound to their parent."""
        return {
            name: copy.deepcopy(field) if isinstance(field, _COMPOUND) else copy.copy(field)
            for name, field in self._declared_fields.items()
        }

    @classmethod
    def plain_validated(cls, data: Any) -> dict[str, Any] | None:
        """The validated data of ``data`` when a plain check shows it valid (without building
        the serializer), else None: the serializer then decides, with its messages."""
        return None

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {name[:50]: [_("Unknown field.")] for name in unknown[:10]}
                )
            # DRF turns a number into text, "0" into a number and "yes" or 1 into true; the
            # schema says text, integer and boolean (JSON's own types), so refuse the others.
            wrong = {
                name: [message]
                for name, field in self.fields.items()
                if data.get(name) is not None
                and (message := _wrong_json_type(field, data[name])) is not None
            }
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


def _wrong_json_type(field: serializers.Field, value: Any) -> str | None:
    """Why ``value`` is not of the JSON type the schema gives ``field``; None when it is."""
    if isinstance(field, serializers.CharField):
        return None if isinstance(value, str) else _("Must be text.")
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else _("Must be true or false.")
    if isinstance(field, serializers.IntegerField):
        return None if not isinstance(value, str | bool) else _("Must be a number.")
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        return next((m for v in value if (m := _wrong_json_type(field.child, v))), None)
    return None


# ------------------------------------------------------------------------- errors
class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable machine-readable code.")
    message = serializers.CharField(help_text="In the request's language.")
    details = serializers.DictField(
        help_text="index, top (the play to beat), rule, version, fields…"
    )


# ------------------------------------------------------------------------- inputs
class TokenInput(AuthTokenSerializer):
    """Sign-in: DRF's token serializer, with the bounds of Django's user table (a longer
    name could not be a user, and django-axes records the name of every failure)."""

    username = serializers.RegexField(VISIBLE, min_length=1, max_length=150, label=_("Username"))
    password = serializers.RegexField(
        NO_NUL,
        min_length=1,
        max_length=4096,
        trim_whitespace=False,
        style={"input_type": "password"},
        label=_("Password"),
    )
    token = None  # type: ignore[assignment]  # the answer's field (TokenOutput), not the question's


class HandStartInput(StrictSerializer):
    """How the hand is dealt."""

    deal = serializers.ChoiceField(
        choices=["random", "board", "physical", "none"],
        help_text="random: dealt by the server from a recorded seed; board: a duplicate "
        "board; physical: the deal is unknown (physical cards); none: result-only entry.",
    )
    board = serializers.IntegerField(
        required=False, min_value=1, max_value=2**31 - 1, help_text="Board number."
    )
    first_bidder = seat_field(required=False)


class ActionInput(StrictSerializer):
    """One of bid, double, redouble, play (SPEC notation, physical cards, or "pass"), or a
    six-player landlord's call of the partner card.

    Described in the schema as one of five shapes (``referee.api.schema``)."""

    seat = seat_field()
    bid = serializers.IntegerField(required=False, min_value=-1000, max_value=1000)
    double = serializers.BooleanField(required=False)
    redouble = serializers.BooleanField(required=False)
    # six players: a 32-card play with suits and copies ("♠10#1 ") is up to 192 characters
    play = serializers.RegexField(NO_NUL, required=False, max_length=400, trim_whitespace=False)
    call = serializers.RegexField(
        NO_NUL,
        required=False,
        max_length=16,
        trim_whitespace=False,
        help_text='six_p: the partner card the landlord calls, rank and suit ("♠2"), or '
        '"none" (R13.4, R13.5).',
    )
    partner = serializers.BooleanField(
        required=False,
        help_text="six_p, physical cards: true, this seat shows the partner card's third copy "
        "at the end, the hand having ended before he played it (R13.8).",
    )

    @classmethod
    def plain_validated(cls, data: Any) -> dict[str, Any] | None:
        """What a phone sends, a seat and one action (a play and its ``as``), checked as the
        fields below check it, the same data in the same order; None for anything else (an
        error included: the serializer answers it). In a referee write, 295 µs of thread CPU
        with the serializer against 13-17 µs with this (``bench/api_write_profile.py``, each
        function's thread CPU, the 2-core machine; about 3.4-4.6 ms of CPU a write)."""
        if type(data) is not dict:
            return None
        seat = data.get("seat")
        kinds = [kind for kind in _ACTION_KINDS if kind in data]
        if type(seat) is not int or not 0 <= seat < MAX_SEATS or len(kinds) != 1:
            return None
        kind = kinds[0]
        value = data[kind]
        declared = "as" in data
        if len(data) != 2 + declared or (declared and kind != "play"):
            return None  # a field unknown, or ``as`` without a play
        if kind == "bid":
            valid = type(value) is int and _BID_MIN <= value <= _BID_MAX
        elif kind in ("double", "redouble"):
            valid = type(value) is bool
        elif kind == "partner":
            valid = value is True
        else:
            valid = _plain_text(value, _TEXT_MAX[kind])
        if not valid or (declared and not _plain_text(data["as"], _TEXT_MAX["as"])):
            return None
        return {"seat": seat, kind: value, **({"as": data["as"]} if declared else {})}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in _ACTION_KINDS if k in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                _("Give exactly one of bid, double, redouble, play, call or partner.")
            )
        if attrs.get("partner") is False:
            raise serializers.ValidationError({"partner": [_("Only true: this seat shows it.")]})
        if "as" in attrs and "play" not in attrs:
            raise serializers.ValidationError({"as": [_("Only a play declares its wild cards.")]})
        return attrs


#: An action's fields, one of which it gives (in ``ActionInput``'s order).
_ACTION_KINDS = ("bid", "double", "redouble", "play", "call", "partner")
#: What DRF's text fields refuse in a non-empty text: NUL and surrogate characters.
_REFUSED_CHARACTERS = re.compile("[\x00\ud800-\udfff]")


def _plain_text(value: Any, max_length: int) -> bool:
    """Whether ``value`` is text ``ActionInput``'s text fields take as it is."""
    return (
        type(value) is str
        and 0 < len(value) <= max_length
        and _REFUSED_CHARACTERS.search(value) is None
    )


# ``as`` is a Python keyword: the field is declared by name (the rules' JSON form of a play
# whose wild cards stand for other ranks, ``{"seat": 0, "play": "77W", "as": "777"}``).
ActionInput._declared_fields["as"] = serializers.RegexField(
    NO_NUL,
    required=False,
    max_length=200,
    trim_whitespace=False,
    help_text="laizi: the cards the play stands for, its wild cards declared (R11.2.5).",
)
#: The longest text of each text field of an action, and the bounds of a bid, as declared.
_ACTION_FIELDS: dict[str, Any] = ActionInput._declared_fields
_TEXT_MAX = {name: _ACTION_FIELDS[name].max_length for name in ("play", "call", "as")}
_BID_MIN = _ACTION_FIELDS["bid"].min_value
_BID_MAX = _ACTION_FIELDS["bid"].max_value


class AnnouncementInput(StrictSerializer):
    """报牌 of a seat: made, or missing (SPEC R6)."""

    seat = seat_field()
    made = serializers.BooleanField(
        default=True, help_text="false logs a missing announcement (an irregularity)."
    )


class ReasonInput(StrictSerializer):
    """Why (kept in the hand's log)."""

    reason = reason_field()


class ResultInput(StrictSerializer):
    """A hand's result (result-only entry), scored by the rules library."""

    landlord = seat_field()
    bid = serializers.IntegerField(
        min_value=1,
        max_value=3,
        required=False,
        help_text="The landlord's bid; required but in six players (base 1, no auction: R13.3).",
    )
    partner = seat_field(
        required=False,
        allow_null=True,
        help_text=(
            "Six players only, and required there: the landlord's partner (暗地主), the holder "
            "of the partner card's third copy, or null when the landlord played alone (R13.4)."
        ),
    )
    winner = serializers.ChoiceField(choices=["landlord", "defenders"])
    doubled = serializers.ListField(
        child=serializers.BooleanField(),
        min_length=SEAT_COUNTS[0],
        max_length=MAX_SEATS,
        required=False,
        help_text="One flag a seat of the table.",
    )
    redoubled = serializers.BooleanField(default=False)
    # the most any game's packs hold (three packs: MAX_BOMBS_SIX, R13.7); each game's rules
    # refuse more than its own (``invalid_result``)
    bombs = serializers.IntegerField(default=0, min_value=0, max_value=MAX_BOMBS_SIX)
    rockets = serializers.IntegerField(default=0, min_value=0, max_value=1)
    spring = serializers.BooleanField(default=False)
    anti_spring = serializers.BooleanField(default=False)


class CorrectionInput(ResultInput):
    """The corrected result and why: the landlord, the bid and the winner, or ``passed_out``:
    the hand is corrected to 流局 (no landlord, 0 for everyone). ``override`` (directors
    only): the correction stands against the hand's play-by-play log, kept beside it."""

    landlord = seat_field(required=False)
    bid = serializers.IntegerField(min_value=1, max_value=3, required=False)
    winner = serializers.ChoiceField(choices=["landlord", "defenders"], required=False)
    passed_out = serializers.BooleanField(default=False)
    override = serializers.BooleanField(default=False)
    reason = reason_field()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # The schema says so too (``anyOf``, ``referee.api.schema``): a refusal of the form.
        if not attrs.get("passed_out"):
            missing = {
                name: [_("This field is required.")] for name in RESULT_FIELDS if name not in attrs
            }
            if missing:
                raise serializers.ValidationError(missing)
        return attrs


class DealInput(StrictSerializer):
    """The deal of a physical-cards hand, written in afterwards."""

    hands = serializers.ListField(
        child=cards_field(200),
        min_length=SEAT_COUNTS[0],
        max_length=MAX_SEATS,
        help_text="One a seat of the table.",
    )
    kitty = cards_field(60)
    first_bidder = seat_field(
        required=False, help_text="Required but in six players, whose face_up names the landlord."
    )
    face_up = serializers.RegexField(
        VISIBLE,  # the schema says so: "" and "\r" are no card (schemathesis ST202)
        required=False,
        max_length=16,
        trim_whitespace=False,
        help_text='Six players: the face-up card with its copy ("♠7#2"); its holder is the '
        "landlord (R13.3).",
    )


class WildInput(StrictSerializer):
    """The wild rank drawn at a physical-cards laizi table (R11.2.1), one rank: 3 … 2."""

    wild = serializers.RegexField(
        NO_NUL,
        min_length=1,
        max_length=8,
        trim_whitespace=False,
        help_text='One rank, never a joker: "7", "T" or "10", "2".',
    )


class PenaltyInput(StrictSerializer):
    """A signed score adjustment on an entry (SPEC §9), optionally tied to a hand."""

    entry = serializers.IntegerField(min_value=1, max_value=2**62)
    points = serializers.IntegerField(min_value=-PENALTY_POINTS_MAX, max_value=PENALTY_POINTS_MAX)
    reason = reason_field()
    hand = serializers.IntegerField(required=False, min_value=1, max_value=2**62)


class EmptyInput(StrictSerializer):
    """No body fields."""


class ConfirmInput(StrictSerializer):
    """A second official confirms with an empty body; under ``confirmed_by: players`` the
    players confirm with ``pins``: seat position → the PIN on that entry's table card,
    one seat of each side (``{"0": "4821", "2": "0937"}``)."""

    pins = serializers.DictField(
        child=serializers.RegexField(r"^[0-9]{4}$", max_length=4),
        required=False,
        help_text="Seat position (0 … the table's seat count - 1) to the 4-digit PIN of the "
        "entry in that seat.",
    )

    def validate_pins(self, value: dict[str, str]) -> dict[int, str]:
        positions = {str(position) for position in range(MAX_SEATS)}
        if not value or not set(value) <= positions:
            # Schema-valid but no confirmation: refused like too few PINs (422); the service
            # holds the seats to the hand's table.
            raise ApplicationError(
                "pins_incomplete",
                _("A seat is its position at the table, from 0; one PIN of each side."),
            )
        return {int(key): pin for key, pin in value.items()}


# ------------------------------------------------------------------------- outputs
class TopPlayOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    cards = serializers.CharField()
    kind = serializers.CharField()


class AnnouncementDueOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    cards_left = serializers.IntegerField()


class EventOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    actor_seat = serializers.IntegerField(allow_null=True)
    payload = serializers.JSONField()
    recorded_at = serializers.DateTimeField()
    recorded_by = serializers.CharField(allow_null=True, required=False)
    device_id = serializers.CharField(required=False, allow_blank=True)


class SixPlayersOutput(serializers.Serializer):
    """A six-player hand's landlord and partner as the table may know them (R13.11): the
    partner only from the play that reveals him, or the end of the hand. Before, nothing
    here, nor any other field of a non-director's read, names him."""

    phase = serializers.ChoiceField(
        choices=["calling", "playing", "naming", "finished"],
        help_text="calling: the landlord is still to call the partner card (R13.4); naming "
        "(physical cards): the hand ended before the partner played it, the seat that shows "
        "it is to be entered (R13.8).",
    )
    face_up = serializers.CharField(
        allow_null=True,
        help_text="The face-up card; its holder is the landlord. Null: entered by its result.",
    )
    partner_card = serializers.CharField(
        allow_null=True, help_text="The partner card called (♠2); null before the call or alone."
    )
    alone = serializers.BooleanField(
        allow_null=True, help_text="The landlord called none and plays alone (R13.5)."
    )
    partner = serializers.IntegerField(
        allow_null=True, help_text="The partner's seat once public; null before (R13.11)."
    )
    revealed_at = serializers.IntegerField(
        allow_null=True, help_text="The index of the action that revealed him; null before."
    )


class HandStateOutput(serializers.Serializer):
    """A hand's state without its event log."""

    id = serializers.IntegerField()
    tournament = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    table_id = serializers.IntegerField()
    number = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    mode = serializers.ChoiceField(choices=["dealt", "physical", "result_only"])
    rule_profile = serializers.CharField()
    stake_cap = serializers.IntegerField(
        allow_null=True,
        help_text="The event's cap on the multiplier the hand is scored with (five players, "
        "R14.7); null: no cap.",
    )
    seats = serializers.IntegerField(help_text="Seats at the table: 3, or 4 under four_p.")
    version = serializers.IntegerField(
        allow_null=True,
        help_text="Send it back in If-Match. Null with the rest of a secret board's hand "
        "(see secret).",
    )
    status = serializers.CharField(
        help_text="bidding, doubling, playing, finished, passed_out, voided; of a secret "
        "board's hand only in_play or closed."
    )
    par = serializers.JSONField(
        allow_null=True,
        help_text="The par of the hand's duplicate board (comp2016, classic; issue 33): "
        "``table`` (per seat as landlord: true wins, false loses, null unsolved), ``outcome`` "
        "(landlord, passed_out, unsolved), ``landlord``, ``bid``, ``scores``, and ``lost``: "
        "where this hand left par (``outcome`` held, turned, open, unsolved, no_play; "
        "``start_action``, ``turn_action``, ``turn_seat``, ``kept_play``, ``open_action``, "
        "action indexes into the hand's actions in force). Null until the board is released "
        "and analysed, and whenever it is not released.",
    )
    secret = serializers.BooleanField(
        help_text="The hand's duplicate board is secret to the reader (it is not released: "
        "another table still has to play it): nothing the deal decides is shown — no card, "
        "auction, landlord, wild rank, cards left, bombs, stakes, winner, scores nor log; "
        "every such field is null (or empty). Directors and the table's own referees are "
        "shown their hand."
    )
    confirmation = serializers.CharField()
    counts = serializers.BooleanField(help_text="The result enters the standings.")
    landlord = serializers.IntegerField(allow_null=True)
    bid = serializers.IntegerField(allow_null=True)
    doubled = serializers.ListField(child=serializers.BooleanField(), allow_null=True)
    redoubled = serializers.BooleanField(allow_null=True)
    bombs = serializers.IntegerField(allow_null=True)
    rockets = serializers.IntegerField(allow_null=True)
    spring = serializers.BooleanField(allow_null=True)
    anti_spring = serializers.BooleanField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    stakes = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        allow_null=True,
        help_text="Per defender: bid × the multiplier so far (null for the landlord).",
    )
    turn = serializers.IntegerField(allow_null=True)
    top_play = TopPlayOutput(allow_null=True)
    cards_left = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    announcements_due = AnnouncementDueOutput(many=True)
    legal_actions = serializers.ListField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="The seat on turn's legal actions (null when hidden or unknown).",
    )
    ahead = serializers.ListField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="The seats after the one on turn, nearest first, each after the seats before "
        "it declined (pass, no bid, no double): {declines: [actions], phase, turn, "
        "legal_actions} (null when the cards are hidden or unknown).",
    )
    hands = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="Cards still held (null when hidden: see the card secrecy rule).",
    )
    kitty = serializers.CharField(
        allow_null=True,
        help_text="The kitty (底牌) once turned; null when hidden: a duplicate board's cards "
        "only for directors and the live table's referees until every table of its section "
        "has closed its hand on the board (or the round is closed).",
    )
    deal = serializers.JSONField(allow_null=True, help_text="The deal; null when hidden.")
    wild = serializers.CharField(
        allow_null=True,
        help_text="laizi: the wild rank (癞子), once the landlord is known (R11.2.1); else null.",
    )
    wild_entry = serializers.BooleanField(
        help_text="laizi with physical cards: the landlord is known and no card has been "
        "played: the wild rank drawn may be entered (or entered again, POST .../wild/)."
    )
    wild_due = serializers.BooleanField(
        help_text="laizi with physical cards: the landlord is known and the wild rank drawn "
        "is still to be entered (POST .../wild/); no card is played before it."
    )
    bomb_classes = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="laizi: bombs played by class (soft, hard, pure_wild: R11.2.3), each scored "
        "by its own factor (R11.2.4); null on the other profiles.",
    )
    six = SixPlayersOutput(
        allow_null=True, help_text="six_p: what the table may know of the sides; else null."
    )
    seed = serializers.IntegerField(
        allow_null=True, help_text="The server's deal seed; null when hidden or a board."
    )
    impossible_checks = serializers.ListField(child=serializers.CharField())
    deal_check = serializers.JSONField(allow_null=True)
    irregular = serializers.CharField(allow_null=True, required=False)
    override = serializers.JSONField(allow_null=True, required=False)


class HandOutput(HandStateOutput):
    """A hand as read: its state and its whole event log."""

    events = EventOutput(many=True)


class HandWriteOutput(HandStateOutput):
    """What a write to a hand answers (and a retry of it answers again): the hand's new
    state and the event this write appended, not the whole log (read the hand for it)."""

    event = EventOutput(allow_null=True, help_text="The event this write appended.")


class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField(
        help_text="The name as the request's language shows it: in Chinese the Chinese name "
        "first, else the Latin name first."
    )
    name = serializers.CharField()
    chinese_name = serializers.CharField(allow_blank=True)


class CurrentHandOutput(serializers.Serializer):
    """The table's latest hand: enough for the list of tables to say where it stands (the
    results desk's state words: awaiting confirmation, disputed, irregular…)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    status = serializers.CharField()
    confirmation = serializers.CharField()
    irregular = serializers.CharField(
        allow_null=True, help_text="deal_check_failed: held back until a director decides."
    )


class AwaitingHandOutput(serializers.Serializer):
    """A closed hand of the table still awaiting confirmation."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()


class AssignmentOutput(serializers.Serializer):
    table_id = serializers.IntegerField()
    tournament = serializers.CharField(help_text="The tournament's slug.")
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    rounds_planned = serializers.IntegerField(
        help_text="The rounds the event is planned to have (round 2 of 5); 0: not planned."
    )
    table = serializers.IntegerField()
    seats = SeatOutput(many=True)
    seat_count = serializers.IntegerField(
        help_text="Seats at this table: 3, or 4 in the four-player profile (four_p)."
    )
    result_only = serializers.BooleanField(
        help_text="Whether a hand may be entered by its result alone (deal none): not under "
        "the variant profiles, refereed play by play."
    )
    rule_profile = serializers.CharField(help_text="The tournament's rule profile key.")
    result_fields = serializers.ListField(
        child=serializers.CharField(),
        help_text="The result's fields a result-only entry asks: all of them in the "
        "three-player profiles; landlord (the digger), bid and winner in Big Three; none "
        "in a variant.",
    )
    passed_out_possible = serializers.BooleanField(
        help_text="Whether a hand can be passed out (流局): not in Big Three (R12.5.2)."
    )
    current_hand = CurrentHandOutput(allow_null=True)
    hands_per_round = serializers.IntegerField()
    hands_allowed = serializers.IntegerField(
        help_text="The hands this table may play this round: the round's and those a "
        "director added at the table."
    )
    hands_played = serializers.IntegerField(
        help_text="The table's hands this round, the live one too, a voided one not: no "
        "hand starts once it reaches hands_allowed (round_hands_done)."
    )
    confirmed_by = serializers.ChoiceField(choices=["official", "players"])
    awaiting_confirmation = AwaitingHandOutput(many=True)


class TableHandOutput(serializers.Serializer):
    """One hand of a table: its state as the results desk shows it, who confirmed it and
    the scores (no card: read the hand for them)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    board = serializers.IntegerField(allow_null=True)
    mode = serializers.ChoiceField(choices=["dealt", "physical", "result_only"])
    status = serializers.CharField()
    confirmation = serializers.CharField()
    state = serializers.ChoiceField(
        choices=["playing", "awaiting", "confirmed", "finished", "disputed", "irregular", "voided"],
        help_text="awaiting: awaiting confirmation; irregular: its written-in deal does not "
        "fit its log; finished: closed, no confirmation needed.",
    )
    counts = serializers.BooleanField(help_text="The result enters the standings.")
    landlord = serializers.IntegerField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    confirmed_by = serializers.ChoiceField(
        choices=["official", "players"],
        allow_null=True,
        help_text="Who confirmed a confirmed hand (null otherwise).",
    )
    confirmer = serializers.CharField(
        allow_blank=True, help_text="The official's user name, or the players' names."
    )
    irregular = serializers.CharField(allow_null=True)
    overridden = serializers.BooleanField(
        help_text="A director's correction overrides its play-by-play log."
    )


class TableOutput(serializers.Serializer):
    """A table as its referee sees it: seats, who confirms, and its hands this round."""

    table_id = serializers.IntegerField()
    tournament = serializers.CharField()
    tournament_name = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    confirmed_by = serializers.ChoiceField(choices=["official", "players"])
    seats = SeatOutput(many=True)
    hands = TableHandOutput(many=True)
    awaiting_confirmation = AwaitingHandOutput(many=True)


class _PresentOnly(serializers.IntegerField):
    """An output field shown only where its key is present (``None`` is a value there)."""

    def get_attribute(self, instance: Any) -> Any:
        if self.field_name not in instance:
            raise serializers.SkipField
        return instance[self.field_name]


class ResultOutput(serializers.Serializer):
    """A result as the rules library writes it; six players' has the partner and no bid,
    doubling or rocket (R13.3, R13.4)."""

    landlord = serializers.IntegerField()
    partner = _PresentOnly(
        allow_null=True,
        required=False,  # absent but in six players (schemathesis ST108)
        help_text="Six players only: null, alone.",
    )
    bid = serializers.IntegerField(required=False)
    doubled = serializers.ListField(child=serializers.BooleanField(), required=False)
    redoubled = serializers.BooleanField(required=False)
    bombs = serializers.IntegerField()
    rockets = serializers.IntegerField(required=False)
    spring = serializers.BooleanField()
    anti_spring = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["landlord", "defenders"])


class ResultPreviewOutput(serializers.Serializer):
    """What saving this result would record: computed by the result entry's own checks
    and scoring; nothing is written."""

    result = ResultOutput()
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="One a seat of the table, in seat order (zero-sum).",
    )
    rule_profile = serializers.CharField()
    needs_confirmation = serializers.BooleanField(
        help_text="Saved now, the hand would await confirmation."
    )


class PenaltyOutput(serializers.Serializer):
    id = serializers.IntegerField()
    tournament = serializers.CharField(source="tournament.slug")
    entry = serializers.IntegerField(source="entry_id")
    hand = serializers.IntegerField(source="hand_id", allow_null=True)
    points = serializers.IntegerField()
    reason = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    revoke_reason = serializers.CharField(allow_blank=True)
