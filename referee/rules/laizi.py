"""Wild cards of ``laizi`` (癞子, SPEC §11.2, PROTOCOL-variants §2): declarations, bomb classes,
beating and legal plays.

One rank 3…2 is wild; its four cards may stand for any rank 3…2 inside a combination (R11.2.2).
A play may carry a *declaration*, the cards it stands for; without one every wild card is its
own rank. A valid declaration is judged by the ``comp2016`` rules on the declared cards
(``WildPlay``: kind, rank and length of the declared cards, and the cards actually spent). Bombs
come in three classes, ``pure_wild`` > ``hard`` > ``soft``, below the rocket (R11.2.3, Q20).
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from typing import Literal, NamedTuple

from referee.rules.cards import (
    ACE,
    BIG_JOKER,
    KEY_BITS,
    NUM_RANKS,
    PACK_COUNTS,
    SMALL_JOKER,
    TWO,
    UNIT,
    counts_fit_pack,
    counts_of,
    format_ranks,
    key_of,
    key_of_counts,
    parse_ranks,
    ranks_of_key,
)
from referee.rules.combos import Kind, Play, readings
from referee.rules.errors import IllegalAction, NotationError, RulesError
from referee.rules.moves import legal_plays
from referee.rules.patterns import (
    ALL_KINDS,
    CHAINS,
    PLAIN,
    ROCKET_KEY,
    SOLO,
    Pool,
    bodies,
    chain_max,
    wings,
)
from referee.rules.profiles import COMP2016
from referee.rules.table import play_table

BombClass = Literal["soft", "hard", "pure_wild"]
#: R11.2.3: rocket > pure-wild > hard > soft; within a class, the higher rank (Q20).
CLASS_ORDER: dict[str, int] = {"soft": 0, "hard": 1, "pure_wild": 2}
WILD_CARDS = 4  # all four cards of the wild rank (R11.2.1)


class InvalidSubstitution(IllegalAction):
    """A declaration the wild cards cannot make (R11.2.2, R11.2.5)."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_substitution", message)


class BadWildRank(RulesError):
    """A wild rank that is a joker or not one rank (an unreadable one is a NotationError)."""

    code = "bad_request"


def parse_wild(text: object) -> int:
    """The wild rank written as one card (``7``, ``T`` or ``10``, any case), never a joker."""
    if not isinstance(text, str):
        raise BadWildRank(f"the wild rank is one card written as text, not {text!r}")
    ranks = parse_ranks(text)
    if len(ranks) != 1:
        raise BadWildRank(f"the wild rank is one rank, got {text!r}")
    if ranks[0] > TWO:
        raise BadWildRank("a joker is never wild (R11.2.1)")
    return ranks[0]


@dataclass(frozen=True, slots=True)
class WildPlay(Play):
    """A play of ``laizi``: ``kind``, ``rank``, ``length`` and ``key`` are those of the declared
    cards (a pure-wild bomb's rank is the wild rank); ``cards`` is the key of the cards spent and
    ``wilds`` how many of them are wild; ``bomb_class`` is set for bombs only."""

    cards: int = field(default=0, kw_only=True)
    wilds: int = field(default=0, kw_only=True)
    bomb_class: BombClass | None = field(default=None, kw_only=True)

    def notation(self) -> str:
        """``<cards>`` when the cards read as themselves, else ``<cards>=<declared>``."""
        cards = format_ranks(ranks_of_key(self.cards))
        return cards if self.key == self.cards else f"{cards}={self.text()}"

    def to_json(self) -> dict[str, object]:
        data = Play.to_json(self)
        data["play"] = self.notation()
        if self.bomb_class is not None:
            data["bomb_class"] = self.bomb_class
        return data


_BOMB = Kind.BOMB
_new_wild = object.__new__
_set_kind, _set_rank, _set_length, _set_key, _set_cards, _set_wilds, _set_bomb_class = (
    getattr(WildPlay, name).__set__
    for name in ("kind", "rank", "length", "key", "cards", "wilds", "bomb_class")
)


def wild_play(
    kind: Kind,
    rank: int | None,
    length: int,
    key: int,
    cards: int,
    wilds: int,
    bomb_class: BombClass | None,
) -> WildPlay:
    """``WildPlay(kind, rank, length, key, cards=cards, wilds=wilds, bomb_class=bomb_class)``,
    equal to it in every field (tests/rules/test_laizi_plays.py checks it on every play of
    random hands), built through the slots: the one place that skips the frozen dataclass's
    ``__init__`` (WildPlay has no check of its own to skip). Measured with ``timeit`` on
    this machine: 0.63 µs a play against 1.7 µs through ``WildPlay(...)``; a hand with
    three wild cards lists thousands of plays (``bench/rules_bench.py``, the laizi lines)."""
    play = _new_wild(WildPlay)
    _set_kind(play, kind)
    _set_rank(play, rank)
    _set_length(play, length)
    _set_key(play, key)
    _set_cards(play, cards)
    _set_wilds(play, wilds)
    _set_bomb_class(play, bomb_class)
    return play


