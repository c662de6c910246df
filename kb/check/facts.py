"""The facts a scenario may state, each computed from the game a runner played."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kb.errors import KbError
from kb.i18n import _

if TYPE_CHECKING:
    from kb.check.runner import Runner
    from kb.check.scenarios import Fact


class NoSuch(Exception):
    """A fact about something that doesn't exist (a card that ceased to exist)."""


def _obj(runner: Runner, fact: Fact) -> Any:
    if fact.of is None:
        raise KbError(_("{where}: fact {what!r} needs 'of'").format(
            where=runner.scenario.where, what=fact.what))
    obj = runner.game.state.find(fact.of)
    if obj is None:
        raise NoSuch(_("{name} no longer exists").format(name=fact.of))
    return obj


def _ch(runner: Runner, fact: Fact) -> Any:
    return runner.game.state.characteristics(_obj(runner, fact).id)


def _player(runner: Runner, fact: Fact) -> Any:
    return runner.game.state.player(fact.of or "you")


def _names(runner: Runner, ids: Iterable[Any]) -> list[str]:
    out = []
    for ref in ids:
        if isinstance(ref, str):
            out.append(ref)
            continue
        out.append(_alias_of(runner, ref) or str(ref))
    return out


def _alias_of(runner: Runner, oid: int | None) -> str | None:
    if oid is None:
        return None
    obj = runner.game.state.objects.get(oid)
    if obj is None:
        return None
    if obj.spell is not None and obj.spell.ability is not None:
        return obj.spell.ability.text
    for alias, card in runner.game.state.aliases.items():
        if card == obj.card:
            return alias
    return runner.game.state.characteristics(oid).name


def _effect_text(effects: list[Any]) -> list[str]:
    out = []
    for effect in effects:
        for mod, value in effect.mods.items():
            if mod == "pump":
                out.append(f"{value[0]:+d}/{value[1]:+d}")
            elif mod == "set_pt":
                out.append(f"{value[0]}/{value[1]}")
            else:
                out.append(f"{mod}: {show(value)}")
    return out


def _layers(effects: list[Any]) -> list[str]:
    """The layers the parts of the effects apply in, in the order they apply (613.1)."""
    from kb.engine.layers import LAYERS, layer_of

    found = {layer_of(mod) for effect in effects for mod in effect.mods}
    return [layer for layer in LAYERS if layer in found]


def _exists(runner: Runner, fact: Fact) -> bool:
    return runner.game.state.find(fact.of or "") is not None


def _triggered(runner: Runner, fact: Fact) -> int:
    state = runner.game.state
    card = state.aliases.get(fact.of or "")
    if card is None:
        raise KbError(_("{where}: no object called {name!r}").format(
            where=runner.scenario.where, name=fact.of))
    return sum(1 for event in state.events if event.kind == "triggered" and event.card == card
               and (fact.param is None or event.data.get("ability") == fact.param))


def _multiplayer(runner: Runner, fact: Fact) -> Any:
    shared = runner.game.state.multiplayer
    if shared is None:
        raise KbError(_("{where}: fact {what!r} needs 'multiplayer'").format(
            where=runner.scenario.where, what=fact.what))
    return shared


def _turn_markers(runner: Runner) -> int:
    from kb.engine.multiplayer import turn_markers

    return turn_markers(sum(1 for p in runner.game.state.players.values() if not p.left_game))


def _is_commander(runner: Runner, fact: Fact) -> bool:
    from kb.engine.commander import is_commander

    return is_commander(runner.game.state, _obj(runner, fact))


def _could_produce(runner: Runner, fact: Fact) -> set[str]:
    from kb.engine.mana_abilities import could_produce

    return could_produce(runner.game.state, _obj(runner, fact).id)


def _identity(runner: Runner, fact: Fact) -> frozenset[str]:
    """903.4a: established before the game, from the card itself."""
    from kb.engine.commander import color_identity

    return color_identity(_obj(runner, fact).printed)


def _may_include(runner: Runner, fact: Fact) -> bool:
    """903.5c-d: whether the card ``of`` may be in the deck of the commander ``key``."""
    from kb.engine.commander import may_include

    commander = runner.game.state.find(fact.param or "")
    if commander is None:
        raise KbError(_("{where}: may_include needs key = a commander's alias").format(
            where=runner.scenario.where))
    return may_include(commander.printed, _obj(runner, fact).printed)


