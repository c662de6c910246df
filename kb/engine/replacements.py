"""Replacement and prevention effects (614, 615) and their interaction (616).

An event that can be replaced is first a :class:`Proposal` (what would happen); every
replacement or prevention effect that applies to it modifies it, one at a time, in the order
616.1 gives, each at most once (614.5), until none is left (616.1f); then the event happens as
modified, or not at all. The events: ``damage`` (to a player or an object, from a source),
``enter`` (a permanent entering the battlefield: tapped, with counters), ``counters`` (put on
a permanent), ``tokens`` (created under a player's control), ``gain_life``, ``draw``,
``lose_game``, and ``zone_change`` (an object moving from one zone to another).

A card's replacement ability (``replacement`` in a card file) is written
``{ event = <event>, <what it applies to>, <how it modifies the event> }``:

- what it applies to: ``to`` and ``from`` (damage: ``self``, ``you``, ``opponent``, ``any``
  or a filter), ``what`` (enter: ``self`` or a filter), ``on`` and ``kind`` (counters: a
  filter, a counter kind), ``player`` (tokens, gain_life, draw, lose_game: ``you``,
  ``opponent``, ``each``), ``what``, ``out_of`` and ``into`` (zone_change: the object, the
  zones it would leave and go to, ``anywhere`` by default), ``if`` (a condition,
  :mod:`kb.engine.conditions`);
- how: ``multiply`` and ``add`` (the amount), ``prevent`` (``true``: all of it; a number:
  that much of it, 615.10), ``redirect`` (damage: to ``you``, the effect's controller, or
  ``self``, its source; in a resolving spell's ``shield``, ``target:N``: that target,
  0-based, only the next N damage when ``next`` is given; 801.13a), ``tapped``,
  ``under = "you"`` (enter: under the effect's controller's control instead),
  ``counters`` and ``copy = "self"`` (enter: as a copy of
  the effect's source, applied before the others, 616.1c), ``position`` (zone_change into a
  library: ``top``, or ``shuffled``: the engine has no randomness and puts a card shuffled
  in at the bottom, which keeps a card put on top at the same time there, 701.24g), ``zone``
  (zone_change: where it goes instead; "would die" is ``out_of = "battlefield", into =
  "graveyard"``), ``instead``
  (instructions done instead of the event, which does not happen; ``extra.amount`` is its
  amount);
- ``self_replacement = true``: a self-replacement effect, applied first (614.15, 616.1a).

The flags of round 1 are shorthands read into this form (:func:`normalized`):
``enters_tapped``, ``enters_with``, ``counters_twice``, ``tokens_twice``,
``draw_if_hand_empty``, ``instead_of_losing``. Two more modify how a permanent enters and are
applied by :mod:`kb.engine.zones` (614.12): ``enter_as_copy`` (``choose``, ``except``) and
``as_enters_choose``.

Effects created by resolving spells and abilities (615.7: "prevent the next 3 damage", 615.11:
shields) are :class:`Replacement` objects in ``state.replacements``, made by the ``shield``
instruction, with the objects or players they apply to fixed as they are created.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.conditions import holds
from kb.engine.filters import check_filter, matches
from kb.engine.objects import EngineError, SpellInfo

if TYPE_CHECKING:
    from kb.engine.state import GameState

EVENTS = ("damage", "enter", "counters", "tokens", "gain_life", "draw", "lose_game",
          "zone_change")
# What each event's replacement may say it applies to.
APPLIES_TO: dict[str, frozenset[str]] = {
    "damage": frozenset({"to", "from"}), "enter": frozenset({"what"}),
    "counters": frozenset({"on", "kind"}), "tokens": frozenset({"player"}),
    "gain_life": frozenset({"player"}), "draw": frozenset({"player"}),
    "lose_game": frozenset({"player"}), "zone_change": frozenset({"what", "out_of", "into"}),
}
# How a replacement may modify each event.
MODIFIES: dict[str, frozenset[str]] = {
    "damage": frozenset({"multiply", "add", "prevent", "redirect", "instead"}),
    "enter": frozenset({"tapped", "counters", "copy", "under"}),
    "counters": frozenset({"multiply", "add", "prevent", "instead"}),
    "tokens": frozenset({"multiply", "add", "prevent", "instead"}),
    "gain_life": frozenset({"multiply", "add", "prevent", "instead"}),
    "draw": frozenset({"instead"}), "lose_game": frozenset({"instead"}),
    "zone_change": frozenset({"zone", "position"}),
}
COMMON = frozenset({"event", "if", "self_replacement"})
# The events whose replacing instructions the code performing them carries out at once.
CARRIED_OUT_BY_CALLER = frozenset({"draw", "lose_game"})
# The events that have no amount (the others do not happen once their amount is 0).
WITHOUT_AMOUNT = frozenset({"enter", "draw", "lose_game", "zone_change"})


@dataclass
class Proposal:
    """An event that would happen, as the replacement effects applied so far modified it."""

    kind: str
    amount: int = 0
    player: str | None = None  # the affected player
    obj: int | None = None  # the affected object
    source: int | None = None  # damage's source
    counter: str | None = None  # the kind of counters
    tapped: bool = False
    counters: Counter[str] = field(default_factory=Counter)
    x: int = 0  # X of the spell that became the entering permanent (amounts of counters)
    from_zone: str | None = None  # a zone change's origin
    to_zone: str | None = None  # and destination
    top: bool = True  # in a library: on top, else at the bottom
    # instructions done instead, each with its source and controller
    instead: list[tuple[Any, int | None, str]] = field(default_factory=list)
    applied: set[Any] = field(default_factory=set)
    # damage: parts a "the next N damage ... is dealt to [another target] instead" redirected,
    # each (amount, recipient: a player or an object id)
    redirected: list[tuple[int, Any]] = field(default_factory=list)

    @property
    def happens(self) -> bool:
        """Whether the event still happens (not replaced by instructions, not all
        prevented)."""
        return not self.instead and (self.kind in WITHOUT_AMOUNT or self.amount > 0)


@dataclass(eq=False)
class Replacement:
    """One replacement or prevention effect that may apply: from a permanent's ability or
    created by a resolved spell or ability (then ``affected`` fixes what it protects and
    ``remaining`` counts a shield's damage left, 615.7)."""

    key: Any
    spec: Mapping[str, Any]
    source: int | None
    controller: str
    timestamp: int
    text: str = ""
    affected: frozenset[Any] | None = None
    remaining: int | None = None
    duration: str = "permanent"


def replace(state: GameState, proposal: Proposal) -> Proposal:
    """Apply the replacement and prevention effects to ``proposal`` (614, 615, 616.1). The
    instructions that replace it (``instead``) wait in ``state.deferred`` for the instruction
    or action under way to carry them out, unless the caller does (draw, lose_game)."""
    while proposal.happens:
        candidates = [r for r in applicable(state, proposal)
                      if r.key not in proposal.applied and r.key not in state.replacing
                      and "copy" not in r.spec]  # entering as a copy: see zones.enter
        if not candidates:
            break
        chosen = choose(state, proposal, candidates)
        proposal.applied.add(chosen.key)
        _modify(state, proposal, chosen)
    if proposal.instead and proposal.kind not in CARRIED_OUT_BY_CALLER:
        state.deferred.append(proposal)
    return proposal


def applicable(state: GameState, proposal: Proposal) -> list[Replacement]:
    """The effects that would apply to the event as it now stands (616.1f)."""
    return [r for r in _from_permanents(state, proposal.kind) + _created(state, proposal.kind)
            if _applies(state, r, proposal)]


def _from_permanents(state: GameState, kind: str) -> list[Replacement]:
    out = []
    for perm in state.battlefield():
        ch = state.characteristics(perm.id)
        for ability in ch.abilities:
            if ability.kind != "replacement":
                continue
            for n, spec in enumerate(normalized(ability.spec["replacement"])):
                if spec["event"] == kind:
                    out.append(Replacement((perm.id, ability.text, n), spec, perm.id,
                                           state.controller(perm.id), perm.timestamp,
                                           ability.text))
    return out


def _created(state: GameState, kind: str) -> list[Replacement]:
    return [r for r in state.replacements if r.spec["event"] == kind
            and (r.remaining is None or r.remaining > 0)]


def _damage_within(state: GameState, r: Replacement, p: Proposal) -> bool:
    """801.13b: with a limited range of influence, an effect on damage from a source it names
    reaches only sources within its controller's range; on damage to what it names, only
    those recipients; naming neither, only damage from and to what is within range."""
    shared = state.multiplayer
    if shared is None or shared.ranges is None:
        return True
    names_source = "from" in r.spec
    names_recipient = r.affected is not None or r.spec.get("to", "any") != "any"
    recipient = p.player if p.player is not None else (
        state.controller(p.obj) if p.obj is not None else None)
    source = state.controller(p.source) if p.source is not None else None
    checked = ([source] if names_source or not names_recipient else []) + (
        [recipient] if names_recipient or not names_source else [])
    return all(shared.in_range(r.controller, who) for who in checked)


def _applies(state: GameState, r: Replacement, p: Proposal) -> bool:
    spec = r.spec
    if r.affected is not None and p.obj not in r.affected and p.player not in r.affected:
        return False
    if p.kind == "damage":
        if not _names(state, spec.get("to", "any"), r, p.obj, p.player):
            return False
        if "from" in spec and not _names(state, spec["from"], r, p.source, None):
            return False
        if not _damage_within(state, r, p):
            return False
    elif p.kind == "enter":
        what = spec.get("what", "self")
        if r.source == p.obj and what != "self":
            return False  # 614.12: an entering permanent's own effect only if it affects it alone
        if not _names(state, what, r, p.obj, None):
            return False
    elif p.kind == "zone_change":
        if not _names(state, spec.get("what", "self"), r, p.obj, None):
            return False
        if spec.get("out_of", "anywhere") not in ("anywhere", p.from_zone):
            return False
        if spec.get("into", "anywhere") not in ("anywhere", p.to_zone):
            return False
    elif p.kind == "counters":
        if "on" in spec and not _names(state, spec["on"], r, p.obj, None):
            return False
        if "kind" in spec and spec["kind"] != p.counter:
            return False
    elif not _player(state, spec.get("player", "you"), r.controller, p.player):
        return False
    return holds(spec.get("if"), Ctx(state, r.controller, r.source,
                                     extra={"affected_player": p.player}))


def _names(state: GameState, what: Any, r: Replacement, oid: int | None,
           player: str | None) -> bool:
    """Whether ``what`` (self, you, opponent, any, or a filter) names the object or player."""
    if what == "any":
        return True
    if what == "self":
        return oid is not None and oid == r.source
    if what in ("you", "opponent", "each"):
        return _player(state, what, r.controller, player)
    if isinstance(what, Mapping):
        if oid is None:
            return False
        obj = state.objects.get(oid) or (state.last_known[oid].obj if oid in state.last_known
                                         else None)
        if obj is None:
            return False
        return matches(obj, state.characteristics(oid), {"zone": obj.zone, **what},
                       you=r.controller, source=r.source,
                       opponents=state.opponents(r.controller))
    raise EngineError(f"replacement: unknown reference {what!r}")


def _player(state: GameState, who: str, controller: str, player: str | None) -> bool:
    if player is None:
        return False
    if who == "each":
        return True
    if who == "you":
        return player == controller
    if who == "opponent":
        return player in state.opponents(controller)
    raise EngineError(f"replacement: unknown player {who!r} (you, opponent, each)")


def choose(state: GameState, p: Proposal, candidates: list[Replacement]) -> Replacement:
    """616.1: self-replacement effects first (616.1a); then the affected player, or the
    controller of the affected object, chooses (``choices.replacement_order``: the texts or
    source names of the effects, in the order they apply); without a choice, the oldest."""
    selfs = [r for r in candidates if r.spec.get("self_replacement")]
    pool = selfs or candidates
    order = list(state.choices.get("replacement_order", ()))
    for wanted in order:
        for r in pool:
            if wanted in (r.text, _alias(state, r.source)):
                return r
    return min(pool, key=lambda r: r.timestamp)


def _alias(state: GameState, oid: int | None) -> str | None:
    obj = state.objects.get(oid) if oid is not None else None
    if obj is None:
        return None
    return next((a for a, card in state.aliases.items() if card == obj.card), None)


def _modify(state: GameState, p: Proposal, r: Replacement) -> None:
    spec = r.spec
    if "multiply" in spec:
        p.amount *= int(spec["multiply"])
    if "add" in spec:
        p.amount += int(spec["add"])
    if "prevent" in spec:
        _prevent(p, r)
    if isinstance(spec.get("redirect"), Mapping):  # to a recipient fixed as it was created
        n = p.amount if r.remaining is None else min(r.remaining, p.amount)
        if r.remaining is not None:
            r.remaining -= n
        p.amount -= n
        p.redirected.append((n, spec["redirect"]["to"]))
    elif "redirect" in spec:
        if spec["redirect"] == "you":
            p.player, p.obj = r.controller, None
        else:
            p.player, p.obj = None, r.source
    if spec.get("under") == "you":  # "it enters under your control instead"
        p.player = r.controller
    if spec.get("tapped"):
        p.tapped = True
    for kind, n in spec.get("counters", {}).items():
        p.counters[kind] += evaluate(n, Ctx(state, r.controller, r.source,
                                            spell=SpellInfo(x=p.x)))
    if "instead" in spec:
        p.instead.append((spec["instead"], r.source, r.controller))
    if "zone" in spec:
        p.to_zone = spec["zone"]
    if "position" in spec:
        p.top = spec["position"] == "top"


def _prevent(p: Proposal, r: Replacement) -> None:
    """615: prevent all of it, N of it (615.10), or up to a shield's remaining N (615.7)."""
    how = r.spec["prevent"]
    if r.remaining is not None:
        n = min(r.remaining, p.amount)
        r.remaining -= n
    else:
        n = p.amount if how is True else int(how)
    p.amount = max(p.amount - n, 0)


# -- the shorthands of round 1 --------------------------------------------------------------


def normalized(rep: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A replacement ability's effects in the general form (the round-1 flags included);
    ``enter_as_copy`` and ``as_enters_choose`` are left to :mod:`kb.engine.zones`."""
    if "event" in rep:
        return [dict(rep)]
    out: list[dict[str, Any]] = []
    if rep.get("enters_tapped"):
        out.append({"event": "enter", "what": "self", "tapped": True})
    if "enters_with" in rep:
        out.append({"event": "enter", "what": "self", "counters": rep["enters_with"]})
    if rep.get("counters_twice"):
        out.append({"event": "counters", "on": {"controller": "you"}, "multiply": 2})
    if rep.get("tokens_twice"):
        out.append({"event": "tokens", "player": "you", "multiply": 2})
    if "draw_if_hand_empty" in rep:
        out.append({"event": "draw", "player": "you", "if": {"your_hand_empty": True},
                    "instead": rep["draw_if_hand_empty"]})
    if "instead_of_losing" in rep:
        out.append({"event": "lose_game", "player": "you", "instead": rep["instead_of_losing"]})
    return out


# -- checking a card's replacement as it is read ---------------------------------------------


def _true(value: Any, where: str) -> None:
    if value is not True:
        raise EngineError(f"{where}: must be true, not {value!r}")


def _counters(value: Any, where: str) -> None:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise EngineError(f"{where}: counter kind -> amount, not {value!r}")


def _name(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise EngineError(f"{where}: the name of what is chosen, not {value!r}")


def _instructions(value: Any, where: str) -> None:
    if not isinstance(value, list):
        raise EngineError(f"{where}: a list of instructions, not {value!r}")


def _copy(value: Any, where: str) -> None:
    if not isinstance(value, Mapping) or set(value) - {"choose", "except"}:
        raise EngineError(f"{where}: {{ choose = <filter>, except = {{...}} }}, not {value!r}")
    check_filter(value.get("choose", {}), f"{where}, choose")


# Each shorthand kind of replacement and the check of its value.
KINDS: dict[str, Callable[[Any, str], None]] = {
    "enter_as_copy": _copy, "enters_with": _counters, "enters_tapped": _true,
    "as_enters_choose": _name, "draw_if_hand_empty": _instructions,
    "instead_of_losing": _instructions, "counters_twice": _true, "tokens_twice": _true,
}


def instructions_of(rep: Mapping[str, Any]) -> list[Any]:
    """The instruction lists a replacement holds (checked with the card's others)."""
    return [spec["instead"] for spec in normalized(rep) if "instead" in spec]


def check_replacement(spec: Any, where: str) -> None:
    """Refuse an unknown event, kind of replacement, key or value of the wrong shape."""
    if not isinstance(spec, Mapping) or not spec:
        raise EngineError(f"{where}: a replacement is {{ event = ..., ... }} or a table of "
                          f"kinds ({', '.join(KINDS)})")
    if "event" not in spec:
        for kind, value in spec.items():
            if kind not in KINDS:
                raise EngineError(f"{where}: unknown kind of replacement {kind!r} "
                                  f"(known: event = {', '.join(EVENTS)}; {', '.join(KINDS)})")
            try:
                KINDS[kind](value, f"{where}, replacement {kind}")
            except EngineError as exc:
                raise EngineError(f"{exc} (any other case is written {{ event = ..., ... }}: "
                                  "see kb/engine/replacements.py)") from None
        return
    event = spec["event"]
    if event not in EVENTS:
        raise EngineError(f"{where}: unknown replacement event {event!r} "
                          f"(known: {', '.join(EVENTS)})")
    known = COMMON | APPLIES_TO[event] | MODIFIES[event]
    unknown = set(spec) - known
    if unknown:
        raise EngineError(f"{where}: replacement of {event}: unknown keys {sorted(unknown)} "
                          f"(known: {sorted(known)})")
    if not set(spec) & MODIFIES[event]:
        raise EngineError(f"{where}: replacement of {event} says how it modifies the event "
                          f"({', '.join(sorted(MODIFIES[event]))})")
    for key in ("to", "from", "what", "on"):
        if isinstance(spec.get(key), Mapping):
            check_filter(spec[key], f"{where}, replacement {key}")
    if "counters" in spec:
        _counters(spec["counters"], f"{where}, replacement counters")
    if spec.get("position", "top") not in ("top", "shuffled"):
        raise EngineError(f"{where}: replacement position is top or shuffled")
    if spec.get("copy", "self") != "self":
        raise EngineError(f"{where}: replacement copy is \"self\" (a copy of its source)")
    if "instead" in spec:
        _instructions(spec["instead"], f"{where}, replacement instead")
