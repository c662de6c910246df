"""Which objects a description names ("white creatures you control", "noncreature artifacts",
"target creature an opponent controls"), checked against characteristics as they are now.

A filter is a table of conditions, all of which must hold: ``types`` (any of them),
``all_types``, ``not_types`` ("noncreature"), ``subtypes`` (any), ``not_subtypes``
("non-Human"), ``supertypes`` (all), ``not_supertypes`` ("nonbasic"), ``colors`` (any),
``not_colors``, ``controller`` and ``owner`` (``you`` or ``opponent``: "an opponent's
graveyard" is ``{ zone = "graveyard", owner = "opponent" }``), ``zone`` (the battlefield by
default; ``any``), ``tapped`` (true: tapped, false: untapped), ``counter`` (a kind of counter
it has), ``token``, ``card`` (not a token), ``other`` (not the source), ``name``, ``spell``,
``attacking``, ``no_abilities``, ``keywords`` (has any of these keyword abilities),
``not_keywords`` ("without flying"), ``mana_value`` (a number, ``even``, ``odd``,
``{ at_most = N }``, ``{ at_least = N }``), and ``chosen``
(the value chosen for the source's linked "as this enters, choose" ability, 607.2a:
``chosen = "color"`` is "of the chosen color", ``"creature_type"`` "of the chosen type";
nothing matches while no choice was made for it, 607.5a).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.engine.objects import ALL_CREATURE_TYPES, Characteristics, EngineError, GameObject

FILTER_KEYS = frozenset({"types", "all_types", "not_types", "subtypes", "colors", "controller",
                         "zone", "counter", "token", "other", "name", "spell", "card",
                         "supertypes", "not_colors", "attacking", "no_abilities",
                         "mana_value", "not_subtypes", "not_supertypes", "tapped", "owner",
                         "chosen", "keywords", "not_keywords"})
# What ``chosen`` may name, and the characteristic each choice is compared with.
CHOSEN = {"color": "colors", "creature_type": "subtypes", "land_type": "subtypes",
          "card_type": "types"}


def check_filter(spec: Any, where: str) -> None:
    """Refuse a filter that is not a table of known keys (as a card or scenario is read)."""
    if not isinstance(spec, Mapping):
        raise EngineError(f"{where}: a filter is a table, not {spec!r}")
    unknown = set(spec) - FILTER_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown filter keys {sorted(unknown)} "
                          f"(known: {sorted(FILTER_KEYS)})")
    if "chosen" in spec and spec["chosen"] not in CHOSEN:
        raise EngineError(f"{where}: filter chosen is one of {', '.join(CHOSEN)}")
    for key in ("controller", "owner"):
        if spec.get(key, "you") not in ("you", "opponent"):
            raise EngineError(f"{where}: filter {key} is you or opponent")
    if "tapped" in spec and not isinstance(spec["tapped"], bool):
        raise EngineError(f"{where}: filter tapped is true or false")
    wanted = spec.get("mana_value")
    if isinstance(wanted, Mapping) and (not wanted or set(wanted) - {"at_most", "at_least"}):
        raise EngineError(f"{where}: filter mana_value is a number, even, odd, or "
                          "{ at_most = N } / { at_least = N }")


def linked_choices(obj: GameObject | None, name: str | None) -> dict[str, Any]:
    """607.2a: the choices made as ``obj`` entered as the object named ``name``, which its
    abilities (as that object) refer to: what -> the choice."""
    if obj is None:
        return {}
    return {what: value for (named, what), value in obj.linked_choices.items()
            if named == name}


def matches(obj: GameObject, ch: Characteristics, spec: Mapping[str, Any], *,
            you: str | None, source: int | None = None,
            opponents: tuple[str, ...] = (), linked: Mapping[str, Any] | None = None) -> bool:
    """Whether ``obj`` with characteristics ``ch`` fits ``spec`` for a player ``you`` (the
    controller of the effect or ability) and the effect's ``source``, whose linked choices
    (:func:`linked_choices`) are ``linked``."""
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
    if "not_subtypes" in spec and any(s in ch.subtypes for s in spec["not_subtypes"]):
        return False
    if "supertypes" in spec and not all(s in ch.supertypes for s in spec["supertypes"]):
        return False
    if "not_supertypes" in spec and any(s in ch.supertypes for s in spec["not_supertypes"]):
        return False
    if "tapped" in spec and obj.tapped != spec["tapped"]:
        return False
    if "keywords" in spec and not any(ch.has(k.lower()) for k in spec["keywords"]):
        return False
    if "not_keywords" in spec and any(ch.has(k.lower()) for k in spec["not_keywords"]):
        return False
    if "chosen" in spec and not _is_chosen(ch, spec["chosen"], linked or {}):
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
    if spec.get("owner") == "you" and obj.owner != you:
        return False
    if spec.get("owner") == "opponent" and obj.owner not in opponents:
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


def _is_chosen(ch: Characteristics, what: str, linked: Mapping[str, Any]) -> bool:
    """"Of the chosen [color, type]": the object has the value chosen (none chosen: no)."""
    value = linked.get(what)
    if value is None:
        return False
    if what == "creature_type" and ALL_CREATURE_TYPES in ch.subtypes:
        return True  # changeling (702.73a)
    return value in getattr(ch, CHOSEN[what])


def _mana_value_fits(obj: GameObject, ch: Characteristics, wanted: Any) -> bool:
    """``mana_value``: a number, ``even`` / ``odd``, or ``{ at_most = N }`` / ``{ at_least =
    N }``; a spell's X counts as chosen (202.3e)."""
    x = obj.spell.x if obj.spell is not None else 0
    value = ch.mana_cost.mana_value(x) if ch.mana_cost is not None else 0
    if wanted in ("even", "odd"):
        return value % 2 == (0 if wanted == "even" else 1)
    if isinstance(wanted, Mapping):
        return (value <= int(wanted.get("at_most", value))
                and value >= int(wanted.get("at_least", value)))
    return value == int(wanted)
