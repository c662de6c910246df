"""What the keyword abilities of :mod:`kb.engine.keywords` do, grouped by the rule they change:
blocking restrictions (509.1b), the results of damage (120.3), targeting (115), counters a
permanent enters with, and the triggered abilities keywords stand for (603).

Functions of characteristics only, so that combat, damage, targeting and the trigger
machinery each ask here with one call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from kb.engine.objects import Ability, Characteristics

if TYPE_CHECKING:
    from kb.engine.state import GameState


# -- blocking (509.1b) ----------------------------------------------------------------------


def _shadow(a: Characteristics, b: Characteristics) -> str | None:
    if a.has("shadow") and not b.has("shadow"):
        return "a creature with shadow can be blocked only by creatures with shadow (702.28b)"
    if b.has("shadow") and not a.has("shadow"):
        return "a creature with shadow can block only creatures with shadow (702.28b)"
    return None


def _fear(a: Characteristics, b: Characteristics) -> str | None:
    if a.has("fear") and not (b.is_a("Artifact") or "black" in b.colors):
        return "fear: only artifact and/or black creatures can block it (702.36b)"
    return None


def _intimidate(a: Characteristics, b: Characteristics) -> str | None:
    if a.has("intimidate") and not (b.is_a("Artifact") or a.colors & b.colors):
        return ("intimidate: only artifact creatures and creatures that share a color with it "
                "can block it (702.13b)")
    return None


def _horsemanship(a: Characteristics, b: Characteristics) -> str | None:
    if a.has("horsemanship") and not b.has("horsemanship"):
        return "horsemanship: only creatures with horsemanship can block it (702.31b)"
    return None


def _skulk(a: Characteristics, b: Characteristics) -> str | None:
    if a.has("skulk") and (b.power or 0) > (a.power or 0):
        return "skulk: creatures with greater power can't block it (702.118b)"
    return None


BLOCK_RESTRICTIONS: tuple[Callable[[Characteristics, Characteristics], str | None], ...] = (
    _shadow, _fear, _intimidate, _horsemanship, _skulk)


def block_restriction(state: GameState, attacker: int, blocker: int,
                      defending: str) -> str | None:
    """Why ``blocker`` can't block ``attacker`` (a restriction of a keyword), or None."""
    a, b = state.characteristics(attacker), state.characteristics(blocker)
    for rule in BLOCK_RESTRICTIONS:
        reason = rule(a, b)
        if reason:
            return reason
    for quality in a.keyword_args("landwalk"):
        if _controls_land(state, defending, quality):
            return f"{quality}walk: the defending player controls such a land (702.14c)"
    blocker_obj = state.objects[blocker]
    if b.has("unleash") and blocker_obj.counters["+1/+1"] > 0:
        return "unleash: it can't block as long as it has a +1/+1 counter on it (702.98a)"
    if b.has("decayed"):
        return "decayed: it can't block (702.147a)"
    return None


def _controls_land(state: GameState, player: str, quality: str) -> bool:
    """702.14a: "forest", "snow forest", "nonbasic land", "legendary land"."""
    words = quality.split()
    land_type = words[-1].capitalize() if words else "Land"
    for obj in state.battlefield():
        ch = state.characteristics(obj.id)
        if (ch.controller or obj.controller) != player or not ch.is_a("Land"):
            continue
        if land_type != "Land" and land_type not in ch.subtypes:
            continue
        if "snow" in words and "Snow" not in ch.supertypes:
            continue
        if "legendary" in words and "Legendary" not in ch.supertypes:
            continue
        if "nonbasic" in words and "Basic" in ch.supertypes:
            continue
        return True
    return False


def alone_violation(state: GameState, creatures: list[int], action: str) -> str | None:
    """508.1c, 509.1b: a creature that "can't attack alone" (or block alone) is the only one
    doing so."""
    if len(creatures) != 1:
        return None
    if state.characteristics(creatures[0]).has(f"can't {action} alone"):
        return f"it can't {action} alone (508.1c, 509.1b)"
    return None