def check_declaration(cards: Sequence[int], declared: Sequence[int], wild: int) -> None:
    """Raise InvalidSubstitution unless ``declared`` is what ``cards`` may stand for
    (PROTOCOL-variants §2.2: as many cards; natural cards and jokers keep their rank; a wild
    card stands for a rank 3…2; a wild card alone stands for itself)."""
    if len(declared) != len(cards):
        raise InvalidSubstitution(
            f"the declaration has {len(declared)} cards for a play of {len(cards)}"
        )
    have, want = counts_of(cards), counts_of(declared)
    if have[SMALL_JOKER:] != want[SMALL_JOKER:]:
        raise InvalidSubstitution("a joker keeps its rank and a wild card never stands for one")
    for rank in range(TWO + 1):
        if rank != wild and want[rank] < have[rank]:
            raise InvalidSubstitution(
                f"a natural {format_ranks([rank])} keeps its rank (R11.2.5); only "
                f"{format_ranks([wild])}s are wild"
            )
    if len(cards) == 1 and have[wild] == 1 and want[wild] != 1:
        raise InvalidSubstitution("a wild card played alone is its own rank (R11.2.2)")


def wild_readings(cards: Sequence[int], declared: Sequence[int], wild: int) -> tuple[WildPlay, ...]:
    """Every ``comp2016`` reading of the declared cards (preferred first), as plays of
    ``cards``; none when the declared cards are no combination. The declaration must be valid
    (``check_declaration``)."""
    counts = counts_of(cards)
    return _as_wild(key_of_counts(counts), counts[wild], key_of(declared), wild)


def _as_wild(cards_key: int, wilds: int, declared_key: int, wild: int) -> tuple[WildPlay, ...]:
    return tuple(_wild_play(p, cards_key, wilds, wild) for p in readings(declared_key, COMP2016))


def _wild_play(play: Play, cards_key: int, wilds: int, wild: int) -> WildPlay:
    """``play`` (a reading of the declared cards) made with the cards ``cards_key``, ``wilds``
    of them wild: a bomb gets its class, and the pure-wild bomb the wild rank (R11.2.3, Q20)."""
    kind = play.kind
    bomb_class = _bomb_class(kind, wilds)
    rank = wild if bomb_class == "pure_wild" else play.rank
    return wild_play(kind, rank, play.length, play.key, cards_key, wilds, bomb_class)


def _bomb_class(kind: Kind, wilds: int) -> BombClass | None:
    """R11.2.3: hard without a wild card, pure-wild with four, soft otherwise (bombs only)."""
    if kind is not _BOMB:
        return None
    return "hard" if wilds == 0 else "pure_wild" if wilds == WILD_CARDS else "soft"


def beats_wild(play: Play, previous: Play) -> bool:
    """R5.21 with the bomb classes of R11.2.3: the rocket over all; a bomb over any non-bomb
    and over a bomb of a lower class, or of the same class and a lower rank; otherwise the same
    kind and length with a higher rank."""
    if previous.kind is Kind.ROCKET:
        return False
    if play.kind is Kind.ROCKET:
        return True
    if play.kind is Kind.BOMB:
        if previous.kind is not Kind.BOMB:
            return True
        return _bomb_strength(play) > _bomb_strength(previous)
    return (
        play.kind is previous.kind
        and play.length == previous.length
        and (play.rank or 0) > (previous.rank or 0)
    )


def _bomb_strength(play: Play) -> tuple[int, int]:
    bomb_class = getattr(play, "bomb_class", None) or "hard"
    return CLASS_ORDER[bomb_class], play.rank or 0


def read_wild_play(
    cards_text: str, declared_text: str | None, wild: int, *, previous: Play | None = None
) -> WildPlay | None:
    """The reading to record for ``cards`` declared as ``declared`` (None: as themselves):
    one that beats ``previous`` if any does, else the preferred; None for no combination or
    cards one pack cannot hold. Raises NotationError, InvalidSubstitution."""
    cards = parse_ranks(cards_text)
    declared = cards if declared_text is None else _declared(declared_text)
    if not counts_fit_pack(counts_of(cards)):
        return None
    check_declaration(cards, declared, wild)
    found = wild_readings(cards, declared, wild)
    if not found:
        return None
    if previous is not None:
        for play in found:
            if beats_wild(play, previous):
                return play
    return found[0]


def _declared(text: str) -> tuple[int, ...]:
    declared = parse_ranks(text)
    if not declared:
        raise NotationError("an empty declaration: write the cards the play stands for", token="")
    return declared


