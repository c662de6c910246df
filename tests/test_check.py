"""``kb check``: scenarios, statuses of the worked examples, and the honesty of the facts."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb.check import (
    STATUSES,
    CheckReport,
    ExampleResult,
    check_examples,
    load,
    play,
    run_check,
    scenario_files,
)
from kb.cli import cli
from kb.errors import KbError
from kb.reader import KnowledgeBase
from kb.store import Store

LIBRARY = load(scenario_files())

# The scenarios whose example holds only under the rules of its time, and the rule that
# changed (read from the rules of 2026-04-17 and of the example's era).
ERA_DEPENDENT = {
    "Feral Animist with negative power (2013 ruling)": "107.1b",
    "Fuse: a split card revealed to Duskmantle Seer (2013 rules)": "709.4",
    "Echo: left and returned, phased in, or control gained since the last upkeep": "702.26d",
    "Urza's Saga trample: a blocker enchanted with Gaseous Form is ignored": "702.19b",
}
NOT_CHECKABLE = {
    "Reap Intellect: no spells during its resolution": "timing",
    "Goblin Test Pilot: a random target": "randomness",
    "Echo: a rules change of Time Spiral": "definition",
    "Urza's Saga: effect duration": "definition",
}


@pytest.fixture(scope="module")
def report(cr_index: Path) -> CheckReport:
    with KnowledgeBase(cr_index) as kb:
        return run_check(kb.store)


# -- the scenarios themselves ----------------------------------------------------------------


def test_every_scenario_plays_to_its_status() -> None:
    statuses = {s.name: play(s, LIBRARY.cards) for s in LIBRARY.scenarios}
    for name, outcome in statuses.items():
        if name in ERA_DEPENDENT:
            assert outcome.status == "era-dependent", (name, outcome.computed)
            assert outcome.changed_rule and ERA_DEPENDENT[name] in outcome.changed_rule
        elif name in NOT_CHECKABLE or outcome.scenario.not_checkable is not None:
            # The seeds' are listed; the CR's (corpus/scenarios/cr_*.toml) say so themselves.
            assert outcome.status == "not checkable"
            assert outcome.scenario.because == NOT_CHECKABLE.get(name, outcome.scenario.because)
        else:
            assert outcome.status == "verified", (name, outcome.mismatches)


def _mutated(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "{1}" if value.startswith("{") or not value else value + " (changed)"
    if isinstance(value, list):
        return [*value, "changed"]
    raise AssertionError(f"no mutation for {value!r}")


def test_every_fact_is_load_bearing() -> None:
    """Change any one expected fact of a scenario: the scenario must then fail (contradicted;
    refused, for an era-dependent one whose step today's rules refuse)."""
    defects = []
    for scenario in LIBRARY.scenarios:
        for i, fact in enumerate(scenario.facts):
            facts = list(scenario.facts)
            facts[i] = replace(fact, expected=_mutated(fact.expected))
            outcome = play(replace(scenario, facts=tuple(facts)), LIBRARY.cards)
            if outcome.status not in ("contradicted", "refused"):
                defects.append(f"{scenario.name}: {fact} still {outcome.status}")
    assert not defects


def test_the_mutation_test_covers_every_scenario_file() -> None:
    """Every scenario file of corpus/scenarios (those of other branches included) is loaded
    into the library the mutation test walks, and every checkable scenario has facts."""
    folder = Path(__file__).parents[1] / "corpus" / "scenarios"
    with_scenarios = {p.name for p in folder.glob("*.toml")
                      if "[[scenario]]" in p.read_text(encoding="utf-8")}
    assert {s.file.name for s in LIBRARY.scenarios} == with_scenarios
    assert all(s.facts for s in LIBRARY.scenarios if s.not_checkable is None)


def test_contradicted_shows_the_claim_and_the_computed_value() -> None:
    scenario = next(s for s in LIBRARY.scenarios if s.name == "Feral Animist activated twice")
    facts = (replace(scenario.facts[0], expected=["+3/+0"]),) + scenario.facts[1:]
    outcome = play(replace(scenario, facts=facts), LIBRARY.cards)
    assert outcome.status == "contradicted"
    assert outcome.mismatches == ("first.effect = [+2/+0], the claim says [+3/+0]",)


# -- loading ---------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "extra.toml"
    path.write_text(text, encoding="utf-8")
    return path


SCENARIO = """
# a comment line

[[scenario]]
name = "an extra scenario"
verifies = [{ id = "cr:en:2026-04-17:613.4d/ex3", claim = "the creature becomes 1/4" }]
setup.battlefield = [{ define = { types = ["Creature"], power = 1, toughness = 3 }, as = "c" }]
[[scenario.step]]
do = "effect"
ops = [{ op = "pump", who = "c", pt = [0, 1] }]
[[scenario.expect]]
what = "pt"
of = "c"
is = "1/4"
"""


@pytest.mark.parametrize(("change", "message"), [
    (("do = \"effect\"", "do = \"efect\""), "unknown action 'efect'"),
    (("what = \"pt\"", "what = \"pt!\""), "unknown fact 'pt!'"),
    (("name = \"an extra scenario\"", "name = \"an extra scenario\"\nera = \"1999\""),
     "unknown era '1999'"),
    (("[[scenario.expect]]\nwhat", "[[scenario.expect]]\nat = \"nowhere\"\nwhat"),
     "no step has that label"),
    (("setup.battlefield", "setup.graveyards"), "unknown setup keys"),
])
def test_bad_scenarios_are_refused_with_file_and_line(tmp_path: Path,
                                                     change: tuple[str, str],
                                                     message: str) -> None:
    path = _write(tmp_path, SCENARIO.replace(*change))
    with pytest.raises(KbError, match=message) as caught:
        load([path])
    assert f"{path}:4" in str(caught.value)  # the [[scenario]] header is on line 4


def test_broken_toml_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, SCENARIO.replace("is = \"1/4\"", "is = "))
    with pytest.raises(KbError, match="extra.toml"):
        load([path])


