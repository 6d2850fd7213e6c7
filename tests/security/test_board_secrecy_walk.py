"""A secret duplicate board leaks nothing, on any read, in any rule profile (issue 28, point 2).

The walk is a non-interference test: the same duplicate round is built twice, once on a
board dealt from one seed and once on a board dealt from another (different cards, a
different wild rank under ``laizi``, another auction, landlord, winner, score, bombs and
cards left at the table that finished it). Table 1 has finished the board, table 2 has just
started it (bidding), table 3 has not started it: the board is secret. Every read route of
the URL conf (the referee API, the public pages and their fragments, the CSV exports, the
director's screens and exports, the referee console's pages) is read by every reader in both
worlds, and what a reader who must not see the board reads must be the same in both:
whatever depends on the deal — a card, the wild rank, the kitty, a bid, the landlord, a
score, a stake, a bomb count, the number of cards left, the length of the log — would differ.
A new field, page or route that shows any of it fails here without naming it first.

Who may see what differs: directors everything; a table's referee (assigned to it) their
own table's hand, the API reads of it (the hand, its audit trail, the table, the
assignments) and the confirmation page. The public pages show the public's view whoever is
signed in, so they must be the same for every reader.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.cache import caches
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from referee.rules.games import WILD, deal_json_from_seed
from referee.rules.profiles import PROFILES, VARIANT_PROFILES, get_profile
from referee.rules.six_hand import SixDeal
from tests import factories
from tests.api.helpers import assign, client_for, play_out, play_six_out, post, referee_user
from tournaments.common.seats import OFFERED_PROFILES
from tournaments.director.exports import KINDS
from tournaments.hands.boards import board_create
from tournaments.models import Entry, Hand, HandStatus, Player, Table, Tournament
from tournaments.rounds.services import round_create, round_start
from tournaments.seating.services import round_seat
from tournaments.standings.snapshots import standings_snapshot_update
from tournaments.tournament.services import entry_create, tournament_create

pytestmark = pytest.mark.django_db

ALL_PROFILES = sorted({*PROFILES, *VARIANT_PROFILES})
#: Every profile the service offers, Big Three's (issue 31) included, for the walk below.
WALKED_PROFILES = sorted(OFFERED_PROFILES)
READERS = ("anonymous", "user", "referee_finished", "referee_live", "referee_other", "director")
#: Which table each referee is assigned to (its number).
REFEREE_TABLE = {"referee_finished": 1, "referee_live": 2, "referee_other": 3}
#: The admin is the directors' alone (Django's own staff check): not walked.
SKIPPED_NAMESPACES = frozenset({"admin"})


@dataclass
class World:
    """One duplicate round on one board: ids (the same in both worlds) and the reads."""

    tournament: Tournament
    tables: list[Table]
    hands: dict[int, Hand]  # table number → its hand on the board
    entries: list[Entry]
    users: dict[str, Any]
    reads: dict[tuple[str, str], tuple[int, str]] = field(default_factory=dict)


def _opening(profile: str, deal: dict[str, Any]) -> int:
    """What a board shows openly: its first bidder (printed on the seating sheet); in six
    players the landlord, the face-up card's holder (R13.3)."""
    rules = get_profile(profile)
    if rules.game == "six_p":
        return SixDeal.from_json(deal, no_kitty=rules.kitty_size == 0).landlord
    return int(deal["first_bidder"])


def _seed_pair(profile: str) -> tuple[int, int]:
    """Two board seeds whose deals differ (cards; the wild rank under ``laizi``) and agree
    on what a board shows openly (``_opening``)."""
    rules = get_profile(profile)
    first = deal_json_from_seed(rules, 1001)
    for seed in range(1002, 1200):
        deal = deal_json_from_seed(rules, seed)
        if _opening(profile, deal) != _opening(profile, first):
            continue
        if WILD in deal and deal[WILD] == first[WILD]:
            continue
        return 1001, seed
    raise AssertionError("no second seed")


