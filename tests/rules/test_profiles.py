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
    RuleProfile,
    UnknownProfile,
    get_profile,
    handle_request,
)
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


@pytest.mark.parametrize("key", ["four_p", "COMP2016", "Classic", "", None, 3])
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
    assert set(COMP2016.switches) == fields
