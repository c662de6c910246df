"""Card definitions as data: what a card file (or a token-making effect) says a card is.

A definition is a mapping with ``name``, ``mana_cost`` ("{3}{U}"), ``color_indicator``,
``colors`` (a token's colors), ``types``, ``subtypes``, ``supertypes``, ``power``,
``toughness``, ``loyalty``, ``defense`` and ``abilities``; a card with several faces has
``layout`` (split, flip, transform) and ``faces`` (a list of such mappings).

Keyword abilities are listed under ``keywords`` ("Flying", "Echo {G}", "Protection from
green"); any other ability under ``abilities``, as a keyword string or a mapping
with its ``text`` and one of: ``static`` (continuous changes, see :mod:`kb.engine.layers`),
``cda`` ({power, toughness} amounts, 604.3), ``trigger`` with ``effect`` (603),
``cost`` with ``effect`` (activated, 602), ``spell`` (a spell's instructions, 608.2),
``replacement`` (614: enter_as_copy, enters_with, enters_tapped, as_enters_choose, draw,
counters, tokens, lose_game). ``targets``, ``modes``, ``additional_cost``, ``if`` and
``may`` complete them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.engine.instructions import COMMON_KEYS, OP_KEYS
from kb.engine.mana import ManaCost, ManaError
from kb.engine.objects import (
    COLORS,
    Ability,
    EngineError,
    Face,
    Printed,
    keyword,
    parse_pt,
)

FACE_KEYS = frozenset({"name", "mana_cost", "color_indicator", "colors", "types", "subtypes",
                       "supertypes", "power", "toughness", "loyalty", "defense", "keywords",
                       "abilities", "text"})
CARD_KEYS = FACE_KEYS | {"layout", "faces"}
ABILITY_KINDS = ("static", "cda", "trigger", "cost", "spell", "replacement")
ABILITY_KEYS = frozenset({"text", "targets", "modes", "additional_cost", "if", "may", "effect",
                          "from_zone", "once_per_turn", "label", *ABILITY_KINDS})
LAYOUTS = ("normal", "split", "flip", "transform")


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
    return Face(
        name=data.get("name"), mana_cost=cost,
        color_indicator=frozenset(indicator) if indicator else None,
        types=tuple(data.get("types", ())), subtypes=tuple(data.get("subtypes", ())),
        supertypes=tuple(data.get("supertypes", ())),
        power=_pt(data.get("power"), where), toughness=_pt(data.get("toughness"), where),
        loyalty=data.get("loyalty"), defense=data.get("defense"),
        abilities=tuple(ability_from(a, f"{where}, ability {i + 1}")
                        for i, a in enumerate([*data.get("keywords", ()),
                                               *data.get("abilities", ())])),
        color_override=frozenset(colors) if colors is not None else None,
    )


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
    replacement = spec.get("replacement", {})
    for ops in (spec.get("effect"), spec.get("spell"),
                *(m.get("effect") for m in spec.get("modes", ())),
                replacement.get("draw_if_hand_empty"), replacement.get("instead_of_losing")):
        check_instructions(ops, where)
    return Ability(data["text"], kind, spec=spec)


def check_instructions(ops: Any, where: str) -> None:
    """Refuse an unknown instruction or parameter as the card is read, not when (and if) a
    scenario makes it happen."""
    for op in ops or ():
        name = op.get("op")
        if name not in OP_KEYS:
            raise EngineError(f"{where}: unknown instruction {name!r}")
        unknown = set(op) - COMMON_KEYS - OP_KEYS[name]
        if unknown:
            raise EngineError(f"{where}: instruction {name!r}: unknown keys {sorted(unknown)}")
        for nested in ("then", "effect"):
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
    """A token's characteristics as the creating effect defines them (111.3)."""
    return card_from_data(data, where)
