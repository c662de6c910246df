"""Mana that depends on other permanents (106.5, 106.7): "add one mana of any color that a land
an opponent controls could produce" (Exotic Orchard), "choose a color of a permanent you
control; add one mana of that color" (Meteor Crater).

106.7: the mana a permanent "could produce" is what its mana abilities would produce if they
resolved now, costs ignored; an ability that looks at other permanents' mana looks through
them in turn, and a loop (two Exotic Orchards looking at each other) adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.mana import COLOR_OF, parse_mana
from kb.engine.objects import IllegalAction
from kb.i18n import _

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]
LETTER = {color: letter for letter, color in COLOR_OF.items()}
SOURCES = ("your_permanents_colors", "opponents_lands_produce")


def could_produce(state: GameState, oid: int, seen: frozenset[int] = frozenset()) -> set[str]:
    """106.7: the types of mana (letters) the permanent's mana abilities would produce."""
    ch = state.characteristics(oid)
    found = set(ch.mana_produced)  # 305.6: basic land types
    for ability in ch.abilities:
        for op in ability.spec.get("effect", ()) if ability.kind == "activated" else ():
            if op.get("op") == "add_mana" and "mana" in op:
                found |= set(parse_mana(op["mana"]))
            elif op.get("op") == "add_mana_of":
                found |= available(state, op["from"], state.controller(oid), seen | {oid})
    return found


def available(state: GameState, source: str, you: str,
              seen: frozenset[int] = frozenset()) -> set[str]:
    """The mana letters an "add_mana_of" instruction may add for player ``you``."""
    if source == "your_permanents_colors":  # 106.5
        return {LETTER[c] for o in state.battlefield() if state.controller(o.id) == you
                for c in state.characteristics(o.id).colors}
    found: set[str] = set()
    for obj in state.battlefield():
        if obj.id in seen or state.controller(obj.id) not in state.opponents(you):
            continue
        if state.characteristics(obj.id).is_a("Land"):
            found |= could_produce(state, obj.id, seen)
    return found & set(COLOR_OF)  # "any color": not colorless


def ops() -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    def op_add_mana_of(state: GameState, op: Op, ctx: Ctx) -> None:
        """Add ``n`` mana of the color chosen (``choices.mana_color``) among those allowed;
        none at all if none is allowed (106.5, 106.7)."""
        allowed = available(state, op["from"], ctx.you, frozenset({ctx.source or -1}))
        if not allowed:
            return
        chosen = ctx.choices.get("mana_color")
        if chosen not in allowed:
            raise IllegalAction(_("choose mana_color among {allowed}, not {chosen!r}").format(
                allowed=sorted(allowed), chosen=chosen))
        state.player(ctx.you).mana_pool[chosen] += evaluate(op.get("n", 1), ctx)

    return {"add_mana_of": op_add_mana_of}
