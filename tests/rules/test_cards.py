"""Cards, notation and deals (SPEC §1, §2; PROTOCOL.md "Card notation")."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from referee.rules import (
    Card,
    Deal,
    InvalidDeal,
    NotationError,
    deal_from_seed,
    format_cards,
    format_ranks,
    parse_cards,
    parse_ranks,
)
from tests.rules.helpers import PACK_TEXT, cards

ORDER = "3456789TJQKA2XD"


def canon(text: str) -> str:
    return format_ranks(parse_ranks(text))


# --- R1.2 rank order, R1.5 notation -------------------------------------------------------------


def test_r1_2_rank_order_is_3_to_2_then_small_then_big_joker() -> None:
    assert [parse_ranks(ch)[0] for ch in ORDER] == list(range(15))
    assert canon("D X 2 A K Q J T 9 8 7 6 5 4 3") == ORDER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10", "T"),
        ("T", "T"),
        ("t", "T"),
        ("10 10 T t", "TTTT"),
        ("910J", "9TJ"),
        ("1010", "TT"),
    ],
)
def test_r1_5_ten_is_written_10_or_t(text: str, expected: str) -> None:
    assert canon(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("jqka", "JQKA"),
        ("x", "X"),
        ("d", "D"),
        ("xD", "XD"),
        ("Jj", "JJ"),
    ],
)
def test_r1_5_notation_is_case_insensitive(text: str, expected: str) -> None:
    assert canon(text) == expected


@pytest.mark.parametrize(
    "text",
    ["666777AA", "6 6 6 7 7 7 A A", "666,777,AA", "666777+AA", "666-777-A-A", "A6A7 6\t7,67"],
)
def test_r1_5_separators_and_order_are_ignored(text: str) -> None:
    assert canon(text) == "666777AA"


def test_r1_5_chinese_joker_names() -> None:
    assert canon("小王") == "X"
    assert canon("大王") == "D"
    assert canon("大王 小王") == "XD"
    assert canon("3小王+大王") == "3XD"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("D X 2 A", "A2XD"),
        ("t9 8 7 6", "6789T"),
        ("AAKK", "KKAA"),
        ("", ""),
    ],
)
def test_r1_5_canonical_output_sorted_low_to_high_without_separators(
    text: str, expected: str
) -> None:
    assert canon(text) == expected


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("33Z", "Z"),
        ("1", "1"),
        ("0", "0"),  # FROST's ten alias is for client adapters only (R1.5)
        ("BJ", "B"),  # R1.6: BJ / SJ are ambiguous and rejected
        ("SJ", "S"),
        ("3 4 ? 5", "?"),
        ("3♠", "♠"),  # rank notation has no suits
        ("pass", "p"),
    ],
)
def test_r1_5_unreadable_text_raises_notation_error_naming_the_token(text: str, token: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_ranks(text)
    assert info.value.code == "bad_notation"
    assert info.value.token == token


def test_r1_5_non_text_input_is_a_notation_error() -> None:
    for value in (None, 33, ["3"], b"33"):
        with pytest.raises(NotationError):
            parse_ranks(value)  # type: ignore[arg-type]


# --- R1.7 physical cards ------------------------------------------------------------------------


def test_r1_7_physical_cards_with_suit_symbols() -> None:
    got = parse_cards("♠A ♥10 ♣3 ♦2 X D")
    assert [(c.rank, c.suit) for c in got] == [
        (11, "♠"),
        (7, "♥"),
        (0, "♣"),
        (12, "♦"),
        (13, None),
        (14, None),
    ]


def test_r1_7_physical_cards_without_separators() -> None:
    assert parse_cards("♠A♥3♦TD") == parse_cards("♠A ♥3 ♦T D")
    assert parse_cards("♣10,♠10") == (Card(7, "♣"), Card(7, "♠"))


@pytest.mark.parametrize(
    ("text", "rank"),
    [("DT", 7), ("D3", 0), ("dj", 8), ("大王J", 8), ("D10", 7), ("dq", 9), ("D2", 12), ("DA", 11)],
)
def test_r1_5_d_is_the_big_joker_whatever_follows_it(text: str, rank: int) -> None:
    """A ``D`` (or 大王) before a rank is the big joker and that rank, never a diamond."""
    assert parse_cards(text) == (Card(14), Card(rank))
    assert parse_ranks(text) == (rank, 14)


@pytest.mark.parametrize("text", ["SA", "h3", "C10", "sa h3"])
def test_r1_7_suit_letters_are_refused_with_a_hint_at_the_symbols(text: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert info.value.token == text[0]
    assert "♠ ♥ ♣ ♦" in info.value.message


def test_r1_7_a_card_without_a_suit_is_a_rank_only_card() -> None:
    assert parse_cards("3 ♠3") == (Card(0), Card(0, "♠"))


def test_r1_7_canonical_physical_form() -> None:
    text = format_cards(parse_cards("D ♦2 ♠A X ♥3 ♠3"))
    assert text == "♠3 ♥3 ♠A ♦2 X D"
    assert str(Card(11, "♠")) == "♠A"


@pytest.mark.parametrize("text", ["♠X", "♥D", "♣小王", "♦大王"])
def test_r1_7_a_joker_has_no_suit(text: str) -> None:
    with pytest.raises(NotationError):
        parse_cards(text)


def test_r1_7_card_value_rejects_a_suited_joker() -> None:
    with pytest.raises(ValueError):
        Card(13, "♠")


@pytest.mark.parametrize(("text", "token"), [("♠", "♠"), ("♠Z", "Z"), ("3 Y", "Y")])
def test_r1_7_unreadable_physical_text_names_the_token(text: str, token: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert info.value.token == token


# --- R2.1 deals ---------------------------------------------------------------------------------


def _pack_counter(deal: Deal) -> Counter[str]:
    return Counter(str(c) for part in (*deal.hands, deal.kitty) for c in part)


def test_r2_1_deal_from_seed_is_one_pack_split_17_17_17_3() -> None:
    for seed in (0, 1, 42, 2**40):
        deal = deal_from_seed(seed)
        assert [len(h) for h in deal.hands] == [17, 17, 17]
        assert len(deal.kitty) == 3
        seen = _pack_counter(deal)
        assert len(seen) == 54 and set(seen.values()) == {1}
        assert all(c.suit is not None for h in deal.hands for c in h if not c.is_joker)
        assert deal.first_bidder in (0, 1, 2)


def test_r2_1_deal_from_seed_is_reproducible() -> None:
    assert deal_from_seed(7) == deal_from_seed(7)
    assert deal_from_seed(7).to_json() == deal_from_seed(7).to_json()


def test_r2_1_different_seeds_give_different_deals() -> None:
    deals = {repr(deal_from_seed(seed).hands) for seed in range(20)}
    assert len(deals) == 20


def test_r2_3_deal_from_seed_with_a_given_first_bidder() -> None:
    for seat in (0, 1, 2):
        deal = deal_from_seed(5, first_bidder=seat)
        assert deal.first_bidder == seat
        assert deal.hands == deal_from_seed(5, first_bidder=0).hands


def test_deal_json_round_trip() -> None:
    suited = deal_from_seed(11)
    assert Deal.from_json(suited.to_json()) == suited
    rank_only = Deal(
        hands=(cards(PACK_TEXT[:17]), cards(PACK_TEXT[17:34]), cards(PACK_TEXT[34:51])),
        kitty=cards(PACK_TEXT[51:]),
    )
    assert rank_only.to_json()["kitty"] == "2XD"
    assert Deal.from_json(rank_only.to_json()) == rank_only


def _rank_deal(h0: str, h1: str, h2: str, kitty: str, first: int = 0) -> Deal:
    return Deal(hands=(cards(h0), cards(h1), cards(h2)), kitty=cards(kitty), first_bidder=first)


GOOD = (PACK_TEXT[:17], PACK_TEXT[17:34], PACK_TEXT[34:51], PACK_TEXT[51:])


def test_r2_1_a_valid_rank_only_deal() -> None:
    deal = _rank_deal(*GOOD)
    assert not deal.has_suits


@pytest.mark.parametrize(
    ("hands", "kitty"),
    [
        ((GOOD[0][:-1], GOOD[1], GOOD[2] + GOOD[0][-1]), GOOD[3]),  # 16/17/18
        ((GOOD[0], GOOD[1], GOOD[2][:-1]), GOOD[3] + GOOD[2][-1]),  # 17/17/16 + 4
        ((GOOD[0], GOOD[1], GOOD[2]), GOOD[3][:-1]),  # 53 cards
        ((GOOD[0], GOOD[1], GOOD[2][:-1] + "3"), GOOD[3]),  # five 3s, no ...
        ((GOOD[0], GOOD[1], GOOD[2]), "2XX"),  # two small jokers
    ],
)
def test_r2_1_deal_that_is_not_one_pack_split_17_17_17_3_is_invalid(
    hands: tuple[str, str, str], kitty: str
) -> None:
    with pytest.raises(InvalidDeal) as info:
        _rank_deal(*hands, kitty)
    assert info.value.code == "invalid_deal"


def test_r2_1_the_same_physical_card_twice_is_an_invalid_deal() -> None:
    deal = deal_from_seed(3)
    h0 = list(deal.hands[0])
    h1 = list(deal.hands[1])
    # give seat 1 a second copy of one of seat 0's cards in place of a card of the same rank
    twin = next(c for c in h0 if not c.is_joker and any(d.rank == c.rank for d in h1))
    h1[next(i for i, d in enumerate(h1) if d.rank == twin.rank)] = twin
    with pytest.raises(InvalidDeal):
        Deal(hands=(tuple(h0), tuple(h1), deal.hands[2]), kitty=deal.kitty)


@pytest.mark.parametrize("first", [-1, 3])
def test_r2_3_first_bidder_must_be_a_seat(first: int) -> None:
    with pytest.raises(InvalidDeal):
        _rank_deal(*GOOD, first=first)


def test_deal_is_immutable() -> None:
    deal = deal_from_seed(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        deal.first_bidder = 2  # type: ignore[misc]
