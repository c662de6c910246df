"""Scenarios as data: reading ``[[card]]`` and ``[[scenario]]`` tables from TOML files and
refusing, with file and line, anything the format (:mod:`kb.check.schema`) does not hold."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.check.facts import FACTS, show
from kb.check.schema import (
    ACTIONS,
    FACT_KEYS,
    NOT_CHECKABLE_KINDS,
    SCENARIO_KEYS,
    SETUP_ENTRY_KEYS,
    SETUP_KEYS,
    STEP_KEYS,
)
from kb.errors import KbError

ZONE_KEYS = ("battlefield", "hand", "graveyard", "library", "exile", "command")

if TYPE_CHECKING:
    from kb.engine.objects import Printed


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
        return f"{subject}{self.what}{param} = {show(value)}{when}"


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
    multiplayer: Mapping[str, Any] | None = None  # kb.engine.multiplayer's options
    vanguard: Mapping[str, Mapping[str, int]] | None = None  # player -> modifiers (902)
    commanders: Mapping[str, str] | None = None  # player -> the alias of their commander
    not_checkable: str | None = None  # the reason
    because: str | None = None  # timing, randomness or definition
    source: str | None = None  # where the scenario comes from (a question, another suite)
    seed: int = 0  # of the game's randomness (a random discard, a shuffle)
    step_lines: tuple[int, ...] = ()  # the line of each [[scenario.step]]

    @property
    def question(self) -> bool:
        """A scenario that verifies no example asks a question: kb shows what it led to."""
        return not self.claims

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


def load(files: Sequence[Path], base: Mapping[str, Printed] | None = None) -> Library:
    """Read scenario files: their ``[[card]]`` and ``[[scenario]]`` tables. ``base``: cards
    defined elsewhere (the embedded card files), which the files' own may replace."""
    from kb.engine import EngineError, card_from_data

    cards: dict[str, Printed] = dict(base or {})
    own: set[str] = set()
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
            if key in own:
                raise KbError(f"{where}: card {key!r} is defined twice")
            own.add(key)
            try:
                cards[key] = card_from_data(card, f"{where} ({key})")
            except EngineError as exc:
                raise KbError(str(exc)) from exc
        scenario_lines = _header_lines(text, "scenario")
        step_lines = _header_lines(text, "scenario.step")
        for i, raw in enumerate(data.get("scenario", [])):
            end = scenario_lines[i + 1] if i + 1 < len(scenario_lines) else 1 << 30
            scenario = _scenario(raw, path, scenario_lines[i],
                                 tuple(n for n in step_lines if scenario_lines[i] < n < end))
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
    pattern = re.compile(rf"^[ \t]*\[\[[ \t]*{re.escape(table)}[ \t]*\]\]", re.M)
    return [text.count("\n", 0, m.start()) + 1 for m in pattern.finditer(text)]


