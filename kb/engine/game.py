"""A game to drive: the actions a player (or the rules) takes, each followed by what happens
before a player would receive priority again: state-based actions and triggered abilities put
on the stack (704.3, 603.3). Objects are named by aliases that follow a card across zones.

An action the rules forbid raises :class:`IllegalAction` and may leave the game half changed
(rewinding, 733, is not modelled): try a doubtful action on :meth:`Game.clone`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kb.engine import combat as combat_rules
from kb.engine import player_rules, sba
from kb.engine import stack as stack_rules
from kb.engine.amounts import Ctx
from kb.engine.effects import draw, end_durations, run_deferred, run_effects
from kb.engine.events import Choices, ContinuousEffect
from kb.engine.mulligan import mulligan
from kb.engine.objects import EngineError, GameObject, IllegalAction, Printed
from kb.engine.resolve import is_mana_ability, resolve_mana_ability, resolve_top
from kb.engine.rules import CURRENT, RuleSet
from kb.engine.state import GameState
from kb.engine.turn import advance
from kb.engine.zones import create_token, enter, leave_game, move
from kb.i18n import _, ngettext

SETUP_STATUS = frozenset({"tapped", "counters", "damage", "face_down", "flipped",
                          "transformed", "attached_to", "protector", "phased_out", "choices"})


class Game:
    def __init__(self, players: Sequence[str], rules: RuleSet = CURRENT, life: int = 20,
                 active: str | None = None, step: str = "precombat main") -> None:
        self.state = GameState(list(players), rules)
        for player in self.state.players.values():
            player.life = life
        if active:
            self.state.player(active)
            self.state.active = active
        self.state.step = step
        # a source's alias -> the targets of each of its triggered abilities to be put on the
        # stack, in order (603.3d), taken as they are put there
        self.trigger_targets: dict[str, list[Any]] = {}
        self._controllers: dict[int, str] = {}

    # -- setting up -----------------------------------------------------------------------

    def add(self, printed: Printed, owner: str, zone: str, *, alias: str | None = None,
            controller: str | None = None, token: bool = False, **status: Any) -> GameObject:
        """Put an object in place as the game state begins (no events, no triggers)."""
        unknown = set(status) - SETUP_STATUS
        if unknown:
            raise EngineError(_("unknown setup status {keys}").format(keys=sorted(unknown)))
        state = self.state
        obj = state.add_object(printed, owner, zone, controller=controller, alias=alias,
                               token=token)
        obj.tapped = status.get("tapped", False)
        obj.face_down = status.get("face_down", False)
        obj.flipped = status.get("flipped", False)
        obj.transformed = status.get("transformed", False)
        obj.phased_out = status.get("phased_out", False)
        obj.damage = status.get("damage", 0)
        if "attached_to" in status:
            obj.attached_to = state.get(status["attached_to"]).id
        if zone == "battlefield":
            choices = Choices.of(status.get("choices"))
            if "protector" in status:
                choices["protector"] = status["protector"]
            enter(state, obj, choices)
            if "counters" in status:
                obj.counters.clear()
        for kind, n in status.get("counters", {}).items():
            obj.counters[kind] = n
        if "protector" in status:
            obj.protector = status["protector"]
        state.touch()
        return obj

    def clone(self) -> Game:
        """An independent copy, to try an action without committing to it."""
        twin = Game.__new__(Game)
        twin.state = self.state.clone()
        twin.trigger_targets = {k: list(v) for k, v in self.trigger_targets.items()}
        twin._controllers = dict(self._controllers)
        return twin

    # -- after every action ---------------------------------------------------------------

    def settle(self) -> None:
        """704.3, 603.3: state-based actions until none apply, then pending triggers go on
        the stack; repeat."""
        state = self.state
        for _round in range(50):
            end_durations(state)
            self._note_control_changes()
            sba.check_all(state)
            if not state.pending:
                combat_rules.refresh(state)
                return
            stack_rules.put_pending_on_stack(state, self.trigger_targets)
        raise RuntimeError("triggers did not settle")

    def _note_control_changes(self) -> None:
        """A permanent whose controller changed (a control-changing effect starting or
        ending, layer 2) came under its new controller's control now (702.30a)."""
        state = self.state
        for obj in state.battlefield():
            now = state.controller(obj.id)
            before = self._controllers.get(obj.id)
            if before is not None and before != now:
                obj.control_clock = state.tick()
            self._controllers[obj.id] = now

    def _act(self, action: Any) -> Any:
        result = action()
        run_deferred(self.state)
        self.settle()
        return result

    # -- actions --------------------------------------------------------------------------

    def obj(self, ref: str | int) -> GameObject:
        return self.state.get(ref)

    def cast(self, ref: str, player: str | None = None, **options: Any) -> GameObject:
        obj = self.obj(ref)
        who = player or obj.owner
        return self._act(lambda: stack_rules.cast(self.state, obj.id, who, **options))

    def play_land(self, ref: str, player: str | None = None) -> GameObject:
        """305.1-2: a player plays a land from their hand during a main phase of their turn
        with an empty stack, as many as :func:`kb.engine.player_rules.land_plays` allows
        (one, plus each "additional land"; none if an effect says they can't, 101.2)."""
        state = self.state
        obj = self.obj(ref)
        who = player or obj.owner
        if not state.characteristics(obj.id).is_a("Land"):
            raise IllegalAction(_("{what} is not a land: it is cast, not played (305.1)").format(
                what=ref))
        if obj.zone != "hand" or obj.owner != who:
            raise IllegalAction(_("{what} is not in {player}'s hand").format(what=ref, player=who))
        if who != state.active or "main" not in state.step or state.stack:
            raise IllegalAction(_("a land is played in a main phase of its player's turn, with "
                                  "an empty stack (305.2, 505.6b)"))
        allowed = player_rules.land_plays(state, who)
        if state.player(who).lands_played >= allowed:
            raise IllegalAction(ngettext(
                "{player} may play {allowed} land(s) this turn and has played {played} "
                "(305.2, 101.2)",
                "{player} may play {allowed} land(s) this turn and has played {played} "
                "(305.2, 101.2)", allowed).format(
                    player=who, allowed=allowed, played=state.player(who).lands_played))

        def play() -> GameObject:
            state.player(who).lands_played += 1
            return move(state, obj, "battlefield", controller=who)
        return self._act(play)

    def activate(self, ref: str, which: int = 1, player: str | None = None,
                 choices: Mapping[str, Any] | None = None, **options: Any) -> GameObject:
        """602.2; a mana ability resolves at once (605.3a), with ``choices`` (else the
        step's)."""
        obj = self.obj(ref)
        who = player or self.state.controller(obj.id)
        if choices is not None:
            self.state.choices = Choices.of(choices)

        def act() -> GameObject:
            item = stack_rules.activate(self.state, obj.id, who, which, **options)
            if is_mana_ability(item):  # 605.3a: it doesn't go on the stack
                resolve_mana_ability(self.state, item)
            return item

        return self._act(act)

    def resolve(self, choices: Mapping[str, Any] | None = None) -> GameObject:
        return self._act(lambda: resolve_top(self.state, choices))

    def resolve_all(self, choices: Mapping[str, Any] | None = None) -> None:
        for _round in range(100):
            if not self.state.stack:
                return
            self.resolve(choices)
        raise RuntimeError("the stack did not empty")

    def copy_spell(self, ref: str, player: str, exceptions: Mapping[str, Any] | None = None,
                   new_targets: Sequence[Any] | None = None) -> GameObject:
        obj = self.obj(ref)
        return self._act(lambda: stack_rules.copy_spell(self.state, obj.id, player,
                                                        exceptions or {}, new_targets))

    def enter(self, ref: str, controller: str | None = None,
              choices: Mapping[str, Any] | None = None) -> GameObject:
        """Put a card onto the battlefield from wherever it is (an effect doing so)."""
        obj = self.obj(ref)
        if obj.zone == "battlefield":
            raise IllegalAction(_("{what} is already on the battlefield").format(what=ref))
        return self._act(lambda: move(self.state, obj, "battlefield",
                                      controller=controller or obj.owner, choices=choices))

    def move(self, ref: str, zone: str) -> GameObject:
        obj = self.obj(ref)
        return self._act(lambda: move(self.state, obj, zone))

    def create_token(self, printed: Printed, controller: str, alias: str | None = None,
                     choices: Mapping[str, Any] | None = None) -> GameObject:
        return self._act(lambda: create_token(self.state, printed, controller,
                                              choices=choices, alias=alias))

    def effect(self, ops: Sequence[Mapping[str, Any]], controller: str,
               source: str | None = None, choices: Mapping[str, Any] | None = None) -> None:
        """Apply instructions as "an effect" does, outside any spell."""
        state = self.state
        source_id = state.get(source).id if source else None
        ctx = Ctx(state, controller, source_id, choices=Choices.of(choices))
        self._act(lambda: run_effects(state, ops, ctx))

    def end_effect(self, label: str) -> None:
        """An effect ends (its duration is over)."""
        state = self.state
        kept = [e for e in state.effects if e.label != label]
        if len(kept) == len(state.effects):
            raise EngineError(_("no effect labelled {label!r}").format(label=label))
        state.effects = kept
        state.touch()
        self.settle()

    def attach(self, ref: str, to: str) -> None:
        """An Aura or Equipment becomes attached: it gets a new timestamp (613.7e)."""
        state = self.state
        obj, host = self.obj(ref), self.obj(to)
        obj.attached_to = host.id
        obj.timestamp = state.tick()
        state.touch()
        self.settle()

    def gain_control(self, ref: str, player: str, duration: str = "permanent") -> None:
        state = self.state
        obj = self.obj(ref)
        state.effects.append(ContinuousEffect(state.new_id(), state.tick(),
                                              frozenset({obj.id}), {"control": player},
                                              controller=player, duration=duration))
        state.touch()
        self.settle()

    def phase(self, ref: str, out: bool) -> None:
        """702.26: phasing out and in; under the 2006 rules a permanent that phased in came
        under its controller's control again (217.8 of 2006)."""
        state = self.state
        obj = self.obj(ref)
        obj.phased_out = out
        if not out and state.rules.phasing_changes_control:
            obj.control_clock = state.tick()
        state.touch()
        self.settle()

    def turn_face_up(self, ref: str, player: str) -> None:
        obj = self.obj(ref)
        self._act(lambda: stack_rules.turn_face_up(self.state, obj.id, player))

    def discard(self, ref: str) -> GameObject:
        obj = self.obj(ref)
        if obj.zone != "hand":
            raise IllegalAction(_("{what} is not in a hand: only a card in hand is discarded "
                                  "(701.9a)").format(what=ref))
        return self.move(ref, "graveyard")

    def draw(self, player: str, n: int = 1) -> None:
        self._act(lambda: draw(self.state, player, n))

    def mulligan(self, player: str, bottom: Sequence[str] | None = None) -> None:
        """103.5: the player takes a mulligan (see :func:`kb.engine.mulligan.mulligan`)."""
        self._act(lambda: mulligan(self.state, player, bottom))

    def leave_game(self, player: str) -> None:
        """800.4a: a player leaves the game (see :func:`kb.engine.zones.leave_game`)."""
        leave_game(self.state, player)
        self.settle()

    def advance(self, step: str, player: str | None = None) -> None:
        self._act(lambda: advance(self.state, step, player))

    def attack(self, attacks: Mapping[str, Any]) -> None:
        state = self.state
        resolved = {self.obj(a).id: (t if t in state.players else self.obj(t).id)
                    for a, t in attacks.items()}
        self._act(lambda: combat_rules.declare_attackers(state, resolved))

    def block(self, blocks: Mapping[str, Sequence[str]]) -> None:
        resolved = {self.obj(b).id: [self.obj(a).id for a in attackers]
                    for b, attackers in blocks.items()}
        self._act(lambda: combat_rules.declare_blockers(self.state, resolved))

    def combat_damage(self, first_strike: bool | None = None,
                      assign: Mapping[str, Mapping[str, int]] | None = None) -> None:
        state = self.state
        plan = {self.obj(a).id: {(r if r in state.players else self.obj(r).id): n
                                 for r, n in parts.items()}
                for a, parts in (assign or {}).items()}
        self._act(lambda: combat_rules.combat_damage(state, first_strike=first_strike,
                                                     assign=plan or None))
