"""``kb check``: replay the worked examples of the corpus on the rules engine.

A scenario (TOML, see ``docs/scenarios.md``) names the examples it verifies, quoting each
one's claim, sets up a game state, takes actions and states the facts the claim asserts. The
engine (:mod:`kb.engine`) plays it under today's rules; every worked example of the index then
gets one status:

- ``verified``: every fact holds under today's rules;
- ``contradicted``: a fact differs (the claim and the computed value are both shown);
- ``era-dependent``: the facts hold only under the rules of the example's time (the scenario's
  ``era``), and the rule that changed is named;
- ``not checkable``: the scenario says why (pure timing, randomness, a definition);
- ``not modelled``: no scenario names it yet.

Which records are worked examples (:func:`select_examples`): every ``example`` record (the
parsers' "Example:", "Exemple :"); every ruling or note whose text gives an example ("for
example", "par exemple", "for instance", "e.g."); every note with claims (the keyword page's
commentary); every ruling the source files under a rules mechanic (the rulings list); and
every record a scenario names, a scenario being the judgement that its text states a concrete
outcome.
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import KbError

if TYPE_CHECKING:
    from kb.api import KnowledgeBase
    from kb.engine import Game
    from kb.engine.objects import Printed
    from kb.store import Store

STATUSES = ("verified", "contradicted", "era-dependent", "not checkable", "not modelled")
NOT_CHECKABLE_KINDS = ("timing", "randomness", "definition")
SCENARIO_KEYS = frozenset({"name", "verifies", "status", "reason", "because", "era", "players",
                           "life", "active", "start", "setup", "step", "expect"})
SETUP_KEYS = frozenset({"battlefield", "hand", "graveyard", "library", "exile", "mana", "life"})
FACT_KEYS = frozenset({"what", "of", "is", "at", "ability", "kind", "key"})


# -- scenarios as data ---------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    id: str
    quote: str


@dataclass(frozen=True)
class Fact:
    what: str
    of: str | None
    expected: Any
    at: str | None = None
    param: str | None = None  # the ability, counter kind or choice a fact is about

    def describe(self, value: Any) -> str:
        subject = f"{self.of}." if self.of else ""
        param = f"[{self.param}]" if self.param else ""
        when = f" after {self.at!r}" if self.at else ""
        return f"{subject}{self.what}{param} = {_show(value)}{when}"


@dataclass(frozen=True)
class Scenario:
    name: str
    file: Path
    line: int
    claims: tuple[Claim, ...]
    facts: tuple[Fact, ...] = ()
    steps: tuple[Mapping[str, Any], ...] = ()
    setup: Mapping[str, Any] = field(default_factory=dict)
    players: tuple[str, ...] = ("you", "opponent")
    life: int = 20
    active: str | None = None
    step: str = "precombat main"
    era: str | None = None
    not_checkable: str | None = None  # the reason
    because: str | None = None  # timing, randomness or definition

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line} (scenario {self.name!r})"


@dataclass(frozen=True)
class Library:
    """The scenarios of the given files and the cards they define."""

    scenarios: tuple[Scenario, ...]
    cards: Mapping[str, Printed]


def default_scenario_dir() -> Path:
    from kb.corpus import embedded_corpus

    return embedded_corpus() / "scenarios"


def scenario_files(paths: Iterable[Path] = (), *, embedded: bool = True) -> list[Path]:
    files = sorted(default_scenario_dir().glob("*.toml")) if embedded else []
    for path in paths:
        if path.is_dir():
            files += sorted(path.glob("*.toml"))
        elif path.is_file():
            files.append(path)
        else:
            raise KbError(f"{path}: no such scenario file or folder")
    return files


def load(files: Sequence[Path]) -> Library:
    """Read scenario files: their ``[[card]]`` and ``[[scenario]]`` tables."""
    from kb.engine import EngineError, card_from_data

    cards: dict[str, Printed] = {}
    scenarios: list[Scenario] = []
    names: dict[str, str] = {}
    for path in files:
        text = path.read_text(encoding="utf-8")
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise KbError(f"{path}: {exc}") from exc
        unknown = set(data) - {"card", "scenario"}
        if unknown:
            raise KbError(f"{path}: unknown tables {sorted(unknown)} (card, scenario)")
        card_lines = _header_lines(text, "card")
        for i, card in enumerate(data.get("card", [])):
            where = f"{path}:{card_lines[i]}"
            name = card.get("name") or (card.get("faces") or [{}])[0].get("name")
            if not name:
                raise KbError(f"{where}: a card needs a name")
            key = _card_key(card)
            if key in cards:
                raise KbError(f"{where}: card {key!r} is defined twice")
            try:
                cards[key] = card_from_data(card, f"{where} ({key})")
            except EngineError as exc:
                raise KbError(str(exc)) from exc
        scenario_lines = _header_lines(text, "scenario")
        for i, raw in enumerate(data.get("scenario", [])):
            scenario = _scenario(raw, path, scenario_lines[i])
            if scenario.name in names:
                raise KbError(f"{scenario.where}: name already used in {names[scenario.name]}")
            names[scenario.name] = scenario.where
            scenarios.append(scenario)
    return Library(tuple(scenarios), cards)


def _card_key(card: Mapping[str, Any]) -> str:
    if "faces" in card and card.get("layout") == "split":
        return " // ".join(f["name"] for f in card["faces"])
    return card.get("name") or card["faces"][0]["name"]


def _header_lines(text: str, table: str) -> list[int]:
    pattern = re.compile(rf"^[ \t]*\[\[[ \t]*{table}[ \t]*\]\]", re.M)
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


def _scenario(raw: Mapping[str, Any], path: Path, line: int) -> Scenario:
    where = f"{path}:{line}"
    name = raw.get("name")
    if not name:
        raise KbError(f"{where}: a scenario needs a name")
    where = f"{where} (scenario {name!r})"
    unknown = set(raw) - SCENARIO_KEYS
    if unknown:
        raise KbError(f"{where}: unknown keys {sorted(unknown)}")
    claims = []
    for item in raw.get("verifies", []):
        if set(item) != {"id", "claim"}:
            raise KbError(f"{where}: each 'verifies' entry has an id and a claim (a quote)")
        claims.append(Claim(item["id"], item["claim"]))
    if not claims:
        raise KbError(f"{where}: a scenario verifies at least one example")
    common = {"name": name, "file": path, "line": line, "claims": tuple(claims)}
    if raw.get("status") is not None:
        if raw["status"] != "not checkable":
            raise KbError(f"{where}: status can only be 'not checkable'")
        if not raw.get("reason") or raw.get("because") not in NOT_CHECKABLE_KINDS:
            raise KbError(f"{where}: a not checkable scenario gives a reason and 'because' "
                          f"({', '.join(NOT_CHECKABLE_KINDS)})")
        if raw.get("expect") or raw.get("step"):
            raise KbError(f"{where}: a not checkable scenario has no steps or facts")
        return Scenario(**common, not_checkable=raw["reason"], because=raw["because"])
    facts = tuple(_fact(f, where) for f in raw.get("expect", []))
    if not facts:
        raise KbError(f"{where}: a scenario states at least one expected fact")
    steps = tuple(raw.get("step", []))
    for number, step in enumerate(steps, 1):
        _check_step(step, f"{where}, step {number}")
    labels = {s.get("label") for s in steps if s.get("label")}
    for fact in facts:
        if fact.at is not None and fact.at not in labels:
            raise KbError(f"{where}: fact at {fact.at!r}: no step has that label")
    setup = raw.get("setup", {})
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise KbError(f"{where}: unknown setup keys {sorted(unknown)} "
                      f"(known: {sorted(SETUP_KEYS)})")
    if raw.get("era") is not None:
        from kb.engine import VARIANTS

        if raw["era"] not in VARIANTS or raw["era"] == "current":
            raise KbError(f"{where}: unknown era {raw['era']!r} "
                          f"(known: {', '.join(v for v in VARIANTS if v != 'current')})")
    return Scenario(**common, facts=facts, steps=steps, setup=setup,
                    players=tuple(raw.get("players", ("you", "opponent"))),
                    life=raw.get("life", 20), active=raw.get("active"),
                    step=raw.get("start", "precombat main"), era=raw.get("era"))


def _fact(raw: Mapping[str, Any], where: str) -> Fact:
    unknown = set(raw) - FACT_KEYS
    if unknown or "what" not in raw or "is" not in raw:
        raise KbError(f"{where}: a fact has 'what' and 'is' (and may have of, at, ability, "
                      f"kind, key); got {sorted(raw)}")
    if raw["what"] not in FACTS:
        raise KbError(f"{where}: unknown fact {raw['what']!r} (known: {', '.join(FACTS)})")
    param = raw.get("ability") or raw.get("kind") or raw.get("key")
    return Fact(raw["what"], raw.get("of"), raw["is"], raw.get("at"), param)


# What each action takes: its required keys and its optional ones (docs/scenarios.md).
ACTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    name: (frozenset(required.split()), frozenset(optional.split()))
    for name, required, optional in (
        ("cast", "card", "player half fused x mode targets sacrifice without_paying "
                         "alternative transformed"),
        ("activate", "object", "ability player x targets"),
        ("resolve", "", ""),
        ("resolve_all", "", ""),
        ("copy_spell", "spell player", "except new_targets"),
        ("enter", "card", "controller"),
        ("move", "object to", ""),
        ("token", "", "token copy_of except controller as"),
        ("effect", "ops", "controller source"),
        ("end_effect", "effect", ""),
        ("attach", "object to", ""),
        ("gain_control", "object player", "duration"),
        ("phase_out", "object", ""),
        ("phase_in", "object", ""),
        ("turn_face_up", "object", "player"),
        ("discard", "object", ""),
        ("draw", "", "player n"),
        ("leave_game", "player", ""),
        ("go_to", "step", "player"),
        ("attack", "attackers", ""),
        ("block", "blockers", ""),
        ("combat_damage", "", "first_strike assign"),
        ("add_mana", "player mana", ""),
        ("settle", "", ""),
        ("check", "action", ""),
    )
}
# Keys any step may have.
STEP_KEYS = frozenset({"do", "label", "names", "choices", "trigger_targets", "mana",
                       "mana_player"})


def _check_step(step: Mapping[str, Any], where: str) -> None:
    action = step.get("do")
    if action not in ACTIONS:
        raise KbError(f"{where}: unknown action {action!r} (known: {', '.join(ACTIONS)})")
    required, optional = ACTIONS[action]
    missing = required - set(step)
    unknown = set(step) - required - optional - STEP_KEYS
    if missing or unknown:
        raise KbError(f"{where}: step {action!r}: "
                      + (f"missing {sorted(missing)} " if missing else "")
                      + (f"unknown {sorted(unknown)}" if unknown else ""))
    if action == "check":
        if step["action"].get("do") == "check":
            raise KbError(f"{where}: a check can't check a check")
        _check_step(step["action"], where)


# -- playing a scenario --------------------------------------------------------------------


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

    runner = _Runner(scenario, cards, rules)
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


class _Runner:
    def __init__(self, scenario: Scenario, cards: Mapping[str, Printed], rules: Any) -> None:
        from kb.engine import Game

        self.scenario = scenario
        self.cards = cards
        self.game: Game = Game(scenario.players, rules, scenario.life, scenario.active,
                               scenario.step)
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

    def _place(self) -> None:
        setup = self.scenario.setup
        game = self.game
        for zone in ("library", "graveyard", "hand", "exile", "battlefield"):
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
        except _NoSuch as exc:
            value = f"({exc})"
        self.seen.append((fact, value))
        if not _same(fact.what, value, fact.expected):
            self.mismatches.append(f"{fact.describe(value)}, the claim says "
                                   f"{_show(fact.expected)}")


class _NoSuch(Exception):
    """A fact about something that doesn't exist (a card that ceased to exist)."""


