"""The console's API client (api.js) and queue (queue.js), run in Chromium as the ES modules
the console serves: every answer class, the headers of a write, and what the queue does
with an item for each class (a fake fetch and fake timers; no server write). Then the pure
helpers of the play composer (entry.js: cards grouped by rank, legal plays in order) and of
the round (round.js: hands left) and of the table (views.js: its seats)."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from referee.rules.cards import RANK_CHARS, deal_from_seed
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


# A write tapped while the sender is still busy with an answer (its hook awaits: the hand
# read again, the table's hands...): the referee tapping d, as enqueue does (push, then
# flush without waiting). The answers: a's, then d's.
_TAP_DURING = """
    const tapD = () => {
      s.queue.push({ key: 'd', url: '/api/v1/hands/1/actions/', body: { seat: 2, bid: 3 },
                     label: 'bid d', handId: 1, version: 5 });
      s.sender.flush();
    };
    const during = (name) => {
      const was = s.sender.hooks[name];
      let tapped = false;
      s.sender.hooks[name] = async (...args) => {
        if (was) await was(...args);
        await null;  // the hook is still running (it awaits a read)
        if (!tapped) { tapped = true; tapD(); }
        await null;
      };
    };
"""


@pytest.mark.parametrize(
    ("status", "code", "hook", "first"),
    [
        (422, "wild_reading_required", "refused", "refused:a"),
        (409, "hand_closed", "refused", "refused:a"),
        (409, "version_conflict", "conflict", "conflict:a"),
        (200, None, "done", "done:a"),
        (200, None, "idle", "done:a"),
    ],
)
def test_a_write_tapped_while_an_answer_is_handled_is_sent_once_it_is(
    page: Page, status: int, code: str | None, hook: str, first: str
) -> None:
    """The bug: a reading tapped while the sender handled a refusal (nothing else waiting)
    sat in the queue until something else woke the sender. It is sent once the handling
    ends: one post, its own key, nothing held."""
    result = _run_with(
        page,
        """
        const s = setup([answer(arg.status, arg.code ? { code: arg.code, message: 'no' } : {}),
                         answer(200, {})]);
        s.queue.remove('b'); s.queue.remove('c');
        """
        + _TAP_DURING
        + """
        during(arg.hook);
        await s.sender.flush();
        return { keys: s.fake.posts.map((p) => p.options.key), left: s.keys(), calls: s.calls,
                 held: s.queue.held(), flushing: s.sender.flushing };
        """,
        {"status": status, "code": code, "hook": hook},
    )
    assert result == {
        "keys": ["a", "d"],
        "left": [],
        "calls": [result["calls"][0], "done:d"],
        "held": False,
        "flushing": None,
    }
    assert result["calls"][0] == first


@pytest.mark.parametrize(("status", "code"), [(422, "out_of_turn"), (409, "version_conflict")])
def test_a_write_tapped_while_a_refusal_holds_the_queue_waits_behind_the_held_ones(
    page: Page, status: int, code: str
) -> None:
    """A refusal with writes typed after it holds them; a write tapped while the refusal is
    handled waits behind them (order kept), and Send now sends them all, each once with its
    own key, in order."""
    result = _run_with(
        page,
        """
        const s = setup([answer(arg.status, { code: arg.code, message: 'no' }),
                         answer(200, {}), answer(200, {}), answer(200, {})]);
        """
        + _TAP_DURING
        + """
        during(arg.status === 422 ? 'refused' : 'conflict');
        await s.sender.flush();
        const whileHeld = { posts: s.fake.posts.length, left: s.keys(), held: s.queue.held() };
        s.queue.setHeld(false);  // Send now
        await s.sender.wake();
        return { whileHeld, keys: s.fake.posts.map((p) => p.options.key), left: s.keys(),
                 calls: s.calls.slice(1) };
        """,
        {"status": status, "code": code},
    )
    assert result["whileHeld"] == {"posts": 1, "left": ["b", "c", "d"], "held": True}
    assert result["keys"] == ["a", "b", "c", "d"]
    assert result["left"] == []
    assert result["calls"] == ["done:b", "done:c", "done:d"]


def test_flushes_asked_while_sending_send_each_write_once_in_order(page: Page) -> None:
    """Many flushes asked while one is under way (taps, the 'online' event) make no second
    sender: every write posted once, oldest first."""
    result = _run(
        page,
        """
        const s = setup([answer(200, {}), answer(200, {}), answer(200, {}), answer(200, {})]);
        s.sender.hooks.done = async (item) => {
          s.calls.push('done:' + item.key);
          if (item.key === 'a') {
            s.queue.push({ key: 'd', url: '/u/', body: {}, label: 'd', handId: 1, version: 8 });
            s.sender.flush(); s.sender.wake(); s.sender.flush();
          }
        };
        const first = s.sender.flush();
        const second = s.sender.flush();
        await Promise.all([first, second]);
        return { keys: s.fake.posts.map((p) => p.options.key), left: s.keys(), calls: s.calls };
        """,
    )
    assert result == {
        "keys": ["a", "b", "c", "d"],
        "left": [],
        "calls": ["done:a", "done:b", "done:c", "done:d"],
    }


def test_the_provisional_continuation_of_queued_plays(page: Page) -> None:
    """What the screen shows while writes wait: the seat after them (going round the hand's
    seats, one "doubled" flag each), the play they leave to beat (two passes give a free
    lead) and the ranks each seat would still hold."""
    result = _run(
        page,
        """
        const p = await import('/static/referee/console/provisional.js');
        const doubled = [false, false, false];
        const hand = { turn: 0, top_play: null, hands: ['♠3 ♥3 ♦4 ♣10', '♠5 ♥6', null], doubled };
        const item = (seat, play) => ({ kind: 'action', body: { seat, play } });
        const one = p.provisional(hand, [item(0, '33')]);
        const three = p.provisional(hand, [item(0, '33'), item(1, 'pass'), item(2, 'pass')]);
        const none = p.provisional(hand, []);
        const four = { turn: 2, top_play: null, hands: null, doubled: [...doubled, false] };
        const fourth = p.provisional(four, [item(2, '33')]).turn;
        const round = p.provisional(four, [item(2, '33'), item(3, 'pass')]).turn;
        return { one, three, none, fourth, round, ranks: p.ranksOf('♠3 ♥10 ♦J 🃏 x D') };
        """,
    )
    assert (result["fourth"], result["round"]) == (3, 0)
    assert result["one"] == {
        "turn": 1,
        "top": {"cards": "33", "seat": 0},
        "held": ["4T", "56", None],
        "count": 1,
    }
    assert result["three"]["turn"] == 0 and result["three"]["top"] is None
    assert result["none"] == {"turn": 0, "top": None, "held": ["334T", "56", None], "count": 0}
    assert result["ranks"] == "3TJXD"


def test_the_seats_laid_out_are_the_tables_seat_count(page: Page) -> None:
    """The console's seats (the start, the result and the correction forms) come from the
    assignment's ``seat_count`` (issue 20), never a literal three."""
    result = _run(
        page,
        """
        const v = await import('/static/referee/console/views.js');
        const ctx = (seat_count) => ({ state: { table: { seat_count } } });
        return [v.seatPositions(ctx(3)), v.seatPositions(ctx(4))];
        """,
    )
    assert result == [[0, 1, 2], [0, 1, 2, 3]]


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