def _scenario(raw: Mapping[str, Any], path: Path, line: int,
              step_lines: tuple[int, ...] = ()) -> Scenario:
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
    if raw.get("source") is not None and not isinstance(raw["source"], str):
        raise KbError(f"{where}: source is text (where the scenario comes from)")
    if not isinstance(raw.get("seed", 0), int):
        raise KbError(f"{where}: seed is a whole number")
    common = {"name": name, "file": path, "line": line, "claims": tuple(claims),
              "source": raw.get("source"), "seed": raw.get("seed", 0)}
    if raw.get("status") is not None:
        if not claims:
            raise KbError(f"{where}: a not checkable scenario names the examples it is about "
                          "(verifies)")
        if raw["status"] != "not checkable":
            raise KbError(f"{where}: status can only be 'not checkable'")
        if not raw.get("reason") or raw.get("because") not in NOT_CHECKABLE_KINDS:
            raise KbError(f"{where}: a not checkable scenario gives a reason and 'because' "
                          f"({', '.join(NOT_CHECKABLE_KINDS)})")
        if raw.get("expect") or raw.get("step"):
            raise KbError(f"{where}: a not checkable scenario has no steps or facts")
        return Scenario(**common, not_checkable=raw["reason"], because=raw["because"])
    facts = tuple(_fact(f, where) for f in raw.get("expect", []))
    if not (facts or raw.get("step") or raw.get("setup")):
        raise KbError(f"{where}: a scenario sets up a game, takes steps or states facts "
                      "(setup, step, expect)")
    if claims and not facts:
        raise KbError(f"{where}: a scenario that verifies examples states the facts their "
                      "claims assert (expect)")
    steps = tuple(raw.get("step", []))
    for number, step in enumerate(steps, 1):
        _check_step(step, f"{where}, step {number}")
    labels = {s.get("label") for s in steps if s.get("label")}
    for fact in facts:
        if fact.at is not None and fact.at not in labels:
            raise KbError(f"{where}: fact at {fact.at!r}: no step has that label")
    setup = raw.get("setup", {})
    _check_setup(setup, where)
    if raw.get("era") is not None:
        from kb.engine import VARIANTS

        if raw["era"] not in VARIANTS or raw["era"] == "current":
            raise KbError(f"{where}: unknown era {raw['era']!r} "
                          f"(known: {', '.join(v for v in VARIANTS if v != 'current')})")
    players = tuple(raw.get("players", ("you", "opponent")))
    if raw.get("multiplayer") is not None:
        from kb.engine.multiplayer import Multiplayer, MultiplayerError

        try:
            Multiplayer.from_options(players, raw["multiplayer"])
        except (MultiplayerError, KeyError, TypeError, ValueError) as exc:
            raise KbError(f"{where}: multiplayer: {exc}") from exc
    if raw.get("vanguard") is not None:
        from kb.engine.vanguard import VanguardError, hand_size

        try:
            for player, modifiers in raw["vanguard"].items():
                if player not in players:
                    raise VanguardError(f"no player {player!r}")
                hand_size(modifiers)
        except (VanguardError, AttributeError) as exc:
            raise KbError(f"{where}: vanguard: {exc}") from exc
    return Scenario(**common, facts=facts, steps=steps, setup=setup, players=players,
                    life=raw.get("life", 20), active=raw.get("active"),
                    step=raw.get("start", "precombat main"), era=raw.get("era"),
                    multiplayer=raw.get("multiplayer"), vanguard=raw.get("vanguard"),
                    commanders=raw.get("commanders"), step_lines=step_lines)


def _check_setup(setup: Mapping[str, Any], where: str) -> None:
    from kb.engine import EngineError, card_from_data
    from kb.engine.game import SETUP_STATUS

    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise KbError(f"{where}: unknown setup keys {sorted(unknown)} "
                      f"(known: {sorted(SETUP_KEYS)})")
    for zone in ZONE_KEYS:
        for entry in setup.get(zone, []):
            unknown = set(entry) - SETUP_ENTRY_KEYS - SETUP_STATUS
            if unknown:
                raise KbError(f"{where}: setup.{zone}: unknown keys {sorted(unknown)} (known: "
                              f"{sorted(SETUP_ENTRY_KEYS | SETUP_STATUS)})")
            if ("card" in entry) == ("define" in entry):
                raise KbError(f"{where}: setup.{zone}: each entry has 'card' or 'define'")
            if "define" in entry:
                try:
                    card_from_data(entry["define"], f"{where}: setup.{zone}: define")
                except EngineError as exc:
                    raise KbError(str(exc)) from exc


def _fact(raw: Mapping[str, Any], where: str) -> Fact:
    unknown = set(raw) - FACT_KEYS
    if unknown or "what" not in raw or "is" not in raw:
        raise KbError(f"{where}: a fact has 'what' and 'is' (and may have of, at, ability, "
                      f"kind, key); got {sorted(raw)}")
    if raw["what"] not in FACTS:
        raise KbError(f"{where}: unknown fact {raw['what']!r} (known: {', '.join(FACTS)})")
    param = raw.get("ability") or raw.get("kind") or raw.get("key")
    return Fact(raw["what"], raw.get("of"), raw["is"], raw.get("at"), param)


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
    from kb.engine import EngineError
    from kb.engine.cards import check_instructions, token_from_data

    try:
        if action == "effect":
            check_instructions(step["ops"], where)
        if action == "token" and "token" in step:
            token_from_data(step["token"], f"{where}, token")
    except EngineError as exc:
        raise KbError(str(exc)) from exc
    if action == "check":
        if step["action"].get("do") == "check":
            raise KbError(f"{where}: a check can't check a check")
        _check_step(step["action"], where)


def normal_quote(text: str) -> str:
    """Text for quote matching: NFC, one kind of quote and apostrophe, single spaces."""
    text = unicodedata.normalize("NFC", text)
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'),
                         ("«", '"'), ("»", '"'), ("\u00a0", " "), ("\u202f", " ")):
        text = text.replace(fancy, plain)
    return " ".join(text.split()).casefold()
