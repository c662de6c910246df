"""Card definitions as data: what a card file (or a token-making effect) says a card is.

A definition is a mapping with ``name``, ``mana_cost`` ("{3}{U}"), ``color_indicator``,
``colors`` (a token's colors), ``types``, ``subtypes``, ``supertypes``, ``power``,
``toughness``, ``loyalty``, ``defense`` and ``abilities``; a card with several faces has
``layout`` (split, flip, transform, meld, adventure: the card, then its Adventure) and
``faces`` (a list of such mappings).

Keyword abilities are listed under ``keywords`` ("Flying", "Echo {G}", "Protection from
green"); any other ability under ``abilities``, as a keyword string or a mapping
with its ``text`` and one of: ``static`` (continuous changes, see :mod:`kb.engine.layers`),
``cda`` ({power, toughness} amounts, 604.3), ``trigger`` with ``effect`` (603),
``cost`` with ``effect`` (activated, 602), ``spell`` (a spell's instructions, 608.2),
``replacement`` (614-616, see :mod:`kb.engine.replacements`). ``targets``, ``modes``,
``additional_cost``, ``if`` and ``may`` complete them. Anything else, at any depth, is refused
as the card is read (:func:`ability_from`), with the card's file and line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kb.engine import conditions, player_rules
from kb.engine.casting import MAY_CAST_FROM
from kb.engine.filters import check_filter
from kb.engine.instructions import (
    COMMON_KEYS,
    OP_KEYS,
    REFERENCE_KEYS,
    REPLACEMENT_OPS,
    TARGET_KEYS,
    TARGET_KINDS,
)
from kb.engine.layers import MOD_LAYER, STATIC_EXTRA
from kb.engine.mana import ManaCost, ManaError
from kb.engine.objects import (
    COLORS,
    KEYWORDS,
    Ability,
    EngineError,
    Face,
    Printed,
    keyword,
    parse_pt,
)
from kb.engine.replacements import check_replacement, instructions_of
from kb.engine.steps import DELAYED_EVENTS, delayed_time_known
from kb.engine.triggers import TRIGGER_EVENTS, TRIGGER_FILTERS, TRIGGER_KEYS
from kb.engine.typeline import TypeLineError, read_type_line

FACE_KEYS = frozenset({"name", "mana_cost", "color_indicator", "colors", "types", "subtypes",
                       "supertypes", "power", "toughness", "loyalty", "defense", "keywords",
                       "abilities", "text", "type_line"})
CARD_KEYS = FACE_KEYS | {"layout", "faces"}
ABILITY_KINDS = ("static", "cda", "trigger", "cost", "spell", "replacement")
# A spell's additional costs (601.2b, 601.2f-h): mana, a waterbend cost, sacrificing a permanent,
# discarding a card (each a filter).
ADDITIONAL_COSTS = frozenset({"mana", "waterbend", "sacrifice", "discard"})
ABILITY_KEYS = frozenset({"text", "targets", "modes", "kicked_modes", "additional_cost", "if",
                          "may", "effect",
                          "from_zone", "once_per_turn", "label", *ABILITY_KINDS})
LAYOUTS = ("normal", "split", "flip", "transform", "meld", "adventure")
COST_CHANGE_KEYS = frozenset({"spells", "caster", "more", "less", "per"})


def card_from_data(data: Mapping[str, Any], where: str) -> Printed:
    """A card's printed values from its definition; ``where`` names it in errors."""
    unknown = set(data) - CARD_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown card keys {sorted(unknown)}")
    layout = data.get("layout", "normal")
    if layout not in LAYOUTS:
        raise EngineError(f"{where}: unknown layout {layout!r} (known: {', '.join(LAYOUTS)})")
    if "faces" in data:
        if layout == "normal":
            raise EngineError(f"{where}: 'faces' needs a layout (split, flip, transform)")
        faces = tuple(face_from_data(f, f"{where}, face {i + 1}")
                      for i, f in enumerate(data["faces"]))
        if len(faces) != 2:
            raise EngineError(f"{where}: a {layout} card has two faces, not {len(faces)}")
        return Printed(faces, layout)
    if layout != "normal":
        raise EngineError(f"{where}: a {layout} card needs 'faces'")
    return Printed((face_from_data(data, where),))