def _run_with(page: Page, body: str, arg: Any) -> Any:
    return page.evaluate("async (arg) => {" + PRELUDE + body + "}", arg)


def _strings(language: str) -> dict[str, str]:
    from django.utils import translation

    from referee.console.strings import console_strings

    with translation.override(language):
        return console_strings()


def test_a_403_that_refuses_the_write_itself_is_not_a_sign_out(page: Page) -> None:
    result = _run(
        page,
        """
        const c = (code) => api.classify(answer(403, { code }));
        return ['second_person_required', 'confirmed_by_players', 'pin_wrong',
                'board_not_assigned', 'permission_denied', 'not_assigned'].map(c);
        """,
    )
    assert result == ["refused", "refused", "refused", "refused", "auth", "auth"]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_refusal_says_the_rule_it_names_in_the_referees_words(page: Page, language: str) -> None:
    result = _run_with(
        page,
        """
        const W = arg;
        const refusal = (details) => answer(422, { code: 'invalid_result', message: 'M', details });
        const api_rule = 'R7.2: a spring needs the landlord to win';
        return {
          named: api.errorText(refusal({ rule: api_rule, rule_number: 'R7.2' }), undefined, W),
          unknown: api.errorText(
            refusal({ rule: 'R9.9: something', rule_number: 'R9.9' }), undefined, W),
          plain: api.errorText(refusal({ rule: 'seat 2 plays now, not seat 0' }), undefined, W),
          none: api.errorText(refusal({}), undefined, W),
          parts: api.refusalParts(refusal({ rule: api_rule, rule_number: 'R4.3' }), undefined, W),
          bare: api.errorText(refusal({ rule: api_rule, rule_number: 'R7.2' })),
        };
        """,
        _strings(language),
    )
    if language == "en":
        assert result["named"] == (
            "M — Rule R7.2: a spring (春天) needs the landlord to win without either farmer "
            "playing a card, so every bomb and the rocket come from the landlord's 20 cards "
            "(at most 5 bombs, or 4 and the rocket)."
        )
        assert result["unknown"] == "M — Rule: R9.9: something"
        assert result["plain"] == "M — Rule: seat 2 plays now, not seat 0"
        assert result["parts"] == {
            "message": "M",
            "rule": "Rule R4.3: the landlord may redouble (再加倍) only if at least one "
            "farmer doubled.",
        }
    else:
        assert result["named"] == (
            "M — 规则 R7.2：春天须地主获胜且两名农民都未出过牌，因此所有炸弹和火箭都出自地主的 "
            "20 张牌（最多 5 个炸弹，或 4 个炸弹加火箭）。"
        )
        assert result["unknown"] == "M — 规则：R9.9: something"
        assert result["parts"]["rule"] == "规则 R4.3：至少有一名农民加倍后，地主才可以再加倍。"
    assert result["none"] == "M"
    # without the console's words, the API's own rule
    assert result["bare"] == "M — Rule: R7.2: a spring needs the landlord to win"


