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
from kb.i18n import _

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
        return place(self.file, self.line, self.name)


def place(file: Path, line: int, name: str) -> str:
    """Where a scenario is, for a message: its file, line and name (the file and line first,
    as every message of a scenario file starts, so that a result can be placed from it)."""
    return _("{file}:{line} (scenario {name!r})").format(file=file, line=line, name=name)


def misquoted(scenario: Scenario, claim_id: str, quote: str) -> str:
    """Why a scenario is refused whose quoted claim its record's text does not hold."""
    return _("{where}: the claim quoted for {id} is not in its text: {quote!r}").format(
        where=scenario.where, id=claim_id, quote=quote)


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
            raise KbError(_("{path}: no such scenario file or folder").format(path=path))
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
            raise KbError(_("{path}: unknown tables {tables} (card, scenario)").format(
                path=path, tables=sorted(unknown)))
        card_lines = _header_lines(text, "card")
        for i, card in enumerate(data.get("card", [])):
            where = f"{path}:{card_lines[i]}"
            name = card.get("name") or (card.get("faces") or [{}])[0].get("name")
            if not name:
                raise KbError(_("{where}: a card needs a name").format(where=where))
            key = _card_key(card)
            if key in own:
                raise KbError(_("{where}: card {name!r} is defined twice").format(
                    where=where, name=key))
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
                raise KbError(_("{where}: name already used in {other}").format(
                    where=scenario.where, other=names[scenario.name]))
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
        raise KbError(_("{where}: a scenario needs a name").format(where=where))
    where = place(path, line, name)
    unknown = set(raw) - SCENARIO_KEYS
    if unknown:
        raise KbError(_("{where}: unknown keys {keys}").format(where=where, keys=sorted(unknown)))
    claims = []
    for item in raw.get("verifies", []):
        if set(item) != {"id", "claim"}:
            raise KbError(_("{where}: each 'verifies' entry has an id and a claim (a quote)")
                          .format(where=where))
        claims.append(Claim(item["id"], item["claim"]))
    if raw.get("source") is not None and not isinstance(raw["source"], str):
        raise KbError(_("{where}: source is text (where the scenario comes from)")
                      .format(where=where))
    if not isinstance(raw.get("seed", 0), int):
        raise KbError(_("{where}: seed is a whole number").format(where=where))
    common = {"name": name, "file": path, "line": line, "claims": tuple(claims),
              "source": raw.get("source"), "seed": raw.get("seed", 0)}
    if raw.get("status") is not None:
        if not claims:
            raise KbError(_("{where}: a not checkable scenario names the examples it is "
                            "about (verifies)").format(where=where))
        if raw["status"] != "not checkable":
            raise KbError(_("{where}: status can only be 'not checkable'").format(where=where))
        if not raw.get("reason") or raw.get("because") not in NOT_CHECKABLE_KINDS:
            raise KbError(_("{where}: a not checkable scenario gives a reason and 'because' "
                            "({kinds})").format(where=where, kinds=", ".join(NOT_CHECKABLE_KINDS)))
        if raw.get("expect") or raw.get("step"):
            raise KbError(_("{where}: a not checkable scenario has no steps or facts")
                          .format(where=where))
        return Scenario(**common, not_checkable=raw["reason"], because=raw["because"])
    facts = tuple(_fact(f, where) for f in raw.get("expect", []))
    if not (facts or raw.get("step") or raw.get("setup")):
        raise KbError(_("{where}: a scenario sets up a game, takes steps or states facts "
                        "(setup, step, expect)").format(where=where))
    if claims and not facts:
        raise KbError(_("{where}: a scenario that verifies examples states the facts their "
                        "claims assert (expect)").format(where=where))
    steps = tuple(raw.get("step", []))
    for number, step in enumerate(steps, 1):
        _check_step(step, _("{where}, step {number}").format(where=where, number=number))
    labels = {s.get("label") for s in steps if s.get("label")}
    for fact in facts:
        if fact.at is not None and fact.at not in labels:
            raise KbError(_("{where}: fact at {label!r}: no step has that label").format(
                where=where, label=fact.at))
    setup = raw.get("setup", {})
    _check_setup(setup, where)
    if raw.get("era") is not None:
        from kb.engine import VARIANTS

        if raw["era"] not in VARIANTS or raw["era"] == "current":
            raise KbError(_("{where}: unknown era {era!r} (known: {known})").format(
                where=where, era=raw["era"],
                known=", ".join(v for v in VARIANTS if v != "current")))
    players = tuple(raw.get("players", ("you", "opponent")))
    if raw.get("multiplayer") is not None:
        from kb.engine.multiplayer import Multiplayer, MultiplayerError

        try:
            Multiplayer.from_options(players, raw["multiplayer"])
        except (MultiplayerError, KeyError, TypeError, ValueError) as exc:
            raise KbError(_("{where}: multiplayer: {error}").format(
                where=where, error=exc)) from exc
    if raw.get("vanguard") is not None:
        from kb.engine.vanguard import VanguardError, hand_size

        try:
            for player, modifiers in raw["vanguard"].items():
                if player not in players:
                    raise VanguardError(_("no player {player!r}").format(player=player))
                hand_size(modifiers)
        except (VanguardError, AttributeError) as exc:
            raise KbError(_("{where}: vanguard: {error}").format(where=where, error=exc)) from exc
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
        raise KbError(_("{where}: unknown setup keys {keys} (known: {known})").format(
            where=where, keys=sorted(unknown), known=sorted(SETUP_KEYS)))
    for zone in ZONE_KEYS:
        for entry in setup.get(zone, []):
            unknown = set(entry) - SETUP_ENTRY_KEYS - SETUP_STATUS
            if unknown:
                raise KbError(_("{where}: setup.{zone}: unknown keys {keys} (known: {known})")
                              .format(where=where, zone=zone, keys=sorted(unknown),
                                      known=sorted(SETUP_ENTRY_KEYS | SETUP_STATUS)))
            if ("card" in entry) == ("define" in entry):
                raise KbError(_("{where}: setup.{zone}: each entry has 'card' or 'define'")
                              .format(where=where, zone=zone))
            if "define" in entry:
                try:
                    card_from_data(entry["define"], f"{where}: setup.{zone}: define")
                except EngineError as exc:
                    raise KbError(str(exc)) from exc


