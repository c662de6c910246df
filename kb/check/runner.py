"""Playing a scenario on the engine: set up the game, take the steps, judge the facts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.check.facts import FACTS, NoSuch, same, show
from kb.check.scenarios import Fact, Scenario
from kb.engine.events import Choices
from kb.errors import KbError
from kb.i18n import _, ngettext

if TYPE_CHECKING:
    from kb.engine import Game
    from kb.engine.objects import Printed


@dataclass(frozen=True)
class Outcome:
    """What playing a scenario gave: its status (verified, contradicted, refused,
    era-dependent, not checkable; ``answered`` for a question with no expected facts), the
    facts as computed, the mismatches (the first is the first differing fact), what was
    refused and where, and for a question the state it reached and the rules applied."""

    scenario: Scenario
    status: str
    computed: str
    mismatches: tuple[str, ...] = ()
    changed_rule: str | None = None
    refusal: str | None = None  # "file:line: step N (action) refused: why"
    final_state: Mapping[str, Any] | None = None
    rules: tuple[tuple[str, str], ...] = ()


class _Refused(Exception):
    """A step the engine refused (an illegal action), or a part of the scenario nothing
    used: the claim can't be reproduced as written."""


def play(scenario: Scenario, cards: Mapping[str, Printed]) -> Outcome:
    """The scenario's status: verified under today's rules, era-dependent under its era's
    rules only, else contradicted (a fact differs) or refused (a step the rules forbid);
    not checkable ones as they say. Raises KbError for a scenario that names what doesn't
    exist (a card, an alias)."""
    from kb.engine import CURRENT, ruleset

    if scenario.not_checkable is not None:
        return Outcome(scenario, "not checkable",
                       _("not checkable ({because}): {reason}").format(
                           because=scenario.because, reason=scenario.not_checkable))
    today = _evaluate(scenario, cards, CURRENT)
    if not today.mismatches and today.refusal is None:
        status = "verified" if scenario.facts else "answered"
        return Outcome(scenario, status, today.computed, final_state=today.final_state,
                       rules=today.rules)
    if scenario.era:
        rules = ruleset(scenario.era)
        then = _evaluate(scenario, cards, rules)
        if not then.mismatches and then.refusal is None:
            return Outcome(scenario, "era-dependent",
                           _("today: {today}; under the rules of {era}: {then}").format(
                               today=today.computed, era=rules.era, then=then.computed),
                           today.mismatches or (today.refusal or "",), rules.changed_by)
    if today.refusal is not None:
        return Outcome(scenario, "refused", today.computed, (today.refusal,),
                       refusal=today.refusal, final_state=today.final_state,
                       rules=today.rules)
    return Outcome(scenario, "contradicted", today.computed, today.mismatches,
                   final_state=today.final_state, rules=today.rules)


@dataclass(frozen=True)
class _Played:
    computed: str
    mismatches: tuple[str, ...]
    refusal: str | None
    final_state: Mapping[str, Any] | None
    rules: tuple[tuple[str, str], ...]


def _evaluate(scenario: Scenario, cards: Mapping[str, Printed], rules: Any) -> _Played:
    """Play under ``rules``: the computed facts, the mismatched ones, what was refused."""
    from kb.check.snapshot import final_state
    from kb.engine import EngineError, IllegalAction

    runner = Runner(scenario, cards, rules)
    refusal = None
    try:
        runner.run()
    except _Refused as exc:
        refusal = str(exc)
    except IllegalAction as exc:
        refusal = _("{where}: refused: {reason}").format(where=scenario.where, reason=exc)
    except EngineError as exc:
        raise KbError(f"{scenario.where}: {exc}") from exc
    computed = refusal or "; ".join(f.describe(v) for f, v in runner.seen)
    shown = not scenario.claims or refusal is not None or bool(runner.mismatches)
    return _Played(computed, tuple(runner.mismatches), refusal,
                   final_state(runner) if shown else None,
                   tuple(runner.game.state.applied_rules))