LOG = [
    {"seq": 1, "kind": "bid", "payload": {"action": {"seat": 1, "bid": 0}}},
    {"seq": 2, "kind": "bid", "payload": {"action": {"seat": 2, "bid": 3}}},
    {"seq": 3, "kind": "double", "payload": {"action": {"seat": 0, "double": True}}},
    {"seq": 4, "kind": "double", "payload": {"action": {"seat": 1, "double": False}}},
    {"seq": 5, "kind": "redouble", "payload": {"action": {"seat": 2, "redouble": True}}},
    {"seq": 6, "kind": "play", "payload": {"action": {"seat": 2, "play": "♠3 ♥3"}}},
    {"seq": 7, "kind": "play", "payload": {"action": {"seat": 0, "play": "pass"}}},
    {"seq": 8, "kind": "play", "payload": {"action": {"seat": 1, "play": None}}},
    {"seq": 9, "kind": "announce", "payload": {"seat": 1, "cards_left": 2, "action_index": 7}},
    {"seq": 10, "kind": "announce_missing", "payload": {"seat": 2, "cards_left": 1}},
    {
        "seq": 11,
        "kind": "undo",
        "payload": {"undone_seq": 8, "action": {"seat": 1, "play": "pass"}, "reason": "typo"},
    },
    {
        "seq": 12,
        "kind": "result",
        "payload": {
            "result": {
                "landlord": 2,
                "bid": 3,
                "doubled": [True, False, False],
                "redoubled": True,
                "bombs": 1,
                "rockets": 1,
                "spring": False,
                "anti_spring": True,
                "winner": "defenders",
            },
            "scores": [96, 24, -120],
            "needs_confirmation": True,
        },
    },
    {"seq": 13, "kind": "pass_out", "payload": {"closes": True, "needs_confirmation": False}},
    {
        "seq": 14,
        "kind": "correction",
        "payload": {
            "result": {
                "landlord": 0,
                "bid": 1,
                "doubled": [False, False, False],
                "redoubled": False,
                "bombs": 0,
                "rockets": 0,
                "spring": True,
                "anti_spring": False,
                "winner": "landlord",
            },
            "scores": [4, -2, -2],
            "reason": "wrong winner",
        },
    },
    {"seq": 15, "kind": "correction", "payload": {"passed_out": True, "reason": "nobody bid"}},
    {
        "seq": 16,
        "kind": "correction",
        "payload": {
            "override": True,
            "result": {
                "landlord": 1,
                "bid": 2,
                "doubled": [False, False, False],
                "redoubled": False,
                "bombs": 0,
                "rockets": 0,
                "spring": False,
                "anti_spring": False,
                "winner": "landlord",
            },
            "scores": [-2, 4, -2],
            "reason": "table agreed",
        },
    },
    {"seq": 17, "kind": "void", "payload": {"reason": "misdeal"}},
    {"seq": 18, "kind": "deal", "payload": {"deal": {}, "check": {"ok": True}}},
    {
        "seq": 19,
        "kind": "deal",
        "payload": {"check": {"ok": False, "index": 4, "code": "not_held", "rule": "x"}},
    },
    {"seq": 20, "kind": "deal", "payload": {"check": None}},
    {"seq": 21, "kind": "confirm", "payload": {"by": "official"}},
    {"seq": 22, "kind": "confirm", "payload": {"by": "players", "seats": [0, 2]}},
    {"seq": 23, "kind": "confirm", "payload": {"keep": True, "reason": "as played"}},
    {"seq": 24, "kind": "dispute", "payload": {"reason": "bid was 2"}},
    {"seq": 25, "kind": "dispute", "payload": {"irregular": "deal_check_failed", "reason": "x"}},
    {"seq": 26, "kind": "seat_correction", "payload": {"position": 1, "reason": "wrong seat"}},
    {"seq": 27, "kind": "note", "payload": {"text": "phone dropped"}},
    {
        "seq": 28,
        "kind": "play",
        "payload": {
            "action": {"seat": 0, "play": "♠4"},
            "closes": True,
            "needs_confirmation": True,
        },
    },
]
LOG_EN = [
    "S1 does not bid",
    "S2 bids 3",
    "S0 doubles",
    "S1 does not double",
    "S2 redoubles",
    "S2 plays ♠3 ♥3",
    "S0 passes",
    "S1 plays (cards not shown)",
    "S1 announces 2 cards left (报牌)",
    "S2 did not announce 1 card left (报牌 missing)",
    "Undone: S1 passes — typo",
    "Result entered: landlord S2, bid 3, doubled by S0, redoubled, bombs: 1, rocket, "
    "anti-spring, the defenders win, scores 0: +96 · 1: +24 · 2: -120 · awaits confirmation",
    "Passed out (all passed): 0 for every seat",
    "Corrected: landlord S0, bid 1, spring, the landlord wins, scores 0: +4 · 1: -2 · 2: -2 "
    "— wrong winner",
    "Corrected to passed out (0 for every seat) — nobody bid",
    "Director's override of the log: landlord S1, bid 2, the landlord wins, scores "
    "0: -2 · 1: +4 · 2: -2 — table agreed",
    "Hand voided — misdeal",
    "Deal written in: the log fits it",
    "Deal written in: action 5 does not fit it (The seat does not hold these cards.)",
    "Deal written in",
    "Confirmed by an official",
    "Confirmed by the players (S0, S2)",
    "Kept as played by a director — as played",
    "Disputed — bid was 2",
    "Irregular: the written-in deal does not fit the log",
    "Seat correction: seat 1 — wrong seat",
    "Note: phone dropped",
    "S0 plays ♠4 · awaits confirmation",
]


