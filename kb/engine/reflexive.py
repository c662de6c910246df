"""Reflexive triggered abilities (603.12): "you may sacrifice another creature. When you do,
..." An instruction's ``do`` part is carried out; only if it did something (an object changed
zones because of it) does the reflexive ability trigger, right then, with what was done
remembered (``extra.done_power``: the power of the first object moved, as it last existed).

Written in a card file as ``{ op = "reflexive", do = [...], then = [...], text = "...",
targets = [...] }``; the ability's targets are chosen as it is put on the stack, as any
triggered ability's (``trigger_targets``, by the source's alias). "If you do" (no trigger,
608.2c) is ``{ op = "if_you_do", do = [...], then = [...] }``: ``then`` happens at once, only if
``do`` did something (118.12: a cost that can't be paid isn't paid); ``if_you_dont`` is its
opposite ("you may sacrifice a creature. If you don't, you lose 4 life", 608.2d).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx
from kb.engine.events import Event, PendingTrigger
from kb.engine.objects import Ability

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]
Run = Callable[["GameState", Any, Ctx], None]


def ops(run_effects: Run) -> dict[str, Callable[[GameState, Op, Ctx], None]]:
    """The instructions "reflexive" and "if_you_do"; ``run_effects`` carries out instructions
    (the effects module's, passed down so that this module stays below it)."""

    def done(state: GameState, op: Op, ctx: Ctx) -> list[Event]:
        """Carry out ``do``; the zone changes it made."""
        before = len(state.events)
        run_effects(state, op.get("do", ()), ctx)
        return [e for e in state.events[before:] if e.kind == "zone_change"]

    def op_if_you_do(state: GameState, op: Op, ctx: Ctx) -> None:
        if done(state, op, ctx):
            run_effects(state, op["then"], ctx)

    def op_if_you_dont(state: GameState, op: Op, ctx: Ctx) -> None:
        if not done(state, op, ctx):  # 608.2d: an option that can't be taken isn't taken
            run_effects(state, op["then"], ctx)

    def op_reflexive(state: GameState, op: Op, ctx: Ctx) -> None:
        moved = done(state, op, ctx)
        if not moved:
            return  # nothing was done: "when you do" doesn't trigger (603.12)
        lki = state.last_known.get(moved[0].old) if moved[0].old is not None else None
        extra = {"done_power": (lki.ch.power or 0) if lki else 0}
        ability = Ability(str(op.get("text", "reflexive")), "triggered",
                          spec={"trigger": {"on": "reflexive"}, "effect": list(op["then"]),
                                "targets": list(op.get("targets", ()))})
        event = Event("reflexive", state.tick(), source=ctx.source, data={"extra": extra})
        source = ctx.source if ctx.source is not None else -1
        state.pending.append(PendingTrigger(source, ability, ctx.you, event, None))
        obj = state.objects.get(source) or (state.last_known[source].obj
                                            if source in state.last_known else None)
        state.events.append(Event("triggered", state.tick(), obj=source,
                                  card=obj.card if obj else None,
                                  data={"ability": ability.text}))

    return {"reflexive": op_reflexive, "if_you_do": op_if_you_do,
            "if_you_dont": op_if_you_dont}