# -- facts ---------------------------------------------------------------------------------


def _obj(runner: _Runner, fact: Fact) -> Any:
    if fact.of is None:
        raise KbError(f"{runner.scenario.where}: fact {fact.what!r} needs 'of'")
    obj = runner.game.state.find(fact.of)
    if obj is None:
        raise _NoSuch(f"{fact.of} no longer exists")
    return obj


def _ch(runner: _Runner, fact: Fact) -> Any:
    return runner.game.state.characteristics(_obj(runner, fact).id)


def _player(runner: _Runner, fact: Fact) -> Any:
    return runner.game.state.player(fact.of or "you")


def _names(runner: _Runner, ids: Iterable[Any]) -> list[str]:
    out = []
    for ref in ids:
        if isinstance(ref, str):
            out.append(ref)
            continue
        out.append(_alias_of(runner, ref) or str(ref))
    return out


def _alias_of(runner: _Runner, oid: int | None) -> str | None:
    if oid is None:
        return None
    obj = runner.game.state.objects.get(oid)
    if obj is None:
        return None
    if obj.spell is not None and obj.spell.ability is not None:
        return obj.spell.ability.text
    for alias, card in runner.game.state.aliases.items():
        if card == obj.card:
            return alias
    return runner.game.state.characteristics(oid).name