def trigger_queues(given: Mapping[str, Any]) -> dict[str, list[Any]]:
    """A step's ``trigger_targets``: a source's alias -> the targets of its triggered ability
    (a list, as a cast's ``targets``), or, when it triggers more than once in the step, one
    table ``{ targets = [...] }`` per triggered ability in the order they go on the stack."""
    queues: dict[str, list[Any]] = {}
    for alias, value in given.items():
        if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
            queues[alias] = [list(v.get("targets", [])) for v in value]
        else:
            queues[alias] = [value]
    return queues


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
        self.game.state.rng.seed(scenario.seed)
        self.seen: list[tuple[Fact, Any]] = []
        self.mismatches: list[str] = []
        self.legal: dict[str, bool] = {}
        self.paid: dict[str, str] = {}
        self.effects: dict[str, list[Any]] = {}
        for player, modifiers in (scenario.vanguard or {}).items():
            from kb.engine.vanguard import hand_size, starting_life

            self.game.state.player(player).life = starting_life(modifiers)
            self.game.state.player(player).max_hand_size = hand_size(modifiers)

    def _designate_commanders(self) -> None:
        """903.3: the scenario's commanders, by the card each alias names."""
        state = self.game.state
        for player, alias in (self.scenario.commanders or {}).items():
            if alias not in state.aliases:
                raise KbError(_("{where}: commander {alias!r}: no such object").format(
                    where=self.scenario.where, alias=alias))
            state.commanders[state.aliases[alias]] = player

    def _defined(self, data: Mapping[str, Any]) -> Printed:
        """An object the example describes without naming a card ("a 1/3 creature")."""
        from kb.engine import EngineError, card_from_data

        try:
            return card_from_data(data, f"{self.scenario.where}: define")
        except EngineError as exc:
            raise KbError(str(exc)) from exc

    def card(self, name: str | None) -> Printed:
        if name is None:
            raise KbError(_("{where}: a setup entry needs 'card' or 'define'").format(
                where=self.scenario.where))
        if name not in self.cards:
            raise KbError(_("{where}: no card {name!r} in the card files").format(
                where=self.scenario.where, name=name))
        return self.cards[name]

    def run(self) -> None:
        self._setup()
        facts_at: dict[str | None, list[Fact]] = {}
        for fact in self.scenario.facts:
            facts_at.setdefault(fact.at, []).append(fact)
        for number, step in enumerate(self.scenario.steps, 1):
            label = step.get("label")
            try:
                self._step(number, step)
            except _Refused as exc:
                raise _Refused(_("{where}: step {number} ({action}) refused: {reason}").format(
                    where=self._step_where(number), number=number, action=step.get("do"),
                    reason=exc)) from exc
            for fact in facts_at.get(label, []) if label else []:
                self._judge(fact)
        for fact in facts_at.get(None, []):
            self._judge(fact)

    # -- setup ---------------------------------------------------------------------------

    def _step_where(self, number: int) -> str:
        """The file and line of step ``number`` (1-based)."""
        lines = self.scenario.step_lines
        line = lines[number - 1] if number <= len(lines) else self.scenario.line
        return f"{self.scenario.file}:{line}"

    def _setup(self) -> None:
        from kb.engine import IllegalAction

        try:
            self._place()
        except IllegalAction as exc:
            raise _Refused(_("{where}: setup refused: {reason}").format(
                where=self.scenario.where, reason=exc)) from exc
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
                for _copy in range(count):
                    chosen = Choices.of(entry.get("choices")) if "choices" in entry else None
                    status = {**entry, "choices": chosen} if chosen is not None else entry
                    game.add(printed, owner, zone, alias=alias, token=token,
                             controller=controller, **status)
                    if chosen is not None and chosen.unasked():
                        raise _Refused(_(
                            "{where}: setup.{zone} ({name}): choices {choices}: nothing asked "
                            "for it (only an \"as this enters, choose\" asks in setup)").format(
                            where=self.scenario.where, zone=zone, name=alias or name,
                            choices=", ".join(chosen.unasked())))
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
            game.state.choices = Choices()
            return
        names = list(step.pop("names", []))
        newest = max(game.state.objects, default=0)
        self._add_mana(step, action)
        pool_before = {p: Counter(pl.mana_pool) for p, pl in game.state.players.items()}
        effects_before = {e.id for e in game.state.effects}
        game.trigger_targets = trigger_queues(step.pop("trigger_targets", {}))
        chosen = Choices.of(step.get("choices"))
        step["choices"] = game.state.choices = chosen
        try:
            self._act(action, step)
        except IllegalAction as exc:
            raise _Refused(str(exc)) from exc
        if chosen.unasked():
            raise _Refused(_("choices {choices}: nothing in this step asked for it "
                             "(docs/scenarios.md lists the choices)").format(
                choices=", ".join(chosen.unasked())))
        left = {alias: len(q) for alias, q in game.trigger_targets.items() if q}
        if left:
            raise _Refused("trigger_targets: " + ", ".join(
                ngettext("{n} target list(s) for {alias} left unused (no more of its "
                         "triggered abilities went on the stack in this step)",
                         "{n} target list(s) for {alias} left unused (no more of its "
                         "triggered abilities went on the stack in this step)", n
                         ).format(n=n, alias=alias) for alias, n in left.items()))
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
            raise KbError(ngettext("{where}: {names} names for {made} new object",
                                   "{where}: {names} names for {made} new objects",
                                   len(made)).format(where=self.scenario.where,
                                                     names=len(names), made=len(made)))
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
        elif action == "mulligan":
            game.mulligan(step["player"], (choices or {}).get("bottom"))
        elif action == "leave_game":
            game.leave_game(step["player"])
        elif action == "go_to":
            game.advance(step["step"], step.get("player"))
        elif action == "attack":
            game.attack(step["attackers"])
        elif action == "block":
            game.block(step["blockers"])
        elif action == "combat_damage":
            game.combat_damage(step.get("first_strike"), step.get("assign"))
        elif action == "add_mana":
            from kb.engine.mana import parse_mana

            state.player(step["player"]).mana_pool.update(parse_mana(step["mana"]))
        elif action == "settle":
            game.settle()
        else:  # unreachable: steps are checked as the scenario is loaded
            raise KbError(_("{where}: unknown action {action!r}").format(
                where=self.scenario.where, action=action))

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
            says = _("the claim says") if self.scenario.claims else _("the scenario expects")
            self.mismatches.append(f"{fact.describe(value)}, {says} {show(fact.expected)}")
