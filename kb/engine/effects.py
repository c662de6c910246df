"""One-shot instructions of spells and abilities (rule 608.2c), as written in card files.

Each instruction is a mapping with ``op`` and its parameters; ``if`` (a condition, see
:mod:`kb.engine.conditions`) and ``may`` (the name of a choice the player makes) apply to any.
Objects are named by ``who``: ``self``, ``target`` / ``target:N`` (the N-th "target" word),
``event.obj``, ``event.source``, ``event.card``, ``enchanted``, ``revealed``, ``referred``,
or ``{each = <filter>}``; players by ``player``: ``you``, ``each``, ``opponent``,
``target`` / ``target:N``, ``event.player``, ``controller_of:<who>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace as replace_fields
from typing import TYPE_CHECKING, Any

from kb.engine import damage as dmg
from kb.engine import player_rules
from kb.engine.amounts import Ctx, evaluate
from kb.engine.cards import ability_from, token_from_data
from kb.engine.choices import ops as choice_ops
from kb.engine.conditions import holds
from kb.engine.copy import become_copy, copiable_values, with_exceptions
from kb.engine.events import ContinuousEffect, DelayedTrigger, Event
from kb.engine.exchange import ops as exchange_ops
from kb.engine.faces import mana_values
from kb.engine.filters import linked_choices as _linked_of
from kb.engine.filters import matches
from kb.engine.instructions import BECOME_KEYS, COMMON_KEYS, OP_KEYS
from kb.engine.layers import MOD_LAYER
from kb.engine.mana import COLOR_OF, ManaCost, ManaError, parse_mana, pay
from kb.engine.mana_abilities import ops as mana_ops
from kb.engine.objects import CARD_TYPES, EngineError, Face, IllegalAction, Printed, keyword
from kb.engine.outcomes import ops as outcome_ops
from kb.engine.reflexive import ops as reflexive_ops
from kb.engine.replacements import Followup, Proposal, Replacement, note, replace
from kb.engine.retarget import ops as retarget_ops
from kb.engine.stack import can_enchant, cast, copy_spell
from kb.engine.transform import ops as transform_ops
from kb.engine.zones import (
    counter_amount,
    create_token,
    destroy_all,
    move,
    move_all,
    token_count,
    with_meld_partner,
)
from kb.i18n import _, ngettext

if TYPE_CHECKING:
    from kb.engine.state import GameState

Op = Mapping[str, Any]


def run_effects(state: GameState, ops: Any, ctx: Ctx) -> None:
    for op in ops or ():
        run(state, op, ctx)


def run(state: GameState, op: Op, ctx: Ctx) -> None:
    name = op.get("op")
    handler = OPS.get(str(name))
    if handler is None:
        raise EngineError(_("unknown instruction {name!r} (known: {known})").format(
            name=name, known=", ".join(sorted(OPS))))
    unknown = set(op) - COMMON_KEYS - OP_KEYS[str(name)]
    if unknown:
        raise EngineError(_("instruction {name!r}: unknown keys {keys} (known: {known})").format(
            name=name, keys=sorted(unknown), known=sorted(COMMON_KEYS | OP_KEYS[str(name)])))
    if "if" in op and not holds(op["if"], ctx):
        return
    if "may" in op:
        choice = op["may"]
        if choice not in ctx.choices:
            raise IllegalAction(_("a choice is needed: {choice} (yes or no)").format(choice=choice))
        if not ctx.choices[choice]:
            return
    with state.at_once():  # what one instruction does to several objects, it does at once
        handler(state, op, ctx)
    run_deferred(state)
    state.touch()


# -- references ------------------------------------------------------------------------------


def objects(ref: Any, ctx: Ctx) -> list[int]:
    """The objects an instruction names (illegal targets left out, 608.2b); a list names
    those of each of its references."""
    state = ctx.state
    if isinstance(ref, list):
        return list(dict.fromkeys(oid for one in ref for oid in objects(one, ctx)))
    if isinstance(ref, Mapping) and "each" in ref:
        you = ctx.you
        left_out = set(objects(ref["except"], ctx)) if "except" in ref else set()
        zone = ref["each"].get("zone", "battlefield")  # "each creature card in a graveyard"
        pool = state.battlefield() if zone == "battlefield" else [
            o for o in state.objects.values() if zone == "any" or o.zone == zone]
        return [o.id for o in pool
                if o.id not in left_out
                and matches(o, state.characteristics(o.id), ref["each"], you=you,
                            source=ctx.source, opponents=state.opponents(you),
                            linked=linked_choices(state, ctx.source))
                and _within(state, you, state.controller(o.id))]
    if ref == "self":
        return [ctx.source] if ctx.source in state.objects else []
    if isinstance(ref, str) and ref.startswith("target"):
        return [t for t in _targets(ref, ctx) if isinstance(t, int) and t in state.objects]
    if ref in ("event.obj", "event.source"):
        oid = getattr(ctx.event, ref.split(".")[1], None) if ctx.event else None
        return [oid] if oid in state.objects else []
    if ref == "event.card":  # 400.7: the new object the event made of it, while it stays so
        oid = ctx.event.obj if ctx.event else None
        return with_meld_partner(state, [oid] if oid in state.objects else [])
    if ref in ("enchanted", "equipped", "attached"):
        holder = state.objects.get(ctx.source) if ctx.source is not None else None
        return [holder.attached_to] if holder and holder.attached_to in state.objects else []
    if ref in ("revealed", "referred", "created", "found", "moved", "returned"):
        found = ctx.extra.get(ref)
        ids = found if isinstance(found, list) else [found]
        return with_meld_partner(state, [oid for oid in ids if oid in state.objects])
    if isinstance(ref, str) and ref.startswith("linked:"):  # "a card exiled with this" (607)
        source = state.objects.get(ctx.source) if ctx.source is not None else None
        if source is None and ctx.source in state.last_known:
            source = state.last_known[ctx.source].obj  # it has left: as it last existed
        exiled = source.choices.get(ref, []) if source is not None else []
        return [oid for oid in exiled if oid in state.objects]  # 400.7: while it stays there
    if isinstance(ref, str) and ref.startswith("choice:"):  # an object the player chooses
        chosen = _choice(ref, ctx)
        return objects(chosen, ctx) if chosen else []
    if isinstance(ref, str) and ref in state.aliases:  # a scenario's name for an object
        obj = state.find(ref)
        return [obj.id] if obj else []
    raise EngineError(_("unknown object reference {ref!r}").format(ref=ref))


def linked_choices(state: GameState, source: int | None) -> dict[str, Any]:
    """The linked choices of an effect's source as it is now (607.2a)."""
    obj = state.objects.get(source) if source is not None else None
    return _linked_of(obj, state.characteristics(obj.id).name if obj else None)


