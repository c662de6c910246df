"""The command line speaks French under a French locale and English otherwise (issue 22): help
of every command and option, messages, errors (plain and under --json, with the same exit
codes), tables' headings; ``--ui-lang`` wins over the locale, and LC_ALL over LANG."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kb.cli import cli
from kb.i18n import paragraphs

FRENCH = {"LANG": "fr_FR.UTF-8"}
ENGLISH = {"LANG": "C"}
NBSP = "\u00a0"


def run(*args: str, index: Path | None = None, **env: str) -> Result:
    words = ["--index", str(index), *args] if index else list(args)
    return CliRunner().invoke(cli, words, env=env, prog_name="kb")


def test_the_group_help_in_french_and_in_english() -> None:
    french = run("--help", **FRENCH)
    assert french.exit_code == 0
    assert french.output.startswith(f"Utilisation{NBSP}: kb [OPTIONS] COMMANDE [ARGUMENTS]")
    assert f"Commandes{NBSP}:" in french.output and f"Options{NBSP}:" in french.output
    assert re.search(r"\n  rule +Afficher une règle \(702\.19b, par exemple", french.output)
    assert "Afficher ce message et quitter." in french.output
    english = run("--help", **ENGLISH)
    assert english.output.startswith("Usage: kb [OPTIONS] COMMAND")
    assert "Commands:" in english.output
    assert re.search(r"\n  rule +Show a rule \(702\.19b, say", english.output)


def test_the_help_of_every_command_and_option_is_french() -> None:
    """No paragraph of a command's English help, and no option's English help, is left in its
    French help."""
    for name in cli.list_commands(None):  # type: ignore[arg-type]
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        french = run(name, "--help", **FRENCH)
        assert french.exit_code == 0, french.output
        shown = " ".join(french.output.split())  # (split() takes no-break spaces too)
        assert shown.startswith(f"Utilisation : kb {name}"), name
        english = [*paragraphs(command.help or ""),
                   *(p for param in command.params for p in paragraphs(param.help or ""))]
        left = [text for text in english if text[:40] in shown]
        assert not left, (name, left)
        assert "Afficher ce message et quitter." in shown
        # ...and the English help is whole under LANG=C, after the French one.
        assert " ".join(run(name, "--help", **ENGLISH).output.split()).count(
            paragraphs(command.help or "")[0][:40]) == 1, name


def test_errors_in_french_and_english(default_index: Path) -> None:
    french = run("rule", "702.193", index=default_index, **FRENCH)
    assert french.exit_code == 1
    assert french.stderr.startswith(
        f"kb: aucune règle 702.193 dans les règles du 2026-04-17\u202f; les plus proches{NBSP}: "
        "702.192, 702.192a")
    english = run("rule", "702.193", index=default_index, **ENGLISH)
    assert english.exit_code == 1
    assert english.stderr.startswith("kb: no rule 702.193 in the rules of 2026-04-17; nearest: ")


def test_json_errors_keep_their_code_and_speak_the_language(default_index: Path) -> None:
    for env, start in ((FRENCH, "aucune règle 702.193"), (ENGLISH, "no rule 702.193")):
        result = run("rule", "702.193", "--json", index=default_index, **env)
        assert result.exit_code == 1 and result.stdout == ""
        error = json.loads(result.stderr)
        assert error["code"] == 1 and error["error"].startswith(start)
    # A language the index does not hold: refused by the index, as a usage error (exit 2).
    usage = run("rule", "702.19b", "--lang", "de", "--json", index=default_index, **FRENCH)
    assert usage.exit_code == 2
    error = json.loads(usage.stderr)
    assert error["code"] == 2 and error["error"].startswith(
        f"lang{NBSP}: 'de' n’est pas une langue de l’index (choisissez parmi en, fr")


def test_usage_errors_in_french() -> None:
    result = run("rule", "702.19b", "--lang", "d3", **FRENCH)
    assert result.exit_code == 2
    assert f"Essayez «{NBSP}kb rule --help{NBSP}» pour l’aide." in result.stderr
    assert f"Erreur{NBSP}: Valeur incorrecte pour '--lang'{NBSP}: 'd3' n’est ni un code de " \
        "langue" in result.stderr
    mistyped = run("serach", "trample", **FRENCH)
    assert mistyped.exit_code == 2
    assert f"commande 'serach' inconnue\u202f; vouliez-vous dire{NBSP}: search\u202f?" \
        in mistyped.stderr
    missing = run("rule", **FRENCH)
    assert missing.exit_code == 2 and "Argument manquant" in missing.stderr


def test_no_index_says_where_it_looked_in_french(tmp_path: Path) -> None:
    result = run("versions", index=tmp_path / "nowhere", **FRENCH)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"kb: aucun index dans {tmp_path / 'nowhere'}{NBSP}: "
                                    f"lancez d’abord «{NBSP}kb build{NBSP}»")
    assert "--index DIR ou KB_INDEX" in result.stderr


def test_tables_and_messages_in_french(default_index: Path) -> None:
    versions = run("versions", index=default_index, **FRENCH)
    assert versions.output.split("\n")[0].split() == ["version", "fichier", "règles",
                                                       "exemples", "glossaire"]
    search = run("search", "piétinement", "--limit", "1", index=default_index, **FRENCH)
    said = search.output.split("\n")[0]
    assert said.startswith(f"Également cherché{NBSP}: piétinement -> trample (")
    assert "officiel" in said
    assert f"Version des règles{NBSP}: 2026-04-17" in search.output
    assert "[règle, en, 2026-04-17]" in search.output


@pytest.mark.parametrize(("args", "env", "french"), [
    (["--ui-lang", "fr"], ENGLISH, True),
    (["--ui-lang=fr"], ENGLISH, True),
    (["--ui-lang", "en"], FRENCH, False),
    ([], {"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, False),
    ([], {"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "C"}, True),
])
def test_ui_lang_then_lc_all_lc_messages_lang(args: list[str], env: dict[str, str],
                                              french: bool) -> None:
    result = run(*args, "--help", **env)
    assert result.exit_code == 0
    assert result.output.startswith("Utilisation" if french else "Usage:")


def test_an_unknown_ui_lang_is_a_usage_error() -> None:
    result = run("--ui-lang", "de", "versions", **ENGLISH)
    assert result.exit_code == 2 and "'de' is not one of 'en', 'fr'" in result.stderr


def test_the_report_speaks_the_language(default_index: Path) -> None:
    """Issue 22: kb report's own words (its headings, each finding and its fix) in French; file
    names, rule numbers, commands and quoted texts as they are. Seed 003 is the French table
    of rule 707 with rules left in English."""
    french = run("report", "--category", "coverage", index=default_index, **FRENCH)
    assert french.exit_code == 0, french.output
    assert "Couverture française des règles anglaises\u00a0:" in french.output
    assert re.search(r"\n\[avertissement\] untranslated: la règle 707\.\d+ est laissée en "
                     r"anglais dans le texte français de 003_", french.output)
    assert "    correction\u00a0: traduire le paragraphe" in french.output
    assert "    voir\u00a0: kb rule 707" in french.output
    english = run("report", "--category", "coverage", index=default_index, **ENGLISH)
    assert "French coverage of the English rules:" in english.output
    assert re.search(r"\n\[warning\] untranslated: rule 707\.\d+ is left in English in the "
                     r"French text of 003_", english.output)
    html = run("report", "--category", "coverage", "--format", "html", index=default_index,
               **FRENCH).output
    assert '<html lang="fr">' in html and "<h1>Rapport de cohérence de kb</h1>" in html


def test_argument_names_in_the_usage_line_and_errors() -> None:
    """The usage line names the arguments in the interface language, and the help and the
    errors call them the same."""
    help_text = run("card", "--help", **FRENCH).output
    assert help_text.startswith(f"Utilisation{NBSP}: kb card [OPTIONS] NOM\n")
    assert "Afficher la carte NOM" in help_text
    assert f"Utilisation{NBSP}: kb diff [OPTIONS] ANCIENNE [NOUVELLE]" in run(
        "diff", "--help", **FRENCH).output
    assert "--out FICHIER" in run("export", "--help", **FRENCH).output
    missing = run("rule", **FRENCH)
    assert missing.exit_code == 2 and "Argument manquant 'NUMÉRO'" in missing.stderr
    assert run("card", "--help", **ENGLISH).output.startswith("Usage: kb card [OPTIONS] NAME\n")


def test_scenario_file_errors_in_french_and_english(tmp_path: Path) -> None:
    """Issue 22: the errors a user's scenario file gets from ``kb check --scenario`` are in the
    interface language, with the file and line first; the format's own words (its keys and
    actions) are the file's, in English either way. No index is needed."""
    keys = tmp_path / "keys.toml"
    keys.write_text('# a key the format does not know\n[[scenario]]\nname = "sleepy bear"\n'
                    "sleepy = true\n", encoding="utf-8")
    steps = tmp_path / "steps.toml"
    steps.write_text('[[card]]\nname = "Bear"\ntypes = ["Creature"]\npower = 2\n'
                     'toughness = 2\n\n[[scenario]]\nname = "jumping bear"\n'
                     '[[scenario.step]]\ndo = "jump"\n', encoding="utf-8")
    nowhere = tmp_path / "no-index"
    french = run("check", "--scenario", str(keys), "--scenario", str(steps), index=nowhere,
                 **FRENCH)
    assert french.exit_code == 1, french.output
    assert (f"\nrefusé{NBSP}: {keys}:2\n  raison{NBSP}: {keys}:2 (scénario «{NBSP}sleepy "
            f"bear{NBSP}»){NBSP}: clés inconnues ['sleepy']\n") in french.output
    assert (f"  raison{NBSP}: {steps}:7 (scénario «{NBSP}jumping bear{NBSP}»), étape 1{NBSP}: "
            f"action «{NBSP}jump{NBSP}» inconnue (connues{NBSP}: ") in french.output
    assert f"2 scénarios{NBSP}: 2 refusés" in french.output
    english = run("check", "--scenario", str(keys), "--scenario", str(steps), index=nowhere,
                  **ENGLISH)
    assert english.exit_code == 1
    assert (f"\nrefused: {keys}:2\n  reason: {keys}:2 (scenario 'sleepy bear'): unknown keys "
            "['sleepy']\n") in english.output
    assert (f"  reason: {steps}:7 (scenario 'jumping bear'), step 1: unknown action 'jump' "
            "(known: ") in english.output
    # --json: the reason in the chosen language, the status as the format's word.
    data = json.loads(run("check", "--scenario", str(keys), "--json", index=nowhere,
                          **FRENCH).stdout)
    assert data["scenarios"][0]["status"] == "refused"
    assert data["scenarios"][0]["line"] == 2
    assert data["scenarios"][0]["reason"].endswith(f"{NBSP}: clés inconnues ['sleepy']")


