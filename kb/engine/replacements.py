"""Replacement and prevention effects (614, 615) and their interaction (616).

An event that can be replaced is first a :class:`Proposal` (what would happen); every
replacement or prevention effect that applies to it modifies it, one at a time, in the order
616.1 gives, each at most once (614.5), until none is left (616.1f); then the event happens as
modified, or not at all. The events: ``damage`` (to a player or an object, from a source),
``enter`` (a permanent entering the battlefield: tapped, with counters), ``counters`` (put on
a permanent), ``tokens`` (created under a player's control), ``gain_life``, ``draw``,
``lose_game``, ``zone_change`` (an object moving from one zone to another), ``destroy`` (a
permanent being destroyed, 701.8) and ``search`` (a player searching a library, 701.23).

A card's replacement ability (``replacement`` in a card file) is written
``{ event = <event>, <what it applies to>, <how it modifies the event> }``:

- what it applies to: ``to`` and ``from`` (damage: ``self``, ``you``, ``opponent``, ``any``
  or a filter), ``what`` (enter: ``self`` or a filter), ``on`` and ``kind`` (counters: a
  filter, a counter kind), ``player`` (tokens, gain_life, draw, lose_game: ``you``,
  ``opponent``, ``each``; search: the player searching), ``what``, ``out_of`` and ``into``
  (zone_change: the object, the zones it would leave and go to, ``anywhere`` by default;
  destroy: the object), ``if`` (a condition,
  :mod:`kb.engine.conditions`);
- how: ``multiply`` and ``add`` (the amount), ``prevent`` (``true``: all of it; a number:
  that much of it, 615.10; ``{ all_but = N }``: all but N of it; ``{ half = "up" }`` or
  ``"down"``: half of it, rounded so), ``redirect`` (damage: to ``you``, the effect's controller, or
  ``self``, its source; in a resolving spell's ``shield``, ``target:N``: that target,
  0-based, only the next N damage when ``next`` is given; 801.13a), ``tapped``,
  ``under = "you"`` (enter: under the effect's controller's control instead),
  ``counters`` and ``copy = "self"`` (enter: as a copy of
  the effect's source, applied before the others, 616.1c), ``position`` (zone_change into a
  library: ``top``, or ``shuffled``: the engine has no randomness and puts a card shuffled
  in at the bottom, which keeps a card put on top at the same time there, 701.24g), ``zone``
  (zone_change: where it goes instead; "would die" is ``out_of = "battlefield", into =
  "graveyard"``), ``regenerate = true`` (destroy: the permanent is regenerated instead,
  701.19a: its damage removed, tapped, removed from combat; the ``regenerate`` instruction
  makes such a shield, used once), ``top`` (search: "that player searches the top N cards
  of that library instead", 701.23f), ``instead``
  (instructions done instead of the event, which does not happen; ``extra.amount`` is its
  amount), ``also`` (instructions done as the event, modified, happens: "exile it instead,
  and create a token", "prevent that damage and remove that many counters"; ``extra.amount``
  is the event's amount as this effect found it, ``extra.prevented`` what it prevented);
  in both, ``event.obj`` and ``event.player`` name what the event affects and
  ``event.source`` the damage's source;
- damage also ``combat`` (``true``: combat damage only, ``false``: noncombat damage only),
  and ``to``/``from`` may be a list (any of them: "you or a permanent you control");
- ``self_replacement = true``: a self-replacement effect, applied first (614.15, 616.1a).

A damage event is what one instruction or one combat damage step deals at once (120.2,
510.2): :mod:`kb.engine.damage` proposes each of its parts here, and the ``also`` of one
effect on one recipient happens once for the whole event (its amounts summed: a "prevent that
damage, remove a counter" shield removes one counter however many sources dealt it).

The flags of round 1 are shorthands read into this form (:func:`normalized`):
``enters_tapped``, ``enters_with``, ``counters_twice``, ``tokens_twice``,
``draw_if_hand_empty``, ``instead_of_losing``. Two more modify how a permanent enters and are
applied by :mod:`kb.engine.zones` (614.12): ``enter_as_copy`` (``choose``, ``except``),
``as_enters_choose`` and ``as_enters_exile`` (``filter``, ``link``: "as this enters, exile any
number of creature cards from your graveyard", ``choices.exiled``).

Effects created by resolving spells and abilities (615.7: "prevent the next 3 damage", 615.11:
shields) are :class:`Replacement` objects in ``state.replacements``, made by the ``shield``
instruction, with the objects or players they apply to fixed as they are created.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from dataclasses import replace as replace_fields
from typing import TYPE_CHECKING, Any

from kb.engine.amounts import Ctx, evaluate
from kb.engine.conditions import holds
from kb.engine.filters import check_filter, matches
from kb.engine.objects import EngineError, GameObject, SpellInfo

if TYPE_CHECKING:
    from kb.engine.state import GameState

EVENTS = ("damage", "enter", "counters", "tokens", "gain_life", "draw", "lose_game",
          "zone_change", "destroy", "search")
# What each event's replacement may say it applies to.
APPLIES_TO: dict[str, frozenset[str]] = {
    "damage": frozenset({"to", "from", "combat"}), "enter": frozenset({"what"}),
    "counters": frozenset({"on", "kind"}), "tokens": frozenset({"player"}),
    "gain_life": frozenset({"player"}), "draw": frozenset({"player"}),
    "lose_game": frozenset({"player"}), "zone_change": frozenset({"what", "out_of", "into"}),
    "destroy": frozenset({"what"}), "search": frozenset({"player"}),
}
# How a replacement may modify each event.
MODIFIES: dict[str, frozenset[str]] = {
    "damage": frozenset({"multiply", "add", "prevent", "redirect", "instead", "also"}),
    "enter": frozenset({"tapped", "counters", "copy", "under", "also"}),
    "counters": frozenset({"multiply", "add", "prevent", "instead", "also"}),
    "tokens": frozenset({"multiply", "add", "prevent", "instead", "also"}),
    "gain_life": frozenset({"multiply", "add", "prevent", "instead", "also"}),
    "draw": frozenset({"instead"}), "lose_game": frozenset({"instead"}),
    "zone_change": frozenset({"zone", "position", "also"}),
    "destroy": frozenset({"regenerate", "instead"}), "search": frozenset({"top"}),
}
COMMON = frozenset({"event", "if", "self_replacement"})
# The events whose replacing instructions the code performing them carries out at once.
CARRIED_OUT_BY_CALLER = frozenset({"draw", "lose_game"})
# The events that have no amount (the others do not happen once their amount is 0).
WITHOUT_AMOUNT = frozenset({"enter", "draw", "lose_game", "zone_change", "destroy", "search"})


@dataclass
class Followup:
    """Instructions a replacement effect adds to an event (``instead`` of it, or ``also`` as
    it happens), with what they need to know: the effect's source and controller, the effect
    that applied (614.5: it doesn't apply again to what they do), the event's amount as the
    effect found it and what the effect prevented, and what the event affected (its
    ``event.obj``, ``event.player``, ``event.source``)."""

    ops: Any
    source: int | None
    controller: str
    key: Any = None
    amount: int = 0
    prevented: int = 0
    obj: int | None = None
    player: str | None = None
    damage_source: int | None = None
    applied: frozenset[Any] = frozenset()


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
    combat: bool = False  # combat damage (510.2)
    entering: bool = False  # counters the object is given as it enters (121.6, 614.12)
    cast_from: str | None = None  # enter: the zone it was cast from, if it was cast
    group: int | None = None  # the damage event it is part of (120.2)
    instead: list[Followup] = field(default_factory=list)  # done instead of the event
    also: list[Followup] = field(default_factory=list)  # done as the event happens
    applied: set[Any] = field(default_factory=set)
    prevented: int = 0  # damage prevented so far (615)
    # damage: parts a "the next N damage ... is dealt to [another target] instead" redirected,
    # each (amount, recipient: a player or an object id)
    redirected: list[tuple[int, Any]] = field(default_factory=list)
    regenerated: bool = False  # destroy: regenerated instead (701.19a)
    portion: int | None = None  # search: only the top N cards of the library (701.23f)

    @property
    def happens(self) -> bool:
        """Whether the event still happens (not replaced by instructions or regeneration,
        not all prevented)."""
        return not self.instead and not self.regenerated and (
            self.kind in WITHOUT_AMOUNT or self.amount > 0)

    def followups(self) -> list[Followup]:
        """What the replacement effects added to the event, to be carried out once it is
        complete: ``instead`` instructions, then ``also`` ones."""
        return [*self.instead, *self.also]


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
    sources: frozenset[int] | None = None  # damage: only from these sources (615.7)
    once: bool = False  # "the next time damage would be dealt": one damage event (615.7)
    used_in: int | None = None  # the damage event a ``once`` shield applied to


def replace(state: GameState, proposal: Proposal, *, defer: bool = True) -> Proposal:
    """Apply the replacement and prevention effects to ``proposal`` (614, 615, 616.1). The
    instructions they add (``instead``, ``also``) wait in ``state.deferred`` for the
    instruction or action under way to carry them out, unless the caller does (draw,
    lose_game; a damage event, which gathers its parts' first: ``defer = False``)."""
    while proposal.happens:
        candidates = [r for r in applicable(state, proposal)
                      if r.key not in proposal.applied and r.key not in state.replacing
                      and "copy" not in r.spec]  # entering as a copy: see zones.enter
        if not candidates:
            break
        chosen = choose(state, proposal, candidates)
        proposal.applied.add(chosen.key)
        _modify(state, proposal, chosen)
        note(state, "615" if "prevent" in chosen.spec else "614",
             f"{chosen.text or 'a replacement effect'} applies to {proposal.kind}")
    if defer and proposal.kind not in CARRIED_OUT_BY_CALLER:
        applied = frozenset(proposal.applied)
        state.deferred += [replace_fields(f, applied=applied) for f in proposal.followups()]
    return proposal


def note(state: GameState, rule: str, what: str) -> None:
    """Record a rule the engine applied (what ``kb check`` shows for a scenario that is a
    question)."""
    state.applied_rules.append((rule, what))


def counter_amount(state: GameState, obj: GameObject, n: int, kind: str | None = None, *,
                   entering: bool = False) -> int:
    """How many counters an effect that would put ``n`` on ``obj`` puts once replacement
    effects apply ("it puts twice that many instead", 614); ``entering``: the counters it
    enters with (121.6)."""
    controller = state.controller(obj.id) if obj.id in state.objects else obj.controller
    proposal = replace(state, Proposal("counters", n, player=controller, obj=obj.id,
                                       counter=kind, entering=entering))
    return proposal.amount if proposal.happens else 0


def applicable(state: GameState, proposal: Proposal) -> list[Replacement]:
    """The effects that would apply to the event as it now stands (616.1f)."""
    return [r for r in _from_permanents(state, proposal.kind, proposal.obj)
            + _created(state, proposal.kind) if _applies(state, r, proposal)]


def _from_permanents(state: GameState, kind: str, affected: int | None = None
                     ) -> list[Replacement]:
    """The replacement effects of functioning objects (113.6), but not those of permanents
    entering together with the object the event affects (614.12)."""
    out = []
    arriving = state.arriving or set()
    for perm in state.functioning():
        if perm.id in arriving and perm.id != affected:
            continue
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
    if r.sources is not None and p.source not in r.sources:
        return False
    if r.once and r.used_in is not None and r.used_in != p.group:
        return False  # its one damage event is over
    if p.kind == "damage":
        if not _names(state, spec.get("to", "any"), r, p.obj, p.player):
            return False
        if "from" in spec and not _names(state, spec["from"], r, p.source, None):
            return False
        if "combat" in spec and bool(spec["combat"]) != p.combat:
            return False
        if not _damage_within(state, r, p):
            return False
    elif p.kind == "enter":
        what = spec.get("what", "self")
        if r.source == p.obj and what != "self":
            return False  # 614.12: an entering permanent's own effect only if it affects it alone
        if not _names(state, what, r, p.obj, None):
            return False
    elif p.kind == "destroy":
        if not _names(state, spec.get("what", "self"), r, p.obj, None):
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
        if p.entering and r.source == p.obj and spec.get("on") != "self":
            return False  # 614.12: as it enters, only its own abilities about itself apply
        if "kind" in spec and spec["kind"] != p.counter:
            return False
    elif not _player(state, spec.get("player", "you"), r.controller, p.player):
        return False
    return holds(spec.get("if"), Ctx(state, r.controller, r.source,
                                     extra={"affected_player": p.player,
                                            "cast_from": p.cast_from}))


def _names(state: GameState, what: Any, r: Replacement, oid: int | None,
           player: str | None) -> bool:
    """Whether ``what`` (self, you, opponent, any, a filter, or a list of them: any of them)
    names the object or player."""
    if isinstance(what, list):
        return any(_names(state, one, r, oid, player) for one in what)
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
    found = p.amount
    if r.once:
        r.used_in = p.group
    if "multiply" in spec:
        p.amount *= int(spec["multiply"])
    if "add" in spec:
        p.amount += int(spec["add"])
    prevented = _prevent(state, p, r) if "prevent" in spec else 0
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
    for key, into in (("instead", p.instead), ("also", p.also)):
        if key in spec:
            into.append(Followup(spec[key], r.source, r.controller, r.key, found, prevented,
                                 p.obj, p.player, p.source))
    if spec.get("regenerate"):  # 701.19a: a regeneration shield is used up
        p.regenerated = True
        if r.remaining is not None:
            r.remaining -= 1
    if "top" in spec:  # "that player searches the top N cards of that library instead"
        p.portion = int(spec["top"])
    if "zone" in spec:
        p.to_zone = spec["zone"]
    if "position" in spec:
        p.top = spec["position"] == "top"


def _prevent(state: GameState, p: Proposal, r: Replacement) -> int:
    """615: prevent all of it, N of it (615.10), all but N of it, half of it (rounded as the
    effect says), or up to a shield's remaining N (615.7); none of it where damage can't be
    prevented (a static ability's ``damage_cant_be_prevented``), the effect's other parts
    still happening (615.12). Returns how much it prevented."""
    how = r.spec["prevent"]
    if p.kind == "damage" and damage_unpreventable(state):
        return 0
    if r.remaining is not None:
        n = min(r.remaining, p.amount)
        r.remaining -= n
    elif how is True:
        n = p.amount
    elif isinstance(how, Mapping) and "all_but" in how:
        n = max(p.amount - int(how["all_but"]), 0)
    elif isinstance(how, Mapping):
        n = (p.amount + 1) // 2 if how["half"] == "up" else p.amount // 2
    else:
        n = int(how)
    n = min(n, p.amount)
    p.amount -= n
    p.prevented += n
    return n


def damage_unpreventable(state: GameState) -> bool:
    """"Damage can't be prevented" (a static ability on the battlefield: Leyline of
    Punishment, Everlasting Torment)."""
    return any((a.spec.get("static") or {}).get("damage_cant_be_prevented")
               for perm in state.battlefield()
               for a in state.characteristics(perm.id).abilities)


# -- the shorthands of round 1 --------------------------------------------------------------


def normalized(rep: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A replacement ability's effects in the general form (the round-1 flags included);
    ``enter_as_copy``, ``as_enters_choose`` and ``as_enters_exile`` are left to
    :mod:`kb.engine.zones`."""
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


def _exile_from_graveyard(value: Any, where: str) -> None:
    if not isinstance(value, Mapping) or set(value) - {"filter", "link"} \
            or not isinstance(value.get("link"), str):
        raise EngineError(f"{where}: {{ filter = <filter>, link = <name> }}, not {value!r}")
    check_filter(value.get("filter", {}), f"{where}, filter")


# Each shorthand kind of replacement and the check of its value.
KINDS: dict[str, Callable[[Any, str], None]] = {
    "enter_as_copy": _copy, "enters_with": _counters, "enters_tapped": _true,
    "as_enters_choose": _name, "as_enters_exile": _exile_from_graveyard,
    "draw_if_hand_empty": _instructions,
    "instead_of_losing": _instructions, "counters_twice": _true, "tokens_twice": _true,
}


def instructions_of(rep: Mapping[str, Any]) -> list[Any]:
    """The instruction lists a replacement holds (checked with the card's others)."""
    return [spec[key] for spec in normalized(rep) for key in ("instead", "also") if key in spec]


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
        for one in spec[key] if isinstance(spec.get(key), list) else [spec.get(key)]:
            if isinstance(one, Mapping):
                check_filter(one, f"{where}, replacement {key}")
    _check_prevent(spec.get("prevent"), where)
    if "combat" in spec and not isinstance(spec["combat"], bool):
        raise EngineError(f"{where}: replacement combat is true or false")
    if "counters" in spec:
        _counters(spec["counters"], f"{where}, replacement counters")
    if spec.get("position", "top") not in ("top", "shuffled"):
        raise EngineError(f"{where}: replacement position is top or shuffled")
    if "regenerate" in spec:
        _true(spec["regenerate"], f"{where}, replacement regenerate")
    if "top" in spec and (not isinstance(spec["top"], int) or isinstance(spec["top"], bool)
                          or spec["top"] < 1):
        raise EngineError(f"{where}: replacement top is a number of cards")
    if spec.get("copy", "self") != "self":
        raise EngineError(f"{where}: replacement copy is \"self\" (a copy of its source)")
    for key in ("instead", "also"):
        if key in spec:
            _instructions(spec[key], f"{where}, replacement {key}")


def _check_prevent(how: Any, where: str) -> None:
    """``prevent``: true, a number, ``{ all_but = N }`` or ``{ half = "up" | "down" }``."""
    if how is None or how is True or (isinstance(how, int) and not isinstance(how, bool)):
        return
    if isinstance(how, Mapping) and (set(how) == {"all_but"} and isinstance(how["all_but"], int)
                                     or set(how) == {"half"} and how["half"] in ("up", "down")):
        return
    raise EngineError(f"{where}: replacement prevent is true, a number, {{ all_but = N }} or "
                      f"{{ half = \"up\" | \"down\" }}, not {how!r}")
