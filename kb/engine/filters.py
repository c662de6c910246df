"""Which objects a description names ("white creatures you control", "noncreature artifacts",
"target creature an opponent controls"), checked against characteristics as they are now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.engine.objects import Characteristics, EngineError, GameObject

FILTER_KEYS = frozenset({"types", "all_types", "not_types", "subtypes", "colors", "controller",
                         "zone", "counter", "token", "other", "name", "spell", "card",
                         "supertypes", "not_colors", "attacking", "no_abilities",
                         "mana_value"})


def check_filter(spec: Any, where: str) -> None:
    """Refuse a filter that is not a table of known keys (as a card or scenario is read)."""
    if not isinstance(spec, Mapping):
        raise EngineError(f"{where}: a filter is a table, not {spec!r}")
    unknown = set(spec) - FILTER_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown filter keys {sorted(unknown)} "
                          f"(known: {sorted(FILTER_KEYS)})")


def matches(obj: GameObject, ch: Characteristics, spec: Mapping[str, Any], *,
            you: str | None, source: int | None = None,
            opponents: tuple[str, ...] = ()) -> bool:
    """Whether ``obj`` with characteristics ``ch`` fits ``spec`` for a player ``you`` (the
    controller of the effect or ability) and the effect's ``source``."""
    if not spec.keys() <= FILTER_KEYS:
        raise EngineError(f"unknown filter keys {sorted(set(spec) - FILTER_KEYS)} "
                          f"(known: {sorted(FILTER_KEYS)})")
    zone = spec.get("zone", "battlefield")
    if zone != "any" and obj.zone != zone:
        return False
    if obj.phased_out:
        return False  # 702.26b: treated as though it does not exist
    if "types" in spec and not any(t in ch.types for t in spec["types"]):
        return False
    if "mana_value" in spec and not _mana_value_fits(obj, ch, spec["mana_value"]):
        return False
    if "all_types" in spec and not all(t in ch.types for t in spec["all_types"]):
        return False
    if "not_types" in spec and any(t in ch.types for t in spec["not_types"]):
        return False
    if "subtypes" in spec and not any(s in ch.subtypes for s in spec["subtypes"]):
        return False
    if "supertypes" in spec and not all(s in ch.supertypes for s in spec["supertypes"]):
        return False
    if "colors" in spec and not any(c in ch.colors for c in spec["colors"]):
        return False
    if "not_colors" in spec and any(c in ch.colors for c in spec["not_colors"]):
        return False
    controller = ch.controller or obj.controller
    if spec.get("controller") == "you" and controller != you:
        return False
    if spec.get("controller") == "opponent" and controller not in opponents:
        return False
    if "counter" in spec and obj.counters[spec["counter"]] <= 0:
        return False
    if "token" in spec and obj.token != spec["token"]:
        return False
    if spec.get("other") and obj.id == source:
        return False
    if "name" in spec and spec["name"] not in ch.names:
        return False
    if spec.get("spell") and (obj.zone != "stack" or (obj.spell and obj.spell.ability)):
        return False
    if spec.get("no_abilities") and ch.abilities:
        return False  # "creatures with no abilities" (113.12)
    return not (spec.get("card") and obj.token)


def _mana_value_fits(obj: GameObject, ch: Characteristics, wanted: Any) -> bool:
    """``mana_value``: a number, or ``even`` / ``odd``; a spell's X counts as chosen (202.3e)."""
    x = obj.spell.x if obj.spell is not None else 0
    value = ch.mana_cost.mana_value(x) if ch.mana_cost is not None else 0
    if wanted in ("even", "odd"):
        return value % 2 == (0 if wanted == "even" else 1)
    return value == int(wanted)