def test_a_claim_must_be_a_quote_of_its_record(cr_index: Path, tmp_path: Path) -> None:
    path = _write(tmp_path, SCENARIO.replace("the creature becomes 1/4",
                                             "the creature becomes 4/1"))
    with KnowledgeBase(cr_index) as kb, pytest.raises(KbError, match="not in its text"):
        run_check(kb.store, [path])


def test_an_extra_scenario_file_is_played(cr_index: Path, tmp_path: Path) -> None:
    path = _write(tmp_path, SCENARIO)
    with KnowledgeBase(cr_index) as kb:
        plain, extra = run_check(kb.store), run_check(kb.store, [path])
    assert extra.scenarios == plain.scenarios + 1


# -- statuses of the corpus's worked examples ------------------------------------------------


SEEDS = ("000_3e28a88beae8982b.txt", "001_f4c4515b1d59e611.txt", "002_6c6ccf816af3a3ad.txt",
         "003_45f11bb513e6f443.txt", "004_a6e7784aa109b725.txt")


def test_every_worked_example_of_the_seeds_has_a_status(report: CheckReport) -> None:
    per_seed = {s: [r for r in report.results if r.source == s] for s in SEEDS}
    assert not [r.id for rs in per_seed.values() for r in rs if r.status == "not modelled"]
    # Counted in the documents: 003 has 21 "Exemple :" paragraphs; 002 has 6 "Example:"
    # (with 7 notes the scenarios name: trample, echo, sleeping and growing enchantments);
    # 001 has 27 paragraphs saying "par exemple"; 000 has 4 commentary notes; 004 files 24
    # of its 26 rulings under a mechanic.
    assert [len(per_seed[s]) for s in SEEDS] == [4, 27, 13, 21, 24]


def test_the_cr_examples_of_the_named_rules_are_modelled(report: CheckReport) -> None:
    prefixes = tuple(f"cr:en:2026-04-17:{n}" for n in ("707", "613", "702.19", "702.102",
                                                        "310", "704"))
    mine = [r for r in report.results if r.id.startswith(prefixes) and "/ex" in r.id]
    assert len(mine) == 41  # read off the 2026-04-17 file: 30 in 707, 12 in 613 ... 0 in 310
    assert {r.status for r in mine} == {"verified"}


