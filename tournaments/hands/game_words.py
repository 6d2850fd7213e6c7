"""The game's own words, by a hand's (or a tournament's) rule profile: Dou Dizhu's landlord
(地主), farmers (农民) and kitty (底牌), or Big Three's digger (挖坑者), opponents and hole (坑)
(SPEC R12.2.1); and the order the game ranks its cards in (R1.2, or 4 < … < A < 2 < 3 in Big
Three, R12.2). Pages, print sheets and the console ask here, so every screen of a Big Three
event says the game's words, and every other screen keeps the words it had.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from referee.rules.big3_combos import ORDER as BIG3_ORDER
from referee.rules.cards import Card
from referee.rules.errors import UnknownProfile
from referee.rules.profiles import get_profile

#: Each word a page may ask for: (Dou Dizhu's, Big Three's), translated when asked.
_WORDS: dict[str, tuple[Callable[[], str], Callable[[], str]]] = {
    "landlord": (lambda: _("landlord (地主)"), lambda: _("digger (挖坑者)")),
    "Landlord": (lambda: _("Landlord"), lambda: _("Digger (挖坑者)")),
    "farmer": (lambda: _("farmer (农民)"), lambda: _("opponent")),
    "kitty": (lambda: _("Kitty (底牌)"), lambda: _("Hole (坑)")),
    "as_landlord": (lambda: _("As landlord (地主)"), lambda: _("As digger (挖坑者)")),
    "stake": (lambda: _("Stake per farmer (农民)"), lambda: _("Stake per opponent")),
    "no_landlord": (lambda: _("No landlord yet"), lambda: _("No digger yet")),
    "winner_landlord": (lambda: _("Landlord"), lambda: _("Digger")),
    "winner_defenders": (lambda: _("Defenders"), lambda: _("Opponents")),
}


def plays_big3(profile_key: str | None) -> bool:
    """Whether the rule profile ``profile_key`` plays Big Three (``big3``, ``big3_one_round``);
    an unknown key is not."""
    try:
        return get_profile(profile_key).game == "big3"
    except UnknownProfile:
        return False


def game_word(name: str, profile_key: str | None) -> str:
    """The word ``name`` (a key of ``_WORDS``) as the game of ``profile_key`` says it, in the
    reader's language; an unknown name as it is."""
    words = _WORDS.get(name)
    if words is None:
        return name
    return words[1 if plays_big3(profile_key) else 0]()


def _dou_dizhu_key(card: Card) -> tuple[int, str]:
    return (card.rank, card.suit or "")


def _big3_key(card: Card) -> tuple[int, str]:
    return (BIG3_ORDER[card.rank] if card.rank < len(BIG3_ORDER) else card.rank, card.suit or "")


def card_sort_key(profile_key: str | None) -> Callable[[Card], tuple[int, str]]:
    """How the game sorts cards low to high: 3 … 2, the jokers (R1.2), or in Big Three
    4 … K, A, 2, 3 (R12.2)."""
    return _big3_key if plays_big3(profile_key) else _dou_dizhu_key