# --------------------------------------------------------------------------- legal plays
def legal_plays_wild(
    hand: Sequence[int], wild: int, previous: Play | None = None
) -> list[WildPlay]:
    """Every distinct ``laizi`` play of a hand (15 rank counts) that leads or beats
    ``previous``: plays differ by the cards spent or by the kind, rank or length they stand
    for; each with its canonical declaration (PROTOCOL-variants §2.3: the fewest wild cards
    standing for another rank, then the lowest declared cards).

    Built by structure, kind by kind: a declared combination is a body (a rank or a run of
    ranks) and wings, and the two never share a rank, so the cards spent split into the body's
    (its natural cards, the wild cards filling the rest) and the wings'. Each body is listed
    with every way to spend natural and wild cards on it, each body's wings once with every
    way to spend them and their canonical declaration (which does not depend on the body's
    cards), and every pair of the two that the hand's wild cards pay for is one play.

    None of this depends on the hand but which natural cards it holds and how many wild
    cards: the plays come prebuilt from the wild rank's tables (``wild_tables``), the hand
    only picks them (the natural cards a body takes, the wing options it holds). The plays
    are shared by all hands (immutable); the list is the caller's."""
    if previous is not None and previous.kind is Kind.ROCKET:
        return []
    wilds = hand[wild]
    if not wilds:
        return _without_wilds(hand, wild, previous)
    natural = list(hand)
    natural[wild] = 0
    natural_key = key_of_counts(natural)
    pools: dict[int, Pool] = {}

    def topped(budget: int) -> Pool:
        pool = pools.get(budget)
        if pool is None:
            pool = pools[budget] = Pool(_topped(natural, budget))
        return pool

    kinds = ALL_KINDS if previous is None else _ANSWER_KINDS.get(previous.kind, ALL_KINDS)
    tables = wild_tables(wild)
    has = _has(natural)
    made: dict[tuple[int, int], list[Placed]] = {}  # bodies shared by kinds
    out: list[WildPlay] = []
    for kind in kinds:
        found: Sequence[Placed]
        if previous is None:
            by_rank = tables.solo.get(kind)
            if by_rank is not None:  # a single, pair, trio or bomb: by rank, cards held, wilds
                for rank, held in enumerate(natural[: len(by_rank)]):
                    out += by_rank[rank][held << 3 | wilds]
                continue
            found = _lead_bodies(kind, natural, wilds, made)
        else:
            if kind is previous.kind and kind is not _BOMB:
                above = -1 if previous.rank is None else previous.rank
                length = previous.length
                beaten = bodies(topped(wilds), kind, COMP2016, length=length, above=above)
            else:
                beaten = bodies(topped(wilds), kind, COMP2016)
            found = [(t, n, k, *_short_and_taken(k, natural_key)) for t, n, k in beaten]
        if kind in PLAIN:
            plain = tables.plain[kind]
            for _, _, body_key, needed, taken in found:
                if not 0 <= needed <= wilds:
                    continue
                plays = plain[body_key][taken << 3 | (wilds - needed)]
                if previous is not None and kind is _BOMB:
                    plays = tuple(p for p in plays if beats_wild(p, previous))
                out += plays
            continue
        winged = tables.winged[kind]
        for top, n, body_key, needed, taken in found:
            if not 0 <= needed <= wilds:
                continue
            spare = wilds - needed
            record = winged.get(body_key)
            if record is None:  # an airplane of four or five trios: its wings from the hand
                spendings = _swaps(taken, spare) if spare and taken else _NO_SWAP
                options = _wing_options(kind, top, n, natural_key, wild, spare, topped(spare))
                body = (kind, top, n, body_key, taken, needed)
                out += _winged(body, options, spendings, wilds, wild)
                continue
            ends = record.ends
            # which of the body's options the hand holds (flags[i] = 1: option i), by their
            # place in its rows (options by the wild cards they spend)
            first, *more = record.needs
            flags = first.translate(has)
            if more:  # options of two or three ranks of natural cards: each must be held
                flags = _all_held(flags, more, has)
            if 1 not in flags[: ends[spare]]:
                continue
            if record.options:  # its plays built here
                out += _built(kind, top, n, record, taken << 3 | spare, flags)
                continue
            for row, budget in record.rows[taken << 3 | spare]:
                out += compress(row, flags[: ends[budget]])
    return out


_NO_SWAP: tuple[tuple[int, int], ...] = ((0, 0),)
#: A body a hand may fill: (top rank, length, body key, wild cards needed, natural cards taken).
Placed = tuple[int, int, int, int, int]
#: _UNITS_BELOW[r]: the key of one card of every rank below r.
_UNITS_BELOW = [sum(UNIT[:r]) for r in range(NUM_RANKS + 1)]


