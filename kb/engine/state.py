"""The game state: players, objects in zones, continuous effects, the clock, events.

Everything the rules act on lives here; the other modules of :mod:`kb.engine` are functions of
a :class:`GameState`. Derived characteristics are computed by :mod:`kb.engine.layers` and
cached until the next change (every mutation calls :meth:`GameState.touch`).
"""

from __future__ import annotations

import copy as _copy
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kb.engine.events import ContinuousEffect, DelayedTrigger, Event, LastKnown, PendingTrigger
from kb.engine.layers import compute
from kb.engine.multiplayer import Multiplayer
from kb.engine.objects import (
    Characteristics,
    EngineError,
    GameObject,
    Player,
    Printed,
)
from kb.engine.rules import CURRENT, RuleSet
from kb.engine.triggers import collect

ZONES = ("library", "hand", "battlefield", "graveyard", "stack", "exile", "command")


class GameState:
    def __init__(self, players: list[str], rules: RuleSet = CURRENT) -> None:
        if not players:
            raise EngineError("a game needs players")
        self.rules = rules
        self.players: dict[str, Player] = {p: Player(p) for p in players}
        self.objects: dict[int, GameObject] = {}
        self.last_known: dict[int, LastKnown] = {}
        self.libraries: dict[str, list[int]] = {p: [] for p in players}
        self.stack: list[int] = []
        self.effects: list[ContinuousEffect] = []
        self.pending: list[PendingTrigger] = []
        self.delayed: list[DelayedTrigger] = []
        self.multiplayer: Multiplayer | None = None  # range of influence, teams (800-811)
        self.commanders: dict[int, str] = {}  # commander card -> its owner (903.3)
        self.events: list[Event] = []
        # Events of one simultaneous action (603.10a, 704.3) and the permanents that left the
        # battlefield in it; None when no such action is under way (see :meth:`at_once`).
        self.batch: list[Event] | None = None
        self.left_in_batch: list[int] = []
        # Permanents entering the battlefield together (614.12): while they enter, none of
        # their replacement effects applies to the others (see :meth:`arriving_together`).
        self.arriving: set[int] | None = None
        # 500.10: additional beginning phases (an upkeep step only) to come after this phase,
        # and the step after which the turn goes on once they are over
        self.extra_upkeeps = 0
        self.resume_after: str | None = None
        # the objects an instruction puts onto the battlefield together, before they move
        self.entering_together: frozenset[int] = frozenset()
        self.aliases: dict[str, int] = {}  # alias -> physical card
        self.clock = 0
        self.active = players[0]
        self.turn = 1
        self.step = "precombat main"
        self.combat: Any = None
        self.resolving = 0  # > 0 while a spell or ability resolves (608.2)
        # replacement and prevention effects of resolved spells and abilities (615.7, 615.11)
        self.replacements: list[Any] = []
        self.replacing: set[Any] = set()  # replacement effects now applying (614.5)
        # instructions replacement effects added to events, which the action under way has
        # yet to carry out (kb.engine.replacements.Followup)
        self.deferred: list[Any] = []
        # the rules the engine applied, in order: (rule number, what happened)
        self.applied_rules: list[tuple[str, str]] = []
        # the source of randomness (a random discard, a shuffle): seeded, so that a scenario
        # plays the same way every time
        self.rng = random.Random(0)
        self.command_casts: Counter[int] = Counter()  # card -> casts from the command zone
        self.choices: dict[str, Any] = {}  # standing choices for state-based actions
        # 111.11: the Oracle card reference, the cards a token created by name is read from
        self.card_reference = CardReference()
        self._next_id = 0
        self._cache: dict[int, Characteristics] | None = None

    # -- bookkeeping -----------------------------------------------------------------------

    def tick(self) -> int:
        """The next timestamp (613.7): every object entering a zone, every effect."""
        self.clock += 1
        return self.clock

    def touch(self) -> None:
        """Forget derived characteristics: call after any change to the state."""
        self._cache = None

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def clone(self) -> GameState:
        """A deep copy, to try an action without committing to it."""
        cache, self._cache = self._cache, None  # derived: the twin computes its own
        try:
            twin = _copy.deepcopy(self)
        finally:
            self._cache = cache
        twin.touch()
        return twin

    # -- players ---------------------------------------------------------------------------

    def player(self, name: str) -> Player:
        try:
            return self.players[name]
        except KeyError:
            raise EngineError(f"no player {name!r} (players: {', '.join(self.players)})") \
                from None

    def opponents(self, name: str) -> tuple[str, ...]:
        return tuple(p for p, pl in self.players.items() if p != name and not pl.left_game)

    def apnap(self) -> list[str]:
        """101.4: the active player first, then the others in turn order."""
        order = list(self.players)
        i = order.index(self.active)
        return [p for p in order[i:] + order[:i] if not self.players[p].left_game]

    # -- objects ---------------------------------------------------------------------------

    def add_object(self, printed: Printed, owner: str, zone: str, *, controller: str | None = None,
                   alias: str | None = None, token: bool = False, card: int | None = None,
                   top: bool = False) -> GameObject:
        if zone not in ZONES:
            raise EngineError(f"no zone {zone!r}")
        self.player(owner)
        oid = self.new_id()
        obj = GameObject(id=oid, card=card if card is not None else oid, printed=printed,
                         owner=owner, controller=controller or owner, zone=zone,
                         timestamp=self.tick(), alias=alias, token=token)
        obj.control_clock = obj.timestamp
        self.objects[oid] = obj
        if zone == "library":
            lib = self.libraries[owner]
            lib.insert(0, oid) if top else lib.append(oid)
        elif zone == "stack":
            self.stack.append(oid)
        if alias:
            if alias in self.aliases:
                raise EngineError(f"alias {alias!r} is used twice")
            self.aliases[alias] = obj.card
        if zone == "battlefield" and self.arriving is not None:
            self.arriving.add(oid)
        self.touch()
        return obj

    def remove_object(self, obj: GameObject) -> None:
        """Take an object out of its zone (before it becomes a new object or ceases to
        exist), keeping its last known information."""
        if obj.spell is not None and obj.spell.ability is not None:
            ch = Characteristics.of_face(obj.printed.front, obj.controller)
        else:
            ch = self.characteristics(obj.id)
        self.last_known[obj.id] = LastKnown(_snapshot(obj), ch)
        del self.objects[obj.id]
        if obj.zone == "library":
            self.libraries[obj.owner].remove(obj.id)
        if obj.id in self.stack:
            self.stack.remove(obj.id)
        self.touch()

    def find(self, ref: str | int) -> GameObject | None:
        """The object a scenario alias (following its card across zones) or an id names."""
        if isinstance(ref, int):
            return self.objects.get(ref)
        if ref not in self.aliases:
            raise EngineError(f"no object called {ref!r}")
        card = self.aliases[ref]
        for obj in self.objects.values():
            if obj.card == card:
                return obj
        return None

    def get(self, ref: str | int) -> GameObject:
        obj = self.find(ref)
        if obj is None:
            raise EngineError(f"{ref!r} no longer exists")
        return obj

    def in_zone(self, zone: str, player: str | None = None) -> list[GameObject]:
        found = [o for o in self.objects.values() if o.zone == zone
                 and (player is None or o.owner == player)]
        if zone == "library" and player is not None:
            return [self.objects[i] for i in self.libraries[player]]
        return found

    def battlefield(self) -> list[GameObject]:
        """Permanents on the battlefield that are phased in (702.26b)."""
        return [o for o in self.objects.values() if o.zone == "battlefield" and not o.phased_out]

    def functioning(self) -> list[GameObject]:
        """The objects whose static, triggered and replacement abilities function (113.6):
        phased-in permanents, and emblems in the command zone (114.4)."""
        return [o for o in self.objects.values()
                if (o.zone == "battlefield" and not o.phased_out) or o.emblem]

    def characteristics(self, oid: int) -> Characteristics:
        if oid not in self.objects:
            if oid in self.last_known:
                return self.last_known[oid].ch
            raise EngineError(f"no object {oid}")
        return self.all_characteristics()[oid]

    def all_characteristics(self) -> dict[int, Characteristics]:
        if self._cache is None:
            self._cache = compute(self)
        return self._cache

    def controller(self, oid: int) -> str:
        ch = self.characteristics(oid)
        obj = self.objects.get(oid) or self.last_known[oid].obj
        return ch.controller or obj.controller

    # -- events ----------------------------------------------------------------------------

    def emit(self, kind: str, **details: Any) -> Event:
        """Record an event and collect the abilities that trigger on it (603.2); during a
        simultaneous action, once the action is complete (:meth:`at_once`)."""
        event = Event(kind, self.tick(), **details)
        self.events.append(event)
        if self.batch is None:
            collect(self, event)
            return event
        self.batch.append(event)
        if event.kind == "zone_change" and event.from_zone == "battlefield" and event.old:
            self.left_in_batch.append(event.old)
        return event

    @contextmanager
    def arriving_together(self) -> Iterator[None]:
        """Objects put onto the battlefield inside enter at once (614.12: a replacement effect
        applies to a permanent entering only if it exists before the event, so permanents
        entering together don't modify how the others enter); their triggers are collected
        once all have entered (603.6a, :meth:`at_once`)."""
        if self.arriving is not None:
            yield
            return
        self.arriving = set()
        try:
            with self.at_once():
                yield
        finally:
            self.arriving = None

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """Everything done inside happens at once, as one event (603.10a, 704.3): triggers
        are collected when it is complete, and an ability that looks back in time (dies,
        leaves the battlefield) sees every permanent that left in it, so a "whenever a
        creature dies" permanent destroyed with the creatures triggers for each of them.
        Nested uses join the outermost action."""
        if self.batch is not None:
            yield
            return
        self.batch, self.left_in_batch = [], []
        try:
            yield
        except BaseException:
            self.batch, self.left_in_batch = None, []
            raise
        events, left = self.batch, tuple(self.left_in_batch)
        self.batch, self.left_in_batch = None, []
        for event in events:
            collect(self, event, left)


class CardReference(dict[str, Printed]):
    """Card name -> its printed characteristics (111.11); the same for every copy of a game
    (it is reference data, not game state), so a clone shares it instead of copying it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> CardReference:
        return self


def _snapshot(obj: GameObject) -> GameObject:
    """The object as it last existed (608.2h): its mutable parts copied, its printed values
    (immutable) shared, which is what makes last known information cheap."""
    snap = _copy.copy(obj)
    snap.counters = Counter(obj.counters)
    snap.choices = _copy.deepcopy(obj.choices)
    snap.spell = _copy.deepcopy(obj.spell)
    return snap
