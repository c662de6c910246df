"""Objects and their characteristics (rules 109, 110, 111, 200-213, 400.7).

A card's printed values are a :class:`Printed` (one :class:`Face` per face or half); a game
object (:class:`GameObject`) is one card, token or copy in one zone, with its status, counters
and damage. Derived characteristics (:class:`Characteristics`) are never stored: the layer
system (:mod:`kb.engine.layers`) computes them from the printed values and the continuous
effects, every time they are asked for.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kb.engine.keywords import MORE_KEYWORDS, landwalk
from kb.engine.mana import ManaCost

COLORS = ("white", "blue", "black", "red", "green")
CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land",
              "Planeswalker", "Sorcery")
PERMANENT_TYPES = frozenset({"Artifact", "Battle", "Creature", "Enchantment", "Land",
                             "Planeswalker"})
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


class EngineError(Exception):
    """A game state or action the engine cannot accept, and why."""


class IllegalAction(EngineError):
    """An action the rules forbid (casting without a legal target, an illegal damage
    assignment, blocking with a battle, ...)."""


# -- abilities ------------------------------------------------------------------------------

# Keyword abilities the engine knows, with the kind of parameter each takes (702).
KEYWORDS: dict[str, str | None] = {
    "flying": None, "trample": None, "trample over planeswalkers": None, "haste": None,
    "deathtouch": None, "indestructible": None, "hexproof": None, "first strike": None,
    "double strike": None, "defender": None, "vigilance": None, "changeling": None,
    "undying": None, "evolve": None, "fuse": None, "protection from": "quality",
    "hexproof from": "quality",
    "echo": "cost", "morph": "cost", "cycling": "cost", "fading": "number",
    "can block an additional creature each combat": None, "enchant": "quality",
    "equip": "cost", "overload": "cost", "bestow": "cost", "convoke": None, "delve": None,
    "flashback": "cost", "flash": None, "kicker": "cost", "splice onto arcane": "cost",
}
# Keywords that give a spell an alternative cost (118.9).
ALTERNATIVE_COSTS = frozenset({"overload", "bestow"})
# Keywords that are characteristic-defining abilities (604.3): changeling (702.73a).
CDA_KEYWORDS = frozenset({"changeling"})


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of an object: its text as it reads, its kind, and what it does.

    ``kind`` is keyword, static, triggered, activated, spell (a spell's instructions), or
    replacement (a static ability generating a replacement effect, 614). ``spec`` holds the
    structured meaning read from the card file (trigger, cost, effects, targets); it is data,
    never mutated.
    """

    text: str
    kind: str
    keyword: str | None = None
    arg: str | None = None
    spec: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def is_cda(self) -> bool:
        """604.3: an ability that defines a characteristic (changeling; "power and toughness
        are each equal to ...")."""
        return self.keyword in CDA_KEYWORDS or "cda" in self.spec

    @property
    def defines(self) -> str | None:
        """The characteristic a characteristic-defining ability defines: "pt", "types"."""
        if self.keyword == "changeling":
            return "types"
        cda = self.spec.get("cda")
        return "pt" if cda is not None else None


ALL_CREATURE_TYPES = "(every creature type)"  # 702.73a, 205.3m: changeling


def keyword(text: str) -> Ability:
    """A keyword ability from its text: "Flying", "Echo {G}", "Protection from green"."""
    text = text.strip().replace("—", " ")  # "Cumulative upkeep—Pay 1 life" (702.24a)
    lowered = text.lower()
    quality = landwalk(lowered)
    if quality is not None:
        return Ability(text.strip(), "keyword", "landwalk", quality)
    for name, kind in sorted({**KEYWORDS, **MORE_KEYWORDS}.items(), key=lambda kv: -len(kv[0])):
        if lowered == name and kind is None:
            return Ability(text.strip(), "keyword", name)
        if kind is not None and lowered.startswith(name + " "):
            arg = text.strip()[len(name):].strip()
            if kind == "number" and not arg.isdigit():
                break
            return Ability(text.strip(), "keyword", name, arg)
    raise EngineError(f"unknown keyword ability: {text!r}")


# -- printed values -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Face:
    """The characteristics printed on one face (or half) of a card, or defined for a token
    by the effect that created it (111.3)."""

    name: str | None = None
    mana_cost: ManaCost | None = None
    color_indicator: frozenset[str] | None = None
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None
    defense: int | None = None
    abilities: tuple[Ability, ...] = ()
    # Colors set outright rather than derived: a copy effect that keeps the copier's color
    # (707.9c), a token's colors as its creating effect defines them (111.3).
    color_override: frozenset[str] | None = None

    @property
    def colors(self) -> frozenset[str]:
        """202.2 and 204: the colors of the mana symbols in its cost plus its color
        indicator."""
        if self.color_override is not None:
            return self.color_override
        out = self.mana_cost.colors if self.mana_cost else frozenset()
        return out | (self.color_indicator or frozenset())