FACTS: dict[str, Any] = {
    "name": lambda r, f: _ch(r, f).name or "",
    "mana_cost": lambda r, f: str(_ch(r, f).mana_cost or ""),
    "mana_value": lambda r, f: _mana_value(r, f),
    "mana_values": lambda r, f: list(_mana_values(r, f)),
    "symbol_count": lambda r, f: (_ch(r, f).mana_cost.symbol_counts()[f.param or ""]
                                  if _ch(r, f).mana_cost else 0),
    "colors": lambda r, f: sorted(_ch(r, f).colors),
    "types": lambda r, f: list(_ch(r, f).types),
    "subtypes": lambda r, f: [s for s in _ch(r, f).subtypes if not s.startswith("(")],
    "supertypes": lambda r, f: list(_ch(r, f).supertypes),
    "all_creature_types": lambda r, f: any(s.startswith("(") for s in _ch(r, f).subtypes),
    "power": lambda r, f: _ch(r, f).power,
    "toughness": lambda r, f: _ch(r, f).toughness,
    "pt": lambda r, f: f"{_ch(r, f).power}/{_ch(r, f).toughness}",
    "base_power": lambda r, f: _ch(r, f).base_power,  # 613.4b: after 7b, before 7c-7d
    "base_toughness": lambda r, f: _ch(r, f).base_toughness,
    "loyalty": lambda r, f: _ch(r, f).loyalty,
    "defense": lambda r, f: _ch(r, f).defense,
    "abilities": lambda r, f: [a.text for a in _ch(r, f).abilities],
    "ability_count": lambda r, f: sum(1 for a in _ch(r, f).abilities
                                      if a.text == f.param or a.keyword == f.param),
    "has": lambda r, f: any(a.keyword == f.param or a.text == f.param
                            for a in _ch(r, f).abilities),
    "is_a": lambda r, f: _is_a(r, f),
    "produces": lambda r, f: list(_ch(r, f).mana_produced),
    "controller": lambda r, f: r.game.state.controller(_obj(r, f).id),
    "owner": lambda r, f: _obj(r, f).owner,
    "zone": lambda r, f: _obj(r, f).zone,
    "exists": _exists,
    "on_battlefield": lambda r, f: (r.game.state.find(f.of or "") is not None
                                    and r.game.state.find(f.of or "").zone == "battlefield"),
    "tapped": lambda r, f: _obj(r, f).tapped,
    "face_down": lambda r, f: _obj(r, f).face_down,
    "transformed": lambda r, f: _obj(r, f).transformed,
    "double_faced": lambda r, f: _double_faced(r, f),
    "token": lambda r, f: _obj(r, f).token,
    "counters": lambda r, f: _obj(r, f).counters[f.param or ""],
    "damage": lambda r, f: _obj(r, f).damage,
    "protector": lambda r, f: _obj(r, f).protector,
    "attached_to": lambda r, f: _alias_of(r, _obj(r, f).attached_to),
    "choice": lambda r, f: _obj(r, f).choices.get(f.param or ""),
    "total_cost": lambda r, f: (_obj(r, f).spell.total_cost if _obj(r, f).spell else None),
    "targets": lambda r, f: _names(r, [t for g in (_obj(r, f).spell.targets
                                                   if _obj(r, f).spell else []) for t in g]),
    "mode": lambda r, f: _obj(r, f).spell.mode if _obj(r, f).spell else None,
    "triggered": _triggered,
    "attacking": lambda r, f: bool(r.game.state.combat
                                   and r.game.state.combat.attacking(_obj(r, f).id)),
    "attacks": lambda r, f: _attacks(r, f),
    "protector_chosen": lambda r, f: [e.player for e in r.game.state.events
                                      if e.kind == "protector_chosen"
                                      and e.obj in _ids_of_card(r, f)],
    "stack": lambda r, f: _names(r, list(reversed(r.game.state.stack))),
    "life": lambda r, f: _player(r, f).life,
    "life_lost": lambda r, f: _player(r, f).life_lost_total,
    "life_gained": lambda r, f: _player(r, f).life_gained_total,
    "hand_size": lambda r, f: len(r.game.state.in_zone("hand", f.of or "you")),
    "library_size": lambda r, f: len(r.game.state.libraries[f.of or "you"]),
    "library_position": lambda r, f: _library_position(r, f),
    "cards_drawn": lambda r, f: _player(r, f).cards_drawn,
    "shuffles": lambda r, f: sum(1 for e in r.game.state.events
                                 if e.kind == "shuffled" and e.player == (f.of or "you")),
    "lost": lambda r, f: _player(r, f).lost,
    "won": lambda r, f: _player(r, f).won,
    "in_range": lambda r, f: _multiplayer(r, f).in_range(f.of or "you", f.param),
    "range": lambda r, f: (_multiplayer(r, f).ranges or {}).get(f.of or "you"),
    "seating": lambda r, f: list(_multiplayer(r, f).seating),
    "opponent_chooser": lambda r, f: _multiplayer(r, f).chooser(
        f.of or "you", r.game.state.opponents(f.of or "you")),
    "turn_markers": lambda r, f: _turn_markers(r),
    "color_identity": lambda r, f: sorted(_identity(r, f)),
    "could_produce": lambda r, f: sorted(_could_produce(r, f)),
    "commander": lambda r, f: _is_commander(r, f),
    "may_include": lambda r, f: _may_include(r, f),
    "poison": lambda r, f: _player(r, f).poison,
    "mana_pool": lambda r, f: sum(_player(r, f).mana_pool.values()),
    "creatures": lambda r, f: sum(1 for o in r.game.state.battlefield()
                                  if r.game.state.controller(o.id) == (f.of or "you")
                                  and r.game.state.characteristics(o.id).is_a("Creature")),
    "permanents": lambda r, f: sum(1 for o in r.game.state.battlefield()
                                   if r.game.state.controller(o.id) == (f.of or "you")),
    "tokens": lambda r, f: sum(1 for o in r.game.state.battlefield()
                               if o.token and r.game.state.controller(o.id) == (f.of or "you")),
    "legal": lambda r, f: r.legal.get(f.of or ""),
    "paid": lambda r, f: r.paid.get(f.of or ""),
    "effect": lambda r, f: _effect_text(r.effects.get(f.of or "", [])),
    "layers": lambda r, f: _layers(r.effects.get(f.of or "", [])),
}