# A Lightning Bolt cast at a Grizzly Bears, with {mana} to pay it (the cards of the embedded
# card files).
BOLT = ('[[scenario]]\nname = "Bolt at a bear"\nsetup.battlefield = [\n'
        '  { card = "Grizzly Bears", as = "bear", owner = "opponent" },\n'
        '  { card = "Llanowar Elves", as = "elf", tapped = true }]\n'
        'setup.hand = [{ card = "Lightning Bolt", as = "bolt" }]\n'
        '[[scenario.step]]\ndo = "cast"\ncard = "bolt"\ntargets = ["bear"]\n'
        'mana = "{mana}"\n[[scenario.step]]\ndo = "resolve"\n')


def play_in_both(tmp_path: Path, text: str) -> tuple[Path, Result, Result]:
    """kb check --scenario on one file, with no index, in French and in English."""
    path = tmp_path / "scenario.toml"
    path.write_text(text, encoding="utf-8")
    nowhere = tmp_path / "no-index"
    return (path, run("check", "--scenario", str(path), index=nowhere, **FRENCH),
            run("check", "--scenario", str(path), index=nowhere, **ENGLISH))


def test_a_refused_step_is_framed_in_french(tmp_path: Path) -> None:
    """A step the rules forbid: kb check --scenario says which step of which file and line was
    refused, and why (the engine's mana payment, kb/engine/mana.py), in the interface
    language."""
    path, french, english = play_in_both(tmp_path, BOLT.replace("{mana}", "{G}"))
    assert french.exit_code == 1 and english.exit_code == 1
    assert (f"  raison{NBSP}: {path}:7{NBSP}: étape 1 (cast) refusée{NBSP}: impossible de "
            "payer le {R} de {R} avec {G}\n") in french.output
    assert (f"  reason: {path}:7: step 1 (cast) refused: cannot pay {{R}} of {{R}} from "
            "{G}\n") in english.output