def last_known(ref: Any, ctx: Ctx) -> list[int]:
    """The objects a reference names, or, once they have left their zone, as they last
    existed (608.2h: "its controller", the source of damage that was sacrificed)."""
    found = objects(ref, ctx)
    if found:
        return found
    if ref == "self":
        ids = [ctx.source]
    elif isinstance(ref, str) and ref.startswith("target"):
        ids = [t for t in _targets(ref, ctx) if isinstance(t, int)]
    elif ref in ("event.obj", "event.source") and ctx.event is not None:
        ids = [getattr(ctx.event, ref.split(".")[1])]
    elif isinstance(ref, str) and ref.startswith("linked:"):
        holder = ctx.state.objects.get(ctx.source) if ctx.source is not None else None
        if holder is None and ctx.source in ctx.state.last_known:
            holder = ctx.state.last_known[ctx.source].obj
        ids = list(holder.choices.get(ref, [])) if holder is not None else []
    else:
        ids = []
    return [oid for oid in ids if oid is not None and oid in ctx.state.last_known]


def _targets(ref: str, ctx: Ctx) -> list[Any]:
    index = int(ref.split(":")[1]) if ":" in ref else 0
    if not ctx.spell or index >= len(ctx.spell.targets):
        raise EngineError(_("{ref}: no such target").format(ref=ref))
    illegal = ctx.extra.get("illegal", set())
    return [t for t in ctx.spell.targets[index] if (index, t) not in illegal]


def _within(state: GameState, you: str, other: str) -> bool:
    """801.10: spells and abilities can't affect what is outside their controller's range of
    influence."""
    return state.multiplayer is None or state.multiplayer.in_range(you, other)


def players(ref: Any, ctx: Ctx) -> list[str]:
    state = ctx.state
    if ref in (None, "you"):
        return [ctx.you]
    if ref == "each":
        return [p for p in state.apnap() if _within(state, ctx.you, p)]
    if ref == "opponent":
        return [p for p in state.opponents(ctx.you) if _within(state, ctx.you, p)]
    if isinstance(ref, str) and ref.startswith("target"):
        return [t for t in _targets(ref, ctx) if isinstance(t, str)]
    if ref == "event.player":
        return [ctx.event.player] if ctx.event and ctx.event.player else []
    if isinstance(ref, str) and ref.startswith("controller_of:"):  # as it last existed, 608.2h
        return [state.controller(o) for o in last_known(ref.split(":", 1)[1], ctx)]
    if isinstance(ref, str) and ref.startswith("owner_of:"):
        return [_owner(state, o) for o in last_known(ref.split(":", 1)[1], ctx)]
    if ref in state.players:
        return [ref]
    raise EngineError(_("unknown player reference {ref!r}").format(ref=ref))


def _owner(state: GameState, oid: int) -> str:
    obj = state.objects.get(oid) or state.last_known[oid].obj
    return obj.owner


def amount(expr: Any, ctx: Ctx, *, modifies_pt: bool = False) -> int:
    """107.1b: a calculation that yields a negative number uses zero instead, unless the
    effect sets a value (or, under the 2013 rules, modifies power or toughness)."""
    value = evaluate(expr, ctx)
    literal = isinstance(expr, int) or bool(re.fullmatch(r"-?\d+", str(expr)))
    if value < 0 and not literal and not (
            modifies_pt and ctx.state.rules.negative_results_modify_pt):
        return 0
    return value


def _choice(value: Any, ctx: Ctx) -> Any:
    if isinstance(value, str) and value.startswith("choice:"):
        key = value.split(":", 1)[1]
        if key not in ctx.choices:
            raise IllegalAction(_("a choice is needed: {choice}").format(choice=key))
        return ctx.choices[key]
    return value


# -- continuous effects from resolution (611.2) ----------------------------------------------


def _continuous(state: GameState, op: Op, ctx: Ctx, mods: dict[str, Any]) -> None:
    who = objects(op.get("who", "target"), ctx)
    if not who:
        return
    duration = op.get("duration", "permanent")
    if duration not in DURATIONS:
        raise EngineError(_("unknown duration {duration!r} ({known})").format(
            duration=duration, known=", ".join(DURATIONS)))
    if not _lasting(state, duration, ctx.source, ctx.you):
        return  # 611.2b: a "for as long as" duration over before it began: nothing happens
    effect = ContinuousEffect(state.new_id(), state.tick(), frozenset(who), mods,
                              source=ctx.source, controller=ctx.you, duration=duration,
                              label=op.get("label"))
    state.effects.append(effect)


# How long an effect from a resolution lasts (611.2a-b): until end of turn, for the rest of
# the game, or "for as long as you control <its source>".
DURATIONS = ("eot", "permanent", "while_you_control_source")


def _lasting(state: GameState, duration: str, source: int | None, controller: str | None
             ) -> bool:
    """Whether a "for as long as" duration holds now (611.2b); other durations always do."""
    if duration != "while_you_control_source":
        return True
    obj = state.objects.get(source) if source is not None else None
    return (obj is not None and obj.zone == "battlefield" and not obj.phased_out
            and state.controller(obj.id) == controller)


def end_durations(state: GameState) -> None:
    """611.2b: an effect lasting "for as long as" something ends once it no longer holds, and
    never starts again."""
    kept = [e for e in state.effects if _lasting(state, e.duration, e.source, e.controller)]
    if len(kept) != len(state.effects):
        state.effects = kept
        state.touch()


def _pt_pair(op: Op, ctx: Ctx, key: str, *, sets: bool) -> list[int]:
    """Power and toughness an effect sets (any value, 107.1b) or adds (a negative result
    of a calculation becomes 0)."""
    if sets:
        return [evaluate(v, ctx) for v in op[key]]
    return [amount(v, ctx, modifies_pt=True) for v in op[key]]


def op_pump(state: GameState, op: Op, ctx: Ctx) -> None:
    _continuous(state, op, ctx, {"pump": _pt_pair(op, ctx, "pt", sets=False)})


def op_set_pt(state: GameState, op: Op, ctx: Ctx) -> None:
    _continuous(state, op, ctx, {"set_pt": _pt_pair(op, ctx, "pt", sets=True)})


def op_switch_pt(state: GameState, op: Op, ctx: Ctx) -> None:
    _continuous(state, op, ctx, {"switch": True})