def test_every_event_of_a_log_in_words_in_english(page: Page) -> None:
    result = _run_with(
        page,
        """
        const h = await import('/static/referee/console/history.js');
        return arg.log.map((e) => h.eventWords(arg.W, e, (s) => 'S' + s));
        """,
        {"W": _strings("en"), "log": LOG},
    )
    assert result == LOG_EN


def test_every_event_of_a_log_in_words_in_chinese(page: Page) -> None:
    result = _run_with(
        page,
        """
        const h = await import('/static/referee/console/history.js');
        return arg.log.map((e) => h.eventWords(arg.W, e, (s) => 'S' + s));
        """,
        {"W": _strings("zh-hans"), "log": LOG},
    )
    assert result[:8] == [
        "S1 不叫",
        "S2 叫 3 分",
        "S0 加倍",
        "S1 不加倍",
        "S2 再加倍",
        "S2 出 ♠3 ♥3",
        "S0 不要",
        "S1 出牌（牌面不显示）",
    ]
    assert result[11] == (
        "录入结果：地主 S2、叫 3 分、S0 加倍、再加倍、炸弹 1 个、火箭、反春、农民胜、"
        "得分 0: +96 · 1: +24 · 2: -120 · 待确认"
    )
    assert result[18] == "补录发牌：第 5 个操作与之不符（这个座位没有这些牌。）"
    assert result[21] == "已由选手确认（S0、S2）"
    # every event in words: none left as its kind or as JSON
    assert all(text and "{" not in text and text not in {e["kind"] for e in LOG} for text in result)
    assert len(set(result)) == len(result)


