"""Text is data on a terminal (issue 25, case 9): control sequences in corpus file names and
texts (window title, OSC 52 clipboard write, clear screen) are shown escaped when kb writes to
a terminal, kept as they are in pipes, and JSON stays JSON."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from kb.corpus import embedded_corpus
from tests.conftest import REPO

SEED = "000_3e28a88beae8982b.txt"  # the Echo keyword page: 702.27a in French
TITLE = "\x1b]0;pwned\x07"  # sets the window title
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"  # writes "pwned" to the clipboard
CLEAR = "\x1b[2J"  # clears the screen
C1 = "\x9b31m"  # CSI in its one-character C1 form
RAW = (TITLE, CLIPBOARD, CLEAR, C1)


def on_a_terminal(*args: str) -> str:
    """Run ``kb`` with stdout and stderr on a pseudo-terminal; what it wrote there."""
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO), "LINES": "5000", "COLUMNS": "200",
           "PAGER": "cat"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "kb", *args], stdin=subprocess.DEVNULL,
                               stdout=child, stderr=child, env=env)
    os.close(child)
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other side is closed
            break
        if not chunk:
            break
        out += chunk
    process.wait(120)
    os.close(main)
    return out.decode("utf-8", errors="replace")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A corpus whose file name and rule text carry terminal control sequences; (corpus
    folder, index folder)."""
    folder = tmp_path_factory.mktemp("hostile-corpus")
    text = (embedded_corpus() / SEED).read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("702.27a L'écho"))
    text = text.replace(line, line + " " + "".join(RAW))
    (folder / f"echo{TITLE}.txt").write_text(text, encoding="utf-8")
    return folder, tmp_path_factory.mktemp("hostile-index")


def test_control_sequences_from_the_corpus_are_shown_not_obeyed(hostile):
    folder, index = hostile
    built = on_a_terminal("--index", str(index), "build", "--only", "--corpus", str(folder))
    rule = on_a_terminal("--index", str(index), "rule", "702.27a", "--lang", "fr")
    for out in (built, rule):
        assert not any(raw in out for raw in RAW) and "\x07" not in out, out
    assert "\x1b" not in rule and "\x9b" not in rule
    assert "echo\\u001b]0;pwned\\u0007.txt" in built  # the file name, shown
    assert "\rBuilding" in built or "Building  [" in built  # kb's own progress bar still draws
    assert "\\u001b]52;c;cHduZWQ=\\u0007" in rule and "\\u001b[2J" in rule
    assert "\\u009b31m" in rule


def test_json_on_a_terminal_is_still_the_same_json(hostile):
    folder, index = hostile
    on_a_terminal("--index", str(index), "build", "--only", "--corpus", str(folder))
    out = on_a_terminal("--index", str(index), "rule", "702.27a", "--lang", "fr", "--json")
    assert "\x1b" not in out and "\x9b" not in out
    (view,) = json.loads(out.replace("\r\n", "\n"))
    assert all(raw in view["text"] for raw in RAW)  # the value is the text as it is


def test_pipes_are_not_escaped(hostile):
    folder, index = hostile
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "kb", "--index", str(index), "build", "--only",
                    "--corpus", str(folder)], env=env, capture_output=True, check=True)
    piped = subprocess.run([sys.executable, "-m", "kb", "--index", str(index), "rule",
                            "702.27a", "--lang", "fr"], env=env, capture_output=True,
                           text=True, check=True)
    assert TITLE in piped.stdout and CLIPBOARD in piped.stdout  # not escaped: a pipe is no
    assert "\\u001b" not in piped.stdout                       # terminal


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_kb_s_own_colours_pass_and_nothing_else(monkeypatch):
    from kb.cli import _terminal as terminal

    screen = FakeTerminal()
    monkeypatch.setattr(sys, "stdout", terminal.TerminalWriter(screen))
    monkeypatch.delenv("NO_COLOR", raising=False)
    print(terminal.style("changed", fg="red") + CLEAR + "\t\u00e9")
    assert screen.getvalue() == "\x1b[31mchanged\x1b[0m\\u001b[2J\t\u00e9\n"
    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal.style("changed", fg="red") == "changed"
