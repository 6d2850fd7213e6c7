"""The console's API client (api.js) and queue (queue.js), run in Chromium as the ES modules
the console serves: every answer class, the headers of a write, and what the queue does
with an item for each class (a fake fetch and fake timers; no server write). Then the pure
helpers of the play composer (entry.js: cards grouped by rank, legal plays in order) and of
the round (round.js: hands left)."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from referee.rules.cards import deal_from_seed
from referee.rules.moves import legal_plays

pytestmark = pytest.mark.django_db(transaction=True)

PRELUDE = (Path(__file__).parent / "modules_harness.js").read_text()


def _run(page: Page, body: str) -> Any:
    return page.evaluate("async () => {" + PRELUDE + body + "}")


@pytest.fixture
def page(page_en: Page, live_server: Any) -> Page:
    page_en.goto("/referee/login/")
    return page_en


def test_every_answer_class(page: Page) -> None:
    result = _run(
        page,
        """
        const c = (status, code) => api.classify(answer(status, code ? { code } : null));
        return {
          ok: [c(200), c(201)], network: c(0), rules: c(422, 'does_not_beat'),
          state: [c(409, 'hand_closed'), c(409, 'nothing_to_undo'), c(409, 'idempotency_conflict')],
          malformed: [c(400, 'validation'), c(404, 'not_found'), c(413, 'too_large')],
          conflict: c(409, 'version_conflict'),
          auth: [c(401, 'not_authenticated'), c(403, 'permission_denied')],
          retry: [c(429, 'throttled'), c(500), c(502), c(503, 'database_unavailable'), c(408)],
        };
        """,
    )
    assert result == {
        "ok": ["done", "done"],
        "network": "retry",
        "rules": "refused",
        "state": ["refused"] * 3,
        "malformed": ["refused"] * 3,
        "conflict": "conflict",
        "auth": ["auth", "auth"],
        "retry": ["retry"] * 5,
    }


def test_retry_delay_backs_off_and_follows_the_server(page: Page) -> None:
    result = _run(
        page,
        """
        return {
          backoff: [1, 2, 3, 4, 5, 6, 7].map((n) => api.retryDelay(n, answer(0, null))),
          header: api.retryDelay(1, answer(503, {}, '5')),
          details: api.retryDelay(
            1, answer(429, { code: 'throttled', details: { retry_after: 3 } })),
        };
        """,
    )
    assert result["backoff"] == [1000, 2000, 4000, 8000, 16000, 30000, 30000]
    assert result["header"] == 5000
    assert result["details"] == 3000


def test_a_write_carries_its_key_version_device_and_csrf(page: Page) -> None:
    result = _run(
        page,
        """
        const seen = [];
        const client = api.createApi({
          fetch: async (url, init) => {
            seen.push({ url, init });
            const headers = { 'Retry-After': '2' };
            return new Response(JSON.stringify({ id: 1 }), { status: 200, headers });
          },
          deviceId: () => 'phone-1', csrfToken: () => 'tok',
        });
        const posted = await client.post(
          '/api/v1/hands/1/actions/', { seat: 0, bid: 1 }, { key: 'k-1', version: 7 });
        const read = await client.get('/api/v1/hands/1/');
        const none = { deviceId: () => 'd', csrfToken: () => '' };
        const failing = async () => { throw new TypeError('Failed to fetch'); };
        const down = api.createApi({ fetch: failing, ...none });
        const lost = await down.post('/x/', {}, { key: 'k' });
        const proxy = async () => new Response('<h1>502</h1>', { status: 502 });
        const html = api.createApi({ fetch: proxy, ...none });
        const bad = await html.post('/x/', {}, { key: 'k' });
        const fields = { message: 'Invalid input.', details: { fields: { seat: ['bad'] } } };
        return { post: seen[0].init.headers, body: seen[0].init.body, posted,
                 get: seen[1].init.headers, lost, bad,
                 csrf: api.csrfFromCookie('a=1; csrftoken=abc%3D; b=2'),
                 text: api.errorText(answer(400, fields)) };
        """,
    )
    assert result["post"] == {
        "Accept": "application/json",
        "X-Device-Id": "phone-1",
        "Content-Type": "application/json",
        "X-CSRFToken": "tok",
        "Idempotency-Key": "k-1",
        "If-Match": '"7"',
    }
    assert result["body"] == '{"seat":0,"bid":1}'
    assert result["posted"] == {"ok": True, "status": 200, "data": {"id": 1}, "retryAfter": "2"}
    assert "Idempotency-Key" not in result["get"] and "If-Match" not in result["get"]
    assert result["lost"]["status"] == 0 and result["lost"]["network"] is True
    assert result["bad"]["status"] == 502 and result["bad"]["data"] is None
    assert result["csrf"] == "abc="
    assert result["text"] == "Invalid input. seat: bad"


def test_queue_sends_everything_in_order_with_each_items_key_and_version(page: Page) -> None:
    result = _run(
        page,
        """
        const s = setup([answer(200, {}), answer(200, {}), answer(200, {})]);
        await s.sender.flush();
        const posts = s.fake.posts.map((p) => [p.options.key, p.options.version]);
        return { posts, left: s.keys(), calls: s.calls };
        """,
    )
    assert result["posts"] == [["a", 5], ["b", 6], ["c", 7]]
    assert result["left"] == []
    assert result["calls"] == ["done:a", "done:b", "done:c"]


def test_queue_drops_a_refused_item_and_holds_the_rest(page: Page) -> None:
    result = _run(
        page,
        """
        const s = setup([answer(200, {}), answer(422, { code: 'out_of_turn', message: 'no' })]);
        await s.sender.flush();
        const held = s.queue.held();
        await s.sender.flush();  // held: nothing is sent until the referee says so
        const versions = s.queue.items().map((i) => i.version);
        return { left: s.keys(), held, posts: s.fake.posts.length, calls: s.calls, versions };
        """,
    )
    assert result == {
        "left": ["c"],
        "held": True,
        "posts": 2,
        "calls": ["done:a", "refused:b"],
        "versions": [6],  # typed after b (7), which was not recorded
    }


def test_queue_state_refusal_drops_the_item(page: Page) -> None:
    result = _run(
        page,
        """
        const s = setup([answer(409, { code: 'hand_closed', message: 'closed' })]);
        await s.sender.flush();
        return { left: s.keys(), calls: s.calls };
        """,
    )
    assert result == {"left": ["b", "c"], "calls": ["refused:a"]}


def test_queue_version_conflict_is_its_own_class(page: Page) -> None:
    result = _run(
        page,
        """
        const body = { code: 'version_conflict', message: 'first', details: { version: 9 } };
        const s = setup([answer(409, body)]);
        await s.sender.flush();
        return { left: s.keys(), held: s.queue.held(), calls: s.calls };
        """,
    )
    assert result == {"left": ["b", "c"], "held": True, "calls": ["conflict:a"]}


@pytest.mark.parametrize("status", [401, 403])
def test_queue_keeps_everything_when_signed_out_and_resumes(page: Page, status: int) -> None:
    result = _run(
        page,
        f"""
        const s = setup([answer(200, {{}}), answer({status}, {{ code: 'not_authenticated' }}),
                         answer(200, {{}}), answer(200, {{}})]);
        await s.sender.flush();
        const afterAuth = s.keys();
        await s.sender.flush();  // still signed out: nothing sent
        const postsWhileOut = s.fake.posts.length;
        await s.sender.resume();  // signed in again
        return {{ afterAuth, postsWhileOut, left: s.keys(), calls: s.calls,
                  keys: s.fake.posts.map((p) => p.options.key) }};
        """,
    )
    assert result["afterAuth"] == ["b", "c"]
    assert result["postsWhileOut"] == 2
    assert result["left"] == []
    assert result["calls"] == ["done:a", "auth:b", "done:b", "done:c"]
    assert result["keys"] == ["a", "b", "b", "c"]  # the same key again: never twice


@pytest.mark.parametrize("status", [0, 429, 500, 503])
def test_queue_retries_with_backoff_and_the_same_key(page: Page, status: int) -> None:
    result = _run(
        page,
        f"""
        const ok = answer(200, {{}});
        const s = setup([answer({status}, null), answer({status}, null), ok, ok, ok]);
        await s.sender.flush();
        const first = s.t.pending.length;
        await s.sender.flush();  // a retry is due later: nothing sent before it
        const early = s.fake.posts.length;
        s.t.pending.shift().fn(); await s.sender.flushing;
        s.t.pending.shift().fn(); await s.sender.flushing;
        return {{ first, early, delays: s.calls.filter((c) => c.startsWith('retry')),
                  keys: s.fake.posts.map((p) => p.options.key), left: s.keys(), calls: s.calls }};
        """,
    )
    assert result["first"] == 1 and result["early"] == 1
    assert result["delays"] == ["retry:a:1000", "retry:a:2000"]
    assert result["keys"] == ["a", "a", "a", "b", "c"]
    assert result["left"] == []
    reconnected = ":reconnected" if status == 0 else ""
    assert result["calls"][2:] == [f"done:a{reconnected}", "done:b", "done:c"]


def test_waking_sends_at_once_and_versions_follow_the_queue(page: Page) -> None:
    result = _run(
        page,
        """
        const s = setup([answer(0, null), answer(200, {}), answer(200, {}), answer(200, {})]);
        await s.sender.flush();
        await s.sender.wake();  // the 'online' event
        const queue = new q.Queue(new Memory());
        const hand = { id: 4, version: 11 };
        const v1 = queue.versionFor(hand);
        queue.push({ key: 'x', handId: 4 });
        queue.push({ key: 'y', handId: 5 });
        return { left: s.keys(), calls: s.calls, v1, v2: queue.versionFor(hand) };
        """,
    )
    assert result["left"] == []
    assert result["calls"] == ["retry:a:1000", "done:a:reconnected", "done:b", "done:c"]
    assert (result["v1"], result["v2"]) == (11, 12)


def test_the_provisional_continuation_of_queued_plays(page: Page) -> None:
    """What the screen shows while writes wait: the seat after them, the play they leave to
    beat (two passes give a free lead) and the ranks each seat would still hold."""
    result = _run(
        page,
        """
        const p = await import('/static/referee/console/provisional.js');
        const hand = { turn: 0, top_play: null, hands: ['♠3 ♥3 ♦4 ♣10', '♠5 ♥6', null] };
        const item = (seat, play) => ({ kind: 'action', body: { seat, play } });
        const one = p.provisional(hand, [item(0, '33')]);
        const three = p.provisional(hand, [item(0, '33'), item(1, 'pass'), item(2, 'pass')]);
        const none = p.provisional(hand, []);
        return { one, three, none, ranks: p.ranksOf('♠3 ♥10 ♦J 🃏 x D') };
        """,
    )
    assert result["one"] == {
        "turn": 1,
        "top": {"cards": "33", "seat": 0},
        "held": ["4T", "56", None],
        "count": 1,
    }
    assert result["three"]["turn"] == 0 and result["three"]["top"] is None
    assert result["none"] == {"turn": 0, "top": None, "held": ["334T", "56", None], "count": 0}
    assert result["ranks"] == "3TJXD"


def test_cards_are_grouped_by_rank_and_labelled_as_the_table_says_them(page: Page) -> None:
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const T = { small_joker: 'Small joker', big_joker: 'Big joker' };
        return {
          groups: e.groupCards('♠3 ♥3 ♣7 ♦7 ♠7 ♥10 ♠J X D'),
          ranks: e.groupCards('TT2X'),
          none: e.groupCards(''),
          labels: ['♠3 ♥7 ♣7 ♦7', 'TT', 'XD', '34567', '♠10 ♥10 ♣10 ♦10', '33344456']
            .map((p) => e.playLabel(p, T)),
          jokers: ['X', 'D', 'T', 'A'].map((r) => e.rankLabel(r, T)),
          add: [e.canAdd('♠7 ♥7 X', '7', '7'), e.canAdd('♠7 ♥7 X', '77', '7'),
                e.canAdd('♠7 ♥7 X', '7', 'X'), e.canAdd('♠7 ♥7 X', 'X', 'X'),
                e.canAdd('♠7 ♥7 X', '', 'D')],
        };
        """,
    )
    assert result["groups"] == [
        {"rank": "3", "count": 2},
        {"rank": "7", "count": 3},
        {"rank": "T", "count": 1},
        {"rank": "J", "count": 1},
        {"rank": "X", "count": 1},
        {"rank": "D", "count": 1},
    ]
    assert result["ranks"] == [
        {"rank": "T", "count": 2},
        {"rank": "2", "count": 1},
        {"rank": "X", "count": 1},
    ]
    assert result["none"] == []
    assert result["labels"] == [
        "777 3",
        "10 10",
        "Small joker Big joker",
        "3 4 5 6 7",
        "10 10 10 10",
        "333 444 5 6",
    ]
    assert result["jokers"] == ["Small joker", "Big joker", "10", "A"]
    assert result["add"] == [True, False, True, False, False]