def _choose(rng: random.Random) -> Any:
    def choose(hand: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
        if hand["version"] == 0:  # the first bidder bids, so the board is not passed out
            options = [a for a in options if a.get("bid") == 1] or options
        return rng.choice(options)

    return choose


def _world(profile: str, seed: int) -> World:
    """Table 1 finished the board, table 2 is bidding on it (six players: calling), table 3
    has not started it."""
    seats = get_profile(profile).seats
    tournament = tournament_create(
        name="Secret boards",
        slug="secret-boards",
        rule_profile=profile,
        format="duplicate",
        hands_per_round=1,
        is_public=True,
    )
    for i in range(3 * seats):
        player = Player.objects.create(name=f"Player {i + 1}", club=f"Club {i % 2}")
        entry_create(tournament=tournament, player=player)
    board_create(tournament=tournament, number=1, seed=seed)
    round_ = round_create(tournament=tournament)
    round_seat(round=round_, seed=7)
    round_start(round=round_)
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    assert len(tables) == 3
    users: dict[str, Any] = {
        "anonymous": None,
        "user": factories.UserFactory(username="plain"),
        "director": factories.UserFactory(username="director", is_staff=True),
    }
    for name, number in REFEREE_TABLE.items():
        users[name] = referee_user(name)
        assign(users[name], tables[number - 1])
    finished = post(
        client_for(users["referee_finished"]),
        f"/api/v1/tables/{tables[0].pk}/hands/",
        {"deal": "board"},
    )
    assert finished.status_code == 201, finished.json()
    referee = client_for(users["referee_finished"])
    if get_profile(profile).game == "six_p":  # the referee reads no legal action (R13.11)
        play_six_out(referee, finished.json(), random.Random(3))
    else:
        play_out(referee, finished.json(), _choose(random.Random(3)))
    live = post(
        client_for(users["referee_live"]),
        f"/api/v1/tables/{tables[1].pk}/hands/",
        {"deal": "board"},
    )
    assert live.status_code == 201, live.json()
    standings_snapshot_update(tournament_id=tournament.pk)  # what the task does on commit
    hands = {h.table.number: h for h in Hand.objects.filter(table__round=round_)}
    # six players: no auction, the face-up card's holder calls (R13.3): the hand is playing
    live_status = HandStatus.PLAYING if get_profile(profile).game == "six_p" else HandStatus.BIDDING
    assert hands[1].status == HandStatus.FINISHED and hands[2].status == live_status
    entries = list(tournament.entries.order_by("pk"))
    return World(tournament, tables, hands, entries, users)


# --- the routes --------------------------------------------------------------------------


def _patterns(
    resolvers: list[URLPattern | URLResolver], prefix: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    for item in resolvers:
        if isinstance(item, URLResolver):
            if item.namespace in SKIPPED_NAMESPACES:
                continue
            yield from _patterns(item.url_patterns, prefix + str(item.pattern))
        else:
            yield prefix + str(item.pattern), item


_PARAMETER = re.compile(r"<(?:(?P<converter>[a-z]+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


def _values(world: World) -> dict[str, list[str]]:
    """What each route parameter of the URL conf is filled with: every object of the world."""
    return {
        "slug": [world.tournament.slug],
        "number": ["1"],
        "hand_id": [str(h.pk) for h in world.hands.values()],
        "table_id": [str(t.pk) for t in world.tables],
        "entry_id": [str(e.pk) for e in world.entries],
        "kind": list(KINDS),
        "action": ["start"],  # POST only (405): walked all the same
        "penalty_id": ["1"],
        # the season pages (issue 34): a player of the world, a merge (POST only)
        "player_id": [str(e.player_id) for e in world.entries],
        "merge_id": ["1"],
        "rest": ["v1/nothing/"],
    }


def _expand(route: str, values: dict[str, list[str]]) -> list[str]:
    route = route.lstrip("^").rstrip("$")
    match = _PARAMETER.search(route)
    if match is None:
        return ["/" + route]
    name = match.group("name") or match.group("group")
    if name not in values:
        pytest.fail(f"the walk does not know how to fill {name!r} of the route {route!r}")
    start, end = match.span()
    return [
        url
        for value in values[name]
        for url in _expand(route[:start] + value + route[end:], values)
    ]


def read_routes(world: World) -> list[str]:
    """Every route of the URL conf, each parameter filled with each of the world's objects;
    the public pages also as the fragments they poll."""
    values = _values(world)
    urls: list[str] = []
    for route, pattern in _patterns(get_resolver().url_patterns):
        for url in _expand(route, values):
            urls.append(url)
            if pattern.name and not url.startswith(("/api/", "/director/", "/referee/")):
                urls.append(url + "?fragment=1")
    return sorted(set(urls))


def _own(world: World, reader: str, url: str) -> bool:
    """Whether ``reader`` may see the board on ``url`` (its own table's hand)."""
    if reader == "director":
        return True
    number = REFEREE_TABLE.get(reader)
    if number is None:
        return False
    own = [
        f"/api/v1/tables/{world.tables[number - 1].pk}/",
        "/api/v1/assignments/",
    ]
    hand = world.hands.get(number)
    if hand is not None:
        own += [f"/api/v1/hands/{hand.pk}/", f"/referee/hands/{hand.pk}/"]
    return url.startswith(tuple(own))


# --- reading -----------------------------------------------------------------------------

_VOLATILE = [
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "uuid"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?"), "time"),
    (re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b"), "clock"),
    (re.compile(r'"(latency_ms|age_seconds)": [0-9.]+'), "health timing"),
    (re.compile(r'data-session-ends="\d+"'), "session end"),
]


def _normal(text: str) -> str:
    """A response's body without what changes from one reading to the next whatever the
    deal (the CSRF token, a fresh key, the clock)."""
    for pattern, token in _VOLATILE:
        text = pattern.sub(token, text)
    return text


def _client(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _read_all(world: World, readers: tuple[str, ...] = READERS) -> None:
    urls = read_routes(world)
    for reader in readers:
        client = _client(world.users[reader])
        for url in urls:
            response = client.get(url)
            body = b"".join(response) if response.streaming else response.content
            world.reads[(reader, url)] = (response.status_code, _normal(body.decode()))


def _reset_sequences() -> None:
    """After a rolled-back world, the next one gets the same ids (PostgreSQL's sequences do
    not roll back; SQLite's counters do)."""
    from django.apps import apps

    statements = connection.ops.sequence_reset_sql(no_style(), list(apps.get_models()))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


class _Rollback(Exception):
    pass


def read_world(build: Callable[[], World], readers: tuple[str, ...] = READERS) -> World:
    """The world ``build`` makes, read on every route by each of ``readers``, then rolled
    back: the next world starts from the same ids and an empty cache."""
    for cache in caches.all():
        cache.clear()
    # Both worlds start from the same ids, whatever the tests before this one left in the
    # sequences (PostgreSQL keeps a rolled-back test's numbers).
    _reset_sequences()
    world: World | None = None
    try:
        with transaction.atomic():
            world = build()
            _read_all(world, readers)
            raise _Rollback
    except _Rollback:
        pass
    _reset_sequences()
    for cache in caches.all():
        cache.clear()
    assert world is not None
    return world


def worlds(profile: str) -> tuple[World, World]:
    one, two = _seed_pair(profile)
    return read_world(lambda: _world(profile, one)), read_world(lambda: _world(profile, two))


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", WALKED_PROFILES)
def test_a_secret_board_reads_the_same_whatever_its_deal(profile: str) -> None:
    """Non-interference: every reader who may not see the board reads the same on every
    route whichever deal the board holds; the walk has the power to tell (the director's
    reads of the finished hand differ)."""
    first, second = worlds(profile)
    assert first.reads.keys() == second.reads.keys()
    assert len({url for _, url in first.reads}) > 40  # the URL conf was walked
    leaks = [
        (reader, url)
        for (reader, url), read in first.reads.items()
        if not _own(first, reader, url) and read != second.reads[(reader, url)]
    ]
    assert leaks == [], _explain(first, second, leaks[:5])
    # The power check: the director's read of the finished hand shows the deal, which differs.
    hand = f"/api/v1/hands/{first.hands[1].pk}/"
    assert first.reads[("director", hand)] != second.reads[("director", hand)]
    assert first.reads[("referee_finished", hand)] != second.reads[("referee_finished", hand)]


def _explain(first: World, second: World, leaks: list[tuple[str, str]]) -> str:
    lines = []
    for key in leaks:
        a, b = first.reads[key][1], second.reads[key][1]
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
        around = slice(max(0, at - 120), at + 120)
        lines.append(f"{key}: …{a[around]!r}\n  vs …{b[around]!r}")
    return "the board shows through:\n" + "\n".join(lines)


def test_the_wild_card_reproduction() -> None:
    """The report: a laizi duplicate round; table A finished the board, table B is bidding on
    it (its own referee sees no wild rank yet); an anonymous read of A's hand showed
    ``"wild": "9"``. Nobody but A's referee and the directors sees A's wild rank, landlord,
    scores or bombs before the board is released."""
    world = _world("laizi", 1001)
    a, b = world.hands[1], world.hands[2]
    own = client_for(world.users["referee_live"]).get(f"/api/v1/hands/{b.pk}/").json()
    assert own["wild"] is None and own["status"] == "bidding"
    assert client_for(world.users["director"]).get(f"/api/v1/hands/{a.pk}/").json()["wild"]
    for reader in ("anonymous", "user", "referee_live", "referee_other"):
        data = client_for(world.users[reader]).get(f"/api/v1/hands/{a.pk}/").json()
        assert data["wild"] is None, reader
        for key in ("landlord", "bid", "winner", "scores", "stakes", "bombs", "bomb_classes"):
            assert data[key] is None, (reader, key)
        assert data["cards_left"] is None and data["events"] == [], reader
    mine = client_for(world.users["referee_finished"]).get(f"/api/v1/hands/{a.pk}/").json()
    assert mine["wild"] is not None and mine["scores"] is not None