def _lead_bodies(
    kind: Kind, natural: list[int], wilds: int, made: dict[tuple[int, int], list[Placed]]
) -> Sequence[Placed]:
    """The bodies of ``kind`` that the natural cards ``natural`` (15 counts) fill with at most
    ``wilds`` wild cards, in the order of ``patterns.bodies``, as (top rank, length, body key,
    wild cards needed, natural cards taken): a body of n cards a rank takes ``min(n, held)``
    natural cards of each and needs wild cards for the rest (none stands for a joker), a
    chain the sums over its ranks. ``made``: the bodies of each size and shape found so far
    for this hand (trios with a single or a pair, fours with two singles or two pairs, and
    airplanes with or without wings share theirs)."""
    if kind is Kind.ROCKET:
        if natural[SMALL_JOKER] and natural[BIG_JOKER]:
            return ((-1, 1, ROCKET_KEY, 0, ROCKET_KEY),)
        return ()
    solo = SOLO.get(kind)
    if solo is not None:
        need, highest = solo
        found = made.get((need, -highest))
        if found is None:
            found = made[need, -highest] = [
                (rank, 1, need * UNIT[rank], need - held, held * UNIT[rank])
                for rank, held in enumerate(natural[: highest + 1])
                if need - min(need, held) <= (wilds if rank <= TWO else 0)
                for held in (min(need, held),)
            ]
        return found
    need, shortest, _ = CHAINS[kind]
    longest = chain_max(kind, COMP2016)
    found = made.get((need, shortest))
    if found is None:
        found = made[need, shortest] = _chains(need, shortest, natural, wilds)
    if longest < _LONGEST[need, shortest]:
        return [body for body in found if body[1] <= longest]
    return found


def _chains(need: int, shortest: int, natural: list[int], wilds: int) -> list[Placed]:
    """The chains of ``need`` cards a rank, of ``shortest`` ranks or more, that the natural
    cards fill with at most ``wilds`` wild cards (see ``_lead_bodies``)."""
    below, taken = [0], [0]  # the cards lacking, and those taken, below each rank
    for rank in range(ACE + 1):
        held = min(need, natural[rank])
        below.append(below[-1] + need - held)
        taken.append(taken[-1] + held * UNIT[rank])
    longest = _LONGEST[need, shortest]
    out = []
    for top in range(shortest - 1, ACE + 1):
        end = top + 1
        for n in range(shortest, min(end, longest) + 1):
            short = below[end] - below[end - n]
            if short > wilds:
                break  # a longer chain lacks as many cards or more
            body = need * (_UNITS_BELOW[end] - _UNITS_BELOW[end - n])
            out.append((top, n, body, short, taken[end] - taken[end - n]))
    return out


#: The longest chain of each (cards a rank, shortest length) among the kinds (``comp2016``).
_LONGEST: dict[tuple[int, int], int] = {}
for _kind, (_need, _shortest, _) in CHAINS.items():
    _LONGEST[_need, _shortest] = max(
        _LONGEST.get((_need, _shortest), 0), chain_max(_kind, COMP2016)
    )


#: The plays of a body without wings in a wild rank's tables: by ``taken << 3 | spare`` (the
#: natural cards a hand gives the body, the wild cards it has left once the body is filled),
#: the body's plays in the order of ``_swaps(taken, spare)``.
PlainBody = dict[int, tuple[WildPlay, ...]]


class WingedBody(NamedTuple):
    """A body with wings in a wild rank's tables. Its wing options (``_wing_table``) come by
    the wild cards they spend: ``ends[k]``, where those of at most k end. ``needs``: the
    natural cards of the options as columns of ``_need_codes`` (byte i of column j: the
    j-th rank of option i and how many of it, or ``_NO_NEED``), one column for every rank
    an option may take natural cards of (one to three), so that a hand's ``_has`` table
    translates each to the flags of the options it holds. ``rows[taken << 3 | spare]``:
    for every way to spend cards on the body (in the order of ``_swaps(taken, spare)``), its
    plays with every option (aligned with the options) and how many wild cards the options
    may spend.

    A three-trio airplane with pair wings (900 options, seldom held) has its plays built per
    hand: no ``rows`` but ``options`` (cards spent, declared cards, wild cards spent) and
    ``spends``: (cards spent on the body, wild cards among them, wild cards left for the
    options) by taken, spare."""

    ends: tuple[int, ...]
    needs: tuple[bytes, ...]
    rows: dict[int, tuple[tuple[tuple[WildPlay, ...], int], ...]]
    options: tuple[tuple[int, int, int], ...]
    spends: dict[int, tuple[tuple[int, int, int], ...]]


@dataclass(frozen=True, slots=True)
class WildTables:
    """Every play of one wild rank that a hand with wild cards may list, built once and shared
    by all hands (``wild_tables``): a hand's plays are picked from them, none built per hand
    but those of three-trio airplanes with pairs. ``plain[kind][body key]``,
    ``winged[kind][body key]`` (none for an airplane of more than ``_OPTIONS_LENGTH`` trios);
    ``plays``: how many distinct
    plays they hold."""

    wild: int
    plain: dict[Kind, dict[int, PlainBody]]
    winged: dict[Kind, dict[int, WingedBody]]
    plays: int
    #: the plays of a one-rank body without wings (single, pair, trio, bomb) as a lead, by rank
    #: and ``held << 3 | wilds`` (natural cards of the rank held, wild cards held)
    solo: dict[Kind, tuple[tuple[tuple[WildPlay, ...], ...], ...]]


