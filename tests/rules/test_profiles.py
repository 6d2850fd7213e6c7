"""Rule profiles (SPEC §0.1, §0.4): the switches, the registry and the content hash."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from referee.rules import (
    CLASSIC,
    COMP2016,
    PROFILES,
    HandState,
    RuleProfile,
    UnknownProfile,
    deal_from_seed,
    get_profile,
    handle_request,
)
from referee.rules.profiles import FOUR_P, LAIZI, VARIANT_PROFILES
from tests.rules.helpers import REPO_ROOT

# SPEC §0.4, the columns COMP2016 and CLASSIC (switches the library models).
SECTION_0_4 = {
    "auction_mode": ("single_round", "until_two_passes"),
    "doubling": ("defenders_then_landlord_redouble", "none"),
    "doubling_order": ("any_order", None),
    "kitty_reveal": ("after_doubling", "before_play"),
    "wing_singles_may_repeat_rank": (True, False),
    "wing_trio_allowed_if_not_adjacent": (True, False),
    "four_two_singles_may_pair": (True, False),
    "four_with_one": (False, False),
    "rocket_in_kickers": (False, False),
    "bomb_in_kickers": (False, False),
    "max_airplane_pairs_len": (4, 4),
    "multiplier_mode": ("power_of_two", "power_of_two"),
    "spring_factor": (2, 2),
    "cap": (None, None),
    "announce_2_and_1": ("mandatory", "optional"),
    "grab_landlord": (False, False),
    "kitty_visible_to_all": (True, True),
}


@pytest.mark.parametrize("switch", sorted(SECTION_0_4))
def test_section_0_4_switch_defaults(switch: str) -> None:
    comp, classic = SECTION_0_4[switch]
    assert getattr(COMP2016, switch) == comp
    if classic is not None:  # n/a in CLASSIC
        assert getattr(CLASSIC, switch) == classic


def test_section_0_4_first_bidder_and_all_pass() -> None:
    assert COMP2016.first_bidder == "board_specified"
    assert CLASSIC.first_bidder in ("face_up_card", "rotate")
    assert COMP2016.all_pass in ("redeal_advance_first_bidder", "score_zero")
    assert CLASSIC.all_pass == "redeal"


def test_section_0_1_registry_keys_and_default() -> None:
    assert set(PROFILES) == {"comp2016", "classic"}
    assert get_profile() is COMP2016
    assert get_profile("comp2016") is COMP2016
    assert get_profile("classic") is CLASSIC
    assert COMP2016.has_doubling and not CLASSIC.has_doubling


@pytest.mark.parametrize("key", ["seven_p", "FOUR_P", "COMP2016", "Classic", "", None, 3])
def test_unknown_profile_keys(key: object) -> None:
    if key is None:
        assert get_profile(None) is COMP2016
        return
    with pytest.raises(UnknownProfile) as info:
        get_profile(key)  # type: ignore[arg-type]
    assert info.value.code == "unknown_profile"


def test_protocol_profile_keys_are_lower_case() -> None:
    answer = handle_request({"op": "classify", "profile": "COMP2016", "cards": "3"})
    assert answer["error"] == "unknown_profile"


def test_content_hash_is_stable_across_processes() -> None:
    code = (
        "from referee.rules import COMP2016, CLASSIC; "
        "print(COMP2016.content_hash, CLASSIC.content_hash)"
    )
    outputs = set()
    for seed in ("0", "1"):
        proc = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            timeout=60,
            check=True,
        )
        outputs.add(proc.stdout.strip())
    assert outputs == {f"{COMP2016.content_hash} {CLASSIC.content_hash}"}
    assert COMP2016.content_hash == COMP2016.content_hash


def test_content_hash_differs_between_profiles_and_ignores_the_key() -> None:
    assert COMP2016.content_hash != CLASSIC.content_hash
    renamed = dataclasses.replace(COMP2016, key="my-event")
    assert renamed.content_hash == COMP2016.content_hash
    changed = dataclasses.replace(COMP2016, spring_factor=3)
    assert changed.content_hash != COMP2016.content_hash
    hashes = {
        dataclasses.replace(COMP2016, **{name: value}).content_hash
        for name, value in [
            ("auction_mode", "until_two_passes"),
            ("doubling_order", "next_defender_first"),
            ("kitty_reveal", "before_doubling"),
            ("wing_singles_may_repeat_rank", False),
            ("max_airplane_pairs_len", 3),
            ("multiplier_mode", "jj_linear_bombs"),
            ("cap", 24),
        ]
    }
    assert len(hashes) == 7 and COMP2016.content_hash not in hashes


def test_profiles_are_immutable_values() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        COMP2016.cap = 10  # type: ignore[misc]
    assert dataclasses.replace(COMP2016) == COMP2016
    assert isinstance(hash(COMP2016), int)


@pytest.mark.parametrize(
    "change",
    [
        {"four_with_one": True},
        {"grab_landlord": True},
        {"max_airplane_pairs_len": 5},
        {"max_airplane_pairs_len": 1},
        {"spring_factor": 0},
        {"cap": 0},
    ],
)
def test_unsupported_or_impossible_switches_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(COMP2016, key="bad", **change)


def test_switches_view_lists_every_switch_but_the_key() -> None:
    fields = {f.name for f in dataclasses.fields(RuleProfile)} - {"key"}
    # Big Three's (SPEC §12), and the kitty of six and five players (SPEC §13, §14)
    game_fields = {"game", "compulsory_opening", "first_lead", "kitty_cards"}
    variant_fields = {"seats", "packs", "wild_cards", *game_fields}
    assert set(COMP2016.switches) == fields - variant_fields  # three players, one pack
    assert set(FOUR_P.switches) == fields - {"wild_cards", *game_fields}
    assert set(LAIZI.switches) == fields - {"seats", "packs", *game_fields}


def test_three_player_content_hashes_are_unchanged_by_the_variant_fields() -> None:
    """Hands recorded before the variants keep the hash of their rules (values from main)."""
    assert COMP2016.content_hash == "32d96bd54b164d5c"
    assert CLASSIC.content_hash == "d4fe34140e45e864"
    assert len({COMP2016.content_hash, FOUR_P.content_hash, LAIZI.content_hash}) == 3


def test_six_and_five_player_profiles_deal_what_sections_13_and_14_say() -> None:
    """R13.2: 26 each + 6 (27 each, none); R14.2: 21 each + 3; each its own content hash."""
    six, no_kitty, five = (get_profile(k) for k in ("six_p", "six_p_no_kitty", "five_p"))
    assert (six.seats, six.packs, six.hand_size, six.kitty_size) == (6, 3, 26, 6)
    assert (no_kitty.hand_size, no_kitty.kitty_size) == (27, 0)
    assert (five.seats, five.packs, five.hand_size, five.kitty_size) == (5, 2, 21, 3)
    assert not any(p.is_three_player or p.has_doubling for p in (six, no_kitty, five))
    hashes = {p.content_hash for p in (six, no_kitty, five, FOUR_P, COMP2016)}
    assert len(hashes) == 5
    with pytest.raises(ValueError):
        dataclasses.replace(six, seats=5)


def test_variant_profiles_are_registered_apart_from_the_three_player_ones() -> None:
    assert set(VARIANT_PROFILES) == {"four_p", "laizi"}
    assert get_profile("four_p") is FOUR_P and get_profile("laizi") is LAIZI
    assert (FOUR_P.seats, FOUR_P.packs, FOUR_P.has_doubling) == (4, 2, False)
    assert (LAIZI.seats, LAIZI.packs, LAIZI.wild_cards) == (3, 1, True)
    assert not FOUR_P.is_three_player and not LAIZI.is_three_player
    assert COMP2016.is_three_player and CLASSIC.is_three_player


@pytest.mark.parametrize("profile", [FOUR_P, LAIZI])
def test_hand_state_refuses_a_variant_profile(profile: RuleProfile) -> None:
    deal = deal_from_seed(1)
    with pytest.raises(ValueError, match="HandState does not play"):
        HandState(deal, profile)


def test_a_profile_is_three_seats_with_one_pack_or_four_with_two() -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(COMP2016, key="bad", seats=4)