def test_a_hands_state_and_its_result_summary_in_words(page: Page) -> None:
    result = _run_with(
        page,
        """
        const h = await import('/static/referee/console/history.js');
        const r = await import('/static/referee/console/result.js');
        const W = arg;
        const name = (s) => 'S' + s;
        const confirm = (by, seats) => ({ kind: 'confirm', payload: { by, seats } });
        const hand = (fields) => Object.assign({ status: 'finished', confirmation: 'not_required',
                                                 irregular: null, events: [] }, fields);
        return {
          rows: [
            hand({ status: 'playing' }), hand({ confirmation: 'pending' }),
            hand({ confirmation: 'disputed' }), hand({ status: 'voided', confirmation: 'pending' }),
            hand({ confirmation: 'disputed', irregular: 'deal_check_failed' }),
            hand({ confirmation: 'confirmed', events: [confirm('players', [0, 1])] }),
            hand({ confirmation: 'confirmed', events: [confirm('official')] }), hand({}),
          ].map(h.handRow),
          words: [
            h.stateWords(W, { state: 'confirmed', confirmed_by: 'players', confirmer: 'Ann, Bo' }),
            h.stateWords(W, { state: 'confirmed', confirmed_by: 'official', confirmer: 'ref' }),
            h.stateWords(W, { state: 'irregular' }), h.stateWords(W, { state: 'awaiting' }),
          ],
          summary: r.resultSummary(W, { landlord: 1, bid: 2, winner: 'defenders',
            doubled: [true, false, true], redoubled: true, bombs: 2, rockets: 1,
            spring: false, anti_spring: true }, name),
          plain: r.resultSummary(W, { landlord: 0, bid: 1, winner: 'landlord',
            doubled: [false, false, false], redoubled: false, bombs: 0, rockets: 0,
            spring: false, anti_spring: false }, name).map((row) => row[1]),
          fields: [['winner', 'defenders'], ['doubled', [false, true, false]],
                   ['redoubled', true], ['landlord', 2], ['bombs', 3]]
            .map(([f, v]) => h.fieldWords(W, f, v, name)),
          scores: h.scoresWords([96, -120, 24]),
        };
        """,
        _strings("en"),
    )
    assert [(r["state"], r["confirmed_by"], r["seats"]) for r in result["rows"]] == [
        ("playing", None, []),
        ("awaiting", None, []),
        ("disputed", None, []),
        ("voided", None, []),
        ("irregular", None, []),
        ("confirmed", "players", [0, 1]),
        ("confirmed", "official", []),
        ("finished", None, []),
    ]
    assert result["words"] == [
        "Confirmed by the players (Ann, Bo)",
        "Confirmed by an official (ref)",
        "Irregular: the deal does not fit the log",
        "Awaiting confirmation",
    ]
    assert result["summary"] == [
        ["Landlord (地主)", "S1"],
        ["Bid", "2"],
        ["Doubles (加倍)", "S0, S2"],
        ["Redoubled", "yes"],
        ["Bombs", "2"],
        ["Rocket (火箭)", "yes"],
        ["Spring / anti-spring", "Anti-spring (反春)"],
        ["Winner", "Defenders"],
    ]
    assert result["plain"] == ["S0", "1", "none", "no", "0", "no", "none", "Landlord"]
    assert result["fields"] == [
        {"label": "Winner", "text": "Defenders"},
        {"label": "Doubles (加倍)", "text": "S1"},
        {"label": "Redoubled", "text": "yes"},
        {"label": "Landlord (地主)", "text": "S2"},
        {"label": "Bombs", "text": "3"},
    ]
    assert result["scores"] == "0: +96 · 1: -120 · 2: +24"


