"""Numbers that abilities compute ("X", "its power", "the number of creature cards in your
graveyard"), written in card files as small expressions:

``3``, ``X``, ``power``, ``toughness``, ``sacrificed.power``, ``counters:verse``,
``cards:hand:you``, ``cards:graveyard:you:Creature``, ``card_types:graveyard:all``,
``creator.counters:slime`` (in a token's characteristic-defining ability: the counters on the
object whose ability created it, 201.5a), ``target.mana_value``, ``revealed.mana_value``,
``target_player.life``, ``target_player.greatest_power`` (among the creatures they control),
``attacked_with``
(the creatures you attacked with this turn, looking back, 608.2i),
``your_life``, ``lowest_opponent_life`` ("an opponent has 10 or less life"),
``event.amount`` (the amount of the event that triggered the ability: "that many"),
``event.damage_total`` (all the damage the source dealt in that damage event: "you gain that
much life"), ``linked_mana_value:<link>`` (the mana values of the cards exiled with the
source, 607.2a, its last known information if it has left), ``linked_power:<link>`` and
``linked_toughness:<link>`` (their total power, toughness), ``devotion:R`` (your devotion
to red; ``devotion:WU`` to white and blue, 700.5),
``others_sharing_creature_type`` (the other creatures on the battlefield that share a
creature type with the object an effect applies to), ``keyword_arg`` (the N
of "bushido N"), ``chosen_player.creatures``, ``lowest_life``, each optionally followed by
``+N`` or ``-N``; ``-name`` is the negative of a calculation ("gets -X/-X, where X is your life
total": a negative X counts as 0, 107.1b).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kb.engine.faces import mana_values
from kb.engine.objects import (
    ALL_CREATURE_TYPES,
    CARD_TYPES,
    Characteristics,
    EngineError,
    SpellInfo,
)

if TYPE_CHECKING:
    from kb.engine.events import Event
    from kb.engine.state import GameState

# The adjustment is never part of a counter kind ("counters:+1/+1" has none).
_EXPR = re.compile(r"^(?P<base>[A-Za-z_.:/+\-0-9]*?)(?P<adjust>(?<![/:])[+-]\d+)?$")


@dataclass
class Ctx:
    """What an ability or effect is evaluated against: its controller ("you"), its source,
    the choices made for it, and the event that triggered it."""

    state: GameState
    you: str
    source: int | None = None
    spell: SpellInfo | None = None
    event: Event | None = None
    values: dict[int, Characteristics] | None = None  # characteristics mid-computation
    extra: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)

    @property
    def x(self) -> int:
        return self.spell.x if self.spell else 0

    def ch(self, oid: int) -> Characteristics:
        if self.values is not None and oid in self.values:
            return self.values[oid]
        return self.state.characteristics(oid)


def evaluate(expr: int | str, ctx: Ctx) -> int:
    if isinstance(expr, int):
        return expr
    text = str(expr).strip()
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text.startswith("-") and len(text) > 1 and not text[1].isdigit():
        return -max(evaluate(text[1:], ctx), 0)  # -X, a negative X counting as 0 (107.1b)
    found = _EXPR.match(text)
    if not found or not found.group("base"):
        raise EngineError(f"cannot read amount {expr!r}")
    adjust = int(found.group("adjust") or 0)
    return _base(found.group("base"), ctx) + adjust


def _base(base: str, ctx: Ctx) -> int:
    state = ctx.state
    if base == "X":
        return ctx.x
    if base == "chosen_player.creatures":  # "the number of creatures the chosen player controls"
        obj = state.objects.get(ctx.source) if ctx.source is not None else None
        chosen = obj.choices.get("opponent") if obj is not None else None
        if chosen is None:
            return 0  # 208.2a: no player was chosen (it isn't on the battlefield)
        return sum(1 for o in state.battlefield()
                   if (ctx.ch(o.id).controller or o.controller) == chosen
                   and ctx.ch(o.id).is_a("Creature"))
    if base.startswith("devotion:"):  # "your devotion to red" (700.5)
        return _devotion(ctx, base.split(":", 1)[1])
    if base == "your_life":  # "your life total"
        return state.player(ctx.you).life
    if base == "others_sharing_creature_type":
        return _sharing_creature_type(ctx)
    if base == "attacked_with":  # "each creature you attacked with this turn" (608.2i)
        return len(state.player(ctx.you).attacked_with)
    if base == "lowest_life":  # "the lowest life total among all players"
        return min(p.life for p in state.players.values() if not p.left_game)
    if base == "lowest_opponent_life":  # "an opponent has N or less life"
        return min((state.player(p).life for p in state.opponents(ctx.you)), default=0)
    if base == "event.amount":  # "that many", "that much" of the triggering event
        return ctx.event.amount if ctx.event is not None else 0
    if base == "event.damage_total":  # all the damage dealt by the source in that event
        event = ctx.event
        if event is None:
            return 0
        return sum(e.amount for e in state.events if e.kind == "damage"
                   and e.group == event.group and e.source == event.source)
    if base.startswith("linked_mana_value:"):  # the cards exiled with this object (607.2a)
        return _linked_mana_value(ctx, "linked:" + base.split(":", 1)[1])
    if base.startswith(("linked_power:", "linked_toughness:")):  # "the total power of the
        kind, link = base.split(":", 1)  # exiled cards" (Sutured Ghoul)
        return sum(getattr(ctx.ch(oid), kind.split("_")[1]) or 0
                   for oid in _linked(ctx, "linked:" + link) if oid in state.objects)
    if base == "target_player.life":  # "double target player's life total"
        chosen = [t for g in (ctx.spell.targets if ctx.spell else []) for t in g
                  if isinstance(t, str)]
        return state.player(chosen[0]).life if chosen else 0
    if base == "target_player.greatest_power":  # "the greatest power among creatures
        chosen = [t for g in (ctx.spell.targets if ctx.spell else []) for t in g  # they control"
                  if isinstance(t, str)]
        return max((ctx.ch(o.id).power or 0 for o in state.battlefield()
                    if chosen and state.controller(o.id) == chosen[0]
                    and ctx.ch(o.id).is_a("Creature")), default=0)
    if base == "keyword_arg":  # the N of a keyword such as "bushido 2" (702)
        arg = str(ctx.extra.get("keyword_arg") or "0")
        return int(arg) if arg.isdigit() else 0
    if base in ("power", "toughness"):
        if ctx.source is None:
            raise EngineError(f"{base}: no source")
        return getattr(ctx.ch(ctx.source), base) or 0
    if base in ("sacrificed.power", "sacrificed.toughness"):
        if not ctx.spell or not ctx.spell.sacrificed:
            return 0
        return getattr(ctx.spell.sacrificed[0].ch, base.split(".")[1]) or 0
    if base.startswith("extra."):
        value = ctx.extra.get(base.split(".", 1)[1])
        if not isinstance(value, int):
            raise EngineError(f"{base}: nothing remembered under that name")
        return value
    bound = re.match(r"^object(\d+)\.(counters:.+)$", base)
    if bound:  # the counters on one object, named as a token was created (201.5a)
        oid = int(bound.group(1))
        return _counters_on(state, oid, bound.group(2).split(":", 1)[1])
    if base.startswith("counters:"):
        return _counters_on(state, ctx.source, base.split(":", 1)[1])
    if base.startswith("cards:"):
        return len(_cards(base, ctx))
    if base.startswith("card_types:"):
        found: set[str] = set()
        for oid in _cards("cards:" + base.split(":", 1)[1], ctx):
            found |= {t for t in ctx.ch(oid).types if t in CARD_TYPES}
        return len(found)
    if base in ("target.mana_value", "revealed.mana_value", "event.mana_value"):
        key = base.split(".")[0]
        oid = ctx.extra.get(key)
        if oid is None and key == "target" and ctx.spell and ctx.spell.targets:
            oid = ctx.spell.targets[0][0]
        if oid is None:
            return 0
        return sum(mana_values(state, oid))
    raise EngineError(f"unknown amount {base!r}")


def _linked(ctx: Ctx, link: str) -> list[int]:
    """The cards exiled with the source under that link (607.2a), as it last existed if it
    has left."""
    state = ctx.state
    source = state.objects.get(ctx.source) if ctx.source is not None else None
    if source is None and ctx.source in state.last_known:
        source = state.last_known[ctx.source].obj  # it has left: as it last existed
    return list(source.choices.get(link, [])) if source is not None else []


def _linked_mana_value(ctx: Ctx, link: str) -> int:
    state = ctx.state
    return sum(sum(mana_values(state, oid)) for oid in _linked(ctx, link)
               if oid in state.objects or oid in state.last_known)


def _counters_on(state: GameState, oid: int | None, kind: str) -> int:
    """The counters of that kind on the object, as it last existed if it has left."""
    if oid in state.objects:
        return state.objects[oid].counters[kind]
    if oid in state.last_known:
        return state.last_known[oid].obj.counters[kind]
    return 0


def _cards(spec: str, ctx: Ctx) -> list[int]:
    """``cards:<zone>:<whose>[:<card type>]``: whose is you, opponent or all: the owner's of
    a card, the controller's of a permanent or a spell; phased-out permanents are left out."""
    parts = spec.split(":")
    if len(parts) < 3:
        raise EngineError(f"cards: write cards:<zone>:<you|opponent|all>[:<type>], not {spec!r}")
    zone, whose = parts[1], parts[2]
    card_type = parts[3] if len(parts) > 3 else None
    state = ctx.state
    if whose == "you":
        players: tuple[str, ...] = (ctx.you,)
    elif whose == "opponent":
        players = state.opponents(ctx.you)
    else:
        players = tuple(state.players)
    out = []
    for obj in state.objects.values():
        if obj.zone != zone or obj.phased_out:  # 702.26b: as though it did not exist
            continue
        # 108.3: cards in a graveyard or hand are their owner's; permanents their controller's
        whose_is = ctx.state.controller(obj.id) if zone in ("battlefield", "stack") else obj.owner
        if whose_is not in players:
            continue
        if card_type and card_type not in ctx.ch(obj.id).types:
            continue
        out.append(obj.id)
    return out