def _effect_text(effects: list[Any]) -> list[str]:
    out = []
    for effect in effects:
        for mod, value in effect.mods.items():
            if mod == "pump":
                out.append(f"{value[0]:+d}/{value[1]:+d}")
            elif mod == "set_pt":
                out.append(f"{value[0]}/{value[1]}")
            else:
                out.append(f"{mod}: {_show(value)}")
    return out


def _layers(effects: list[Any]) -> list[str]:
    """The layers the parts of the effects apply in, in the order they apply (613.1)."""
    from kb.engine.layers import LAYERS, layer_of

    found = {layer_of(mod) for effect in effects for mod in effect.mods}
    return [layer for layer in LAYERS if layer in found]


def _exists(runner: _Runner, fact: Fact) -> bool:
    return runner.game.state.find(fact.of or "") is not None


def _triggered(runner: _Runner, fact: Fact) -> int:
    state = runner.game.state
    card = state.aliases.get(fact.of or "")
    if card is None:
        raise KbError(f"{runner.scenario.where}: no object called {fact.of!r}")
    return sum(1 for event in state.events if event.kind == "triggered" and event.card == card
               and (fact.param is None or event.data.get("ability") == fact.param))


FACTS: dict[str, Any] = {
    "name": lambda r, f: _ch(r, f).name or "",
    "mana_cost": lambda r, f: str(_ch(r, f).mana_cost or ""),
    "mana_value": lambda r, f: _mana_value(r, f),
    "mana_values": lambda r, f: list(_mana_values(r, f)),
    "symbol_count": lambda r, f: (_ch(r, f).mana_cost.symbol_counts()[f.param or ""]
                                  if _ch(r, f).mana_cost else 0),
    "colors": lambda r, f: sorted(_ch(r, f).colors),
    "types": lambda r, f: list(_ch(r, f).types),
    "subtypes": lambda r, f: [s for s in _ch(r, f).subtypes if not s.startswith("(")],
    "supertypes": lambda r, f: list(_ch(r, f).supertypes),
    "all_creature_types": lambda r, f: any(s.startswith("(") for s in _ch(r, f).subtypes),
    "power": lambda r, f: _ch(r, f).power,
    "toughness": lambda r, f: _ch(r, f).toughness,
    "pt": lambda r, f: f"{_ch(r, f).power}/{_ch(r, f).toughness}",
    "loyalty": lambda r, f: _ch(r, f).loyalty,
    "defense": lambda r, f: _ch(r, f).defense,
    "abilities": lambda r, f: [a.text for a in _ch(r, f).abilities],
    "ability_count": lambda r, f: sum(1 for a in _ch(r, f).abilities
                                      if a.text == f.param or a.keyword == f.param),
    "has": lambda r, f: any(a.keyword == f.param or a.text == f.param
                            for a in _ch(r, f).abilities),
    "produces": lambda r, f: list(_ch(r, f).mana_produced),
    "controller": lambda r, f: r.game.state.controller(_obj(r, f).id),
    "owner": lambda r, f: _obj(r, f).owner,
    "zone": lambda r, f: _obj(r, f).zone,
    "exists": _exists,
    "tapped": lambda r, f: _obj(r, f).tapped,
    "face_down": lambda r, f: _obj(r, f).face_down,
    "transformed": lambda r, f: _obj(r, f).transformed,
    "double_faced": lambda r, f: _double_faced(r, f),
    "token": lambda r, f: _obj(r, f).token,
    "counters": lambda r, f: _obj(r, f).counters[f.param or ""],
    "damage": lambda r, f: _obj(r, f).damage,
    "protector": lambda r, f: _obj(r, f).protector,
    "attached_to": lambda r, f: _alias_of(r, _obj(r, f).attached_to),
    "choice": lambda r, f: _obj(r, f).choices.get(f.param or ""),
    "total_cost": lambda r, f: (_obj(r, f).spell.total_cost if _obj(r, f).spell else None),
    "targets": lambda r, f: _names(r, [t for g in (_obj(r, f).spell.targets
                                                   if _obj(r, f).spell else []) for t in g]),
    "mode": lambda r, f: _obj(r, f).spell.mode if _obj(r, f).spell else None,
    "triggered": _triggered,
    "attacking": lambda r, f: bool(r.game.state.combat
                                   and r.game.state.combat.attacking(_obj(r, f).id)),
    "attacks": lambda r, f: _attacks(r, f),
    "protector_chosen": lambda r, f: [e.player for e in r.game.state.events
                                      if e.kind == "protector_chosen"
                                      and e.obj in _ids_of_card(r, f)],
    "stack": lambda r, f: _names(r, list(reversed(r.game.state.stack))),
    "life": lambda r, f: _player(r, f).life,
    "life_lost": lambda r, f: _player(r, f).life_lost_total,
    "life_gained": lambda r, f: _player(r, f).life_gained_total,
    "hand_size": lambda r, f: len(r.game.state.in_zone("hand", f.of or "you")),
    "library_size": lambda r, f: len(r.game.state.libraries[f.of or "you"]),
    "cards_drawn": lambda r, f: _player(r, f).cards_drawn,
    "lost": lambda r, f: _player(r, f).lost,
    "mana_pool": lambda r, f: sum(_player(r, f).mana_pool.values()),
    "creatures": lambda r, f: sum(1 for o in r.game.state.battlefield()
                                  if r.game.state.controller(o.id) == (f.of or "you")
                                  and r.game.state.characteristics(o.id).is_a("Creature")),
    "tokens": lambda r, f: sum(1 for o in r.game.state.battlefield()
                               if o.token and r.game.state.controller(o.id) == (f.of or "you")),
    "legal": lambda r, f: r.legal.get(f.of or ""),
    "paid": lambda r, f: r.paid.get(f.of or ""),
    "effect": lambda r, f: _effect_text(r.effects.get(f.of or "", [])),
    "layers": lambda r, f: _layers(r.effects.get(f.of or "", [])),
}