@lru_cache(maxsize=NUM_RANKS)
def wild_tables(wild: int) -> WildTables:
    """The tables of the wild rank ``wild`` (3…2), built on first use: 120,000 to 150,000
    plays, some 27 MB a rank (``bench/rules_bench.py`` prints the time and size). The cyclic
    garbage collector is paused meanwhile: the build makes only objects that live on, and a
    collection would go over them (and over the other ranks' tables) again and again. Built,
    the tables are moved out of the collector's reach for good (``gc.freeze``, with whatever
    else the process holds then): they live as long as the process, and the 1.7 million
    objects of all thirteen ranks would otherwise add some 0.6 s to every full collection
    of a server process."""
    paused = gc.isenabled()
    gc.disable()
    try:
        tables = _build_tables(wild)
        gc.freeze()
        return tables
    finally:
        _build_swaps.cache_clear()
        if paused:
            gc.enable()


def _build_tables(wild: int) -> WildTables:
    plain: dict[Kind, dict[int, PlainBody]] = {}
    winged: dict[Kind, dict[int, WingedBody]] = {}
    solo: dict[Kind, tuple[tuple[tuple[WildPlay, ...], ...], ...]] = {}
    plays = 0
    for kind in ALL_KINDS:
        found = bodies(_PACK_POOL, kind, COMP2016)
        if kind in PLAIN:
            plain[kind] = {key: _plain_body(kind, top, n, key, wild) for top, n, key in found}
            if kind in SOLO:
                need = SOLO[kind][0]
                solo[kind] = tuple(
                    _solo_rank(plain[kind][key], need, top, wild) for top, _, key in found
                )
            plays += sum(
                len({id(p) for row in body.values() for p in row}) for body in plain[kind].values()
            )
            continue
        of_kind = winged[kind] = {
            key: _winged_body(kind, top, n, key, wild)
            for top, n, key in found
            if n <= _OPTIONS_LENGTH
        }
        plays += sum(
            len(row)
            for body in of_kind.values()
            for row in {id(row): row for spent in body.rows.values() for row, _ in spent}.values()
        )
    return WildTables(wild, plain, winged, plays, solo)


def _solo_rank(body: PlainBody, n: int, rank: int, wild: int) -> tuple[tuple[WildPlay, ...], ...]:
    """The plays of a one-rank body of ``n`` cards of ``rank`` by ``held << 3 | wilds`` (the
    natural cards of the rank and the wild cards a hand holds, 1 to 4): none when they cannot
    fill it (a joker is never made of a wild card; the wild rank has no natural cards)."""
    out: list[tuple[WildPlay, ...]] = []
    for held in range(WILD_CARDS + 1):
        taken = min(n, held)
        for wilds in range(8):
            short = n - taken
            fits = 1 <= wilds <= WILD_CARDS and short <= (wilds if rank <= TWO else 0)
            fits = fits and (rank != wild or not held)
            out.append(body[taken * UNIT[rank] << 3 | (wilds - short)] if fits else ())
    return tuple(out)


def _body_spendings(body_key: int, wild: int) -> list[tuple[int, int]]:
    """(natural cards, wild cards) for every way to spend cards on a body of at most four wild
    cards: its cards of the wild rank are always wild, any other card but a joker may be."""
    own = body_key >> (KEY_BITS * wild) & 0xF
    base = body_key - own * UNIT[wild]
    return [
        (base - swapped, own + moved) for swapped, moved in _build_swaps(base, WILD_CARDS - own)
    ]


def _plain_body(kind: Kind, top: int, n: int, body_key: int, wild: int) -> PlainBody:
    """The plays of a body without wings (the body is the whole declaration) for every
    ``taken`` and ``spare`` a hand with wild cards may have, each play made once."""
    rank = None if kind is Kind.ROCKET else top
    wild_unit = UNIT[wild]
    made: dict[int, WildPlay | None] = {}
    out: PlainBody = {}
    for taken, needed in _body_spendings(body_key, wild):
        for spare in range(max(0, 1 - needed), WILD_CARDS - needed + 1):  # 1 to 4 wild cards
            spendings = _build_swaps(taken, spare) if spare and taken else _NO_SWAP
            row = []
            for swapped, moved in spendings:
                used = needed + moved
                cards = taken - swapped + used * wild_unit
                if cards not in made:
                    made[cards] = _plain_play(kind, rank, n, body_key, cards, used, wild)
                play = made[cards]
                if play is not None:
                    row.append(play)
            out[taken << 3 | spare] = tuple(row)
    return out


def _plain_play(
    kind: Kind, rank: int | None, n: int, body_key: int, cards: int, used: int, wild: int
) -> WildPlay | None:
    """The play of a body without wings made with ``cards``, ``used`` of them wild; None when
    those cards make no such play."""
    if used == 1 and cards == UNIT[wild] and body_key != cards:
        return None  # a wild card alone stands for itself
    if kind is _BOMB and used == WILD_CARDS and rank != wild:
        return None  # four wild cards: the pure-wild bomb, of the wild rank (Q20)
    return _made(kind, rank, n, body_key, cards, used, _bomb_class(kind, used))


