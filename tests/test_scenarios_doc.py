"""docs/scenarios.md is a tutorial a judge follows: every snippet in it runs. Each ``toml``
block is a scenario file (named by its first line, ``# file: NAME``, when a session uses it)
and is played: it must be verified or answered unless a session shows it refused; each
``console`` session runs in the folder holding those files and must print what the page
shows (as the README's sessions, tests/test_readme.py)."""

from __future__ import annotations

import re
from pathlib import Path

from kb.check.user import check_scenarios
from tests.test_readme import run, same, scratch, sessions

PAGE = Path(__file__).resolve().parents[1] / "docs" / "scenarios.md"
_TOML = re.compile(r"```toml\n(.*?)```", re.S)
_FILE = re.compile(r"^# file: (\S+)")


def _write_blocks(folder: Path) -> list[Path]:
    files = []
    for i, block in enumerate(_TOML.findall(PAGE.read_text(encoding="utf-8"))):
        named = _FILE.match(block)
        path = folder / (named.group(1) if named else f"snippet_{i}.toml")
        path.write_text(block, encoding="utf-8")
        files.append(path)
    return files


def test_every_toml_snippet_plays(tmp_path: Path) -> None:
    files = _write_blocks(tmp_path)
    assert len(files) >= 5
    shown_refused = {m for m in re.findall(r"refused: .*?\((\S+?\.toml):\d+\)",
                                           PAGE.read_text(encoding="utf-8"))}
    report = check_scenarios(files)
    for result in report.results:
        name = Path(result.file).name
        expected = {"refused"} if name in shown_refused else {"verified", "answered"}
        assert result.status in expected, (name, result.status, result.reason)
    assert {Path(r.file).name for r in report.results} >= {p.name for p in files
                                                           if "[[scenario]]" in p.read_text()}


def test_every_console_session_prints_what_the_page_shows(tmp_path: Path) -> None:
    work, env = scratch(tmp_path)
    _write_blocks(work)
    shown = sessions(PAGE.read_text(encoding="utf-8"))
    assert shown
    for block in shown:
        for command, expected in block:
            actual = run(command, work, env)
            assert same(actual, expected), f"$ {command}\n--- page\n{expected}\n--- now\n" \
                                           f"{actual}"