def op_become(state: GameState, op: Op, ctx: Ctx) -> None:
    """An effect changing several characteristics at once; each part applies in its own
    layer (613.6)."""
    mods: dict[str, Any] = {k: _choice(op[k], ctx) for k in BECOME_KEYS if k in op}
    if isinstance(mods.get("colors"), str):
        mods["colors"] = [mods["colors"]]
    if "text" in mods:
        mods["text"] = {k: _choice(v, ctx) for k, v in mods["text"].items()}
    if mods.get("control") == "you":
        mods["control"] = ctx.you
    if "pt" in op:
        mods["set_pt"] = _pt_pair(op, ctx, "pt", sets=True)
    if "pump" in op:
        mods["pump"] = [amount(v, ctx, modifies_pt=True) for v in op["pump"]]
    if "grant" in op:
        mods["grant"] = tuple(ability_from(a, f"instruction {op['op']}") for a in op["grant"])
    if not mods:
        raise EngineError(_("{op}: nothing to change").format(op=op["op"]))
    _continuous(state, op, ctx, mods)


def op_gain_abilities_of(state: GameState, op: Op, ctx: Ctx) -> None:
    """"[This] gains all activated abilities of [that object]": the activated abilities
    ``of`` has as the instruction resolves, granted to ``who`` (layer 6) for ``duration``;
    "this" in their text is the object that has them (201.5b), and abilities gained from one
    source are linked to each other on their new object as on the old (607.5)."""
    gained = tuple(a for oid in objects(op["of"], ctx)
                   for a in state.characteristics(oid).abilities if a.kind == "activated")
    if gained:
        _continuous(state, op, ctx, {"grant": gained})


# -- objects ---------------------------------------------------------------------------------


def op_tap(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "target"), ctx):
        obj = state.objects[oid]
        was = obj.tapped
        obj.tapped = op["op"] == "tap"
        if obj.tapped != was and obj.zone == "battlefield":  # 603.2e
            state.emit("becomes_tapped" if obj.tapped else "becomes_untapped", obj=oid)


def op_damage(state: GameState, op: Op, ctx: Ctx) -> None:
    """One "deals damage" instruction: one damage event (120.2, 603.2c). ``to``: a recipient
    or a list of them; ``amount``: one amount, or a list giving each recipient of ``to`` its
    own ("1 damage to any target, 2 damage to another target", dealt at once); ``source``:
    the object dealing it (this object by default), or several objects, each dealing
    ``amount`` evaluated for itself ("each of those creatures deals damage equal to its
    power")."""
    sources = last_known(op["source"], ctx) if "source" in op else [ctx.source]
    recipients = op["to"] if isinstance(op["to"], list) else [op["to"]]
    amounts = op["amount"] if isinstance(op["amount"], list) else [op["amount"]] * len(
        recipients)
    if len(amounts) != len(recipients):
        raise EngineError(_("damage: {amounts} amounts for {recipients} recipients").format(
            amounts=len(amounts), recipients=len(recipients)))
    hits: list[tuple[int, Any, int]] = []
    for source in sources:
        if source is None:
            continue
        own = Ctx(state, ctx.you, source, spell=ctx.spell, event=ctx.event, extra=ctx.extra,
                  choices=ctx.choices) if "source" in op else ctx  # "its power": the source's
        for ref, each in zip(recipients, amounts, strict=True):
            n = amount(each, own)
            hits += [(source, target, n) for target in _recipients(ref, ctx)]
    dmg.deal_simultaneously(state, hits)


def _recipients(ref: Any, ctx: Ctx) -> list[Any]:
    if isinstance(ref, Mapping):  # { each = <filter> }: objects ("each creature")
        return objects(ref, ctx)
    if isinstance(ref, str) and ref.startswith("target"):
        return [t for t in _targets(ref, ctx) if not isinstance(t, int) or t in ctx.state.objects]
    try:
        return players(ref, ctx)
    except EngineError:
        return objects(ref, ctx)


def op_fight(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.14: each deals damage equal to its power to the other, at once; if either isn't
    there (or is an illegal target), no damage is dealt (701.14b)."""
    first, second = objects(op["a"], ctx), objects(op["b"], ctx)
    if not first or not second:
        return
    a, b = first[0], second[0]
    pa, pb = state.characteristics(a).power or 0, state.characteristics(b).power or 0
    dmg.deal_simultaneously(state, [(a, b, pa), (b, a, pb)])


def op_destroy(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.8: destroy them, all at once (one event)."""
    destroy_all(state, objects(op.get("who", "target"), ctx))


def op_move(state: GameState, op: Op, ctx: Ctx) -> None:
    """exile, sacrifice, return to hand: permanents or cards to another zone, all at once."""
    zone = {"exile": "exile", "sacrifice": "graveyard", "bounce": "hand",
            "to_graveyard": "graveyard"}[op["op"]]
    chosen = [state.objects[oid] for oid in objects(op.get("who", "target"), ctx)
              if op["op"] != "sacrifice" or state.objects[oid].zone == "battlefield"]
    moved = [new.id for new in move_all(state, [(obj, zone) for obj in chosen])]
    ctx.extra["moved"] = moved  # "that card" in a later instruction (400.7)
    source = state.objects.get(ctx.source) if ctx.source is not None else None
    if op.get("link") and source is not None:  # 607.2a: "exiled with" this object
        linked = source.choices.setdefault(f"linked:{op['link']}", [])
        linked += [m for m in moved if m in state.objects and state.objects[m].zone == zone]


def op_return_to_battlefield(state: GameState, op: Op, ctx: Ctx) -> None:
    """Put cards onto the battlefield, at once (undying: "with a +1/+1 counter on it");
    ``is``: the continuous changes of "that permanent is [characteristic]", which apply as
    it enters, not after (611.2e: an enchantment entering is seen entering); ``under =
    "you"``: under your control (else its owner's); ``tapped``; ``transformed`` (a
    double-faced card, its back face up, 712.14)."""
    changes = op.get("is")
    if changes is not None and (not isinstance(changes, Mapping) or not changes
                                or set(changes) - set(MOD_LAYER)):
        raise EngineError(_("return_to_battlefield: 'is' takes continuous changes ({known}), "
                            "not {changes!r}").format(known=sorted(MOD_LAYER), changes=changes))
    returning = [state.objects[oid] for oid in objects(op.get("who", "event.card"), ctx)
                 if state.objects[oid].zone != "battlefield" and not state.objects[oid].token]
    state.entering_together = frozenset(o.id for o in returning)  # 614.13a
    try:
        with state.arriving_together():  # 614.12: entering at once, none sees the others enter
            for obj in returning:
                entering_as = None if changes is None else ContinuousEffect(
                    state.new_id(), state.tick(), frozenset(), dict(changes), source=ctx.source,
                    controller=ctx.you)
                new = move(state, obj, "battlefield",
                           controller=ctx.you if op.get("under") == "you" else obj.owner,
                           choices=ctx.choices, entering_as=entering_as,
                           tapped=bool(op.get("tapped")),
                           transformed=bool(op.get("transformed"))
                           and obj.printed.layout == "transform")
                ctx.extra.setdefault("returned", []).append(new.id)
                for kind, n in op.get("counters", {}).items():
                    _put(state, new.id, kind, amount(n, ctx))
    finally:
        state.entering_together = frozenset()


def op_counter(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.6: counter a spell: it goes to its owner's graveyard."""
    for oid in objects(op.get("who", "target"), ctx):
        obj = state.objects[oid]
        if obj.zone == "stack":
            ctx.extra["countered_mana_value"] = sum(_mana_values(state, oid))
            ctx.extra["target"] = oid
            move(state, obj, "graveyard")


def _mana_values(state: GameState, oid: int) -> tuple[int, ...]:
    return mana_values(state, oid)


def _put(state: GameState, oid: int, kind: str, n: int) -> int:
    obj = state.objects[oid]
    n = counter_amount(state, obj, n, kind)
    if n <= 0:
        return 0
    obj.counters[kind] += n
    state.touch()
    state.emit("counters_put", obj=oid, amount=n, data={"kind": kind})
    return n


def op_put_counters(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "target"), ctx):
        _put(state, oid, op["kind"], amount(op.get("n", 1), ctx))


def op_remove_counters(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "target"), ctx):
        dmg.remove_counters(state, oid, op["kind"], amount(op.get("n", 1), ctx))


