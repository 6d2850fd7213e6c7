"""Reasons over the API, on SQLite and PostgreSQL alike: text beyond the Basic Multilingual
Plane is stored exactly; a NUL character (PostgreSQL's text refuses it) is 400 ``validation``
and a lone surrogate (no character: no UTF-8 database or answer holds one) 400
``invalid_unicode``, in any field or key; nothing is written after a refusal.

Bodies are sent as JSON text written here, so that ``\\ud800`` reaches the server as the
escape a client would send (a surrogate pair escaped is one astral character)."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.rules.cards import Deal
from tests.api.helpers import assign, client_for, new_key, playing_table, post, referee_user
from tests.api.helpers import start_hand as start
from tournaments.models import HandEvent, Penalty

pytestmark = pytest.mark.django_db

#: The reason schemathesis sent (a private-use plane-15 character among Latin-1 ones).
ASTRAL = "NÏY\U000fe6e2ÈÛ3`o\xff²Ý"


def raw_post(client: Any, url: str, text: str) -> Any:
    return client.post(url, text, content_type="application/json", HTTP_IDEMPOTENCY_KEY=new_key())


def with_reason(body: dict[str, Any], reason_json: str) -> str:
    """``body`` as JSON text with ``"reason": <reason_json>`` (JSON text itself) added."""
    return json.dumps(body)[:-1] + (", " if body else "") + f'"reason": {reason_json}}}'


@dataclass
class ReasonWrite:
    """One write that takes a reason: where to send it, the rest of its body, and where
    the reason is stored once accepted."""

    url: str
    client: Any
    body: dict[str, Any]
    stored: Callable[[], list[str]]


def _event_reasons(hand_id: int) -> Callable[[], list[str]]:
    def reasons() -> list[str]:
        events = HandEvent.objects.filter(hand_id=hand_id).order_by("seq")
        return [e.payload["reason"] for e in events if "reason" in e.payload]

    return reasons


@pytest.fixture
def writes(director: Any) -> dict[str, Callable[[], ReasonWrite]]:
    """Each reason field of the API, on a hand (at a table of its own) or a penalty ready
    for that write."""
    ref_user, second_user = referee_user("ref-a"), referee_user("ref-b")
    ref, second, staff = client_for(ref_user), client_for(second_user), client_for(director)
    penalised = playing_table()
    slug = penalised.round.tournament.slug
    entry = penalised.seats.get(position=1).entry_id

    def own_table() -> Any:
        other = playing_table(requires_confirmation=True)
        assign(ref_user, other)
        assign(second_user, other, whole_round=True)
        return other

    def live_hand_with_a_bid() -> ReasonWrite:
        hand = start(ref, own_table()).json()
        bidder = Deal.from_json(hand["deal"]).first_bidder
        post(ref, f"/api/v1/hands/{hand['id']}/actions/", {"seat": bidder, "bid": 1})
        return ReasonWrite(f"/api/v1/hands/{hand['id']}/undo/", ref, {}, _event_reasons(hand["id"]))

    def closed_hand(
        action: str, client: Any, body: dict[str, Any], *, logged: bool = False
    ) -> Callable[[], ReasonWrite]:
        """A hand awaiting confirmation at a table of its own: a result entered, or
        (``logged``) passed out by three passes, so that a correction overrides its log."""

        def make() -> ReasonWrite:
            hand = start(ref, own_table(), deal="random" if logged else "none").json()
            url = f"/api/v1/hands/{hand['id']}/"
            if logged:
                bidder = Deal.from_json(hand["deal"]).first_bidder
                for i in range(3):
                    post(ref, url + "actions/", {"seat": (bidder + i) % 3, "bid": 0})
            else:
                result = {"landlord": 0, "bid": 2, "winner": "landlord"}
                post(ref, url + "result/", result)
            assert ref.get(url).json()["confirmation"] == "pending"
            return ReasonWrite(url + action, client, body, _event_reasons(hand["id"]))

        return make

    def penalty() -> ReasonWrite:
        def reasons() -> list[str]:
            return list(Penalty.objects.order_by("pk").values_list("reason", flat=True))

        url = f"/api/v1/tournaments/{slug}/penalties/"
        return ReasonWrite(url, staff, {"entry": entry, "points": -1}, reasons)

    def revoke() -> ReasonWrite:
        made = post(
            staff, f"/api/v1/tournaments/{slug}/penalties/", {**penalty().body, "reason": "x"}
        )
        url = f"/api/v1/penalties/{made.json()['id']}/revoke/"

        def reasons() -> list[str]:
            return [p.revoke_reason for p in Penalty.objects.exclude(revoke_reason="")]

        return ReasonWrite(url, staff, {}, reasons)

    return {
        "undo": live_hand_with_a_bid,
        "void": closed_hand("void/", staff, {}),
        "dispute": closed_hand("dispute/", second, {}),
        "correction": closed_hand(
            "correction/", ref, {"landlord": 0, "bid": 3, "winner": "landlord"}
        ),
        "override": closed_hand(
            "correction/",
            staff,
            {"landlord": 1, "bid": 3, "winner": "landlord", "override": True},
            logged=True,
        ),
        "penalty": penalty,
        "revoke": revoke,
    }


WRITES = ["undo", "void", "dispute", "correction", "override", "penalty", "revoke"]


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize(
    "reason_json, stored",
    [
        pytest.param(json.dumps(ASTRAL), ASTRAL, id="astral-escaped-as-a-pair"),
        pytest.param(json.dumps(ASTRAL, ensure_ascii=False), ASTRAL, id="astral-as-utf8"),
        pytest.param('"\\ud83c\\udc04 \\u9ebb\\u5c07"', "🀄 麻將", id="mahjong-tile-pair"),
    ],
)
def test_a_reason_beyond_the_bmp_is_stored_exactly(
    writes: dict[str, Callable[[], ReasonWrite]], write: str, reason_json: str, stored: str
) -> None:
    target = writes[write]()
    before = target.stored()

    response = raw_post(target.client, target.url, with_reason(target.body, reason_json))

    assert response.status_code in (200, 201), response.json()
    assert target.stored() == [*before, stored]
    if write in ("penalty", "revoke"):
        assert stored in (response.json()["reason"], response.json()["revoke_reason"])


@pytest.mark.parametrize("write", WRITES)
@pytest.mark.parametrize(
    "reason_json, code, field_message",
    [
        pytest.param(
            '"slow\\u0000play"', "validation", "Null characters are not allowed.", id="nul"
        ),
        pytest.param('"\\u0000"', "validation", "Null characters are not allowed.", id="only-nul"),
        pytest.param('"slow play \\ud800"', "invalid_unicode", None, id="lone-high-surrogate"),
        pytest.param('"\\udc04\\ud83c"', "invalid_unicode", None, id="pair-reversed"),
    ],
)
def test_a_reason_no_database_can_store_is_refused_with_its_code(
    writes: dict[str, Callable[[], ReasonWrite]],
    write: str,
    reason_json: str,
    code: str,
    field_message: str | None,
) -> None:
    target = writes[write]()
    before = target.stored()
    events = HandEvent.objects.count()

    response = raw_post(target.client, target.url, with_reason(target.body, reason_json))

    assert response.status_code == 400
    assert response.json()["code"] == code
    if field_message is not None:
        assert field_message in response.json()["details"]["fields"]["reason"]
    else:
        assert "lone surrogate" in response.json()["message"]
    assert target.stored() == before
    assert HandEvent.objects.count() == events


@pytest.mark.parametrize("write", ["undo", "correction", "penalty"])
def test_a_lone_surrogate_in_a_key_is_refused_not_echoed(
    writes: dict[str, Callable[[], ReasonWrite]], write: str
) -> None:
    """An unknown field's name is echoed in the refusal: a lone surrogate there could not
    be written as UTF-8 (a 500 before), so the body is refused as a whole."""
    target = writes[write]()
    body = with_reason({**target.body}, '"ok"')[:-1] + ', "\\ud800": 1}'

    response = raw_post(target.client, target.url, body)

    assert (response.status_code, response.json()["code"]) == (400, "invalid_unicode")
    assert response.json()["details"] == {}


def test_a_lone_surrogate_in_a_choice_is_refused_not_echoed(
    writes: dict[str, Callable[[], ReasonWrite]],
) -> None:
    """DRF echoes a refused choice ("… is not a valid choice."): the same 500 before."""
    target = writes["correction"]()
    body = with_reason({"landlord": 0, "bid": 3}, '"ok"')[:-1] + ', "winner": "\\udfff"}'

    response = raw_post(target.client, target.url, body)

    assert (response.status_code, response.json()["code"]) == (400, "invalid_unicode")


# Whitespace where Python and JSON Schema differ, NUL, lone surrogates, astral characters.
_REASON_CHARACTERS = (
    st.sampled_from(
        "\x00\x1c\x85\xa0\u2000\u3000\ufeff \t\na地\ud800\udbff\udc00\U0001f004\U000fe6e2"
    )
    | st.characters()
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(reason=st.text(alphabet=_REASON_CHARACTERS, max_size=10))
def test_an_undo_reason_is_stored_exactly_or_refused_with_its_code(
    writes: dict[str, Callable[[], ReasonWrite]], reason: str
) -> None:
    """Any text: a reason with a visible character and neither NUL nor a lone surrogate is
    stored as sent (trimmed, as every reason is); any other is 400 with its code and the
    hand unchanged. Each example has its own hand (the examples share one database)."""
    target = writes["undo"]()
    before = target.stored()

    response = raw_post(target.client, target.url, json.dumps({"reason": reason}))

    lone_surrogate = any("\ud800" <= c <= "\udfff" for c in reason)
    # Visible: neither Python's whitespace (which the API trims) nor JSON Schema's (\ufeff).
    visible = any(not c.isspace() and c != "\ufeff" for c in reason)
    if lone_surrogate:
        assert (response.status_code, response.json()["code"]) == (400, "invalid_unicode")
    elif "\x00" in reason or not visible:
        assert (response.status_code, response.json()["code"]) == (400, "validation")
    else:
        assert response.status_code == 200, response.json()
        assert target.stored() == [*before, reason.strip()]
        return
    assert target.stored() == before