# Facts compared as sets, not lists.
_UNORDERED = frozenset({"colors", "types", "subtypes", "supertypes", "abilities", "produces",
                        "targets"})


def _attacks(runner: _Runner, fact: Fact) -> str:
    """What an attacking creature attacks ("" when nothing, 506.4c)."""
    combat = runner.game.state.combat
    oid = _obj(runner, fact).id
    if combat is None or oid not in combat.attackers:
        return ""
    target = combat.attackers[oid]
    if target is None:
        return ""
    return target if isinstance(target, str) else (_alias_of(runner, target) or "")


def _ids_of_card(runner: _Runner, fact: Fact) -> set[int]:
    """Every object id the card called ``fact.of`` has had."""
    state = runner.game.state
    card = state.aliases.get(fact.of or "")
    ids = {oid for oid, o in state.objects.items() if o.card == card}
    return ids | {oid for oid, k in state.last_known.items() if k.obj.card == card}


def _double_faced(runner: _Runner, fact: Fact) -> bool:
    from kb.engine.layers import copiable_printed

    return copiable_printed(runner.game.state, _obj(runner, fact)).layout == "transform"


def _mana_values(runner: _Runner, fact: Fact) -> tuple[int, ...]:
    from kb.engine.layers import mana_values

    return mana_values(runner.game.state, _obj(runner, fact).id)