def test_a_refusal_names_each_field_error_nested_ones_by_their_key(page: Page) -> None:
    result = _run(
        page,
        """
        const bad = (fields) => answer(400, { code: 'invalid', message: 'Invalid input.',
                                              details: { fields } });
        return {
          flat: api.errorText(bad({ bid: ['Not a bid.'] })),
          nested: api.errorText(bad({ pins: { '0': ['Not 4 digits.'], '2': ['Too long.'] } })),
          plain: api.errorText(bad({ reason: 'Required.' })),
        };
        """,
    )
    assert result == {
        "flat": "Invalid input. bid: Not a bid.",
        "nested": "Invalid input. pins: 0: Not 4 digits.; 2: Too long.",
        "plain": "Invalid input. reason: Required.",
    }


def test_the_provisional_continuation_at_a_four_seat_table(page: Page) -> None:
    """Four seats (four_p): the turn goes round four seats, and a trick ends after three
    passes (every other seat), not two."""
    result = _run(
        page,
        """
        const p = await import('/static/referee/console/provisional.js');
        const hand = { seats: 4, turn: 3, top_play: null, hands: ['33', '44', '55', '66'],
                       doubled: [false, false, false, false] };
        const item = (seat, play) => ({ kind: 'action', body: { seat, play } });
        const two = p.provisional(hand, [item(3, '6'), item(0, 'pass'), item(1, 'pass')]);
        const three = p.provisional(hand, [item(3, '6'), item(0, 'pass'), item(1, 'pass'),
                                           item(2, 'pass')]);
        return { two, three };
        """,
    )
    assert result["two"]["turn"] == 2 and result["two"]["top"] == {"cards": "6", "seat": 3}
    assert result["three"]["turn"] == 3 and result["three"]["top"] is None
    assert result["three"]["held"] == ["33", "44", "55", "6"]