def _sharing_creature_type(ctx: Ctx) -> int:
    """"Each other creature on the battlefield that shares at least one creature type with
    it", ``it`` being the object the effect is applied to (``extra.it``); 801.11: an ability
    sees only the creatures its controller's range of influence holds."""
    state = ctx.state
    it = ctx.extra.get("it")
    if it is None:
        raise EngineError("others_sharing_creature_type: no object the effect applies to")
    mine = set(ctx.ch(it).subtypes)
    every = ALL_CREATURE_TYPES in mine  # changeling: it shares a type with any typed creature
    shared = state.multiplayer
    count = 0
    for obj in state.battlefield():
        if obj.id == it or obj.phased_out:
            continue
        ch = ctx.ch(obj.id)
        theirs = set(ch.subtypes)
        shares = mine & theirs or (mine and theirs and (every or ALL_CREATURE_TYPES in theirs))
        if not ch.is_a("Creature") or not shares:
            continue
        if shared is not None and not shared.in_range(ctx.you, ch.controller or obj.controller):
            continue  # 801.11: out of its controller's range of influence
        count += 1
    return count


def _devotion(ctx: Ctx, colors: str) -> int:
    """700.5: the mana symbols of those colors among the mana costs of permanents you control
    (a hybrid or Phyrexian symbol of one of them counts once), plus the effects that increase
    it (``devotion_bonus``); 700.5a: read after copy, control and text-changing effects
    (layers 1 to 3), before the others, so a type-changing effect depending on it can use it."""
    state = ctx.state
    count = 0
    for obj in state.battlefield():
        if obj.phased_out:
            continue
        ch = ctx.ch(obj.id)
        if (ch.controller or obj.controller) != ctx.you:
            continue
        if ch.mana_cost is not None:
            count += sum(1 for symbol in ch.mana_cost.symbols
                         if any(part in colors for part in symbol.parts))
        count += sum(int((a.spec.get("static") or {}).get("devotion_bonus", 0))
                     for a in ch.abilities)
    return count