def _mana_value(runner: _Runner, fact: Fact) -> int | list[int]:
    values = _mana_values(runner, fact)
    return values[0] if len(values) == 1 else list(values)


def _same(what: str, value: Any, expected: Any) -> bool:
    if what == "paid":
        return _paid_exactly(str(value or ""), str(expected))
    if what in ("mana_cost", "total_cost"):
        from kb.engine.mana import ManaCost, ManaError

        try:
            return ManaCost.parse(str(value or "")) == ManaCost.parse(str(expected))
        except ManaError:
            return False
    if what in _UNORDERED and isinstance(value, list) and isinstance(expected, list):
        return sorted(map(_fold, value)) == sorted(map(_fold, expected))
    if isinstance(value, str) and isinstance(expected, str):
        return _fold(value) == _fold(expected)
    if isinstance(value, bool) or isinstance(expected, bool):
        return value is expected
    return value == expected


def _paid_exactly(spent: str, cost: str) -> bool:
    """Whether the mana spent pays exactly that cost ({C}{C} pays {2})."""
    from kb.engine.mana import ManaCost, ManaError, parse_mana, pay

    try:
        pool = parse_mana(spent)
        pay(ManaCost.parse(cost), pool)
    except ManaError:
        return False
    return not +pool


def _fold(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(map(_show, value)) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)


