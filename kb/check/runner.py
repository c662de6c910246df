"""Playing a scenario on the engine: set up the game, take the steps, judge the facts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.check.facts import FACTS, NoSuch, same, show
from kb.check.scenarios import Fact, Scenario
from kb.errors import KbError

if TYPE_CHECKING:
    from kb.engine import Game
    from kb.engine.objects import Printed


@dataclass(frozen=True)
class Outcome:
    """What playing a scenario gave: its status, the facts as computed, the mismatches."""

    scenario: Scenario
    status: str
    computed: str
    mismatches: tuple[str, ...] = ()
    changed_rule: str | None = None


class _Refused(Exception):
    """A step the engine refused (an illegal action): the claim can't be reproduced."""


def play(scenario: Scenario, cards: Mapping[str, Printed]) -> Outcome:
    """The scenario's status: verified under today's rules, era-dependent under its era's
    rules only, else contradicted; not checkable ones as they say."""
    from kb.engine import CURRENT, ruleset

    if scenario.not_checkable is not None:
        return Outcome(scenario, "not checkable",
                       f"not checkable ({scenario.because}): {scenario.not_checkable}")
    today = _evaluate(scenario, cards, CURRENT)
    if not today[1]:
        return Outcome(scenario, "verified", today[0])
    if scenario.era:
        rules = ruleset(scenario.era)
        then = _evaluate(scenario, cards, rules)
        if not then[1]:
            return Outcome(scenario, "era-dependent",
                           f"today: {today[0]}; under the rules of {rules.era}: {then[0]}",
                           today[1], rules.changed_by)
    return Outcome(scenario, "contradicted", today[0], today[1])


def _evaluate(scenario: Scenario, cards: Mapping[str, Printed],
              rules: Any) -> tuple[str, tuple[str, ...]]:
    """Play under ``rules``; return the computed facts and the mismatched ones."""
    from kb.engine import EngineError, IllegalAction

    runner = Runner(scenario, cards, rules)
    try:
        runner.run()
    except _Refused as exc:
        return str(exc), (str(exc),)
    except IllegalAction as exc:
        return f"refused: {exc}", (str(exc),)
    except EngineError as exc:
        raise KbError(f"{scenario.where}: {exc}") from exc
    computed = "; ".join(f.describe(v) for f, v in runner.seen)
    return computed, tuple(runner.mismatches)