def test_a_question_s_final_state_in_french(tmp_path: Path) -> None:
    """A scenario that asks a question: the state it reached in the interface language, with
    the official French names of the step, the zone and the statuses; the scenario's own
    names (players, aliases) and the card names as the file writes them."""
    _path, french, english = play_in_both(tmp_path, BOLT.replace("{mana}", "{R}"))
    assert french.exit_code == 0, french.output
    assert f"    tour 1 (joueur actif{NBSP}: you), phase principale précombat\n" in french.output
    assert (f"    opponent{NBSP}: 20 points de vie\u202f; main vide\u202f; 0 carte en "
            f"bibliothèque\u202f; cimetière [bear (Grizzly Bears)]\n") in french.output
    assert (f"    champ de bataille{NBSP}: elf (Llanowar Elves) (contrôleur you, "
            "force/endurance 1/1, engagé)\n") in french.output
    assert "    turn 1 (active player: you), precombat main step\n" in english.output
    assert ("    opponent: 20 life; hand empty; library 0 cards; graveyard "
            "[bear (Grizzly Bears)]\n") in english.output
    assert "    battlefield: elf (Llanowar Elves) (controller you, pt 1/1, tapped)\n" \
        in english.output


def test_the_engine_s_combat_reasons_in_french(tmp_path: Path) -> None:
    """The engine's reasons for refusing a combat action (kb/engine/combat.py) in the interface
    language, with the official vocabulary ("engagée", "piétinement")."""
    attack = BOLT.replace("{mana}", "{R}") + ('[[scenario.step]]\ndo = "attack"\n'
                                              'attackers = { elf = "opponent" }\n')
    path, french, english = play_in_both(tmp_path, attack)
    assert f"{path}:14{NBSP}: étape 3 (attack) refusée{NBSP}: elf est engagée\n" in french.output
    assert f"{path}:14: step 3 (attack) refused: elf is tapped\n" in english.output