def op_double_counters(state: GameState, op: Op, ctx: Ctx) -> None:
    """Put on it as many of each kind of counter as it already has."""
    for oid in objects(op.get("who", "target"), ctx):
        for kind, n in list(state.objects[oid].counters.items()):
            if n > 0:
                _put(state, oid, kind, n)


def op_evolve(state: GameState, op: Op, ctx: Ctx) -> None:
    """702.100a-c: if the entering creature is still greater, put a +1/+1 counter on this
    creature; it "evolves" when one or more counters are put on it this way."""
    if not holds({"entering_is_greater": True}, ctx):
        return
    if ctx.source not in state.objects:
        return
    if _put(state, ctx.source, "+1/+1", 1) > 0:
        state.emit("evolves", obj=ctx.source)


def op_fade(state: GameState, op: Op, ctx: Ctx) -> None:
    """702.32a: remove a fade counter from it; if you can't, sacrifice it."""
    if ctx.source not in state.objects:
        return
    if not dmg.remove_counters(state, ctx.source, "fade", 1):
        move(state, state.objects[ctx.source], "graveyard")


def op_sacrifice_unless_pay(state: GameState, op: Op, ctx: Ctx) -> None:
    """Echo (702.30a): sacrifice it unless you pay the cost; paying is a choice."""
    if ctx.source not in state.objects:
        return
    cost = ManaCost.parse(_cost_text(op, ctx))
    if cost.has_x:  # 702.1b: the keyword's variable, evaluated now, as it is paid
        if ctx.extra.get("keyword_x") is None:
            raise EngineError(_("{cost}: nothing defines X for this keyword").format(cost=cost))
        cost = cost.with_x(amount(ctx.extra["keyword_x"], ctx))
    ctx.extra["cost_asked"] = str(cost)
    if "pay" not in ctx.choices:
        raise IllegalAction(_("a choice is needed: pay (pay {cost} or sacrifice)").format(
            cost=cost))
    if ctx.choices["pay"]:
        try:
            pay(cost, state.player(ctx.you).mana_pool)
        except ManaError as exc:
            raise IllegalAction(str(exc)) from exc
        return
    move(state, state.objects[ctx.source], "graveyard")


def op_may_pay(state: GameState, op: Op, ctx: Ctx) -> None:
    """"You may pay [cost]. If you do, ...": the ``then`` instructions happen only if the
    player chooses to pay (``choices.pay``) and does."""
    cost = ManaCost.parse(str(op["cost"]))
    if "pay" not in ctx.choices:
        raise IllegalAction(_("a choice is needed: pay (pay {cost} or not)").format(cost=cost))
    if not ctx.choices["pay"]:
        return
    try:
        pay(cost, state.player(ctx.you).mana_pool)
    except ManaError as exc:
        raise IllegalAction(str(exc)) from exc
    run_effects(state, op.get("then", ()), ctx)


def op_exile_until_shares_type(state: GameState, op: Op, ctx: Ctx) -> None:
    """Exile cards from the top of the player's library until one shares a card type with
    the named spell (as it last existed); the player may cast that card without paying its
    mana cost (``choices.cast``); the other exiled cards go to the bottom of the library."""
    like = op.get("like", "event.obj")
    oid = getattr(ctx.event, "obj", None) if like == "event.obj" else None
    if oid is None:
        return
    wanted = {t for t in state.characteristics(oid).types if t in CARD_TYPES}
    for player in players(op.get("player", "event.player"), ctx):
        exiled = []
        found = None
        while state.libraries[player]:
            card = move(state, state.objects[state.libraries[player][0]], "exile")
            if wanted & set(state.characteristics(card.id).types):
                found = card
                break
            exiled.append(card)
        ctx.extra["found"] = found.id if found else None
        if found is not None and ctx.choices.get("cast", False):
            cast(state, found.id, player, without_paying=True,
                 targets=ctx.choices.get("targets", []))
        for card in exiled:
            move(state, card, "library", top=False)


def _cost_text(op: Op, ctx: Ctx) -> str:
    cost = op["cost"]
    if cost == "keyword":
        return str(ctx.extra.get("keyword_arg", ""))
    return str(cost)


def op_put_from_hand(state: GameState, op: Op, ctx: Ctx) -> None:
    """"You may put a [kind of] card from your hand onto the battlefield": the card is the
    choice named by ``choice`` (none if the player chooses none)."""
    chosen = ctx.choices.get(op.get("choice", "put"))
    if not chosen:
        return
    card = state.get(chosen)
    ch = state.characteristics(card.id)
    if card.zone != "hand" or card.owner != ctx.you or not matches(
            card, ch, {**op.get("filter", {}), "zone": "hand"}, you=ctx.you,
            opponents=state.opponents(ctx.you)):
        raise IllegalAction(_("{what} is not a card in {player}'s hand that can be put onto "
                              "the battlefield this way").format(what=chosen, player=ctx.you))
    ctx.extra["put"] = move(state, card, "battlefield", controller=ctx.you,
                            choices=ctx.choices).id


