"""What a played scenario ended with, as a judge reads it: each player's life, poison, hand,
library and graveyard, and every object on the battlefield, on the stack, in exile and in the
command zone with what matters about it (name, controller, power and toughness, counters,
damage, tapped, attachments). ``kb check --scenario`` shows it for a scenario that asks a
question (no ``verifies``), beside the rules the engine applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.i18n import N_, _, gettext, ngettext

if TYPE_CHECKING:
    from kb.check.runner import Runner
    from kb.engine.objects import GameObject
    from kb.engine.state import GameState

ZONES = ("battlefield", "stack", "exile", "command")


def final_state(runner: Runner) -> dict[str, Any]:
    """The state the scenario's game reached (plain data, for text and JSON)."""
    state = runner.game.state
    players = {}
    for name, player in state.players.items():
        players[name] = {
            "life": player.life, "poison": player.poison,
            "hand": [_name(state, o) for o in state.in_zone("hand", name)],
            "library": len(state.libraries[name]),
            "graveyard": [_name(state, o) for o in state.in_zone("graveyard", name)],
            **({"lost": True} if player.lost else {}), **({"won": True} if player.won else {}),
            **({"left the game": True} if player.left_game else {}),
        }
    zones = {zone: [_object(state, o) for o in _in_order(state, zone)] for zone in ZONES}
    return {"turn": state.turn, "active": state.active, "step": state.step,
            "players": players, **{z: objs for z, objs in zones.items() if objs}}


def _in_order(state: GameState, zone: str) -> list[GameObject]:
    if zone == "stack":
        return [state.objects[i] for i in reversed(state.stack)]  # the top first
    return sorted(state.in_zone(zone), key=lambda o: o.id)


def _name(state: GameState, obj: GameObject) -> str:
    """A scenario's name for the object (its alias), with its card name when they differ."""
    if obj.spell is not None and obj.spell.ability is not None:
        return obj.spell.ability.text
    name = state.characteristics(obj.id).name or "(no name)"
    alias = next((a for a, card in state.aliases.items() if card == obj.card), None)
    return name if alias is None or alias == name else f"{alias} ({name})"


def _object(state: GameState, obj: GameObject) -> dict[str, Any]:
    out: dict[str, Any] = {"name": _name(state, obj)}
    if obj.spell is not None and obj.spell.ability is not None:
        return out
    ch = state.characteristics(obj.id)
    out["controller"] = state.controller(obj.id)
    if ch.power is not None or ch.toughness is not None:
        out["pt"] = f"{ch.power}/{ch.toughness}"
    if ch.is_a("Planeswalker") and obj.zone == "battlefield":
        out["loyalty"] = ch.loyalty
    counters = {k: n for k, n in obj.counters.items() if n > 0}
    if counters:
        out["counters"] = counters
    for flag in ("damage", "tapped", "token", "face_down", "transformed", "phased_out"):
        if getattr(obj, flag):
            out[flag] = getattr(obj, flag)
    if obj.attached_to is not None and obj.attached_to in state.objects:
        out["attached_to"] = _name(state, state.objects[obj.attached_to])
    if obj.emblem:
        out["emblem"] = True
    return out


# The words of the state for a person, by the engine's identifiers (which the JSON keeps): the
# official French names of the steps, zones and statuses.
STEP_NAMES = {
    "untap": N_("untap step"), "upkeep": N_("upkeep step"), "draw": N_("draw step"),
    "precombat main": N_("precombat main step"),
    "beginning of combat": N_("beginning of combat step"),
    "declare attackers": N_("declare attackers step"),
    "declare blockers": N_("declare blockers step"),
    "combat damage": N_("combat damage step"), "end of combat": N_("end of combat step"),
    "postcombat main": N_("postcombat main step"), "end": N_("end step"),
    "cleanup": N_("cleanup step"),
}
ZONE_NAMES = {"battlefield": N_("battlefield"), "stack": N_("stack"), "exile": N_("exile"),
              "command": N_("command")}
# An object's facts: "{value}" where the fact has one, else the word alone.
OBJECT_WORDS = {
    "controller": N_("controller {value}"), "pt": N_("pt {value}"),
    "loyalty": N_("loyalty {value}"), "damage": N_("damage {value}"),
    "attached_to": N_("attached_to {value}"), "tapped": N_("tapped"), "token": N_("token"),
    "face_down": N_("face_down"), "transformed": N_("transformed"),
    "phased_out": N_("phased_out"), "emblem": N_("emblem"),
}
PLAYER_WORDS = {"lost": N_("lost"), "won": N_("won"), "left the game": N_("left the game")}


def _word(table: dict[str, str], key: str, value: Any = None) -> str:
    """``key``'s words from ``table`` in the interface language (the key itself, and its
    value, for one the table lacks)."""
    if key not in table:
        return key if value is None else f"{key} {value}"
    return gettext(table[key]).format(value=value)


def describe(snapshot: dict[str, Any]) -> list[str]:
    """The state as lines of text, in the interface language."""
    step = snapshot["step"]
    lines = [_("turn {turn} (active player: {player}), {step}").format(
        turn=snapshot["turn"], player=snapshot["active"],
        step=gettext(STEP_NAMES[step]) if step in STEP_NAMES else step)]
    for name, p in snapshot["players"].items():
        extra = [gettext(PLAYER_WORDS[k]) for k in PLAYER_WORDS if p.get(k)]
        poison = ngettext("{n} poison", "{n} poison", p["poison"]).format(n=p["poison"])
        lines.append(_("{player}: {life}{poison}; hand {hand}; {library}; graveyard "
                       "{graveyard}{extra}").format(
            player=name, life=ngettext("{n} life", "{n} life", p["life"]).format(n=p["life"]),
            poison=", " + poison if p["poison"] else "", hand=_list(p["hand"]),
            library=ngettext("library {n} cards", "library {n} cards", p["library"]).format(
                n=p["library"]),
            graveyard=_list(p["graveyard"]), extra=f" ({', '.join(extra)})" if extra else ""))
    for zone in ZONES:
        for obj in snapshot.get(zone, []):
            parts = [_word(OBJECT_WORDS, k, v) for k, v in obj.items()
                     if k not in ("name", "counters")]
            parts += [ngettext("{n} {kind} counter(s)", "{n} {kind} counter(s)", n).format(
                n=n, kind=kind) for kind, n in obj.get("counters", {}).items()]
            lines.append(_("{zone}: {what}").format(
                zone=_word(ZONE_NAMES, zone), what=obj["name"])
                + (f" ({', '.join(parts)})" if parts else ""))
    return lines


def _list(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]" if names else _("empty")