def _winged_body(kind: Kind, top: int, n: int, body_key: int, wild: int) -> WingedBody:
    """The wing options of a body with wings (``kind``, ``top``, ``n``) from ``_wing_table``,
    by the lanes their natural cards need, and for a body of at most ``_TABLED_LENGTH`` ranks
    its plays: every way to spend cards on the body with every option the wild cards left
    pay for."""
    options = [
        (part, cards, body_key + wings, spent)
        for spent, level in enumerate(_wing_table(kind, top, n, wild))
        for part, cards, wings in level
    ]
    ends = tuple(sum(1 for o in options if o[3] <= k) for k in range(WILD_CARDS + 1))
    codes = [_need_codes(o[0]) for o in options]
    width = max(map(len, codes))
    needs = tuple(bytes(c[j] if j < len(c) else _NO_NEED for c in codes) for j in range(width))
    wild_unit = UNIT[wild]
    # every (cards spent on the body, wild cards among them, wild cards left) by taken, spare
    spends: dict[int, tuple[tuple[int, int, int], ...]] = {}
    for taken, needed in _body_spendings(body_key, wild):
        for spare in range(max(0, 1 - needed), WILD_CARDS - needed + 1):  # 1 to 4 wild cards
            spendings = _build_swaps(taken, spare) if spare and taken else _NO_SWAP
            spends[taken << 3 | spare] = tuple(
                (taken - swapped + (needed + moved) * wild_unit, needed + moved, spare - moved)
                for swapped, moved in spendings
            )
    if n > _TABLED_LENGTH[kind]:
        return WingedBody(ends, needs, {}, tuple(o[1:] for o in options), spends)
    made: dict[int, tuple[WildPlay, ...]] = {}
    for taken, used in _body_spendings(body_key, wild):
        body_cards = taken + used * wild_unit
        made[body_cards] = tuple(
            _made(kind, top, n, declared, body_cards + cards, used + spent, None)
            for _, cards, declared, spent in options[: ends[WILD_CARDS - used]]
        )
    rows = {
        key: tuple((made[cards], budget) for cards, _, budget in spent)
        for key, spent in spends.items()
    }
    return WingedBody(ends, needs, rows, (), {})


def _built(
    kind: Kind, top: int, n: int, body: WingedBody, spent: int, flags: bytes
) -> list[WildPlay]:
    """The plays of a body whose wing options are tabled but not its plays: every way to
    spend cards on the body (``body.spends[spent]``) with every held option (``flags[i]``:
    option i is held) the wild cards left pay for (see ``_winged``)."""
    made = wild_play
    options, ends = body.options, body.ends
    out: list[WildPlay] = []
    append = out.append
    for body_cards, used, budget in body.spends[spent]:
        for i in compress(range(ends[budget]), flags):
            cards, declared, wilds = options[i]
            # a winged kind is never a bomb
            append(made(kind, top, n, declared, body_cards + cards, used + wilds, None))
    return out


#: The code of "no natural card needed" in a column of ``WingedBody.needs``.
_NO_NEED = NUM_RANKS * WILD_CARDS
#: ``_HAS_COUNT[n]``: for a rank held n times, whether it holds 1, 2, 3 and 4 of it.
_HAS_COUNT = [bytes(n >= k for k in range(1, WILD_CARDS + 1)) for n in range(WILD_CARDS + 1)]
_HAS_REST = b"\x01" * (256 - _NO_NEED)


def _need_codes(cards: int) -> bytes:
    """The natural cards ``cards`` (a key) as one code a rank: ``rank * 4 + count - 1``."""
    return bytes(
        rank * WILD_CARDS + count - 1
        for rank in range(NUM_RANKS)
        if (count := cards >> (KEY_BITS * rank) & 0xF)
    )


def _has(natural: list[int]) -> bytes:
    """The table that reads ``_need_codes`` for a hand with the natural cards ``natural`` (15
    counts), by ``bytes.translate``: 1 where it holds that many of the rank, else 0 (and 1 for
    ``_NO_NEED``)."""
    return b"".join(map(_HAS_COUNT.__getitem__, natural)) + _HAS_REST


def _all_held(flags: bytes, more: Sequence[bytes], has: bytes) -> bytes:
    """``flags`` (0 or 1 a byte) and the flags of the further columns ``more``, byte by byte
    (as ints: one AND over all options)."""
    held = int.from_bytes(flags, "little")
    for column in more:
        held &= int.from_bytes(column.translate(has), "little")
    return held.to_bytes(len(flags), "little")


def _made(
    kind: Kind,
    rank: int | None,
    n: int,
    key: int,
    cards: int,
    wilds: int,
    bomb_class: BombClass | None,
) -> WildPlay:
    """A WildPlay (``wild_play``)."""
    return wild_play(kind, rank, n, key, cards, wilds, bomb_class)