def test_legal_plays_smallest_that_beats_first_bombs_and_the_rocket_last(page: Page) -> None:
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const a = (play) => ({ seat: 1, play });
        const pairs = [a('pass'), a('XD'), a('♠2 ♥2'), a('9999'), a('♠5 ♥5'), a('3333'),
                       a('♣A ♦A'), a('TT'), a('♠9 ♥9')];
        const trios = ['6663', '5554', '555T', '5553', '6664', 'KKKK'].map(a);
        return {
          pairs: e.orderPlays(pairs).map((x) => x.play),
          trios: e.orderPlays(trios).map((x) => x.play),
          orders: ['XD', '3333', '333444 56', '33345', '2'].map(e.playOrder),
          none: e.orderPlays([a('pass')]),
          shown: e.SHOWN_PLAYS,
        };
        """,
    )
    assert result["pairs"] == [
        "♠5 ♥5",
        "♠9 ♥9",
        "TT",
        "♣A ♦A",
        "♠2 ♥2",
        "3333",
        "9999",
        "XD",
    ]
    assert result["trios"] == ["5553", "5554", "555T", "6663", "6664", "KKKK"]
    assert result["orders"] == [[2], [1, 0], [0, 1, 2, 3], [0, 0, 1, 2], [0, 12]]
    assert result["none"] == []
    assert result["shown"] == 12


_SIMPLE = {"single", "pair", "trio", "straight", "pair_straight", "bomb"}


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), lead=st.integers(0, 10_000), shuffle=st.randoms())
def test_the_order_of_legal_plays_is_an_invariant_of_the_rules(
    page: Page, seed: int, lead: int, shuffle: Any
) -> None:
    """Whatever the deal, the play to beat and the order the API lists them in: every legal
    play is shown once, the same order every time, plays of the kind to beat first (the
    lower body first where the body is the whole play), then bombs low to high, the
    rocket last."""
    deal = deal_from_seed(seed)
    counts = [[sum(1 for c in hand if c.rank == r) for r in range(15)] for hand in deal.hands]
    leads = legal_plays(counts[0])
    previous = leads[lead % len(leads)]
    answers = legal_plays(counts[1], previous)
    listed = [{"seat": 1, "play": p.text()} for p in answers]
    shuffle.shuffle(listed)
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const listed = LISTED;
        return [e.orderPlays(listed).map((a) => a.play),
                e.orderPlays(listed.slice().reverse()).map((a) => a.play)];
        """.replace("LISTED", json.dumps(listed)),
    )
    ordered, again = result
    assert ordered == again
    assert sorted(ordered) == sorted(p.text() for p in answers)
    by_text = {p.text(): p for p in answers}
    classes = [
        2 if by_text[t].kind.value == "rocket" else 1 if by_text[t].kind.value == "bomb" else 0
        for t in ordered
    ]
    assert classes == sorted(classes)
    simple = [by_text[t].rank for t in ordered if by_text[t].kind.value in _SIMPLE]
    bombs = [by_text[t].rank for t in ordered if by_text[t].kind.value == "bomb"]
    assert bombs == sorted(bombs)
    plain = [by_text[t].rank for t in ordered if by_text[t].kind.value in _SIMPLE - {"bomb"}]
    assert plain == sorted(plain)
    assert len(simple) == len(plain) + len(bombs)


def test_the_hands_left_of_a_table_in_its_round(page: Page) -> None:
    result = _run(
        page,
        """
        const r = await import('/static/referee/console/round.js');
        return [
          r.handsLeft({ hands_allowed: 6, hands_played: 4 }),
          r.handsLeft({ hands_allowed: 6, hands_played: 6 }),
          r.handsLeft({ hands_allowed: 7, hands_played: 6 }),
          r.handsLeft({ hands_allowed: 2, hands_played: 3 }),
          r.handsLeft({ table: 1 }),
          r.handsLeft(null),
        ];
        """,
    )
    assert result == [2, 0, 1, 0, None, None]
