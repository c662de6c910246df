"""The README's sample sessions (its ``console`` blocks), run as written and compared with
what the README shows, as sqlite-utils checks its documented CLI: a session that drifts from
the program fails here.

The sessions run as a reader runs them (issue 22): from the root of a fresh clone of this
repository (its files, as ``git clone`` would give them, copied from this checkout), beside
``../shared/corpus`` (a link to the shared corpus), with ``kb`` being the clone's kb as the
README's editable install runs it (this interpreter's dependencies, the clone's sources, no
``KB_INDEX``: the index is the clone's ``indexes/``) and a home folder of their own, all in
order against that index. Timings ("in 1.1 s") are not compared. ``kb fetch`` (the internet)
is never run. The ``python`` blocks then run against the same index and must print without
an error. The README's set-up command itself (a new virtual environment, ``pip install -e .``
from the package index) runs in the slow test.

``python -m tests.test_readme --update`` rewrites the README's outputs with today's."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_CORPUS, cr_file

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
_BLOCK = re.compile(r"```console\n(.*?)```", re.S)
_TIMING = re.compile(r"\b\d+(?:\.\d+)? s\b")


def sessions(text: str) -> list[list[tuple[str, str]]]:
    """Each console block as (command, expected output) pairs."""
    out = []
    for block in _BLOCK.findall(text):
        pairs: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                pairs.append((line[2:], []))
            elif pairs:
                pairs[-1][1].append(line)
        out.append([(command, "\n".join(lines).strip("\n")) for command, lines in pairs])
    return out


def fresh_clone(root: Path) -> Path:
    """The repository's files as a clone has them (tracked, and new ones not ignored), in
    ``root/kb``, beside ``root/shared/corpus``."""
    clone = root / "kb"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=REPO, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        source = REPO / name
        if source.is_file():  # a file deleted but not yet committed is no part of a clone
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, clone / name)
    (root / "shared").mkdir()
    (root / "shared" / "corpus").symlink_to(SHARED_CORPUS)
    return clone


def environment(root: Path) -> dict[str, str]:
    """A shell's environment of its own: a home folder, no KB_* or XDG variable, English."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KB_", "NO_COLOR", "XDG_", "LC_", "LANGUAGE"))}
    home = root / "home"
    home.mkdir(exist_ok=True)
    env.update(HOME=str(home), LANG="C.UTF-8", COLUMNS="200",
               KB_CORPUS=str(root / "no-user-corpus"),
               # pip's cache stays the real one: the slow test installs from the index
               PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR",
                                            str(Path.home() / ".cache" / "pip")))
    return env


def scratch(root: Path) -> tuple[Path, dict[str, str]]:
    """The fresh clone, and the environment its sessions run in: ``kb`` runs the clone's
    sources with this interpreter's dependencies, as the README's editable install does."""
    clone = fresh_clone(root)
    bin_dir = root / "bin"
    bin_dir.mkdir()
    kb = bin_dir / "kb"
    kb.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kb "$@"\n')
    kb.chmod(0o755)
    env = environment(root)
    env.update(PATH=f"{bin_dir}:{env.get('PATH', '')}", PYTHONPATH=str(clone))
    return clone, env


def run(command: str, work: Path, env: dict[str, str]) -> str:
    done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                          text=True, timeout=600)
    return (done.stdout + done.stderr).strip("\n")


def same(actual: str, expected: str) -> bool:
    return _TIMING.sub("N s", actual) == _TIMING.sub("N s", expected)


def test_readme_sessions(tmp_path):
    cr_file("20260417")  # skip without the shared corpus
    work, env = scratch(tmp_path)
    for block in sessions(README.read_text(encoding="utf-8")):
        for command, expected in block:
            if command.startswith("kb fetch"):
                continue
            actual = run(command, work, env)
            assert same(actual, expected), f"$ {command}\n--- README\n{expected}\n--- now\n" \
                                           f"{actual}"
    # The index is the clone's, and found from any other folder too.
    assert (work / "indexes" / "current").exists()
    assert not (tmp_path / "home" / ".local" / "share" / "kb").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run("kb rule 702.19b --depth 0 | head -1", elsewhere, env).startswith("702.19b")
    # The script examples run against the index the sessions built.
    for script in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        done = subprocess.run([sys.executable, "-c", script], cwd=work, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip(), script


@pytest.mark.slow
def test_readme_set_up_from_a_fresh_clone(tmp_path):
    """The README's first command, verbatim, in a fresh clone: a new virtual environment,
    ``pip install -e .`` (from the package index: network), ``kb build``; then the examples'
    ``kb`` through the activated environment, from the clone and from another folder."""
    clone = fresh_clone(tmp_path)
    env = environment(tmp_path)
    set_up = re.search(r"```sh\n(python3 -m venv .venv && .venv/bin/pip install -e \. && "
                       r".venv/bin/kb build)\n```", README.read_text(encoding="utf-8"))
    assert set_up, "the README's set-up command moved"
    done = subprocess.run(["bash", "-c", set_up.group(1)], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\nBuilt indexes in " in done.stdout  # after pip's own lines: the clone's index
    activated = ". .venv/bin/activate && kb rule 702.19b --depth 0 | head -1"
    assert run(activated, clone, env).startswith("702.19b  [en, 2026-04-17")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = run(f"{clone}/.venv/bin/kb rule 702.19b --depth 0 | head -1", elsewhere, env)
    assert found.startswith("702.19b  [en, 2026-04-17")


def update(root: Path) -> None:
    """Rewrite every expected output of the README with what the commands print now."""
    text = README.read_text(encoding="utf-8")
    work, env = scratch(root)

    def redo(match: re.Match[str]) -> str:
        lines = []
        for command, expected in sessions(match.group(0))[0]:
            actual = expected if command.startswith("kb fetch") else run(command, work, env)
            keep = expected if same(actual, expected) else actual
            lines += [f"$ {command}", *([keep] if keep else []), ""]
        return "```console\n" + "\n".join(lines).rstrip("\n") + "\n```"

    README.write_text(_BLOCK.sub(redo, text), encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        update(Path(folder))
elif __name__ == "__main__":
    pytest.main([__file__, "-q"])