def _winged(
    body: tuple[Kind, int, int, int, int, int],
    options: WingOptions,
    spendings: Sequence[tuple[int, int]],
    wilds: int,
    wild: int,
) -> list[WildPlay]:
    """The plays of one body of a winged kind, ``body`` = (kind, top rank, length, key, the
    natural cards it takes, the wild cards it needs at least): every way to spend cards on it
    (``spendings``: natural cards put back for wild cards) with every wing option the
    remaining wild cards pay for."""
    kind, top, n, body_key, taken, needed = body
    # within[k]: (wings' cards, declared cards, wild cards spent) of the options of <= k wilds
    within: list[list[tuple[int, int, int]]] = []
    so_far: list[tuple[int, int, int]] = []
    for spent, level in enumerate(options):
        so_far = so_far + [(cards, body_key + wings, spent) for cards, wings in level]
        within.append(so_far)
    wild_unit = UNIT[wild]
    made = wild_play  # a body with wings may have hundreds of plays
    out: list[WildPlay] = []
    append = out.append
    for swapped, moved in spendings:
        body_used = needed + moved
        body_cards = taken - swapped + body_used * wild_unit
        for wing_cards, declared, spent in within[wilds - body_used]:
            # a winged kind is never a bomb
            append(made(kind, top, n, declared, body_cards + wing_cards, body_used + spent, None))
    return out


def _without_wilds(hand: Sequence[int], wild: int, previous: Play | None) -> list[WildPlay]:
    """A hand without wild cards plays as in ``comp2016``, each reading of its multisets that
    leads or beats ``previous`` once (a bomb is hard)."""
    plain = None if previous is None or previous.kind is Kind.BOMB else previous
    table = play_table(COMP2016)
    out: list[WildPlay] = []
    for found in legal_plays(hand, plain, COMP2016):
        for reading in table[found.key]:
            kind = reading.kind
            if previous is None or _beats(
                kind, reading.rank, reading.length, _bomb_class(kind, 0), previous
            ):
                out.append(_wild_play(reading, found.key, 0, wild))
    return out


#: Bit 3 of every rank's field in a multiset key, and the low field of every byte.
_EIGHTS = sum(8 << (KEY_BITS * r) for r in range(NUM_RANKS))
_LOW_FIELDS = sum(0xF << (2 * KEY_BITS * r) for r in range(8))
_JOKER_FIELDS = 0xF << (KEY_BITS * SMALL_JOKER) | 0xF << (KEY_BITS * BIG_JOKER)


def _short_and_taken(declared: int, natural_key: int) -> tuple[int, int]:
    """How many of the declared cards the natural cards cannot give (-1 for a joker not
    held: no wild card stands for a joker), and the key of those they give. Counts are at
    most 4, so each 4-bit field of ``(declared | 8s) - natural`` is 8 + declared - natural,
    with bit 3 set where declared >= natural; the deficits are then summed byte-wise."""
    short = (declared | _EIGHTS) - natural_key
    short &= ((short & _EIGHTS) >> 3) * 7
    if short & _JOKER_FIELDS:
        return -1, 0
    return ((short & _LOW_FIELDS) + (short >> KEY_BITS & _LOW_FIELDS)) % 255, declared - short


#: Wing options by the wild cards they spend (0 to 4): (the cards spent on the wings, wild
#: cards included, the declared wings).
WingOptions = Sequence[Sequence[tuple[int, int]]]


def _wing_options(
    kind: Kind, top: int, n: int, natural_key: int, wild: int, budget: int, pool: Pool
) -> WingOptions:
    """Every way to spend natural cards and at most ``budget`` wild cards on the wings of the
    body (``kind``, ``top``, ``n``), each with its canonical declaration (the fewest wild cards
    standing for another rank, then the lowest declared wings). ``pool``: the natural cards
    topped up with ``budget`` wild cards."""
    best: dict[int, tuple[int, int]] = {}
    wild_shift = KEY_BITS * wild
    for declared in wings(pool, kind, COMP2016, top, n):
        short, taken = _short_and_taken(declared, natural_key)
        if not 0 <= short <= budget:
            continue
        own = declared >> wild_shift & 0xF
        spendings = _swaps(taken, budget - short) if short < budget and taken else _NO_SWAP
        for swapped, moved in spendings:
            cards = taken - swapped + (short + moved) * UNIT[wild]
            changed = short + moved - own
            kept = best.get(cards)
            if (
                kept is None
                or changed < kept[0]
                or (changed == kept[0] and _lower(declared, kept[1]))
            ):
                best[cards] = (changed, declared)
    options: list[list[tuple[int, int]]] = [[] for _ in range(budget + 1)]
    for cards, (_, declared) in best.items():
        options[cards >> wild_shift & 0xF].append((cards, declared))
    return options