# -- the worked examples of an index ------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """A worked example as stored: what the check reports about it."""

    id: str
    kind: str
    source: str
    language: str | None
    text: str


_SELECTION = """
SELECT r.id, r.kind, s.file, r.language, r.text FROM records r JOIN sources s
  ON s.id = r.source_id
WHERE r.kind = 'example'
   OR (r.kind IN ('ruling', 'note') AND (
        r.text LIKE '%for example%' OR r.text LIKE '%par exemple%'
        OR r.text LIKE '%par un exemple%' OR r.text LIKE '%for instance%'
        OR r.text LIKE '%e.g.%'
        OR (r.kind = 'note' AND json_array_length(json_extract(r.data, '$.claims')) > 0)
        OR (r.kind = 'ruling' AND json_extract(r.data, '$.mechanic') IS NOT NULL)))
ORDER BY r.source_id, r.seq
"""


def select_examples(store: Store, named: Iterable[str] = ()) -> dict[str, Example]:
    """The worked examples of the index (see the module docstring), by id. Reads the store
    with SQL of its own (a query the store does not offer yet)."""
    found = {row[0]: Example(*row) for row in store.conn.execute(_SELECTION)}
    wanted = [i for i in named if i not in found]
    for start in range(0, len(wanted), 500):
        chunk = wanted[start:start + 500]
        marks = ",".join("?" * len(chunk))
        for row in store.conn.execute(
                "SELECT r.id, r.kind, s.file, r.language, r.text FROM records r JOIN sources s"
                f" ON s.id = r.source_id WHERE r.id IN ({marks})", chunk):
            found[row[0]] = Example(*row)
    return found


# -- the check ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ExampleResult:
    id: str
    source: str
    language: str | None
    status: str
    claim: str
    computed: str
    scenario: str | None = None
    changed_rule: str | None = None  # era-dependent: the rule that changed
    reason: str | None = None  # not checkable: why
    same_claim_as: str | None = None  # status taken from the example quoting the same claim

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class CheckReport:
    results: list[ExampleResult]
    not_in_index: list[tuple[str, str]]  # (record id, scenario where)
    scenarios: int

    def summary(self) -> dict[str, int]:
        counts = Counter(r.status for r in self.results)
        return {status: counts.get(status, 0) for status in STATUSES}

    def by_source(self) -> dict[str, dict[str, int]]:
        table: dict[str, Counter[str]] = {}
        for r in self.results:
            table.setdefault(r.source, Counter())[r.status] += 1
        return {src: {s: c.get(s, 0) for s in STATUSES} for src, c in sorted(table.items())}


