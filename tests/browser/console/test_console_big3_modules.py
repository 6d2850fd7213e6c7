"""The play composer's pure helpers (entry.js, provisional.js) at a Big Three table (大三 /
挖坑, issue 31), run in Chromium as the ES modules the console serves: the game's ranks by
the hand's rule profile, cards grouped and plays labelled in 4 … A 2 3 with no joker, and the
legal plays in order whatever the deal (a quad is no bomb: it sorts with its kind)."""

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from referee.rules.big3_combos import ORDER, legal_plays_big3
from referee.rules.big3_hand import Big3Deal
from referee.rules.cards import key_of
from referee.rules.games import deal_json_from_seed
from referee.rules.profiles import BIG3

pytestmark = pytest.mark.django_db(transaction=True)

PRELUDE = (Path(__file__).parent / "modules_harness.js").read_text()


def _run(page: Page, body: str) -> Any:
    return page.evaluate("async () => {" + PRELUDE + body + "}")


@pytest.fixture
def page(page_en: Page, live_server: Any) -> Page:
    page_en.goto("/referee/login/")
    return page_en


def test_the_games_ranks_and_cards_by_the_hands_profile(page: Page) -> None:
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const p = await import('/static/referee/console/provisional.js');
        const big3 = p.ranksFor({ rule_profile: 'big3' });
        return {
          pads: ['big3', 'big3_one_round', 'comp2016', 'classic', 'four_p', 'laizi', null]
            .map((k) => p.ranksFor({ rule_profile: k })),
          none: p.ranksFor(null),
          grouped: e.groupCards('♠3 ♥2 ♣A 4 4 ♦K 3', big3).map((g) => g.rank + g.count),
          plain: e.groupCards('♠3 ♥2 ♣A 4 4 ♦K 3').map((g) => g.rank + g.count),
          quads: ['3333', '4444', 'KKKK', '2222'].map((q) => e.playOrder(q, big3)),
          label: e.playLabel('3 2 A', { small_joker: 'x', big_joker: 'd' }, big3),
        };
        """,
    )
    assert result["pads"] == ["456789TJQKA23"] * 2 + ["3456789TJQKA2XD"] * 5
    assert result["none"] == "3456789TJQKA2XD"
    assert result["grouped"] == ["42", "K1", "A1", "21", "32"]  # R12.2: 4 low, 3 high
    assert result["plain"] == ["32", "42", "K1", "A1", "21"]
    # no bomb class in Big Three: a quad sorts by its rank in the game's order, 3333 last
    assert result["quads"] == [[0, 12], [0, 0], [0, 9], [0, 11]]
    assert result["label"] == "A 2 3"


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), lead=st.integers(0, 10_000), shuffle=st.randoms())
def test_the_order_of_big3_legal_plays_is_an_invariant_of_the_rules(
    page: Page, seed: int, lead: int, shuffle: Any
) -> None:
    """Whatever the deal, the play to beat and the order the API lists them in: every legal
    Big Three answer shown once, the same order every time, lowest first in Big Three's
    order (R12.2, R12.9: they are all the lead's kind and length); and a lead's plays are
    grouped with the singles and pairs of low ranks before those of 2 and 3."""
    deal = Big3Deal.from_json(deal_json_from_seed(BIG3, seed))
    leads = legal_plays_big3(key_of(deal.hands[0]))
    previous = leads[lead % len(leads)]
    answers = legal_plays_big3(key_of(deal.hands[1]), previous)
    listed = [{"seat": 1, "play": p.text()} for p in answers]
    shuffle.shuffle(listed)
    result = _run(
        page,
        """
        const e = await import('/static/referee/console/entry.js');
        const order = (await import('/static/referee/console/provisional.js')).BIG3_RANKS;
        const listed = LISTED;
        return [e.orderPlays(listed, order).map((a) => a.play),
                e.orderPlays(listed.slice().reverse(), order).map((a) => a.play)];
        """.replace("LISTED", json.dumps(listed)),
    )
    ordered, again = result
    assert ordered == again
    assert sorted(ordered) == sorted(p.text() for p in answers)
    by_text = {p.text(): p for p in answers}
    assert all(by_text[t].kind is previous.kind for t in ordered)
    ranks = [ORDER[by_text[t].rank] for t in ordered]  # type: ignore[index]
    assert ranks == sorted(ranks)
