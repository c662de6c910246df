"""The README's sample sessions (its ``console`` blocks), run as written and compared with
what the README shows, as sqlite-utils checks its documented CLI: a session that drifts from
the program fails here.

Each ``$ command`` runs in a shell with ``kb`` being this checkout's kb, from a scratch folder
beside a link ``../shared/corpus`` to the shared corpus, with the index ``indexes/`` there
(relative, so that the README can print it); all sessions share that index, in order.
Timings ("in 1.1 s") are not compared. ``kb fetch`` (the internet) is never run. The
``python`` blocks then run against the same index and must print without an error.

``python -m tests.test_readme --update`` rewrites the README's outputs with today's."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_CORPUS, cr_file

README = Path(__file__).resolve().parents[1] / "README.md"
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


def scratch(root: Path) -> tuple[Path, dict[str, str]]:
    """The folder sessions run in, and their environment."""
    work, bin_dir = root / "work", root / "bin"
    work.mkdir()
    bin_dir.mkdir()
    (root / "shared").mkdir()
    (root / "shared" / "corpus").symlink_to(SHARED_CORPUS)
    kb = bin_dir / "kb"
    kb.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m kb "$@"\n')
    kb.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KB_", "NO_COLOR"))}
    env.update(PATH=f"{bin_dir}:{env.get('PATH', '')}", KB_INDEX="indexes",
               KB_CORPUS=str(root / "no-user-corpus"), HOME=str(root),
               PYTHONPATH=str(README.parent), COLUMNS="200")
    return work, env


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
    # The script examples run against the index the sessions built.
    for script in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        done = subprocess.run([sys.executable, "-c", script], cwd=work, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip(), script


def update(root: Path) -> None:
    """Rewrite every expected output of the README with what the commands print now."""
    text = README.read_text(encoding="utf-8")
    work, env = scratch(root)

    def redo(match: re.Match[str]) -> str:
        lines = []
        for command, expected in sessions(match.group(0).replace("```console\n", "```console\n",
                                                                   1))[0]:
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