class Runner:
    def __init__(self, scenario: Scenario, cards: Mapping[str, Printed], rules: Any) -> None:
        from kb.engine import Game

        self.scenario = scenario
        self.cards = cards
        self.game: Game = Game(scenario.players, rules, scenario.life, scenario.active,
                               scenario.step)
        if scenario.multiplayer is not None:
            from kb.engine.multiplayer import Multiplayer

            self.game.state.multiplayer = Multiplayer.from_options(scenario.players,
                                                                   scenario.multiplayer)
        self.game.state.card_reference.update(cards)
        for player, modifiers in (scenario.vanguard or {}).items():
            from kb.engine.vanguard import hand_size, starting_life

            self.game.state.player(player).life = starting_life(modifiers)
            self.game.state.player(player).max_hand_size = hand_size(modifiers)

    def _designate_commanders(self) -> None:
        """903.3: the scenario's commanders, by the card each alias names."""
        state = self.game.state
        for player, alias in (self.scenario.commanders or {}).items():
            if alias not in state.aliases:
                raise KbError(f"{self.scenario.where}: commander {alias!r}: no such object")
            state.commanders[state.aliases[alias]] = player
        self.seen: list[tuple[Fact, Any]] = []
        self.mismatches: list[str] = []
        self.legal: dict[str, bool] = {}
        self.paid: dict[str, str] = {}
        self.effects: dict[str, list[Any]] = {}

    def _defined(self, data: Mapping[str, Any]) -> Printed:
        """An object the example describes without naming a card ("a 1/3 creature")."""
        from kb.engine import EngineError, card_from_data

        try:
            return card_from_data(data, f"{self.scenario.where}: define")
        except EngineError as exc:
            raise KbError(str(exc)) from exc

    def card(self, name: str | None) -> Printed:
        if name is None:
            raise KbError(f"{self.scenario.where}: a setup entry needs 'card' or 'define'")
        if name not in self.cards:
            raise KbError(f"{self.scenario.where}: no card {name!r} in the card files")
        return self.cards[name]

    def run(self) -> None:
        self._setup()
        facts_at: dict[str | None, list[Fact]] = {}
        for fact in self.scenario.facts:
            facts_at.setdefault(fact.at, []).append(fact)
        for number, step in enumerate(self.scenario.steps, 1):
            label = step.get("label")
            self._step(number, step)
            for fact in facts_at.get(label, []) if label else []:
                self._judge(fact)
        for fact in facts_at.get(None, []):
            self._judge(fact)

    # -- setup ---------------------------------------------------------------------------

    def _setup(self) -> None:
        from kb.engine import IllegalAction

        try:
            self._place()
        except IllegalAction as exc:
            raise KbError(f"{self.scenario.where}: setup: {exc}") from exc
        self._designate_commanders()

    def _place(self) -> None:
        setup = self.scenario.setup
        game = self.game
        for zone in ("library", "graveyard", "hand", "exile", "command", "battlefield"):
            for entry in setup.get(zone, []):
                entry = dict(entry)
                owner = entry.pop("owner", self.scenario.players[0])
                count = entry.pop("count", 1)
                name = entry.pop("card", None)
                define = entry.pop("define", None)
                alias = entry.pop("as", None)
                token = entry.pop("token", False)
                controller = entry.pop("controller", None)
                printed = self._defined(define) if define is not None else self.card(name)
                for _ in range(count):
                    game.add(printed, owner, zone, alias=alias, token=token,
                             controller=controller, **entry)
        for player, mana in setup.get("mana", {}).items():
            from kb.engine.mana import parse_mana

            game.state.player(player).mana_pool.update(parse_mana(mana))
        for player, life in setup.get("life", {}).items():
            game.state.player(player).life = life
        game.settle()

    # -- steps ---------------------------------------------------------------------------

    def _step(self, number: int, step: Mapping[str, Any]) -> None:
        from kb.engine import IllegalAction

        step = dict(step)
        action = step.pop("do", None)
        label = step.pop("label", None)
        game = self.game
        if action == "check":
            self.legal[label or f"step {number}"] = self._legal(dict(step.pop("action")))
            return
        names = list(step.pop("names", []))
        newest = max(game.state.objects, default=0)
        self._add_mana(step, action)
        pool_before = {p: Counter(pl.mana_pool) for p, pl in game.state.players.items()}
        effects_before = {e.id for e in game.state.effects}
        game.trigger_targets = dict(step.pop("trigger_targets", {}))
        game.state.choices = dict(step.get("choices", {}))
        try:
            self._act(action, step)
        except IllegalAction as exc:
            raise _Refused(f"step {number} ({action}) refused: {exc}") from exc
        self._name_new(names, newest)
        if label:
            spent = []
            for player, before in pool_before.items():
                now = game.state.players[player].mana_pool
                spent += [k for k in ("W", "U", "B", "R", "G", "C")
                          for _ in range(before[k] - now[k])]
            self.paid[label] = "".join("{" + k + "}" for k in spent)
            self.effects[label] = [e for e in game.state.effects if e.id not in effects_before]

    def _name_new(self, names: list[str], newest: int) -> None:
        """Give the objects a step created (copies, tokens), in order, the step's names."""
        state = self.game.state
        made = [o for oid, o in sorted(state.objects.items()) if oid > newest
                and o.card == oid and o.card not in state.aliases.values()
                and not (o.spell is not None and o.spell.ability is not None)]
        if len(made) < len(names):
            raise KbError(f"{self.scenario.where}: {len(names)} names for "
                          f"{len(made)} new objects")
        for alias, obj in zip(names, made, strict=False):
            state.aliases[alias] = obj.card

    def _legal(self, inner: dict[str, Any]) -> bool:
        """Try an action on a copy of the game: whether the rules allow it."""
        from kb.engine import IllegalAction

        saved = self.game
        self.game = saved.clone()
        try:
            self._act(inner.pop("do", None), inner)
            return True
        except IllegalAction:
            return False
        finally:
            self.game = saved

    def _act(self, action: str | None, step: dict[str, Any]) -> None:
        game = self.game
        state = game.state
        self._add_mana(step, action)
        choices = step.pop("choices", None)
        if action == "cast":
            ref = step.pop("card")
            game.cast(ref, step.pop("player", None), **step)
        elif action == "play_land":
            game.play_land(step["card"], step.get("player"))
        elif action == "activate":
            ref = step.pop("object")
            game.activate(ref, step.pop("ability", 1), step.pop("player", None), **step)
        elif action == "resolve":
            game.resolve(choices)
        elif action == "resolve_all":
            game.resolve_all(choices)
        elif action == "copy_spell":
            game.copy_spell(step["spell"], step["player"], step.get("except"),
                            step.get("new_targets"))
        elif action == "enter":
            game.enter(step["card"], step.get("controller"), choices)
        elif action == "move":
            game.move(step["object"], step["to"])
        elif action == "token":
            self._token(step, choices)
        elif action == "effect":
            game.effect(step["ops"], step.get("controller", state.active),
                        step.get("source"), choices)
        elif action == "end_effect":
            game.end_effect(step["effect"])
        elif action == "attach":
            game.attach(step["object"], step["to"])
        elif action == "gain_control":
            game.gain_control(step["object"], step["player"], step.get("duration", "permanent"))
        elif action in ("phase_out", "phase_in"):
            game.phase(step["object"], action == "phase_out")
        elif action == "turn_face_up":
            game.turn_face_up(step["object"], step.get("player", state.active))
        elif action == "discard":
            game.discard(step["object"])
        elif action == "draw":
            game.draw(step.get("player", state.active), step.get("n", 1))
        elif action == "leave_game":
            game.leave_game(step["player"])
        elif action == "go_to":
            game.advance(step["step"], step.get("player"))
        elif action == "attack":
            game.attack(step["attackers"])
        elif action == "block":
            game.block(step["blockers"])
        elif action == "combat_damage":
            game.combat_damage(step.get("first_strike", False), step.get("assign"))
        elif action == "add_mana":
            from kb.engine.mana import parse_mana

            state.player(step["player"]).mana_pool.update(parse_mana(step["mana"]))
        elif action == "settle":
            game.settle()
        else:  # unreachable: steps are checked as the scenario is loaded
            raise KbError(f"{self.scenario.where}: unknown action {action!r}")

    def _add_mana(self, step: dict[str, Any], action: str | None) -> None:
        """A step's ``mana``: what its player makes available just before acting."""
        from kb.engine.mana import parse_mana

        if "mana" in step and action != "add_mana":
            player = step.pop("mana_player", None) or step.get("player") or self._owner(step)
            self.game.state.player(player).mana_pool.update(parse_mana(step.pop("mana")))

    def _owner(self, step: Mapping[str, Any]) -> str:
        for key in ("card", "object"):
            if key in step:
                return self.game.obj(step[key]).owner
        return self.game.state.active

    def _token(self, step: Mapping[str, Any], choices: Mapping[str, Any] | None) -> None:
        from kb.engine.cards import token_from_data

        controller = step.get("controller", self.game.state.active)
        if "copy_of" in step:
            op = {"op": "create_token", "copy_of": step["copy_of"], "as": step.get("as"),
                  "except": step.get("except", {})}
            self.game.effect([op], controller, None, choices)
            return
        printed = token_from_data(step["token"], f"{self.scenario.where}: token")
        self.game.create_token(printed, controller, step.get("as"), choices)

    # -- facts ---------------------------------------------------------------------------

    def _judge(self, fact: Fact) -> None:
        try:
            value = FACTS[fact.what](self, fact)
        except NoSuch as exc:
            value = f"({exc})"
        self.seen.append((fact, value))
        if not same(fact.what, value, fact.expected):
            self.mismatches.append(f"{fact.describe(value)}, the claim says "
                                   f"{show(fact.expected)}")