# 708.2a: a face-down spell or permanent is a 2/2 creature with no text, no name, no
# subtypes, and no mana cost.
FACE_DOWN = Face(name=None, types=("Creature",), power=2, toughness=2)


@dataclass(frozen=True, slots=True)
class Printed:
    """An object's printed values: ``layout`` is normal, split (two halves), flip (unflipped,
    flipped) or transform (front, back)."""

    faces: tuple[Face, ...]
    layout: str = "normal"

    @property
    def front(self) -> Face:
        return self.faces[0]

    def map_faces(self, change: Any) -> Printed:
        return Printed(tuple(change(f) for f in self.faces), self.layout)


def combined(halves: tuple[Face, ...]) -> Face:
    """709.4: a split card's characteristics off the stack (and a fused split spell's,
    709.4d) are those of its halves combined."""
    cost = ManaCost()
    for half in halves:
        cost = cost + (half.mana_cost or ManaCost())
    names = " // ".join(h.name or "" for h in halves)
    return Face(
        name=names, mana_cost=cost,
        types=_union(h.types for h in halves), subtypes=_union(h.subtypes for h in halves),
        supertypes=_union(h.supertypes for h in halves),
        abilities=tuple(a for h in halves for a in h.abilities),
    )


def _union(groups: Any) -> tuple[str, ...]:
    out: list[str] = []
    for group in groups:
        out.extend(t for t in group if t not in out)
    return tuple(out)


# -- derived characteristics ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Characteristics:
    """An object's characteristics after every continuous effect (613), plus its
    controller, which layer 2 decides."""

    name: str | None
    mana_cost: ManaCost | None
    colors: frozenset[str]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    power: int | None
    toughness: int | None
    loyalty: int | None
    defense: int | None
    abilities: tuple[Ability, ...]
    controller: str | None = None
    # 613.4b: power and toughness after the effects that set them (layer 7b), before the
    # effects that modify them and counters (7c, 7d); the printed ones until layer 7b is done
    base_power: int | None = None
    base_toughness: int | None = None

    @classmethod
    def of_face(cls, face: Face, controller: str | None) -> Characteristics:
        return cls(face.name, face.mana_cost, face.colors, face.types, face.subtypes,
                   face.supertypes, face.power, face.toughness, face.loyalty, face.defense,
                   face.abilities, controller, face.power, face.toughness)

    def is_a(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def names(self) -> tuple[str, ...]:
        """709.4a: a split card has two names."""
        return tuple(n for n in (self.name or "").split(" // ") if n)

    def has(self, name: str) -> bool:
        """Whether it has the keyword ability ``name`` ("flying", "protection from")."""
        return any(a.keyword == name for a in self.abilities)

    def keyword_args(self, name: str) -> list[str]:
        return [a.arg or "" for a in self.abilities if a.keyword == name]

    def with_(self, **changes: Any) -> Characteristics:
        return replace(self, **changes)

    @property
    def mana_produced(self) -> tuple[str, ...]:
        """305.6: a land with a basic land type has the intrinsic ability to tap for the mana
        of that type ("{T}: Add {U}." for an Island)."""
        if not self.is_a("Land"):
            return ()
        return tuple(BASIC_LAND_MANA[s] for s in self.subtypes if s in BASIC_LAND_MANA)


def parse_pt(value: Any) -> int | None:
    """A printed power or toughness: an integer, or ``*`` (defined by an ability) as None."""
    if value is None or value == "*":
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"-?\d+", value):
        return int(value)
    raise EngineError(f"not a power or toughness: {value!r}")


# -- game objects and players ---------------------------------------------------------------


