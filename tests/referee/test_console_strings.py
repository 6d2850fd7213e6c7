"""The console's words (``console_strings``, handed to its JS as JSON): every word its
modules use is there, in both languages, and every rule a result refusal can name has its
words."""

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext

from referee.console.hand_strings import RULE_NUMBERS
from referee.console.strings import console_strings
from referee.rules.scoring import DefenderStake
from tournaments.hands.game_words import game_word
from tournaments.hands.replay import HandReplay
from tournaments.public.selectors import LiveSeat, LiveTable
from tournaments.templatetags.public_tags import live_card_html

#: What the live board's card reads of a tournament and of a hand in play.
_TOURNAMENT = SimpleNamespace(slug="open", rule_profile="comp2016")


def _row_with_a_stake() -> LiveTable:
    hand: Any = SimpleNamespace(pk=7, number=1, scores=None)  # a Hand as the card reads it
    replay = HandReplay(hand=hand, events=[], summary={"bid": 2, "landlord_seat": 0})
    seats = [LiveSeat(position=p, name=f"Player {p}") for p in range(3)]
    stakes = (DefenderStake(seat=1, bid=2, factors=()), DefenderStake(seat=2, bid=2, factors=()))
    return LiveTable(
        table_id=1,
        number=1,
        seats=seats,
        hand=hand,
        replay=replay,
        stakes=stakes,
        status="playing",
    )


ROOT = Path(__file__).resolve().parents[2]
CONSOLE = ROOT / "referee" / "console" / "static" / "referee" / "console"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _used_keys() -> set[str]:
    """The words the modules read as ``T.name`` or ``W.name`` (the console strings)."""
    used: set[str] = set()
    for module in CONSOLE.glob("*.js"):
        used |= set(re.findall(r"\b[TW]\.([a-z_0-9]+)", module.read_text()))
    return used


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_word_the_console_uses_is_given(language: str) -> None:
    with translation.override(language):
        words = console_strings()
    used = _used_keys()
    assert {"ev_bid", "res_landlord", "pins_title", "summary_offline"} <= used
    assert used - set(words) == set()
    assert all(isinstance(text, str) and text for text in words.values())


def test_the_chinese_words_are_chinese() -> None:
    with translation.override("zh-hans"):
        zh = console_strings()
    with translation.override("en"):
        en = console_strings()
    new = [k for k in zh if k.startswith(("ev_", "res_", "rule_R", "pins_", "summary_", "state_"))]
    assert len(new) > 60
    untranslated = [k for k in new if not CJK.search(zh[k]) or zh[k] == en[k]]
    assert untranslated == []


def test_every_rule_a_result_refusal_can_name_has_its_words() -> None:
    """The rule numbers the rules library's result checks name (``InvalidResult`` and
    ``ImpossibleResult``, referee/rules/scoring.py) each have words in the console."""
    scoring = (ROOT / "referee" / "rules" / "scoring.py").read_text()
    named = set(re.findall(r'"(R\d+(?:\.\d+)+)"', scoring))
    assert {"R2.2", "R4.3", "R7.2", "R7.3"} <= named
    # Big Three's result checks (SPEC §12): its rules name R12.x
    big3 = (ROOT / "referee" / "rules" / "big3_scoring.py").read_text()
    named_big3 = set(re.findall(r'"(R12(?:\.\d+)+)', big3))
    assert {"R12.5", "R12.9", "R12.10", "R12.11.1"} <= named_big3
    named |= named_big3
    assert named <= set(RULE_NUMBERS)
    with translation.override("zh-hans"):
        words = console_strings()
    assert all(CJK.search(words[f"rule_{number}"]) for number in RULE_NUMBERS)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_console_names_the_stake_and_the_cards_as_the_public_pages_do(language: str) -> None:
    """One term for the stake, the farmer's (农民) as the live tables say it, and the ranks
    10, small joker, big joker as the cards are named everywhere (issue 29.4)."""
    with translation.override(language):
        words = console_strings()
        public_stake = gettext("Stake per farmer (农民)")
        public_jokers = (gettext("Small joker"), gettext("Big joker"))
    assert words["multiplier"] == public_stake
    assert "defender" not in words["multiplier"]
    assert (words["small_joker"], words["big_joker"]) == public_jokers
    if language == "zh-hans":
        assert words["multiplier"] == "每位农民的注额"
        assert public_jokers == ("小王", "大王")
    with translation.override(language):
        card = live_card_html(tournament=_TOURNAMENT, row=_row_with_a_stake())
    assert f'{public_stake}: <span class="stake"' in card  # the live board's card
    with translation.override(language):
        assert game_word("stake", "comp2016") == public_stake
        # Big Three's stake is each opponent's, as the live tables of its events say it
        assert words["big3:multiplier"] == game_word("stake", "big3") != public_stake