def test_the_readings_of_cards_with_a_wild_card(page: Page) -> None:
    """Laizi, wild 7: the legal readings of exactly the cards tapped (in any order), the
    natural reading first; the write carries the chosen reading's ``as``; a play of natural
    cards or a wild card alone has one reading."""
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const T = { small_joker: 'Small joker', big_joker: 'Big joker' };
        const legal = [
          { seat: 0, play: '7' }, { seat: 0, play: '5' }, { seat: 0, play: '57', as: '55' },
          { seat: 0, play: '5557' }, { seat: 0, play: '5557', as: '5555' },
          { seat: 0, play: '555' }, { seat: 0, play: 'pass' },
        ];
        const soft = e.readingsOf(legal, '7555');
        return {
          soft: soft.map((a) => a.as || null),
          wild_alone: e.readingsOf(legal, '7').length,
          natural: e.readingsOf(legal, '555').map((a) => a.as || null),
          none: e.readingsOf(legal, '33'),
          body: e.playBody(0, '7555', soft[1]),
          plain: e.playBody(0, '555', e.readingsOf(legal, '555')[0]),
          labels: soft.map((a) => e.readingLabel(a, T)),
          order: e.orderPlays([
            { seat: 0, play: '7Q', as: 'QQ' }, { seat: 0, play: '5557', as: '5555' },
            { seat: 0, play: '66' }, { seat: 0, play: '77', as: 'AA' },
            { seat: 0, play: '57', as: '55' },
          ]).map((a) => a.play + (a.as ? '=' + a.as : '')),
          bombs: ['55555', '3333', 'XXDD', '666666', 'XD'].map(e.playOrder),
        };
        """,
    )
    assert result["soft"] == [None, "5555"]
    assert result["wild_alone"] == 1
    assert result["natural"] == [None]
    assert result["none"] == []
    assert result["body"] == {"seat": 0, "play": "7555", "as": "5555"}
    assert result["plain"] == {"seat": 0, "play": "555"}
    assert result["labels"] == ["555 7", "555 7 → 5555"]
    # pairs answering a pair, by the pair they stand for; the soft bomb after them
    assert result["order"] == ["57=55", "66", "7Q=QQ", "77=AA", "5557=5555"]
    assert result["bombs"] == [[1, 15], [1, 0], [2, 1], [1, 29], [2]]


def test_a_declared_play_in_words(page: Page) -> None:
    result = _run_with(
        page,
        """
        const h = await import('/static/referee/console/history.js');
        const action = { seat: 0, play: '5557', as: '5555' };
        const e = { seq: 4, kind: 'play', payload: { action } };
        return [h.eventWords(arg.en, e, (s) => 'S' + s), h.eventWords(arg.zh, e, (s) => 'S' + s)];
        """,
        {"en": _strings("en"), "zh": _strings("zh-hans")},
    )
    assert result == ["S0 plays 5557 → 5555", "S0 出 5557 → 5555"]


def test_a_queue_sends_only_its_typists_writes_and_holds_the_others(page: Page) -> None:
    """One phone, two referees (issue 28): each write carries who typed it; B's queue never
    sends A's (it counts them per typist), sends its own with X-Typed-By, and A's queue
    finds A's writes again, versions counted on A's own only."""
    result = _run(
        page,
        """
        const storage = new Memory();
        const a = new q.Queue(storage, { typist: 7, typistName: 'ref-a' });
        a.push({ key: 'a1', url: '/u/', body: { seat: 0, bid: 1 }, handId: 1, version: 3 });
        a.push({ key: 'a2', url: '/u/', body: { seat: 1, bid: 2 }, handId: 1, version: 4 });
        a.setHeld(true);
        const b = new q.Queue(storage, { typist: 9, typistName: 'ref-b' });
        const seenByB = { items: b.items().length, others: b.othersByTypist(), held: b.held(),
                          version: b.versionFor({ id: 1, version: 3 }) };
        b.push({ key: 'b1', url: '/u/', body: { seat: 0, bid: 1 }, handId: 2, version: 0 });
        const fake = scripted([answer(200, {})]);
        const sender = new q.Sender({ queue: b, api: fake, hooks: {} });
        await sender.flush();
        const sent = fake.posts.map((p) => [p.options.key, p.options.typist]);
        b.clear();  // B's discard leaves A's
        const afterDiscard = a.items().map((i) => i.key);
        const stamped = a.items().map((i) => [i.by, i.byName]);
        b.clearOthers();
        return { seenByB, sent, afterDiscard, stamped, heldA: a.held(),
                 afterClearOthers: storage.getItem(q.QUEUE_KEY) };
        """,
    )
    assert result["seenByB"] == {
        "items": 0,
        "others": [{"by": "7", "name": "ref-a", "count": 2}],
        "held": False,
        "version": 3,
    }
    assert result["sent"] == [["b1", "9"]]
    assert result["afterDiscard"] == ["a1", "a2"]
    assert result["stamped"] == [["7", "ref-a"], ["7", "ref-a"]]
    assert result["heldA"] is True
    assert result["afterClearOthers"] == "[]"


def test_a_write_names_its_typist(page: Page) -> None:
    result = _run(
        page,
        """
        const seen = [];
        const client = api.createApi({
          fetch: async (url, init) => { seen.push(init.headers); return new Response('{}'); },
          deviceId: () => 'phone-1', csrfToken: () => 'tok',
        });
        await client.post('/x/', {}, { key: 'k', typist: '7' });
        await client.post('/x/', {}, { key: 'k' });
        return { named: seen[0]['X-Typed-By'], unnamed: 'X-Typed-By' in seen[1],
                 mismatch: api.classify(answer(403, { code: 'typist_mismatch' })) };
        """,
    )
    assert result == {"named": "7", "unnamed": False, "mismatch": "auth"}


def test_completions_passes_to_the_trick_end_and_the_natural_reading_said(page: Page) -> None:
    """Issue 29: the plays that complete the tapped cards, those of the tapped ranks only
    first; how many passes end a trick; a natural reading sent with its own cards as ``as``
    when the server asked (physical cards)."""
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const a = (play) => ({ seat: 0, play });
        const leads = ['3', '9', '99', '999', '9994', '9993', '34567', '56789', '99944',
                       '4', 'TJQKA'].map(a);
        const plays = e.orderPlays(leads);
        return {
          nine: e.completions(plays, '9').map((x) => x.play),
          nineFour: e.completions(plays, '94').map((x) => x.play),
          straight: e.completions(plays, '37').map((x) => x.play),
          none: e.completions(plays, ''),
          limit: e.completions(plays, '9', 2).length,
          holds: [e.holdsCards('♠9 ♥9 ♣9 ♦4', '94'), e.holdsCards('994', '999')],
          passes: [e.passesToTrickEnd(1, 0, 3), e.passesToTrickEnd(2, 0, 3),
                   e.passesToTrickEnd(1, 0, 4), e.passesToTrickEnd(0, null, 3)],
          natural: e.playBody(0, '♠5 ♥5 ♣5 ♦7', { seat: 0, play: '5557' }, true),
          dealt: e.playBody(0, '5557', { seat: 0, play: '5557' }),
          declared: e.playBody(0, '5557', { seat: 0, play: '5557', as: '5555' }, true),
        };
        """,
    )
    assert result["nine"] == ["9", "99", "999", "9993", "9994", "99944", "56789"]
    assert result["nineFour"] == ["9994", "99944"]
    assert result["straight"] == ["34567"]
    assert result["none"] == [] and result["limit"] == 2
    assert result["holds"] == [True, False]
    assert result["passes"] == [2, 1, 3, 0]
    assert result["natural"] == {"seat": 0, "play": "♠5 ♥5 ♣5 ♦7", "as": "5557"}
    assert result["dealt"] == {"seat": 0, "play": "5557"}
    assert result["declared"] == {"seat": 0, "play": "5557", "as": "5555"}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 19), min_size=1, max_size=3))
