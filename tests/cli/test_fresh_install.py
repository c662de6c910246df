"""Issue 12's "done when": a fresh clone, installed (not editable), run from another folder
with no shared corpus and an empty home, answers the main questions from its embedded corpus.

The wheel is built from a clone of the repository's last commit (so a file that is not
committed, or not declared as package data, is missing, as it would be for a user) and
installed with ``pip install --target``; kb then runs from an empty folder with that folder
first on ``sys.path``, and the test checks that the installed copy is the one that ran. The
dependencies come from the test environment: installing them again would only test pip."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("needs a git checkout to clone")
    root = tmp_path_factory.mktemp("fresh")
    clone, wheels, target = root / "clone", root / "wheels", root / "site"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{REPO}", str(clone)],
                   check=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels),
                    str(clone)], check=True, capture_output=True)
    (wheel,) = wheels.glob("kb-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(target), str(wheel)], check=True, capture_output=True)
    shutil.rmtree(clone)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return {"site": target, "cwd": elsewhere, "home": root / "home", "index": root / "index"}


def kb(installed: dict[str, Path], *args: str) -> subprocess.CompletedProcess:
    code = ("import sys; sys.path.insert(0, sys.argv.pop(1)); import kb\n"
            "assert kb.__file__.startswith(sys.path[0]), kb.__file__\n"
            "from kb.cli import main; sys.argv[0] = 'kb'; main()")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "XDG_"))}
    env.update(HOME=str(installed["home"]), KB_INDEX=str(installed["index"]),
               KB_SHARED_CORPUS=str(installed["home"] / "nowhere"), PYTHONPATH="")
    return subprocess.run([sys.executable, "-c", code, str(installed["site"]), *args],
                          cwd=installed["cwd"], env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def built(installed: dict[str, Path]) -> dict[str, Path]:
    result = kb(installed, "build")
    assert result.returncode == 0, result.stderr
    assert "Rules versions: 2026-04-17" in result.stdout
    assert not list(installed["cwd"].iterdir())  # nothing written where it ran
    return installed


def test_the_wheel_holds_the_embedded_rules(installed):
    corpus = installed["site"] / "kb" / "corpus"
    assert (corpus / "MagicCompRules 20260417.txt").is_file()
    assert (corpus / "MANIFEST.toml").is_file()


def test_rule_702_19b(built):
    result = kb(built, "rule", "702.19b")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("702.19b  [en, 2026-04-17, MagicCompRules 20260417.txt")
    assert "The controller of an attacking creature with trample first assigns" in result.stdout


def test_rule_707_2a_in_french(built):
    result = kb(built, "rule", "707.2a", "--lang", "fr")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("707.2a  [fr, 2024, 003_45f11bb513e6f443.txt:10]\n"
                                    "Une copie acquiert les couleurs de l'objet qu'elle copie")


def top3(built: dict[str, Path], query: str) -> list[str]:
    result = kb(built, "search", query, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    hits = data["hits"] if isinstance(data, dict) else data
    return [h.get("number") or "" for h in hits[:3]]


def test_search_trample_finds_702_19(built):
    assert any(n.startswith("702.19") for n in top3(built, "trample"))


def test_search_contact_mortel_finds_702_2(built):
    assert any(n == "702.2" or n.startswith("702.2") and n[5:6].isalpha()
               for n in top3(built, "contact mortel"))