def _fact(raw: Mapping[str, Any], where: str) -> Fact:
    unknown = set(raw) - FACT_KEYS
    if unknown or "what" not in raw or "is" not in raw:
        raise KbError(_("{where}: a fact has 'what' and 'is' (and may have of, at, ability, "
                        "kind, key); got {keys}").format(where=where, keys=sorted(raw)))
    if raw["what"] not in FACTS:
        raise KbError(_("{where}: unknown fact {what!r} (known: {known})").format(
            where=where, what=raw["what"], known=", ".join(FACTS)))
    param = raw.get("ability") or raw.get("kind") or raw.get("key")
    return Fact(raw["what"], raw.get("of"), raw["is"], raw.get("at"), param)


def _check_step(step: Mapping[str, Any], where: str) -> None:
    action = step.get("do")
    if action not in ACTIONS:
        raise KbError(_("{where}: unknown action {action!r} (known: {known})").format(
            where=where, action=action, known=", ".join(ACTIONS)))
    required, optional = ACTIONS[action]
    missing = required - set(step)
    unknown = set(step) - required - optional - STEP_KEYS
    if missing or unknown:
        problems = ([_("missing {keys}").format(keys=sorted(missing))] if missing else []) + (
            [_("unknown {keys}").format(keys=sorted(unknown))] if unknown else [])
        raise KbError(_("{where}: step {action!r}: {problems}").format(
            where=where, action=action, problems=" ".join(problems)))
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
            raise KbError(_("{where}: a check can't check a check").format(where=where))
        _check_step(step["action"], where)


def normal_quote(text: str) -> str:
    """Text for quote matching: NFC, one kind of quote and apostrophe, single spaces."""
    text = unicodedata.normalize("NFC", text)
    for fancy, plain in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'),
                         ("«", '"'), ("»", '"'), ("\u00a0", " "), ("\u202f", " ")):
        text = text.replace(fancy, plain)
    return " ".join(text.split()).casefold()