@dataclass(eq=False)
class SpellInfo:
    """What was decided as a spell was cast or an ability activated (601.2, 707.10: the
    choices a copy of a spell copies)."""

    half: int | None = None  # the half of a split card cast, None for both or not split
    fused: bool = False
    x: int = 0
    mode: int | list[int] | None = None  # the chosen mode, or modes (700.2)
    kicked: bool = False  # its kicker cost was paid (702.33)
    # the spell abilities spliced onto it (702.47b: it has their text; the cards stay in hand)
    spliced: tuple[Ability, ...] = ()
    targets: list[list[Any]] = field(default_factory=list)  # per "target" word: ids/players
    sacrificed: list[Any] = field(default_factory=list)  # last known info of costs paid
    mana_spent: Counter[str] = field(default_factory=Counter)
    without_paying: bool = False
    transformed: bool = False  # cast with its back face up (310.11b, 712)
    bestowed: bool = False  # cast for its bestow cost: an Aura spell (702.103b)
    ability: Ability | None = None  # for an activated or triggered ability on the stack
    source: int | None = None  # the source object of an ability on the stack
    event: Any = None  # the event a triggered ability triggered on
    copy: bool = False  # a copy of a spell or ability (707.10)
    total_cost: str | None = None  # the total cost paid (601.2f), as mana symbols
    cast_from: str | None = None  # the zone it was cast from (601.2a)
    flashback: bool = False  # cast for its flashback cost: exiled as it leaves the stack


@dataclass(eq=False)
class GameObject:
    """One object in one zone. A zone change makes a new object (400.7): ``card`` stays the
    same physical card, ``id`` changes, and status, counters and damage are forgotten."""

    id: int
    card: int  # the physical card (or token) it is
    printed: Printed
    owner: str
    controller: str
    zone: str
    timestamp: int
    alias: str | None = None
    token: bool = False
    copy_of_card: bool = False  # a copy of a card created outside any zone (707.12)
    spell_copy: bool = False
    adventure_of: str | None = None  # exiled as an Adventure resolved: who may play it (715.3d)
    haunting: int | None = None  # exiled by haunt: the creature it haunts (702.55b)
    tapped: bool = False
    flipped: bool = False
    face_down: bool = False
    transformed: bool = False
    phased_out: bool = False
    counters: Counter[str] = field(default_factory=Counter)
    damage: int = 0
    deathtouch_damage: bool = False
    attached_to: int | None = None
    choices: dict[str, Any] = field(default_factory=dict)
    # 607.2a, 607.5a: each "as this enters, choose" made for it, linked to the abilities of
    # the object it entered as: (that object's name, what was chosen) -> the choice.
    linked_choices: dict[tuple[str | None, str], Any] = field(default_factory=dict)
    protector: str | None = None
    spell: SpellInfo | None = None
    control_clock: int = 0  # when it last came under its controller's control
    ever_had_defense: bool = False
    # A melded permanent (701.42a): the two cards it is, as (card, printed values, owner).
    melded: tuple[tuple[int, Printed, str], ...] = ()
    meld_partner: int | None = None  # the other card a melded permanent became (712.21c)
    emblem: bool = False  # an emblem in the command zone: its abilities function there (114.4)
    # the turn its loyalty abilities ("loyalty") or an "only once each turn" ability (by its
    # text) was last activated (606.3, 602.5b)
    activated: dict[str, int] = field(default_factory=dict)

    def linked_choice(self, name: str | None, what: str) -> Any:
        """607.5a: the choice an ability of the object named ``name`` refers to, made as this
        object entered as that object; None when none was made for it (the choice is
        "undefined", and the part of the ability referring to it does nothing)."""
        return self.linked_choices.get((name, what))

    def __repr__(self) -> str:
        return f"<object {self.id} {self.alias or self.printed.front.name} in {self.zone}>"


@dataclass(eq=False)
class Player:
    name: str
    life: int = 20
    mana_pool: Counter[str] = field(default_factory=Counter)
    lost: bool = False
    left_game: bool = False
    drew_from_empty: bool = False
    upkeep_clocks: list[int] = field(default_factory=list)
    life_lost_total: int = 0
    life_gained_total: int = 0
    cards_drawn: int = 0
    cant_cast_until_eot: bool = False
    # Rules an instruction stated for this player until end of turn (kb.engine.player_rules).
    rules_this_turn: Counter[str] = field(default_factory=Counter)
    lands_played: int = 0  # this turn (305.2)
    # The creatures this player attacked with this turn (508.1), remembered whatever they
    # have become since (608.2i).
    attacked_with: list[int] = field(default_factory=list)
    poison: int = 0  # poison counters (122.1f)
    max_hand_size: int = 7  # 402.2
    mulligans: int = 0  # taken before the game (103.5)
    won: bool = False


def _itself(self: Any, memo: dict[int, Any]) -> Any:
    """Immutable values are shared by a copy of the game (never mutated: a deep copy of them
    would cost time and change nothing)."""
    return self


for _immutable in (Ability, Face, Printed, Characteristics):
    _immutable.__deepcopy__ = _itself  # type: ignore[attr-defined]