def test_every_completion_holds_the_tapped_cards_and_every_such_play_is_offered(
    page: Page, seed: int, picks: list[int]
) -> None:
    """Whatever the hand and the cards tapped from it: each play offered is a legal lead
    holding every tapped card, and with no limit every such legal lead is offered once."""
    deal = deal_from_seed(seed)
    hand = deal.hands[0]
    counts = [sum(1 for c in hand if c.rank == r) for r in range(15)]
    leads = [p.text() for p in legal_plays(counts)]
    held = sorted(RANK_CHARS[c.rank] for c in hand)
    tapped = "".join(sorted({held[i % len(held)] for i in picks}))
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const plays = e.orderPlays(LEADS.map((play) => ({ seat: 0, play })));
        return e.completions(plays, TAPPED, 100000).map((a) => a.play);
        """.replace("LEADS", json.dumps(leads)).replace("TAPPED", json.dumps(tapped)),
    )
    holding = [p for p in leads if all(p.count(r) >= tapped.count(r) for r in set(tapped))]
    assert sorted(result) == sorted(holding)
    assert len(result) == len(set(result))


def test_the_plays_ahead_and_a_leads_longest_plays(page: Page) -> None:
    """Issue 29: the API's ``ahead`` read as the console offers it — a seat after passes
    that may beat the top play (its beating plays, smallest first, at most the limit), the
    passes that end the trick and the leader's leads; anything but passes in the playing
    phase is not offered. With nothing tapped on a lead: the whole hand when it is one
    play, else the longest plays (lowest first, at most four), none when all are singles."""
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const pass = (seat) => ({ seat, play: 'pass' });
        const ahead = [
          { declines: [pass(1)], phase: 'playing', turn: 2,
            legal_actions: [pass(2), { seat: 2, play: '88' }, { seat: 2, play: '66' },
                            { seat: 2, play: '2222' }, { seat: 2, play: 'TT' }] },
          { declines: [pass(1), pass(2)], phase: 'playing', turn: 0,
            legal_actions: [{ seat: 0, play: '3' }, { seat: 0, play: '33' }] },
        ];
        const got = e.playsAhead(ahead, 0, 2);
        const auction = e.playsAhead([{ declines: [{ seat: 1, bid: 0 }], phase: 'bidding',
                                        turn: 2, legal_actions: [{ seat: 2, bid: 2 }] }], 0);
        const a = (play) => ({ seat: 0, play });
        const leads = e.orderPlays(['3', '4', '33', '44', '34567', '45678', '56789',
                                    '6789T', '789TJ', '3456'].map(a));
        return {
          follows: got.follows.map((f) => [f.turn, f.declines.length, f.plays.map((p) => p.play)]),
          lead: [got.lead.turn, got.lead.declines.length, got.lead.plays.map((p) => p.play)],
          auction: [auction.follows.length, auction.lead],
          longest: e.wholeOrLongest(leads, '3334445566778899TJ').map((p) => p.play),
          whole: e.wholeOrLongest(leads, '♠3 ♥3').map((p) => p.play),
          singles: e.wholeOrLongest(e.orderPlays(['3', '5', '9'].map(a)), '359'),
        };
        """,
    )
    assert result["follows"] == [[2, 1, ["66", "88"]]]
    assert result["lead"] == [0, 2, ["3", "33"]]
    assert result["auction"] == [0, None]
    assert result["longest"] == ["34567", "45678", "56789", "6789T"]
    assert result["whole"] == ["33"]
    assert result["singles"] == []