def test_french_and_english_texts_of_an_example_share_a_status(report: CheckReport) -> None:
    by_id = {r.id: r for r in report.results}
    for french, english in (("cr:fr:2024:707.9d/ex1", "cr:en:2026-04-17:707.9d/ex1"),
                            ("faq:fr:dgm-2013-03-21:animiste-sauvage/2",
                             "faq:en:dgm-2013-03-21:feral-animist/2")):
        assert by_id[french].status == by_id[english].status
        assert (by_id[french].language, by_id[english].language) == ("fr", "en")


def test_era_dependent_results_name_the_changed_rule(report: CheckReport) -> None:
    era = {r.id: r for r in report.results if r.status == "era-dependent"}
    assert "702.19b" in (era["crystalkeep:urza-s-saga:trample/5"].changed_rule or "")
    assert "107.1b" in (era["faq:fr:dgm-2013-03-21:animiste-sauvage/2"].changed_rule or "")


def test_older_versions_of_a_quoted_example_follow_it(report: CheckReport) -> None:
    by_id = {r.id: r for r in report.results}
    older = by_id["cr:en:2025-02-07:707.9d/ex1"]
    assert (older.status, older.same_claim_as) == ("verified", "cr:en:2026-04-17:707.9d/ex1")


def test_ids_missing_from_the_index_are_reported(tmp_path: Path) -> None:
    from kb.api import build_index

    index = tmp_path / "index"
    build_index(index, [])  # the embedded corpus: the 2026 CR, not the English FAQ
    with KnowledgeBase(index) as kb:
        report = run_check(kb.store)
    missing = {record_id for record_id, _ in report.not_in_index}
    assert "faq:en:dgm-2013-03-21:feral-animist/1" in missing
    assert "cr:en:2026-04-17:707.2/ex1" not in missing
    assert "cr:fr:2024:707.2/ex1" not in missing
    assert all(not r.id.startswith("faq:en:") for r in report.results)


def test_check_examples_for_the_consistency_report(cr_index: Path) -> None:
    with KnowledgeBase(cr_index) as kb:
        results = check_examples(kb)
        assert results == check_examples(kb.store)
    assert all(isinstance(r, ExampleResult) and r.status in STATUSES for r in results)
    trample = next(r for r in results if r.id == "crystalkeep:urza-s-saga:trample/5")
    assert set(trample.as_dict()) >= {"id", "source", "language", "status", "claim",
                                      "computed", "changed_rule"}


def test_the_selection_finds_examples_notes_and_rulings(cr_index: Path) -> None:
    from kb.check import select_examples
    from kb.indexdir import IndexDir

    store = Store.open(IndexDir(cr_index).current_store())
    try:
        found = select_examples(store)
    finally:
        store.close()
    kinds = {e.kind for e in found.values()}
    assert kinds == {"example", "ruling", "note"}
    assert "rulings:004:11" not in found  # a ruling about one card's trigger, no mechanic
    assert "kw:fr:echo:note/2" in found  # a note with claims


# -- the command -----------------------------------------------------------------------------


