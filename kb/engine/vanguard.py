"""The Vanguard variant's modifiers (902.4, 902.5): a vanguard card changes its owner's starting
life total (20 plus or minus its life modifier) and starting and maximum hand size (seven plus
or minus its hand modifier). Plain values, at the bottom of the engine."""

from __future__ import annotations

from collections.abc import Mapping

STARTING_LIFE = 20  # 103.4
HAND_SIZE = 7  # 103.5, 402.2


class VanguardError(ValueError):
    """Modifiers that aren't numbers."""


def starting_life(modifiers: Mapping[str, int]) -> int:
    """902.4: 20 plus or minus the life modifier."""
    return STARTING_LIFE + _number(modifiers, "life")


def hand_size(modifiers: Mapping[str, int]) -> int:
    """902.5, 902.5b: the starting and the maximum hand size, seven plus or minus the hand
    modifier."""
    return HAND_SIZE + _number(modifiers, "hand")


def _number(modifiers: Mapping[str, int], key: str) -> int:
    unknown = set(modifiers) - {"life", "hand"}
    if unknown:
        raise VanguardError(f"unknown vanguard modifiers {sorted(unknown)} (life, hand)")
    value = modifiers.get(key, 0)
    if not isinstance(value, int):
        raise VanguardError(f"a vanguard {key} modifier is a number, not {value!r}")
    return value