def run_check(store: Store, paths: Iterable[Path] = (), *,
              embedded: bool = True) -> CheckReport:
    """Play every scenario of the embedded corpus (and of ``paths``) and give every worked
    example of the index its status."""
    library = load(scenario_files(paths, embedded=embedded))
    outcomes = [play(s, library.cards) for s in library.scenarios]
    named = [c.id for s in library.scenarios for c in s.claims]
    examples = select_examples(store, named)
    results: dict[str, ExampleResult] = {}
    missing: list[tuple[str, str]] = []
    for outcome in outcomes:
        scenario = outcome.scenario
        for claim in scenario.claims:
            example = examples.get(claim.id)
            if example is None:
                missing.append((claim.id, scenario.where))
                continue
            if _normal(claim.quote) not in _normal(example.text):
                raise KbError(f"{scenario.where}: the claim quoted for {claim.id} is not in "
                              f"its text: {claim.quote!r}")
            result = ExampleResult(
                claim.id, example.source, example.language, outcome.status, claim.quote,
                _computed(outcome), scenario.name, outcome.changed_rule,
                scenario.not_checkable)
            results[claim.id] = _merge(results.get(claim.id), result)
    _same_claims(examples, results)
    for example in examples.values():
        if example.id not in results:
            results[example.id] = ExampleResult(
                example.id, example.source, example.language, "not modelled",
                example.text, "", None)
    ordered = sorted(results.values(), key=lambda r: (r.source, r.id))
    return CheckReport(ordered, missing, len(library.scenarios))


# A quote shorter than this is not taken to identify a claim in another record.
SAME_CLAIM_MIN = 40


def _same_claims(examples: Mapping[str, Example], results: dict[str, ExampleResult]) -> None:
    """An example of another rules version (or an untranslated copy) whose text contains the
    very claim a scenario quoted for a CR example gets the same status, marked as such."""
    quoted = [(r, _normal(r.claim)) for r in list(results.values())
              if r.id.startswith("cr:") and examples[r.id].kind == "example"
              and len(r.claim) >= SAME_CLAIM_MIN]
    if not quoted:
        return
    for example in examples.values():
        if example.kind != "example" or example.id in results:
            continue
        text = _normal(example.text)
        for result, quote in quoted:
            if quote in text:
                results[example.id] = _merge(results.get(example.id), replace(
                    result, id=example.id, source=example.source,
                    language=example.language, same_claim_as=result.id))


def _computed(outcome: Outcome) -> str:
    if outcome.mismatches and outcome.status == "contradicted":
        return "; ".join(outcome.mismatches)
    return outcome.computed


_RANK = {"contradicted": 0, "era-dependent": 1, "verified": 2, "not checkable": 3}


def _merge(old: ExampleResult | None, new: ExampleResult) -> ExampleResult:
    """An example named by two scenarios keeps the more serious status."""
    if old is None:
        return new
    return old if _RANK[old.status] <= _RANK[new.status] else new


def _normal(text: str) -> str:
    """Text for quote matching: NFC, one kind of quote and apostrophe, single spaces."""
    text = unicodedata.normalize("NFC", text)
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("«", '"'),
                         ("»", '"'), ("\u00a0", " "), ("\u202f", " ")):
        text = text.replace(fancy, plain)
    return " ".join(text.split()).casefold()


def check_examples(source: Store | KnowledgeBase, paths: Iterable[Path] = ()
                   ) -> list[ExampleResult]:
    """For the consistency report: every worked example of the index with its status (id,
    source, language, status, claim, computed, and the rule that changed for era-dependent
    ones). Scenario ids missing from the index are left out."""
    store = getattr(source, "store", source)
    return run_check(store, paths).results
