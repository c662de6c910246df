"""Reading a type line (205): "Basic Land — Mountain", "Legendary Artifact Creature — Golem",
"Land Creature — Forest Dryad". Supertypes come first, then card types, then, after the dash,
subtypes (205.1, 205.3a, 205.4a); words are told apart by the lists of rule 205.

Plain data at the bottom of the engine: a card file may write ``type_line`` instead of
``supertypes``, ``types`` and ``subtypes`` (:mod:`kb.engine.cards`).
"""

from __future__ import annotations

# 205.2a (the card types of traditional Magic cards and the others), 205.4a, 205.3i.
CARD_TYPES = ("Artifact", "Battle", "Conspiracy", "Creature", "Dungeon", "Enchantment",
              "Instant", "Kindred", "Land", "Phenomenon", "Plane", "Planeswalker", "Scheme",
              "Sorcery", "Vanguard")
SUPERTYPES = ("Basic", "Legendary", "Ongoing", "Snow", "World")
LAND_TYPES = ("Cave", "Desert", "Forest", "Gate", "Island", "Lair", "Locus", "Mine",
              "Mountain", "Plains", "Planet", "Power-Plant", "Sphere", "Swamp", "Tower", "Town",
              "Urza's")
_DASHES = ("—", " - ", "–")


class TypeLineError(ValueError):
    """A type line that doesn't read as supertypes, card types, then subtypes."""


def read_type_line(line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(supertypes, card types, subtypes) of a type line."""
    head, tail = line, ""
    for dash in _DASHES:
        if dash in line:
            head, tail = line.split(dash, 1)
            break
    supertypes: list[str] = []
    types: list[str] = []
    for word in head.split():
        word = word.capitalize()
        if word in SUPERTYPES and not types:
            supertypes.append(word)
        elif word in CARD_TYPES:
            types.append(word)
        else:
            raise TypeLineError(f"{word!r} in {line!r} is neither a supertype nor a card type "
                                "(205.2a, 205.4a), or is out of order")
    if not types:
        raise TypeLineError(f"no card type in {line!r} (205.2a)")
    subtypes = tuple(w.replace("’", "'") for w in tail.split())
    return tuple(supertypes), tuple(types), subtypes


def land_types(subtypes: tuple[str, ...]) -> tuple[str, ...]:
    """The subtypes that are land types (205.3i); the others of a land creature are creature
    types (205.3d)."""
    return tuple(s for s in subtypes if s in LAND_TYPES)
