"""What a played scenario ended with, as a judge reads it: each player's life, poison, hand,
library and graveyard, and every object on the battlefield, on the stack, in exile and in the
command zone with what matters about it (name, controller, power and toughness, counters,
damage, tapped, attachments). ``kb check --scenario`` shows it for a scenario that asks a
question (no ``verifies``), beside the rules the engine applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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


def describe(snapshot: dict[str, Any]) -> list[str]:
    """The state as lines of text."""
    lines = [f"turn {snapshot['turn']} (active player: {snapshot['active']}), "
             f"{snapshot['step']} step"]
    for name, p in snapshot["players"].items():
        extra = [k for k in ("lost", "won", "left the game") if p.get(k)]
        lines.append(f"{name}: {p['life']} life" + (f", {p['poison']} poison" if p["poison"]
                                                      else "")
                     + f"; hand {_list(p['hand'])}; library {p['library']} cards"
                     + f"; graveyard {_list(p['graveyard'])}"
                     + (f" ({', '.join(extra)})" if extra else ""))
    for zone in ZONES:
        for obj in snapshot.get(zone, []):
            parts = [f"{k} {v}" if k not in ("tapped", "token", "face_down", "transformed",
                                              "phased_out", "emblem") else k
                     for k, v in obj.items() if k not in ("name", "counters")]
            parts += [f"{n} {kind} counter(s)" for kind, n in obj.get("counters", {}).items()]
            lines.append(f"{zone}: {obj['name']}" + (f" ({', '.join(parts)})" if parts else ""))
    return lines


def _list(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]" if names else "empty"