def requirements_violation(state: GameState, attackers: list[int]) -> str | None:
    """508.1c-d: restrictions ("No more than N creatures can attack each turn": a static
    ability's ``max_attackers``) can't be disobeyed; then the declaration must obey as many
    requirements ("attacks each combat if able") as possible without disobeying them."""
    limits = [int(a.spec["static"]["max_attackers"]) for perm in state.battlefield()
              for a in state.characteristics(perm.id).abilities
              if "max_attackers" in (a.spec.get("static") or {})]
    limit = min(limits) if limits else None
    if limit is not None and len(attackers) > limit:
        return f"no more than {limit} creature(s) can attack (508.1c)"
    able = [p.id for p in state.battlefield()
            if state.controller(p.id) == state.active and not p.phased_out
            and (not p.tapped or p.id in attackers)  # attacking taps it (508.1f)
            and state.characteristics(p.id).is_a("Creature")
            and state.characteristics(p.id).has("attacks each combat if able")]
    most = len(able) if limit is None else min(len(able), limit)
    obeyed = sum(1 for oid in attackers if oid in able)
    if obeyed < most:
        return (f"{obeyed} of the {most} attack requirements that could be obeyed are "
                "(508.1d)")
    return None


def menace_unmet(state: GameState, blocks: Mapping[int, list[int]]) -> list[int]:
    """702.111b: attackers with menace blocked by exactly one creature."""
    count: dict[int, int] = {}
    for attackers in blocks.values():
        for attacker in attackers:
            count[attacker] = count.get(attacker, 0) + 1
    return [a for a, n in count.items()
            if n == 1 and state.characteristics(a).has("menace")]


# -- damage (120.3) -------------------------------------------------------------------------


def damage_as_counters(source: Characteristics) -> bool:
    """702.80c, 702.90c: damage from a source with wither or infect is dealt to a creature as
    -1/-1 counters."""
    return source.has("wither") or source.has("infect")


def poison_from(source: Characteristics, amount: int, combat: bool) -> int:
    """Poison counters a player gets from this damage: infect gives them instead of life loss
    (702.90b); toxic adds its total value on combat damage (702.164b-c)."""
    poison = amount if source.has("infect") else 0
    if combat:
        poison += sum(int(n) for n in source.keyword_args("toxic") if n.isdigit())
    return poison


def absorbed(ch: Characteristics, amount: int) -> int:
    """702.64a: absorb N prevents N of the damage each source would deal to it."""
    shield = sum(int(n) for n in ch.keyword_args("absorb") if n.isdigit())
    return max(amount - shield, 0)


def untargetable(ch: Characteristics) -> bool:
    """702.18a: shroud: it can't be the target of spells or abilities."""
    return ch.has("shroud")


# Keywords whose permanent enters with counters (their number): 702.32a, 702.63a, 702.43a.
ENTERS_WITH_COUNTERS = {"fading": "fade", "vanishing": "time", "modular": "+1/+1"}


# -- triggered abilities keywords stand for -------------------------------------------------


def _pump_self(n: str) -> list[dict[str, object]]:
    return [{"op": "pump", "who": "self", "pt": [n, n], "duration": "eot"}]


