"""Replacement effects (614) as card files write them: the kinds of replacement an ability may
have and the shape of each, checked as the card is read.

``enter_as_copy`` (``choose``: a filter; ``except``: copy exceptions, 707.9), ``enters_with``
(counter kind -> amount), ``enters_tapped`` (true), ``as_enters_choose`` (what is chosen,
614.12), ``draw_if_hand_empty`` and ``instead_of_losing`` (instructions done instead),
``counters_twice`` and ``tokens_twice`` (true).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kb.engine.filters import check_filter
from kb.engine.objects import EngineError


def _true(value: Any, where: str) -> None:
    if value is not True:
        raise EngineError(f"{where}: must be true, not {value!r}")


def _counters(value: Any, where: str) -> None:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise EngineError(f"{where}: counter kind -> amount, not {value!r}")


def _name(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise EngineError(f"{where}: the name of what is chosen, not {value!r}")


def _instructions(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise EngineError(f"{where}: a list of instructions, not {value!r}")


def _copy(value: Any, where: str) -> None:
    if not isinstance(value, Mapping) or set(value) - {"choose", "except"}:
        raise EngineError(f"{where}: {{ choose = <filter>, except = {{...}} }}, not {value!r}")
    check_filter(value.get("choose", {}), f"{where}, choose")


# Each kind of replacement and the check of its value.
KINDS: dict[str, Callable[[Any, str], None]] = {
    "enter_as_copy": _copy, "enters_with": _counters, "enters_tapped": _true,
    "as_enters_choose": _name, "draw_if_hand_empty": _instructions,
    "instead_of_losing": _instructions, "counters_twice": _true, "tokens_twice": _true,
}
# The kinds whose value is instructions (checked with the card's other instructions).
INSTRUCTION_KINDS = ("draw_if_hand_empty", "instead_of_losing")


def check_replacement(spec: Any, where: str) -> None:
    """Refuse an unknown kind of replacement or a value of the wrong shape."""
    if not isinstance(spec, Mapping) or not spec:
        raise EngineError(f"{where}: a replacement is a table of kinds ({', '.join(KINDS)})")
    for kind, value in spec.items():
        if kind not in KINDS:
            raise EngineError(f"{where}: unknown kind of replacement {kind!r} "
                              f"(known: {', '.join(KINDS)})")
        KINDS[kind](value, f"{where}, replacement {kind}")
