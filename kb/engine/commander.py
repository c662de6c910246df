"""The Commander variant: which card is a commander (903.3), color identity (903.4) and the
deck construction rules that use it (903.5c-d), read from a card's printed values: every face
(903.4d), mana costs, mana symbols in rules text (reminder text in parentheses ignored,
903.4c) and color indicators.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kb.engine.mana import COLOR_OF
from kb.engine.objects import BASIC_LAND_MANA, Face, GameObject, Printed

if TYPE_CHECKING:
    from kb.engine.state import GameState

_SYMBOL = re.compile(r"\{([^{}]+)\}")
_REMINDER = re.compile(r"\([^()]*\)")


def _face_identity(face: Face) -> set[str]:
    colors = set(face.mana_cost.colors) if face.mana_cost else set()
    colors |= set(face.color_indicator or ())
    for ability in face.abilities:
        text = _REMINDER.sub("", ability.text)
        for symbol in _SYMBOL.findall(text):
            colors |= {COLOR_OF[p] for p in symbol.split("/") if p in COLOR_OF}
    return colors


def color_identity(printed: Printed) -> frozenset[str]:
    """903.4: the colors of the mana symbols in the card's mana cost and rules text, plus its
    color indicators, on every face (903.4d: a back face counts)."""
    found: set[str] = set()
    for face in printed.faces:
        found |= _face_identity(face)
    return frozenset(found)


def is_commander(state: GameState, obj: GameObject) -> bool:
    """903.3: being a commander is an attribute of the card itself, not a characteristic: it
    stays through face-down status and copy effects, and a copy of a commander (another
    card) is no commander."""
    return obj.card in state.commanders and not obj.token


def may_include(commander: Printed, card: Printed) -> bool:
    """903.5c: every color of the card's identity is in the commander's; 903.5d: a card with
    a basic land type only if each color of mana it could produce is too."""
    allowed = color_identity(commander)
    if not color_identity(card) <= allowed:
        return False
    produced = {COLOR_OF[BASIC_LAND_MANA[s]] for face in card.faces for s in face.subtypes
                if s in BASIC_LAND_MANA}
    return produced <= allowed