KEYWORD_TRIGGERED: dict[str, Ability] = {name: Ability(text, "triggered", spec=spec)
                                         for name, text, spec in (
    ("poisonous", "Whenever this creature deals combat damage to a player, that player gets N "
     "poison counters.", {"trigger": {"on": "combat_damage_to_a_player"},
                          "effect": [{"op": "poison", "player": "event.player",
                                      "n": "keyword_arg"}]}),
    ("flanking", "Whenever this creature becomes blocked by a creature without flanking, the "
     "blocking creature gets -1/-1 until end of turn.",
     {"trigger": {"on": "blocked_by", "blocker": {"without": "flanking"}},
      "effect": [{"op": "pump", "who": "event.obj", "pt": [-1, -1], "duration": "eot"}]}),
    ("bushido", "Whenever this creature blocks or becomes blocked, it gets +N/+N until end of "
     "turn.", {"trigger": {"on": "blocks_or_blocked"}, "effect": _pump_self("keyword_arg")}),
    ("exalted", "Whenever a creature you control attacks alone, that creature gets +1/+1 until "
     "end of turn.", {"trigger": {"on": "attacks", "what": {"types": ["Creature"],
                                                           "controller": "you"},
                                  "alone": True},
                      "effect": [{"op": "pump", "who": "event.obj", "pt": [1, 1],
                                  "duration": "eot"}]}),
    ("afflict", "Whenever this creature becomes blocked, defending player loses N life.",
     {"trigger": {"on": "becomes_blocked"},
      "effect": [{"op": "lose_life", "player": "event.player", "n": "keyword_arg"}]}),
    ("dethrone", "Whenever this creature attacks the player with the most life or tied for "
     "most life, put a +1/+1 counter on it.",
     {"trigger": {"on": "attacks", "attacks_most_life": True},
      "effect": [{"op": "put_counters", "who": "self", "kind": "+1/+1", "n": 1}]}),
    ("training", "Whenever this creature attacks with another creature with greater power, put "
     "a +1/+1 counter on this creature.",
     {"trigger": {"on": "attacks", "with_greater_power": True},
      "effect": [{"op": "put_counters", "who": "self", "kind": "+1/+1", "n": 1}]}),
    ("frenzy", "Whenever this creature attacks and isn't blocked, it gets +N/+0 until end of "
     "turn.", {"trigger": {"on": "unblocked"},
               "effect": [{"op": "pump", "who": "self", "pt": ["keyword_arg", 0],
                           "duration": "eot"}]}),
    ("renown", "When this creature deals combat damage to a player, if it isn't renowned, put "
     "N +1/+1 counters on it and it becomes renowned.",
     {"trigger": {"on": "combat_damage_to_a_player"}, "if": {"self_not_renowned": True},
      "effect": [{"op": "put_counters", "who": "self", "kind": "+1/+1", "n": "keyword_arg"},
                 {"op": "become_renowned"}]}),
    ("haunt", "When this permanent is put into a graveyard from the battlefield, exile it "
     "haunting target creature.",
     {"trigger": {"on": "zone_change", "from": "battlefield", "to": "graveyard", "what": "self"},
      "targets": [{"kind": "creature"}], "effect": [{"op": "haunt"}]}),
    ("persist", "When this creature dies, if it had no -1/-1 counters on it, return it to the "
     "battlefield under its owner's control with a -1/-1 counter on it.",
     {"trigger": {"on": "dies", "what": "self"}, "if": {"had_no_counter": "-1/-1"},
      "effect": [{"op": "return_to_battlefield", "who": "event.card",
                  "counters": {"-1/-1": 1}}]}),
    ("afterlife", "When this permanent dies, create N 1/1 white and black Spirit creature "
     "tokens with flying.",
     {"trigger": {"on": "dies", "what": "self"},
      "effect": [{"op": "create_token", "n": "keyword_arg",
                  "token": {"name": "Spirit", "colors": ["white", "black"],
                            "types": ["Creature"], "subtypes": ["Spirit"], "power": 1,
                            "toughness": 1, "keywords": ["Flying"]}}]}),
    ("prowess", "Whenever you cast a noncreature spell, this creature gets +1/+1 until end of "
     "turn.", {"trigger": {"on": "cast", "by": "you", "spell": {"not_types": ["Creature"]}},
               "effect": _pump_self("1")}),
    ("vanishing", "At the beginning of your upkeep, remove a time counter from this permanent. "
     "When the last is removed, sacrifice it.",
     {"trigger": {"on": "step", "step": "upkeep", "whose": "your"},
      "effect": [{"op": "vanish"}]}),
    ("modular", "When this creature dies, you may put a +1/+1 counter on target artifact "
     "creature for each +1/+1 counter on this creature.",
     {"trigger": {"on": "dies", "what": "self"},
      "targets": [{"kind": "creature", "filter": {"types": ["Artifact"]}}],
      "effect": [{"op": "put_counters", "who": "target", "kind": "+1/+1",
                  "n": "counters:+1/+1"}]}),
    ("mentor", "Whenever this creature attacks, put a +1/+1 counter on target attacking "
     "creature with lesser power.",
     {"trigger": {"on": "attacks"},
      "targets": [{"kind": "creature", "filter": {"attacking": True}}],
      "effect": [{"op": "put_counters", "who": "target", "kind": "+1/+1", "n": 1,
                  "if": {"target_power_less": True}}]}),
    ("cumulative upkeep", "At the beginning of your upkeep, if this permanent is on the "
     "battlefield, put an age counter on this permanent. Then you may pay [cost] for each age "
     "counter on it. If you don't, sacrifice it.",
     {"trigger": {"on": "step", "step": "upkeep", "whose": "your"},
      "effect": [{"op": "cumulative_upkeep"}]}),
    ("decayed", "When this creature attacks, sacrifice it at end of combat.",
     {"trigger": {"on": "attacks"},
      "effect": [{"op": "delayed", "at": "next end of combat", "refers": "self",
                  "effect": [{"op": "sacrifice", "who": "referred"}]}]}),
)}