def op_distribute_counters(state: GameState, op: Op, ctx: Ctx) -> None:
    """Distribute N counters among objects, as the player chooses (``choices.distribute``:
    a table of object -> count)."""
    plan = ctx.choices.get(op.get("choice", "distribute"), {})
    if sum(plan.values()) != amount(op["n"], ctx):
        raise IllegalAction(_("distribute exactly {n} counters, not {plan}").format(
            n=op["n"], plan=plan))
    for ref, n in plan.items():
        targets = objects(ref, ctx)
        if not targets:
            raise IllegalAction(_("no {ref} to put counters on").format(ref=ref))
        _put(state, targets[0], op["kind"], n)


def op_turn_face_up(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "target"), ctx):
        obj = state.objects[oid]
        obj.face_down = False
        obj.timestamp = state.tick()  # 613.7f


# -- tokens and copies ------------------------------------------------------------------------


def _by_name(state: GameState, name: str) -> Any:
    """111.11: a token named by the effect, with no other characteristics defined, has those
    of the card with that name in the Oracle card reference."""
    if name not in state.card_reference:
        raise EngineError(_("create_token: no card named {name!r} in the card reference")
                          .format(name=name))
    return state.card_reference[name]


def op_create_token(state: GameState, op: Op, ctx: Ctx) -> None:
    """111.2; 707.8a: a token that is a copy of a transforming permanent has both faces.
    ``player``: who creates it ("that creature's controller creates ..."), else you."""
    creators = players(op["player"], ctx) if "player" in op else [ctx.you]
    if not creators:
        return
    maker = creators[0]
    n = token_count(state, maker, amount(op.get("n", 1), ctx))
    made: list[int] = []
    for i in range(n):
        transformed = False
        if "copy_of" in op:
            originals = objects(op["copy_of"], ctx)
            if not originals:
                return
            original = state.objects[originals[0]]
            printed = copiable_values(state, original, keep_faces=True)
            printed, _copied = with_exceptions(printed, op.get("except", {}), copier=None,
                                         this=None, ctx=ctx)
            transformed = original.transformed and printed.layout == "transform"
        elif isinstance(op["token"], str):  # 111.11: a token created by name alone
            printed = _by_name(state, op["token"])
        else:
            printed = _bound_to_creator(token_from_data(op["token"], "token"), ctx.source)
        if "pt" in op:  # "an X/X token": its power and toughness as the effect defines them
            power, toughness = (amount(v, ctx) for v in op["pt"])
            printed = printed.map_faces(lambda f, p=power, t=toughness: replace_fields(
                f, power=p, toughness=t))
        alias = op.get("as") if i == 0 else (f"{op['as']}#{i + 1}" if op.get("as") else None)
        token = create_token(state, printed, maker, choices=ctx.choices,
                             transformed=transformed, alias=alias, tapped=bool(op.get("tapped")))
        made.append(token.id)
    ctx.extra["created"] = made