_WINGED = [kind for kind in ALL_KINDS if kind not in PLAIN]
#: Bodies up to this length (every trio and four with kickers, two-trio airplanes, three-trio
#: airplanes with singles) have their plays in the wild rank's tables (``wild_tables``), wing
#: options and all: 14 to 243 options a body, some 350 for an airplane of three trios with
#: singles (about 55% of a rank's plays, but 5% of a hand's and 15% of its time if built per
#: hand). A three-trio airplane with pairs (900 options, seldom held) has its plays built per
#: hand; a longer airplane (1,000 to 2,600 options) takes its wings from the hand.
_TABLED_LENGTH = dict.fromkeys(_WINGED, 2) | {Kind.AIRPLANE_SINGLES: 3}
#: Bodies up to this length have their wing options tabled (a three-trio airplane: 300 to
#: 1,000 options); longer ones take theirs from the hand.
_OPTIONS_LENGTH = 3
_PACK_POOL = Pool(PACK_COUNTS)


def _wing_table(
    kind: Kind, top: int, n: int, wild: int
) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """By the wild cards spent (0 to 4), every (natural cards, cards spent, canonical declared
    wings) of the wings of the body (``kind``, ``top``, ``n``) with ``wild`` wild: which cards
    make some wings of that body, and the wings they declare, depend on no hand (14 to 243
    options a body; a hand's are those whose natural cards it holds)."""
    best: dict[int, tuple[int, int]] = {}
    wild_shift, wild_unit = KEY_BITS * wild, UNIT[wild]
    for declared in wings(_PACK_POOL, kind, COMP2016, top, n):
        own = declared >> wild_shift & 0xF  # wild cards standing for themselves
        rest = declared - own * wild_unit
        for swapped, moved in (
            _build_swaps(rest, WILD_CARDS - own) if own < WILD_CARDS else _NO_SWAP
        ):
            cards = rest - swapped + (own + moved) * wild_unit
            kept = best.get(cards)
            if kept is None or moved < kept[0] or (moved == kept[0] and _lower(declared, kept[1])):
                best[cards] = (moved, declared)
    levels: list[list[tuple[int, int, int]]] = [[] for _ in range(WILD_CARDS + 1)]
    for cards, (_, declared) in best.items():
        spent = cards >> wild_shift & 0xF
        levels[spent].append((cards - spent * wild_unit, cards, declared))
    return tuple(tuple(level) for level in levels)


#: What may answer a play of each kind (R5.21): the same kind, a bomb, the rocket.
_ANSWER_KINDS: dict[Kind, tuple[Kind, ...]] = {
    kind: tuple(dict.fromkeys((kind, Kind.BOMB, Kind.ROCKET))) for kind in ALL_KINDS
}


def _topped(natural: list[int], budget: int) -> list[int]:
    """The natural cards with ``budget`` more of every rank 3…2, at most 4 (no joker)."""
    return [min(4, n + budget) for n in natural[:SMALL_JOKER]] + natural[SMALL_JOKER:]


def _lower(a: int, b: int) -> bool:
    """Whether the multiset ``a`` comes before ``b`` (as many cards) compared card by card, low
    to high: at the lowest rank where their counts differ, the one with more cards of it."""
    differ = a ^ b
    if not differ:
        return False
    shift = ((differ & -differ).bit_length() - 1) // KEY_BITS * KEY_BITS
    return (a >> shift & 0xF) > (b >> shift & 0xF)


def _beats(
    kind: Kind, rank: int | None, length: int, bomb_class: BombClass | None, previous: Play
) -> bool:
    """``beats_wild`` for a play given by its parts (no play built for one that loses)."""
    if previous.kind is Kind.ROCKET:
        return False
    if kind is Kind.ROCKET:
        return True
    if kind is Kind.BOMB:
        if previous.kind is not Kind.BOMB:
            return True
        return (CLASS_ORDER[bomb_class or "hard"], rank or 0) > _bomb_strength(previous)
    return (
        kind is previous.kind and length == previous.length and (rank or 0) > (previous.rank or 0)
    )


def _spare_swaps(taken: int, spare: int) -> tuple[tuple[int, int], ...]:
    """(key of the natural cards put back, how many) for every way to put back 0 to ``spare``
    of the natural cards ``taken`` other than jokers (wild cards then stand in for them).
    Cached as ``_swaps`` for the hands; the tables, made once, call it uncached."""
    out = [(0, 0)]
    for rank in range(SMALL_JOKER):
        count = taken >> (KEY_BITS * rank) & 0xF
        if count:
            unit = UNIT[rank]
            grown = []
            for key, moved in out:
                room = spare - moved  # at most ``count`` of this rank, ``room`` in all
                for k in range((count if count < room else room) + 1):
                    grown.append((key + k * unit, moved + k))
            out = grown
    return tuple(out)


_swaps = lru_cache(maxsize=1 << 16)(_spare_swaps)
#: The same for the tables while they are built (emptied after each build).
_build_swaps = lru_cache(maxsize=None)(_spare_swaps)