def test_the_engine_s_casting_reasons_in_french(tmp_path: Path) -> None:
    """The engine's reasons for refusing a spell (kb/engine/stack.py), French plurals and
    guillemets included: Lightning Bolt has one word "target", the step names two."""
    two = BOLT.replace("{mana}", "{R}").replace('targets = ["bear"]', 'targets = ["bear", "elf"]')
    path, french, english = play_in_both(tmp_path, two)
    assert (f"{path}:7{NBSP}: étape 1 (cast) refusée{NBSP}: 1 mot «{NBSP}cible{NBSP}» à "
            f"choisir, nombre donné{NBSP}: 2\n") in french.output
    assert f"{path}:7: step 1 (cast) refused: 1 target word(s) to choose, 2 given\n" \
        in english.output


def test_the_engine_s_turn_reasons_in_french(tmp_path: Path) -> None:
    """kb/engine/resolve.py: resolving with nothing on the stack."""
    twice = BOLT.replace("{mana}", "{R}") + '[[scenario.step]]\ndo = "resolve"\n'
    path, french, english = play_in_both(tmp_path, twice)
    assert f"{path}:14{NBSP}: étape 3 (resolve) refusée{NBSP}: la pile est vide\n" \
        in french.output
    assert f"{path}:14: step 3 (resolve) refused: the stack is empty\n" in english.output