# Facts compared as sets, not lists.
_UNORDERED = frozenset({"color_identity", "could_produce", "colors", "types", "subtypes",
                        "supertypes", "abilities", "produces", "targets"})


def _is_a(runner: Runner, fact: Fact) -> bool:
    """Whether the object is ``key``: a card type, subtype or supertype ("Creature",
    "Zombie", "Legendary") or a color ("red") it has now."""
    ch = _ch(runner, fact)
    word = (fact.param or "").casefold()
    return any(word == w.casefold()
               for w in (*ch.types, *ch.subtypes, *ch.supertypes, *ch.colors))


def _library_position(runner: Runner, fact: Fact) -> int | None:
    """Where a card is in its owner's library, 0 being the top (None: not in a library)."""
    obj = _obj(runner, fact)
    library = runner.game.state.libraries[obj.owner]
    return library.index(obj.id) if obj.id in library else None


def _attacks(runner: Runner, fact: Fact) -> str:
    """What an attacking creature attacks ("" when nothing, 506.4c)."""
    combat = runner.game.state.combat
    oid = _obj(runner, fact).id
    if combat is None or oid not in combat.attackers:
        return ""
    target = combat.attackers[oid]
    if target is None:
        return ""
    return target if isinstance(target, str) else (_alias_of(runner, target) or "")


def _ids_of_card(runner: Runner, fact: Fact) -> set[int]:
    """Every object id the card called ``fact.of`` has had."""
    state = runner.game.state
    card = state.aliases.get(fact.of or "")
    ids = {oid for oid, o in state.objects.items() if o.card == card}
    return ids | {oid for oid, k in state.last_known.items() if k.obj.card == card}


def _double_faced(runner: Runner, fact: Fact) -> bool:
    from kb.engine.faces import copiable_printed

    return copiable_printed(runner.game.state, _obj(runner, fact)).layout == "transform"


def _mana_values(runner: Runner, fact: Fact) -> tuple[int, ...]:
    from kb.engine.faces import mana_values

    return mana_values(runner.game.state, _obj(runner, fact).id)


def _mana_value(runner: Runner, fact: Fact) -> int | list[int]:
    values = _mana_values(runner, fact)
    return values[0] if len(values) == 1 else list(values)


def same(what: str, value: Any, expected: Any) -> bool:
    if what == "paid":
        return _paid_exactly(str(value or ""), str(expected))
    if what in ("mana_cost", "total_cost"):
        from kb.engine.mana import ManaCost, ManaError

        try:
            return ManaCost.parse(str(value or "")) == ManaCost.parse(str(expected))
        except ManaError:
            return False
    if what in _UNORDERED and isinstance(value, list) and isinstance(expected, list):
        return sorted(map(_fold, value)) == sorted(map(_fold, expected))
    if isinstance(value, str) and isinstance(expected, str):
        return _fold(value) == _fold(expected)
    if isinstance(value, bool) or isinstance(expected, bool):
        return value is expected
    return value == expected


def _paid_exactly(spent: str, cost: str) -> bool:
    """Whether the mana spent pays exactly that cost ({C}{C} pays {2})."""
    from kb.engine.mana import ManaCost, ManaError, parse_mana, pay

    try:
        pool = parse_mana(spent)
        pay(ManaCost.parse(cost), pool)
    except ManaError:
        return False
    return not +pool


def _fold(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


def show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(show, value)) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)