def face_from_data(data: Mapping[str, Any], where: str) -> Face:
    unknown = set(data) - FACE_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown face keys {sorted(unknown)}")
    try:
        cost = ManaCost.parse(data["mana_cost"]) if "mana_cost" in data else None
    except ManaError as exc:
        raise EngineError(f"{where}: {exc}") from exc
    colors = data.get("colors")
    indicator = data.get("color_indicator")
    for named in (colors or [], indicator or []):
        wrong = [c for c in named if c not in COLORS]
        if wrong:
            raise EngineError(f"{where}: not colors: {wrong} (colors: {', '.join(COLORS)})")
    supertypes, types, subtypes = _types(data, where)
    return Face(
        name=data.get("name"), mana_cost=cost,
        color_indicator=frozenset(indicator) if indicator else None,
        types=types, subtypes=subtypes, supertypes=supertypes,
        power=_pt(data.get("power"), where), toughness=_pt(data.get("toughness"), where),
        loyalty=data.get("loyalty"), defense=data.get("defense"),
        abilities=tuple(ability_from(a, f"{where}, ability {i + 1}")
                        for i, a in enumerate([*data.get("keywords", ()),
                                               *data.get("abilities", ())])),
        color_override=frozenset(colors) if colors is not None else None,
    )


def _types(data: Mapping[str, Any], where: str
           ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Supertypes, card types and subtypes, listed or read from a ``type_line`` (205)."""
    if "type_line" not in data:
        return (tuple(data.get("supertypes", ())), tuple(data.get("types", ())),
                tuple(data.get("subtypes", ())))
    if {"supertypes", "types", "subtypes"} & set(data):
        raise EngineError(f"{where}: a type_line or supertypes/types/subtypes, not both")
    try:
        return read_type_line(str(data["type_line"]))
    except TypeLineError as exc:
        raise EngineError(f"{where}: {exc}") from exc


def _pt(value: Any, where: str) -> int | None:
    try:
        return parse_pt(value)
    except EngineError as exc:
        raise EngineError(f"{where}: {exc}") from exc


def ability_from(data: str | Mapping[str, Any] | Ability, where: str) -> Ability:
    """An ability from a keyword string or an ability mapping."""
    if isinstance(data, Ability):
        return data
    if isinstance(data, str):
        try:
            return keyword(data)
        except EngineError as exc:
            raise EngineError(f"{where}: {exc}") from exc
    if "keyword" in data:  # a keyword with a variable: { keyword = "Echo {X}", x = <amount> }
        if set(data) == {"keyword", "cost"} and data["cost"] == "mana_cost":
            # "flashback; the flashback cost is equal to its mana cost" (702.1b)
            name = str(data["keyword"])
            if KEYWORDS.get(name.lower()) != "cost":
                raise EngineError(f"{where}: {name!r} is not a keyword with a cost")
            return Ability(name, "keyword", name.lower(), None, spec={"cost": "mana_cost"})
        if set(data) != {"keyword", "x"}:
            raise EngineError(f"{where}: a keyword with a variable is {{ keyword, x }} or "
                              f"{{ keyword, cost = \"mana_cost\" }}, not {sorted(data)}")
        return replace(ability_from(str(data["keyword"]), where), spec={"x": data["x"]})
    unknown = set(data) - ABILITY_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown ability keys {sorted(unknown)}")
    if "text" not in data:
        raise EngineError(f"{where}: an ability needs its 'text'")
    kinds = [k for k in ABILITY_KINDS if k in data]
    if len(kinds) != 1:
        raise EngineError(f"{where}: an ability is exactly one of {ABILITY_KINDS}, "
                          f"not {kinds or 'none'}")
    kind = {"static": "static", "cda": "static", "trigger": "triggered", "cost": "activated",
            "spell": "spell", "replacement": "replacement"}[kinds[0]]
    spec = dict(data)
    if "static" in spec:
        spec["static"] = _with_abilities(spec["static"], where)
    if kind in ("triggered", "activated") and "effect" not in spec:
        raise EngineError(f"{where}: a {kind} ability needs an 'effect' list")
    if "cost" in spec:
        try:
            spec["mana"] = ManaCost.parse(_mana_part(spec["cost"]))
        except ManaError as exc:
            raise EngineError(f"{where}: {exc}") from exc
    _check_parts(spec, where)
    return Ability(data["text"], kind, spec=spec)


def _check_parts(spec: Mapping[str, Any], where: str) -> None:
    """Refuse, as the card is read, any part of an ability the engine would not understand:
    an unknown continuous change, trigger event, kind of replacement, target, filter,
    condition or instruction (not when, and if, a scenario makes it matter)."""
    if "static" in spec:
        static = spec["static"]
        unknown = set(static) - set(MOD_LAYER) - STATIC_EXTRA
        if unknown:
            raise EngineError(f"{where}: unknown continuous changes {sorted(unknown)} "
                              f"(known: {sorted(set(MOD_LAYER) | STATIC_EXTRA)})")
        if isinstance(static.get("affects"), Mapping):
            check_filter(static["affects"], f"{where}, affects")
        if "cost_change" in static:
            check_cost_change(static["cost_change"], where)
        if "player_rule" in static:
            check_player_rule(static["player_rule"], where)
        _check_condition(static.get("as_long_as"), where)
        if "cant_enter" in static:
            check_filter(static["cant_enter"], f"{where}, cant_enter")
        if "cast_as_though_flash" in static:
            check_filter(static["cast_as_though_flash"], f"{where}, cast_as_though_flash")
        if "may_cast" in static:
            may = static["may_cast"]
            if not isinstance(may, Mapping) or set(may) - {"from", "spells"} \
                    or may.get("from") not in MAY_CAST_FROM:
                raise EngineError(f"{where}: may_cast is {{ from = "
                                  f"{' | '.join(MAY_CAST_FROM)}, spells = <filter> }}")
            check_filter(may.get("spells", {}), f"{where}, may_cast spells")
        _check_static_flags(static, where)
    if "trigger" in spec:
        _check_trigger(spec["trigger"], where)
    replacement = spec.get("replacement")
    if replacement is not None:
        check_replacement(replacement, where)
    extra_cost = spec.get("additional_cost", {})
    if not isinstance(extra_cost, Mapping) or set(extra_cost) - ADDITIONAL_COSTS:
        raise EngineError(f"{where}: additional_cost has {sorted(ADDITIONAL_COSTS)}, not "
                          f"{extra_cost!r}")
    for key in ("sacrifice", "discard"):
        if key in extra_cost:
            check_filter(extra_cost[key], f"{where}, additional_cost {key}")
    if spec.get("kicked_modes", "any") != "any":
        raise EngineError(f"{where}: kicked_modes is \"any\" (\"if this spell was kicked, "
                          "choose any number instead\")")
    for target in spec.get("targets", ()):
        check_target(target, where)
    _check_condition(spec.get("if"), where)
    for ops in (spec.get("effect"), spec.get("spell"),
                *(m.get("effect") for m in spec.get("modes", ())),
                *instructions_of(replacement or {})):
        check_instructions(ops, where)


# Static abilities' rules that are flags: each must be true (a false one would do nothing).
STATIC_FLAGS = ("prevent_combat_damage", "damage_cant_be_prevented", "damage_as_wither")


def _check_static_flags(static: Mapping[str, Any], where: str) -> None:
    """Refuse a static rule whose value would make it do nothing."""
    for flag in STATIC_FLAGS:
        if flag in static and static[flag] is not True:
            raise EngineError(f"{where}: {flag} is true (leave it out otherwise)")
    if static.get("prevent_combat_damage") and static.get("affects") not in (
            "enchanted", "equipped", "attached"):
        raise EngineError(f"{where}: prevent_combat_damage applies to the enchanted, equipped "
                          "or attached creature (affects)")
    if "extra_trigger" in static and static["extra_trigger"] != "dies":
        raise EngineError(f"{where}: extra_trigger is \"dies\" (603.2d: a creature dying)")


def check_player_rule(spec: Any, where: str) -> None:
    """Refuse a ``player_rule`` (:mod:`kb.engine.player_rules`) the engine would not
    understand."""
    if not isinstance(spec, Mapping) or set(spec) - {"who", "rule", "spells"} \
            or spec.get("rule") not in player_rules.RULES \
            or spec.get("who", "you") not in player_rules.WHO:
        raise EngineError(f"{where}: player_rule is {{ who = {' | '.join(player_rules.WHO)}, "
                          f"rule = {' | '.join(player_rules.RULES)} }}, not {spec!r}")
    check_filter(spec.get("spells", {}), f"{where}, player_rule spells")


def check_cost_change(spec: Any, where: str) -> None:
    """Refuse a ``cost_change`` (:mod:`kb.engine.costs`) the engine would not understand."""
    if not isinstance(spec, Mapping) or set(spec) - COST_CHANGE_KEYS \
            or ("more" in spec) == ("less" in spec):
        raise EngineError(f"{where}: cost_change is {{ spells = <filter>, caster = you | "
                          f"opponent | any, more or less = <mana> }}, not {spec!r}")
    if spec.get("spells") != "self":  # "this spell costs ... less" (601.2f)
        check_filter(spec.get("spells", {}), f"{where}, cost_change spells")
    if spec.get("caster", "you") not in ("you", "opponent", "any"):
        raise EngineError(f"{where}: cost_change caster is you, opponent or any")
    try:
        ManaCost.parse(spec.get("more") or spec.get("less"))
    except ManaError as exc:
        raise EngineError(f"{where}: {exc}") from exc


def _check_trigger(trigger: Any, where: str) -> None:
    if not isinstance(trigger, Mapping) or trigger.get("on") not in TRIGGER_EVENTS:
        raise EngineError(f"{where}: a trigger has 'on', one of {sorted(TRIGGER_EVENTS)}; "
                          f"got {trigger!r}")
    unknown = set(trigger) - TRIGGER_KEYS
    if unknown:
        raise EngineError(f"{where}: unknown trigger keys {sorted(unknown)} "
                          f"(known: {sorted(TRIGGER_KEYS)})")
    if trigger.get("zone", "graveyard") not in ("graveyard", "exile"):
        raise EngineError(f"{where}: a trigger's zone (where the ability works from besides "
                          f"the battlefield) is graveyard or exile, not {trigger['zone']!r}")
    if trigger.get("what") == "haunted" and trigger.get("zone") != "exile":
        raise EngineError(f"{where}: \"the creature it haunts\" is seen from exile "
                          "(zone = \"exile\", 702.55c)")
    for key in TRIGGER_FILTERS & set(trigger):
        value = trigger[key]
        if isinstance(value, Mapping):
            check_filter({k: v for k, v in value.items() if k != "another"},
                         f"{where}, trigger {key}")


def check_target(target: Any, where: str) -> None:
    """A target specification: ``kind`` (115.1), ``filter``, ``count`` or ``up_to`` (a number,
    or ``"any"``: "any number of target cards")."""
    if not isinstance(target, Mapping) or set(target) - TARGET_KEYS:
        raise EngineError(f"{where}: a target has {sorted(TARGET_KEYS)}; got {target!r}")
    if target.get("kind", "any") not in TARGET_KINDS:
        raise EngineError(f"{where}: unknown target kind {target.get('kind')!r} "
                          f"(known: {', '.join(TARGET_KINDS)})")
    if "count" in target and "up_to" in target:
        raise EngineError(f"{where}: a target has count (exactly N) or up_to (none to N), "
                          "not both")
    up_to = target.get("up_to", 0)
    if up_to != "any" and (not isinstance(up_to, int) or isinstance(up_to, bool) or up_to < 0):
        raise EngineError(f"{where}: up_to is a number or \"any\" (any number of targets), "
                          f"not {up_to!r}")
    check_filter(target.get("filter", {}), f"{where}, target filter")


def _check_condition(spec: Any, where: str) -> None:
    if spec is None:
        return
    if not isinstance(spec, Mapping) or set(spec) - conditions.KEYS:
        raise EngineError(f"{where}: unknown condition {spec!r} "
                          f"(known: {sorted(conditions.KEYS)})")
    if isinstance(spec.get("you_control"), Mapping):
        check_filter(spec["you_control"], f"{where}, condition")


def check_instructions(ops: Any, where: str) -> None:
    """Refuse an unknown instruction, parameter, filter or condition as the card (or the
    scenario) is read, not when (and if) a scenario makes it happen."""
    if ops is None:
        return
    if not isinstance(ops, list):
        raise EngineError(f"{where}: instructions are a list, not {ops!r}")
    for op in ops:
        if not isinstance(op, Mapping):
            raise EngineError(f"{where}: an instruction is a table, not {op!r}")
        name = op.get("op")
        if name not in OP_KEYS:
            raise EngineError(f"{where}: unknown instruction {name!r}")
        unknown = set(op) - COMMON_KEYS - OP_KEYS[name]
        if unknown:
            raise EngineError(f"{where}: instruction {name!r}: unknown keys {sorted(unknown)}")
        for key in REFERENCE_KEYS & set(op):
            for ref in op[key] if isinstance(op[key], list) else [op[key]]:
                if isinstance(ref, Mapping):
                    if "each" not in ref or set(ref) - {"each", "except"}:
                        raise EngineError(f"{where}: instruction {name!r}: {key} = {ref!r} "
                                          "(a table there is { each = <filter> }, with "
                                          "maybe except = <reference>)")
                    check_filter(ref["each"], f"{where}, instruction {name!r}, {key}")
        if isinstance(op.get("filter"), Mapping):
            check_filter(op["filter"], f"{where}, instruction {name!r}, filter")
        _check_condition(op.get("if"), f"{where}, instruction {name!r}")
        if name in REPLACEMENT_OPS:
            check_replacement(op.get("replacement"), f"{where}, instruction {name!r}")
            for nested in instructions_of(op["replacement"]):
                check_instructions(nested, where)
        if name == "emblem":
            for i, ability in enumerate(op.get("abilities", ())):
                ability_from(ability, f"{where}, emblem ability {i + 1}")
        if name == "delayed" and not delayed_time_known(str(op.get("at"))):
            raise EngineError(f"{where}: delayed: unknown time {op.get('at')!r} (\"next "
                              "<step>\", \"your next <step>\", or an event: "
                              f"{', '.join(DELAYED_EVENTS)})")
        for nested in ("then", "effect", "do"):
            check_instructions(op.get(nested), where)


def _mana_part(cost: str) -> str:
    """The mana symbols of an activation cost such as "{2}{R}, Sacrifice this"."""
    return "".join(p.strip() for p in cost.split(",") if p.strip().startswith("{")
                   and "{T}" not in p)


def _with_abilities(static: Mapping[str, Any], where: str) -> dict[str, Any]:
    out = dict(static)
    if "grant" in out:
        out["grant"] = tuple(ability_from(a, f"{where}, granted") for a in out["grant"])
    return out


def token_from_data(data: Mapping[str, Any], where: str) -> Printed:
    """A token's characteristics as the creating effect defines them (111.3); a token the
    effect does not name is named by its subtypes plus the word "Token" (111.4)."""
    if "name" not in data and "faces" not in data:
        data = {**data, "name": " ".join([*data.get("subtypes", ()), "Token"])}
    return card_from_data(data, where)