def _run(index: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--index", str(index), "check", *args])


def test_cli_json(cr_index: Path) -> None:
    result = _run(cr_index, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data["summary"]) == list(STATUSES)
    assert sum(data["summary"].values()) == len(data["examples"])
    first = data["examples"][0]
    assert {"id", "source", "language", "status", "claim", "computed"} <= set(first)


def test_cli_text_lists_the_asked_statuses(cr_index: Path) -> None:
    result = _run(cr_index, "--status", "not checkable")
    assert result.exit_code == 0
    assert "not checkable: faq:fr:dgm-2013-03-21:pilote-d-essai-gobelin/1" in result.output
    assert "reason:" in result.output


def test_cli_bad_scenario_file_is_an_error(cr_index: Path, tmp_path: Path) -> None:
    path = _write(tmp_path, "[[scenario]]\nname = \"x\"\n")
    result = _run(cr_index, "--scenario", str(path))
    assert result.exit_code == 1
    assert f"{path}:1" in result.output and "Traceback" not in result.output


QUESTION = """
[[scenario]]
name = "What happens to a 2/2 dealt 3 damage?"
setup.battlefield = [{ card = "Grizzly Bears", as = "bear", owner = "opponent" }]
setup.hand = [{ card = "Lightning Bolt", as = "bolt" }]
[[scenario.step]]
do = "cast"
card = "bolt"
targets = ["bear"]
mana = "{R}"
[[scenario.step]]
do = "resolve"
"""
EXPECTED = QUESTION.replace("What happens to a 2/2 dealt 3 damage?", "A 2/2 dealt 3 damage") + """
[[scenario.expect]]
what = "zone"
of = "bear"
is = "graveyard"
"""


def _user(tmp_path: Path, *args: str) -> Any:
    """kb check --scenario, with no index at all: a user's scenarios need none."""
    return CliRunner().invoke(cli, ["--index", str(tmp_path / "no-index"), "check", *args])


def test_cli_a_user_scenario_without_verifies_is_a_question_answered(tmp_path: Path) -> None:
    path = _write(tmp_path, QUESTION)
    text = _user(tmp_path, "--scenario", str(path))
    assert text.exit_code == 0, text.output
    assert f"answered: What happens to a 2/2 dealt 3 damage?  ({path}:2)" in text.output
    assert "graveyard [bear (Grizzly Bears)]" in text.output  # the final state
    assert "704.5g    bear has lethal damage: destroyed" in text.output  # the rules applied
    data = json.loads(_user(tmp_path, "--scenario", str(path), "--json").output)
    (only,) = data["scenarios"]
    assert (only["status"], only["question"], only["line"]) == ("answered", True, 2)
    assert only["final_state"]["players"]["opponent"]["graveyard"] == ["bear (Grizzly Bears)"]
    assert {"rule": "704.5g", "what": "bear has lethal damage: destroyed"} in only["rules"]
    assert data["summary"]["answered"] == 1 and not data["index"]


def test_cli_a_folder_with_a_refused_file_and_two_good_ones(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "a_question.toml").write_text(QUESTION, encoding="utf-8")
    (folder / "b_expected.toml").write_text(EXPECTED, encoding="utf-8")
    bad = folder / "c_bad.toml"
    bad.write_text(QUESTION.replace('owner = "opponent" }', 'owner = "opponent", sleepy = 1 }'),
                   encoding="utf-8")
    text = _user(tmp_path, "--scenario", str(folder))
    assert text.exit_code == 1
    assert "answered: What happens to a 2/2 dealt 3 damage?" in text.output
    assert "verified: A 2/2 dealt 3 damage" in text.output
    assert f"refused: {bad}:2" in text.output and "unknown keys ['sleepy']" in text.output
    assert "3 scenarios: 1 verified, 1 refused, 1 answered" in text.output
    result = _user(tmp_path, "--scenario", str(folder), "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    statuses = {Path(r["file"]).name: r["status"] for r in data["scenarios"]}
    assert statuses == {"a_question.toml": "answered", "b_expected.toml": "verified",
                        "c_bad.toml": "refused"}
    refused = next(r for r in data["scenarios"] if r["status"] == "refused")
    assert refused["line"] == 2 and "sleepy" in refused["reason"]
    assert data["summary"] == {"verified": 1, "contradicted": 0, "refused": 1,
                               "era-dependent": 0, "not checkable": 0, "answered": 1}


def test_cli_a_refused_step_is_refused_not_contradicted(tmp_path: Path) -> None:
    """A step the rules forbid is "refused", with its file and line, apart from a fact that
    differs ("contradicted", with the first difference)."""
    refused = _write(tmp_path, EXPECTED.replace('mana = "{R}"', 'mana = "{G}"'))
    data = json.loads(_user(tmp_path, "--scenario", str(refused), "--json").output)
    (only,) = data["scenarios"]
    assert only["status"] == "refused"
    assert only["reason"].startswith(f"{refused}:6: step 1 (cast) refused:")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(EXPECTED.replace('is = "graveyard"', 'is = "exile"'), encoding="utf-8")
    text = _user(tmp_path, "--scenario", str(wrong))
    assert text.exit_code == 1
    assert "contradicted: A 2/2 dealt 3 damage" in text.output
    assert ("first difference: bear.zone = graveyard, the scenario expects exile"
            in text.output)


@pytest.mark.parametrize(("change", "message"), [
    (('do = "resolve"\n', 'do = "resolve"\nchoices = { pay = true }\n'),
     "choices pay: nothing in this step asked for it"),
    (('do = "resolve"\n', 'do = "resolve"\ntrigger_targets = { bear = ["bolt"] }\n'),
     "trigger_targets: 1 target list(s) for bear left unused"),
    (('card = "Grizzly Bears", as = "bear", owner = "opponent" }',
      'card = "Grizzly Bears", as = "bear", owner = "opponent", choices = { color = "red" } }'),
     "choices color: nothing asked for it"),
])
def test_a_choice_nothing_asked_for_is_refused_not_ignored(tmp_path: Path,
                                                           change: tuple[str, str],
                                                           message: str) -> None:
    """No silent no-op: a choice or trigger target that no rule used would otherwise do
    nothing while the scenario seems to say something."""
    path = _write(tmp_path, EXPECTED.replace(*change))
    (only,) = json.loads(_user(tmp_path, "--scenario", str(path), "--json").output)[
        "scenarios"]
    assert only["status"] == "refused" and message in only["reason"]


def test_trigger_targets_give_each_triggered_ability_its_own(tmp_path: Path) -> None:
    """A source whose ability triggers twice in a step: one table per ability."""
    twice = """
[[scenario]]
name = "Two deaths, two targets"
setup.battlefield = [
  { define = { name = "Pinger", types = ["Creature"], power = 1, toughness = 1, abilities = [{\
text = "Whenever another creature dies, this deals 1 damage to any target.", \
trigger = { on = "dies", what = { types = ["Creature"], other = true } }, \
targets = [{ kind = "any" }], effect = [{ op = "damage", to = "target", amount = 1 }] }] }, \
as = "pinger" },
  { card = "Grizzly Bears", as = "a" },
  { card = "Grizzly Bears", as = "b" },
]
[[scenario.step]]
do = "effect"
ops = [{ op = "destroy", who = ["a", "b"] }]
trigger_targets = { pinger = [{ targets = ["opponent"] }, { targets = ["you"] }] }
[[scenario.step]]
do = "resolve_all"
[[scenario.expect]]
what = "life"
of = "opponent"
is = 19
[[scenario.expect]]
what = "life"
of = "you"
is = 19
"""
    data = json.loads(_user(tmp_path, "--scenario", str(_write(tmp_path, twice)),
                            "--json").output)
    assert data["scenarios"][0]["status"] == "verified", data


def test_a_user_scenario_citing_the_index_has_its_quote_checked(cr_index: Path,
                                                               tmp_path: Path) -> None:
    good = _write(tmp_path, SCENARIO)
    data = json.loads(_run(cr_index, "--scenario", str(good), "--json").output)
    (only,) = data["scenarios"]
    assert only["status"] == "verified"
    assert only["verifies"] == [{"id": "cr:en:2026-04-17:613.4d/ex3",
                                 "quote": "the creature becomes 1/4", "in_index": True,
                                 "found": True}]
    wrong = _write(tmp_path, SCENARIO.replace("becomes 1/4", "becomes 4/1"))
    data = json.loads(_run(cr_index, "--scenario", str(wrong), "--json").output)
    assert data["scenarios"][0]["status"] == "refused"
    assert "is not in its text" in data["scenarios"][0]["reason"]


def test_cli_help_and_usage(cr_index: Path) -> None:
    assert _run(cr_index, "--help").exit_code == 0
    assert _run(cr_index, "--status", "maybe").exit_code == 2


# -- the format refuses what it does not understand (issue 13) ---------------------------------

CARD = """
[[card]]
name = "Test Enchantment"
types = ["Enchantment"]
[[card.abilities]]
text = "the ability under test"
"""


@pytest.mark.parametrize(("ability", "message"), [
    ('replacement = { damage_twice = true }', "unknown kind of replacement 'damage_twice'"),
    ('replacement = { enters_tapped = { affects = { types = ["Land"] } } }',
     "enters_tapped: must be true"),
    ('static = { affects = { colour = ["W"] }, pump = [1, 1] }',
     r"unknown filter keys \['colour'\]"),
    ('static = { affects = "self", pumps = [1, 1] }', "unknown continuous changes"),
    ('trigger = { on = "dying" }\neffect = []', "a trigger has 'on'"),
    ('trigger = { on = "dies", whom = "self" }\neffect = []', "unknown trigger keys"),
    ('cost = "{1}"\neffect = [{ op = "damage_twice" }]', "unknown instruction 'damage_twice'"),
    ('cost = "{1}"\neffect = [{ op = "damage", to = { all = {} }, amount = 1 }]',
     "a table there is"),
    ('cost = "{1}"\neffect = [{ op = "destroy", who = { each = { kind = "x" } } }]',
     r"unknown filter keys \['kind'\]"),
    ('cost = "{1}"\neffect = [{ op = "tap", who = "target", if = { rainy = true } }]',
     "unknown condition"),
    ('cost = "{1}"\ntargets = [{ kind = "wizard" }]\neffect = []', "unknown target kind"),
])
def test_unknown_card_parts_are_refused_with_file_and_line(tmp_path: Path, ability: str,
                                                          message: str) -> None:
    path = _write(tmp_path, CARD + ability + "\n" + SCENARIO)
    with pytest.raises(KbError, match=message) as caught:
        load([path])
    assert f"{path}:2" in str(caught.value)  # the [[card]] header is on line 2


@pytest.mark.parametrize(("change", "message"), [
    (("as = \"c\" }]", "as = \"c\", sleepy = true }]"), r"unknown keys \['sleepy'\]"),
    (("define = { types", "defined = { types"), "unknown keys"),
    (("ops = [{ op = \"pump\", who = \"c\", pt = [0, 1] }]",
      "ops = [{ op = \"pump\", who = { each = { sort = 1 } }, pt = [0, 1] }]"),
     "unknown filter keys"),
    (("ops = [{ op = \"pump\"", "ops = [{ op = \"pumped\""), "unknown instruction 'pumped'"),
    (("power = 1, toughness = 3 }", "power = 1, toughness = 3, speed = 2 }"),
     "unknown card keys"),
])
def test_unknown_setup_and_step_parts_are_refused(tmp_path: Path, change: tuple[str, str],
                                                  message: str) -> None:
    path = _write(tmp_path, SCENARIO.replace(*change))
    with pytest.raises(KbError, match=message) as caught:
        load([path])
    assert f"{path}:4" in str(caught.value)


def test_the_format_page_names_every_part_of_the_schema() -> None:
    """docs/scenarios.md and the code's tables (the schema) agree: every action, fact, setup
    key, status, instruction, filter, trigger event, condition, continuous change, player
    rule, target key, choice and kind of replacement is documented, and the action table has
    no other action."""
    import re

    from kb.check.facts import FACTS
    from kb.check.schema import (
        ACTIONS,
        SCENARIO_KEYS,
        SCENARIO_STATUSES,
        SETUP_ENTRY_KEYS,
        SETUP_KEYS,
        STATUSES,
        STEP_KEYS,
    )
    from kb.engine import conditions, player_rules
    from kb.engine.filters import FILTER_KEYS
    from kb.engine.game import SETUP_STATUS
    from kb.engine.instructions import OP_KEYS, TARGET_KEYS
    from kb.engine.layers import MOD_LAYER, STATIC_EXTRA
    from kb.engine.replacements import APPLIES_TO, COMMON, EVENTS, KINDS, MODIFIES
    from kb.engine.triggers import TRIGGER_EVENTS, TRIGGER_KEYS

    page = (Path(__file__).parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z_]+)`", page)) | set(re.findall(r"`([a-z -]+)`", page))
    engine = Path(__file__).parents[1] / "kb" / "engine"
    asked = {m for path in engine.glob("*.py") for m in re.findall(
        r'choices(?:\.get\(|\[)"([a-z_]+)"|"([a-z_]+)" (?:not )?in ctx\.choices',
        path.read_text(encoding="utf-8")) for m in m if m} - {"renowned", "opponent"}
    parts = {"actions": set(ACTIONS), "facts": set(FACTS), "scenario keys": SCENARIO_KEYS,
             "step keys": STEP_KEYS, "statuses": set(STATUSES) | set(SCENARIO_STATUSES),
             "setup": SETUP_KEYS | SETUP_ENTRY_KEYS | SETUP_STATUS, "replacements": set(KINDS),
             "replacement events and keys": set(EVENTS) | COMMON
             | {k for keys in (*APPLIES_TO.values(), *MODIFIES.values()) for k in keys},
             "instructions": set(OP_KEYS), "filters": set(FILTER_KEYS),
             "trigger events and keys": set(TRIGGER_EVENTS) | set(TRIGGER_KEYS),
             "conditions": set(conditions.KEYS), "player rules": set(player_rules.RULES),
             "continuous changes": (set(MOD_LAYER) | set(STATIC_EXTRA)) - {"name_sticker"},
             "target keys": set(TARGET_KEYS), "choices": asked}
    missing = {part: sorted(names - named) for part, names in parts.items() if names - named}
    assert not missing
    actions = page[page.index("| do | keys |"):].split("\n\n")[0]
    table = re.findall(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|", actions, re.M)
    in_table = {n for row in table for n in re.findall(r"`([a-z_]+)`", row)}
    assert in_table == set(ACTIONS)


# -- shares: verified apart from "has a status", per CR chapter --------------------------------


def _result(record_id: str, status: str) -> ExampleResult:
    return ExampleResult(record_id, "src", "en", status, "claim", "")


def test_the_verified_share_is_apart_from_the_share_with_a_status() -> None:
    report = CheckReport([
        _result("cr:en:2026-04-17:702.26b/ex1", "verified"),
        _result("cr:en:2026-04-17:702.26b/ex2", "not checkable"),
        _result("cr:en:2026-04-17:107.4f/ex1", "contradicted"),
        _result("cr:en:2026-04-17:111.4/ex1", "not modelled"),
        _result("cr:en:2025-02-07:111.4/ex1", "verified"),  # an older version
        _result("faq:en:dgm:x/1", "verified"),
    ], [], 0)
    assert report.shares() == {"examples": 6, "with_status": 5, "verified": 3}
    cr = report.cr_coverage()
    assert cr == {"version": "2026-04-17", "examples": 4, "with_status": 3, "verified": 1,
                  "chapters": {"1": {"examples": 2, "with_status": 1, "verified": 0},
                               "7": {"examples": 2, "with_status": 2, "verified": 1}}}
    assert report.cr_coverage("2025-02-07")["examples"] == 1  # type: ignore[index]
    assert CheckReport([_result("faq:en:dgm:x/1", "verified")], [], 0).cr_coverage() is None


def test_cli_reports_the_shares_per_chapter(cr_index: Path) -> None:
    data = json.loads(_run(cr_index, "--json").output)
    cr = data["cr"]
    assert cr["version"] == "2026-04-17"
    assert sum(c["examples"] for c in cr["chapters"].values()) == cr["examples"]
    assert cr["verified"] <= cr["with_status"] <= cr["examples"]
    assert data["shares"]["examples"] == len(data["examples"])
    text = _run(cr_index).output
    assert f"CR 2026-04-17 examples: {cr['examples']}, {cr['with_status']} with a status" in text
    assert "chapter  examples  with a status  verified" in text