def _bound_to_creator(printed: Printed, creator: int | None) -> Printed:
    """201.5a: a token's ability naming the object that created it ("the number of slime
    counters on Gutter Grime": ``creator.counters:slime``) refers to that very object, and so
    does a copy of the token (the reference is part of its copiable values)."""
    def bind(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("creator."):
            return f"object{creator}." + value.split(".", 1)[1] if creator is not None else "0"
        if isinstance(value, Mapping):
            return {k: bind(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [bind(v) for v in value]
        return value

    def face(f: Face) -> Face:
        return replace_fields(f, abilities=tuple(
            replace_fields(a, spec=bind(a.spec)) if "cda" in a.spec else a
            for a in f.abilities))

    return printed.map_faces(face)


def op_become_copy(state: GameState, op: Op, ctx: Ctx) -> None:
    """707.4: an object on the battlefield becomes a copy of another; it stays on the
    battlefield and keeps the other effects that apply to it."""
    targets = objects(op.get("who", "self"), ctx)
    if op["of"] == "sacrificed":  # "a copy of the sacrificed creature": as it last existed
        lost = ctx.spell.sacrificed if ctx.spell is not None else []
        if not targets or not lost:
            return
        obj, original = state.objects[targets[0]], lost[0].obj
    else:
        originals = objects(op["of"], ctx)
        if not targets or not originals:
            return
        obj, original = state.objects[targets[0]], state.objects[originals[0]]
    this = ctx.extra.get("ability")
    values = copiable_values(state, original)
    values, _copied = with_exceptions(values, op.get("except", {}), copier=obj.printed, this=this,
                                ctx=ctx)
    become_copy(state, obj, values, source=ctx.source, controller=ctx.you)


def op_copy_spell(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "target"), ctx):
        new_targets = ctx.choices.get("new_targets")
        if op.get("new_target") == "created":
            # 707.10e: the copy targets the object the effect names (one, if it made more)
            made = objects("created", ctx)
            chosen = ctx.choices.get("copy_target")
            pick = state.get(chosen).id if chosen else (made[0] if made else None)
            if pick is None or pick not in made:
                return
            new_targets = [[pick]]
        copy_spell(state, oid, ctx.you, op.get("except", {}), new_targets=new_targets)


def op_exile_then_cast_transformed(state: GameState, op: Op, ctx: Ctx) -> None:
    """310.11b: exile it, then you may cast it transformed without paying its mana cost (only
    a transforming double-faced card can be cast transformed, 712)."""
    if ctx.source not in state.objects:
        return
    exiled = move(state, state.objects[ctx.source], "exile")
    ctx.extra["exiled"] = exiled.id
    if exiled.token or exiled.copy_of_card or exiled.printed.layout != "transform":
        return
    if ctx.choices.get("cast", True):
        cast(state, exiled.id, ctx.you, transformed=True, without_paying=True,
             targets=ctx.choices.get("targets", []))


# -- players ---------------------------------------------------------------------------------


def op_draw(state: GameState, op: Op, ctx: Ctx) -> None:
    for player in players(op.get("player", "you"), ctx):
        draw(state, player, amount(op.get("n", 1), ctx))


def op_discard_hand(state: GameState, op: Op, ctx: Ctx) -> None:
    move_all(state, [(card, "graveyard") for player in players(op.get("player", "you"), ctx)
                     for card in state.in_zone("hand", player)])


def op_discard(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.9: the player discards ``n`` cards of their choice (``choices.discard``: aliases;
    else the first cards of the hand), or at random (``random = true``: drawn with the
    game's seeded randomness, the same every time the scenario is played, 701.9b)."""
    for player in players(op.get("player", "you"), ctx):
        hand = state.in_zone("hand", player)
        n = amount(op.get("n", 1), ctx)
        if op.get("random"):
            chosen = state.rng.sample(hand, min(n, len(hand)))
            note(state, "701.9b", f"{player} discards at random: "
                 + ", ".join(_name_of(state, card.id) for card in chosen))
        else:
            chosen = ([state.get(a) for a in ctx.choices["discard"]] if "discard" in ctx.choices
                      else hand)[:n]
        for card in chosen:
            if card.zone != "hand" or card.owner != player:
                raise IllegalAction(_("{what} is not in {player}'s hand").format(
                    what=card.alias or card.id, player=player))
        move_all(state, [(card, "graveyard") for card in chosen])


def _name_of(state: GameState, oid: int) -> str:
    """An object's scenario name, else its name."""
    card = state.objects[oid].card
    return next((a for a, c in state.aliases.items() if c == card),
                state.characteristics(oid).name or str(oid))


def op_shuffle(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.24: each named player shuffles their library (with the game's seeded
    randomness). With ``who``: "shuffle [them] into [the] library": those of them still
    where the instruction expects them are put into their owner's library (at once, as
    replacement effects leave it: a spell cast with flashback is exiled instead), then the
    library is shuffled, even if none of them moved there (701.24c-d)."""
    if "who" in op:
        moving = [state.objects[oid] for oid in objects(op["who"], ctx)]
        move_all(state, [(obj, "library") for obj in moving])
    for player in players(op.get("player", "you"), ctx):
        shuffle(state, player)


def shuffle(state: GameState, player: str) -> None:
    state.rng.shuffle(state.libraries[player])
    state.emit("shuffled", player=player)
    state.touch()


def op_search(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.23: the player searches their library for up to ``n`` cards matching ``filter``
    (``choices.search``: the cards found, by name, or player -> those names when several
    players search; none found if not given, 701.23b) and puts
    them ``to`` a zone (``hand`` or ``battlefield``, ``tapped``), then shuffles (701.24)."""
    chosen = ctx.choices.get("search", [])
    for player in players(op.get("player", "you"), ctx):
        # "each player searches": the cards each found, player -> aliases
        mine = chosen.get(player, []) if isinstance(chosen, Mapping) else chosen
        found = [state.get(a) for a in mine]
        n = amount(op.get("n", 1), ctx)
        flt = {**op.get("filter", {}), "zone": "library"}
        # 701.23f: a search replaced by a search of the top N cards; the rest still applies
        portion = replace(state, Proposal("search", player=player)).portion
        searched = state.libraries[player][:portion] if portion is not None else None
        for card in found:
            if searched is not None and card.id not in searched:
                raise IllegalAction(_("{what} is not among the top {n} cards of {player}'s "
                                      "library, the only ones searched (701.23f)").format(
                                          what=card.alias or card.id, n=portion,
                                          player=player))
            if card.zone != "library" or card.owner != player or not matches(
                    card, state.characteristics(card.id), flt, you=player,
                    opponents=state.opponents(player)):
                raise IllegalAction(_("{what} is not a card {player} may find in their library "
                                      "this way ({filter})").format(
                                          what=card.alias or card.id, player=player,
                                          filter=op.get("filter", {})))
        if len(found) > n:
            raise IllegalAction(ngettext("{player} finds up to {n} card(s), not {found}",
                                         "{player} finds up to {n} card(s), not {found}", n)
                                .format(player=player, n=n, found=len(found)))
        with state.arriving_together():
            for card in found:
                move(state, card, op.get("to", "hand"), controller=player,
                     tapped=bool(op.get("tapped")))
        shuffle(state, player)


def op_emblem(state: GameState, op: Op, ctx: Ctx) -> None:
    """114.1-114.4: "you get an emblem with [abilities]": an object in the command zone with
    only those abilities, which function there."""
    face = Face(name=op.get("name", "Emblem"), abilities=tuple(
        ability_from(a, "emblem") for a in op["abilities"]))
    emblem = state.add_object(Printed((face,)), ctx.you, "command")
    emblem.emblem = True
    state.touch()


def op_shuffle_into_library(state: GameState, op: Op, ctx: Ctx) -> None:
    """Put the player's cards from the named zones (and the permanents they own) into their
    library; the order is random, so the scenario never depends on it."""
    for player in players(op.get("player", "you"), ctx):
        for zone in op.get("zones", ("hand", "graveyard", "battlefield")):
            for obj in list(state.objects.values()):
                if obj.zone == zone and obj.owner == player and obj.id in state.objects:
                    move(state, obj, "library")


def op_life(state: GameState, op: Op, ctx: Ctx) -> None:
    """Gain, lose, or set a life total (119); a gain may be replaced by instructions."""
    action = {"gain_life": dmg.gain_life, "lose_life": dmg.lose_life,
              "set_life": dmg.set_life}[op["op"]]
    affected = players(op.get("player", "you"), ctx)
    if op["op"] == "set_life" and state.multiplayer is not None:
        affected = state.multiplayer.one_per_team(affected, ctx.choices.get("affected", []))
    n = amount(op["n"], ctx)  # computed once, before any life total changes
    for player in affected:
        action(state, player, n)


def op_haunt(state: GameState, op: Op, ctx: Ctx) -> None:
    """702.55a-b: "exile it haunting target creature": the card (the new object its move to
    the graveyard made, 400.7) is exiled, and haunts that creature."""
    haunted = objects("target", ctx)
    for oid in objects(op.get("who", "event.card"), ctx):
        exiled = move(state, state.objects[oid], "exile")
        if haunted and exiled.zone == "exile":
            exiled.haunting = haunted[0]


def op_additional_upkeeps(state: GameState, op: Op, ctx: Ctx) -> None:
    """500.10: "you get N additional upkeep steps after this phase": that many beginning
    phases with only an upkeep step, after the current phase (in the active player's turn)."""
    if ctx.you == state.active:
        state.extra_upkeeps += amount(op.get("n", 1), ctx)


def op_regenerate(state: GameState, op: Op, ctx: Ctx) -> None:
    """701.19a: "Regenerate [permanent]": the next time it would be destroyed this turn,
    instead its damage is removed, it is tapped and removed from combat (a shield, used once,
    for the permanent it names as the instruction resolves: ``who``, the source by
    default)."""
    for oid in objects(op.get("who", "self"), ctx):
        state.replacements.append(Replacement(
            ("shield", state.new_id()), {"event": "destroy", "what": "any", "regenerate": True},
            ctx.source, ctx.you, state.tick(), text=op.get("label") or "regeneration",
            affected=frozenset({oid}), remaining=1, duration="eot"))


def op_shield(state: GameState, op: Op, ctx: Ctx) -> None:
    """615.7, 615.11: a replacement or prevention effect a resolving spell or ability creates:
    ``replacement`` (written as a card's), ``who`` (the objects or players it applies to,
    fixed as it resolves), ``next`` (a shield preventing only the next N damage, one shield
    for each of them), ``once`` (true: "the next time damage would be dealt": the first
    damage event it applies to, whole), ``source`` (damage from that source only, fixed as
    it resolves: "a source of your choice" is ``"choice:source"``), ``duration`` (``eot``
    by default)."""
    affected: list[Any] | None = None
    if "who" in op:
        refs = op["who"] if isinstance(op["who"], list) else [op["who"]]
        affected = [found for ref in refs for found in _recipients(ref, ctx)]
    groups: list[frozenset[Any] | None] = [frozenset(affected) if affected is not None
                                           else None]
    if "next" in op and affected is not None:
        groups = [frozenset({one}) for one in affected]
    spec = op["replacement"]
    redirect = spec.get("redirect")
    if isinstance(redirect, str) and redirect.startswith("target"):
        to = _recipients(redirect, ctx)  # "is dealt to another target ... instead"
        if not to:
            return
        spec = {**spec, "redirect": {"to": to[0]}}
    sources = frozenset(last_known(op["source"], ctx)) if "source" in op else None
    if sources is not None and not sources:
        return  # no such source: the shield would prevent nothing
    for group in groups:
        state.replacements.append(Replacement(
            ("shield", state.new_id()), spec, ctx.source, ctx.you, state.tick(),
            text=op.get("label") or "", affected=group,
            remaining=amount(op["next"], ctx) if "next" in op else None,
            duration=op.get("duration", "eot"), sources=sources,
            once=bool(op.get("once"))))


def run_deferred(state: GameState) -> None:
    """Carry out the instructions that replacement effects added to events deeper down (a
    life gain replaced by "draw that many cards instead", a death replaced by "exile it
    instead, and create a token"), in the order the events were replaced."""
    while state.deferred:
        run_followup(state, state.deferred.pop(0))


def run_followup(state: GameState, followup: Followup) -> None:
    """Carry out instructions a replacement effect added to an event (614.1a); the effects
    that modified the event don't apply again to what they do (614.5). ``extra.amount``: the
    event's amount as the effect found it ("draw that many cards instead"), ``extra.prevented``
    what it prevented ("for each 1 damage prevented this way"); ``event.obj``,
    ``event.player`` and ``event.source``: what the event affected."""
    before = set(state.replacing)
    state.replacing |= followup.applied
    event = Event("replaced", state.clock, obj=followup.obj, player=followup.player,
                  source=followup.damage_source, amount=followup.amount)
    try:
        run_effects(state, followup.ops, Ctx(
            state, followup.controller, followup.source, event=event, choices=state.choices,
            extra={"amount": followup.amount, "prevented": followup.prevented}))
    finally:
        state.replacing = before


def run_instead(state: GameState, proposal: Proposal) -> None:
    """Carry out, now, the instructions that replaced an event whose code performs them
    itself (a draw, a loss of the game)."""
    applied = frozenset(proposal.applied)
    for followup in proposal.instead:
        run_followup(state, replace_fields(followup, applied=applied))


def op_add_mana(state: GameState, op: Op, ctx: Ctx) -> None:
    """Add mana: fixed (``mana = "{G}"``), one mana of a type the triggering mana ability
    produced (``mana = "event.mana"``; ``choices.mana_color`` among several) or ``n`` mana of a
    chosen color."""
    for player in players(op.get("player", "you"), ctx):
        pool = state.player(player).mana_pool
        if op.get("mana") == "event.mana":  # "one mana of any type that land produced"
            if ctx.event is None or "mana" not in ctx.event.data:
                raise EngineError(_("mana = \"event.mana\" is the mana of the mana ability that "
                                    "triggered this one (a tapped_for_mana trigger)"))
            produced = sorted(set(ctx.event.data["mana"]))
            if len(produced) > 1:
                chosen = ctx.choices.get("mana_color")
                if chosen not in produced:
                    raise IllegalAction(_("choose mana_color among {allowed}, not {chosen!r}")
                                        .format(allowed=produced, chosen=chosen))
                produced = [chosen]
            pool.update(produced[:1])
        elif "mana" in op:
            pool.update(parse_mana(op["mana"]))
        elif op.get("color") == "linked:color":  # "one mana of the chosen color"
            color = _linked_color(state, ctx)
            if color is not None:  # 607.5a: an undefined choice: no mana
                pool[color] += amount(op["n"], ctx)
        else:
            color = _choice(op.get("color", "choice:mana_color"), ctx)
            pool[color] += amount(op["n"], ctx)


def _linked_color(state: GameState, ctx: Ctx) -> str | None:
    """The mana symbol of the color chosen for the source's linked "as this enters, choose
    a color" ability (607.2a), if one was chosen for it (607.5a)."""
    source = state.objects.get(ctx.source) if ctx.source is not None else None
    if source is None:
        return None
    color = source.linked_choice(state.characteristics(source.id).name, "color")
    return None if color is None else next(
        (letter for letter, name in COLOR_OF.items() if name == color), None)


def op_cant_cast(state: GameState, op: Op, ctx: Ctx) -> None:
    for player in players(op.get("player", "target"), ctx):
        state.player(player).cant_cast_until_eot = True


# A keyword as an effect lists it, and the name its variants share (702.16a).
_FAMILY = {"protection": "protection from"}


def op_share_keywords(state: GameState, op: Op, ctx: Ctx) -> None:
    """"Creatures you control gain flying until end of turn if a creature you control has
    flying. The same is true for ... landwalk, protection ...": for each keyword of
    ``keywords`` (702 names: "flying", "landwalk", "protection"), every creature you control
    gains every variant of it that a creature you control has (702.1c)."""
    wanted = {_FAMILY.get(str(k).lower(), str(k).lower()) for k in op["keywords"]}
    mine = [o.id for o in state.battlefield() if state.controller(o.id) == ctx.you
            and state.characteristics(o.id).is_a("Creature")]
    found: dict[str, Any] = {}
    for oid in mine:
        for ability in state.characteristics(oid).abilities:
            if ability.keyword in wanted:
                found.setdefault(ability.text.lower(), keyword(ability.text))
    if found and mine:
        _continuous(state, {"who": {"each": {"types": ["Creature"], "controller": "you"}},
                            "duration": op.get("duration", "eot")}, ctx,
                    {"grant": tuple(found.values())})


def op_aura_swap(state: GameState, op: Op, ctx: Ctx) -> None:
    """702.65a: exchange this Aura with an Aura card in your hand (``choices.swap``): this
    Aura goes to your hand and the card enters attached to what it enchanted. 702.65b: if
    either half can't be completed (the card can't enchant that permanent; the Aura isn't
    yours to put in your hand), the ability has no effect."""
    aura = state.objects.get(ctx.source) if ctx.source is not None else None
    chosen = ctx.choices.get(op.get("choice", "swap"))
    if aura is None or aura.zone != "battlefield" or not chosen:
        return
    card = state.get(chosen)
    card_ch = state.characteristics(card.id)
    host = aura.attached_to
    if card.zone != "hand" or card.owner != ctx.you or aura.owner != ctx.you \
            or "Aura" not in card_ch.subtypes or not can_enchant(state, card_ch, host):
        return
    with state.at_once():
        move(state, aura, "hand")
        new = move(state, card, "battlefield", controller=ctx.you)
        new.attached_to = host


def op_name_sticker(state: GameState, op: Op, ctx: Ctx) -> None:
    """123.6b: a name sticker is placed: its word goes at the beginning of the object's name
    (``after = 0``) or after any number of the words now in it, chosen by the object's
    controller; the name changes in layer 3 from then on, in timestamp order with the other
    text-changing effects (123.6c)."""
    after = int(op["after"])
    for oid in objects(op.get("who", "target"), ctx):
        words = (state.characteristics(oid).name or "").split()
        if not 0 <= after <= len(words):
            raise IllegalAction(_("a name sticker goes after 0 to {n} words of the name, not "
                                  "{after} (123.6b)").format(n=len(words), after=after))
        state.effects.append(ContinuousEffect(
            state.new_id(), state.tick(), frozenset({oid}),
            {"name_sticker": {"word": str(op["word"]), "after": after}},
            source=ctx.source, controller=ctx.you, label=op.get("label")))
        state.touch()


def op_player_rule(state: GameState, op: Op, ctx: Ctx) -> None:
    """An instruction stating what a player can't (or may) do this turn: "you can't play
    lands this turn", "you may play an additional land this turn" (kb.engine.player_rules)."""
    rule = op.get("rule")
    if rule not in player_rules.RULES:
        raise EngineError(_("player_rule: unknown rule {rule!r} (known: {known})").format(
            rule=rule, known=sorted(player_rules.RULES)))
    for player in players(op.get("player", "you"), ctx):
        state.player(player).rules_this_turn[rule] += 1


def op_reveal_top(state: GameState, op: Op, ctx: Ctx) -> None:
    """Each named player reveals the top card of their library, then ``then`` instructions
    run with ``revealed`` naming that card and ``you`` that player."""
    for player in players(op.get("player", "you"), ctx):
        library = state.libraries[player]
        if not library:
            continue
        inner = Ctx(state, player, ctx.source, spell=ctx.spell, event=ctx.event,
                    extra={**ctx.extra, "revealed": library[0]}, choices=ctx.choices)
        run_effects(state, op.get("then", ()), inner)


def op_put_in_hand(state: GameState, op: Op, ctx: Ctx) -> None:
    for oid in objects(op.get("who", "revealed"), ctx):
        move(state, state.objects[oid], "hand")


def op_delayed(state: GameState, op: Op, ctx: Ctx) -> None:
    """603.7: create a delayed triggered ability; ``refers``: the object it is about;
    ``duration = "eot"``: it lasts this turn ("when that creature dies this turn"), and
    otherwise triggers only once (603.7b)."""
    refers = objects(op["refers"], ctx)[0] if "refers" in op and objects(op["refers"], ctx) \
        else None
    extra = dict(op.get("remember", {}))
    for key, ref in extra.items():
        extra[key] = ctx.extra.get(ref)
    if op.get("duration", "once") not in ("once", "eot"):
        raise EngineError(_("delayed: duration is once (the default) or eot"))
    state.delayed.append(DelayedTrigger(op["at"], ctx.you, ctx.source, list(op["effect"]),
                                        refers, extra, op.get("duration", "once")))


OPS: dict[str, Callable[[GameState, Op, Ctx], None]] = {
    "pump": op_pump, "set_pt": op_set_pt, "switch_pt": op_switch_pt, "become": op_become,
    "tap": op_tap, "untap": op_tap, "damage": op_damage, "fight": op_fight,
    "destroy": op_destroy, "exile": op_move, "sacrifice": op_move, "bounce": op_move,
    "to_graveyard": op_move, "return_to_battlefield": op_return_to_battlefield,
    "counter": op_counter, "put_counters": op_put_counters,
    "remove_counters": op_remove_counters, "double_counters": op_double_counters,
    "evolve": op_evolve, "fade": op_fade, "sacrifice_unless_pay": op_sacrifice_unless_pay,
    "turn_face_up": op_turn_face_up, "create_token": op_create_token,
    "become_copy": op_become_copy, "copy_spell": op_copy_spell,
    "exile_then_cast_transformed": op_exile_then_cast_transformed, "draw": op_draw,
    "discard_hand": op_discard_hand, "discard": op_discard,
    "shuffle_into_library": op_shuffle_into_library, "gain_life": op_life, "lose_life": op_life,
    "set_life": op_life, "add_mana": op_add_mana, "cant_cast": op_cant_cast,
    "player_rule": op_player_rule, "name_sticker": op_name_sticker,
    "share_keywords": op_share_keywords, "aura_swap": op_aura_swap,
    "reveal_top": op_reveal_top, "may_pay": op_may_pay,
    "put_from_hand": op_put_from_hand, "distribute_counters": op_distribute_counters,
    "exile_until_shares_type": op_exile_until_shares_type, "put_in_hand": op_put_in_hand,
    "delayed": op_delayed, "shield": op_shield, "regenerate": op_regenerate, "haunt": op_haunt,
    "additional_upkeeps": op_additional_upkeeps,
    "shuffle": op_shuffle, "search": op_search, "gain_abilities_of": op_gain_abilities_of,
    "emblem": op_emblem,
    **outcome_ops(players, lambda state, player, n: draw(state, player, n)),
    **transform_ops(objects),
    **reflexive_ops(run_effects),
    **mana_ops(),
    **exchange_ops(objects),
    **choice_ops(players, objects),
    **retarget_ops(objects),
}


def draw(state: GameState, player: str, n: int = 1) -> None:
    """121.2: cards are drawn one at a time; each draw may be replaced (614)."""
    for _time in range(n):
        draw_one(state, player)


def draw_one(state: GameState, player: str) -> None:
    """121.2: one card from the top of the library, unless replaced (614.1a, 614.11)."""
    proposal = replace(state, Proposal("draw", 1, player=player))
    if proposal.instead:
        run_instead(state, proposal)
        return
    library = state.libraries[player]
    if not library:
        state.player(player).drew_from_empty = True  # 704.5b
        return
    move(state, state.objects[library[0]], "hand")
    state.player(player).cards_drawn += 1
    state.emit("draw", player=player)
