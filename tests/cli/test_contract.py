"""One contract for every command (issue 12): ``--json`` everywhere, errors as JSON on stderr
under ``--json`` with the same exit status, usage errors listing the valid values, and the
group's behaviour at the edges (closed pipes, full disks, bytes that are not UTF-8)."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from kb.cli import SUMMARIES, cli
from kb.i18n import paragraphs
from tests.cli.conftest import kb

REPO = Path(__file__).resolve().parents[2]


def json_error(result, code: int) -> dict:
    """The error object of a failed --json run: alone on stderr, nothing on stdout."""
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    error = json.loads(result.stderr)
    assert set(error) == {"error", "code"} and error["code"] == code
    assert error["error"] and "Traceback" not in error["error"]
    return error


def test_every_command_takes_json_and_help():
    for name in cli.list_commands(None):  # type: ignore[arg-type]
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None
        assert "as_json" in [p.name for p in command.params], f"kb {name} has no --json"
        result = CliRunner().invoke(cli, [name, "--help"])
        assert result.exit_code == 0 and "--json" in result.output


def test_the_help_summaries_are_the_commands_own():
    """``kb --help`` lists SUMMARIES without importing the commands: they must say what each
    command's own help says."""
    for name, summary in SUMMARIES.items():
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.help is not None
        # Equal to its first paragraph: one translation serves both (kb.i18n.paragraphs).
        assert paragraphs(command.help)[0] == summary, name


def test_help_imports_no_command():
    code = ("import sys; from kb.cli import cli\n"
            "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('kb.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    loaded = out.strip().splitlines()[-1]
    assert "kb.cli.rule" not in loaded and "kb.api" not in loaded and "whoosh" not in loaded
    assert re.search(r"\n  rule +Show a rule", out)  # the column is as wide as the longest name


# -- each command, good and bad input, under --json ----------------------------------------------


def test_versions_json(default_index):
    result = kb(default_index, "versions", "--json")
    assert result.exit_code == 0
    (only,) = json.loads(result.stdout)
    assert only["version"] == "2026-04-17" and only["file"] == "MagicCompRules 20260417.txt"
    assert only["counts"]["rule"] == 3294  # 702.19b is one of them; counted by the parser test


def test_rule_json_good_and_bad(default_index):
    views = json.loads(kb(default_index, "rule", "702.19b", "--json").stdout)
    assert [v["number"] for v in views] == ["702.19b"]
    assert {"id", "number", "language", "version", "text", "source", "examples", "cites",
            "cited_by", "texts", "versions", "missing"} <= set(views[0])
    assert "no rule 702.193" in json_error(kb(default_index, "rule", "702.193", "--json"),
                                           1)["error"]
    error = json_error(kb(default_index, "rule", "702.19b", "--lang", "de", "--json"), 2)
    assert "choose from en, fr, pt, all" in error["error"]
    json_error(kb(default_index, "rule", "702.19b", "--version", "soon", "--json"), 2)


def test_card_json_good_and_bad(default_index):
    view = json.loads(kb(default_index, "card", "maitre des cruautes", "--json").stdout)
    assert view["name"] == "Maître des cruautés" and view["texts"]
    text = kb(default_index, "card", "Maître des cruautés").output.split("\n")
    assert text[:3] == ["Maître des cruautés", "",
                        "[fr] Maître des cruautés  (001_f4c4515b1d59e611.txt:446, 2013-03-21)"]
    assert "no card named" in json_error(kb(default_index, "card", "Nobody", "--json"),
                                         1)["error"]


def test_terms_json_good_and_bad(default_index):
    pairs = json.loads(kb(default_index, "terms", "écho", "--json").stdout)
    assert any({"french": "Écho", "english": "Echo"}.items() <= p.items() for p in pairs)
    json_error(kb(default_index, "terms", "écho", "--no-such-option", "--json"), 2)


def test_history_json_good_and_bad(default_index):
    entries = json.loads(kb(default_index, "history", "702.19b", "--json").stdout)
    assert entries[0]["number"] == "702.19b" and entries[0]["version"] == "2026-04-17"
    json_error(kb(default_index, "history", "999.9", "--json"), 1)


def test_diff_json_says_when_both_dates_are_one_version(default_index):
    result = json.loads(kb(default_index, "diff", "2026-05-01", "latest", "--json").stdout)
    assert result["same_version"] is True and result["old"] == result["new"] == "2026-04-17"
    text = kb(default_index, "diff", "2026-05-01").output
    assert text.startswith("Both dates resolve to the same rules version, 2026-04-17")
    json_error(kb(default_index, "diff", "someday", "--json"), 2)
    error = json_error(kb(default_index, "diff", "2026-05-01", "--section", "x", "--json"), 2)
    assert "a section 1-9" in error["error"]


def test_export_json_is_json_lines_and_bad_kinds_list_the_valid_ones(default_index):
    lines = kb(default_index, "export", "--kind", "passage", "--json").stdout.splitlines()
    rows = [json.loads(line) for line in lines]
    assert {r["id"] for r in rows} >= {"cr:en:2026-04-17:introduction",
                                       "cr:en:2026-04-17:credits"}
    error = json_error(kb(default_index, "export", "--kind", "rules", "--json"), 2)
    assert "'card', 'example', 'fragment', 'glossary'" in error["error"]
    json_error(kb(default_index, "export", "--lang", "de", "--json"), 2)


def test_report_json_good_and_bad(default_index):
    report = json.loads(kb(default_index, "report", "--category", "ingest", "--json").stdout)
    assert isinstance(report, dict) and "findings" in report
    json_error(kb(default_index, "report", "--category", "nope", "--json"), 2)
    error = json_error(kb(default_index, "report", "--lang", "de", "--json"), 2)
    assert "'en', 'fr', 'pt'" in error["error"]  # the valid values, as every option says them


def test_check_json_good_and_bad(default_index):
    result = json.loads(kb(default_index, "check", "--json").stdout)
    assert result["summary"]["verified"] > 0
    json_error(kb(default_index, "check", "--no-such-option", "--json"), 2)


def test_search_json_good_and_bad(default_index):
    result = kb(default_index, "search", "trample", "--json")
    assert result.exit_code == 0
    found = json.loads(result.stdout)
    assert {"query", "version", "language", "corrected", "dropped", "translations",
            "hits"} <= set(found)
    assert found["version"] == "2026-04-17" and found["hits"][0]["group"] == "rule 702.19"
    json_error(kb(default_index, "search", "trample", "--limit", "many", "--json"), 2)
    json_error(kb(default_index, "search", "trample", "--version", "soon", "--json"), 2)
    nothing = kb(default_index, "search", "zzzqqqxx", "--json")
    assert nothing.exit_code == 1 and json.loads(nothing.stdout)["hits"] == []


def test_build_and_fetch_json_bad(tmp_path):
    json_error(kb(tmp_path / "idx", "build", "--no-such-option", "--json"), 2)
    json_error(kb(tmp_path / "idx", "fetch", "--timeout", "nan", "--json"), 2)


def test_no_index_is_json_too(tmp_path):
    error = json_error(kb(tmp_path / "none", "versions", "--json"), 1)
    assert "run 'kb build' first" in error["error"]


# -- the edges ---------------------------------------------------------------------------------


def test_a_mistyped_command_gets_did_you_mean():
    result = CliRunner().invoke(cli, ["serach", "x"])
    assert result.exit_code == 2
    assert "no such command 'serach'; did you mean: search?" in result.output


def test_arguments_that_are_not_utf8_are_usage_errors(default_index):
    result = kb(default_index, "search", "\udcff")  # what Python makes of the byte 0xff
    assert result.exit_code == 2
    assert "argument 4 (b'\\xff') is not UTF-8 text" in result.output


def run_kb(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb", *args], cwd=REPO, **kwargs)


def test_a_closed_pipe_ends_quietly_with_success(default_index):
    reader = subprocess.Popen(["head", "-c", "10"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)
    writer = run_kb("--index", str(default_index), "export", stdout=reader.stdin,
                    stderr=subprocess.PIPE)
    reader.stdin.close()  # type: ignore[union-attr]
    reader.wait()
    assert writer.returncode == 0
    assert writer.stderr == b""


def test_a_full_stdout_is_exit_1_with_a_message(default_index):
    with open("/dev/full", "w") as full:
        result = run_kb("--index", str(default_index), "export", "--kind", "toc",
                        stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 1
    assert result.stderr.startswith("kb: cannot write to standard output: No space left")
    assert "disk full" in result.stderr and "Traceback" not in result.stderr


def test_the_process_ends_with_the_command_and_its_exit_handlers(default_index):
    """kb ends the process once the command has run (kb.cli.main), without the interpreter's
    teardown: the output and status are the command's, an exit handler registered while kb
    runs still runs, and nothing is freed one by one (no object is finalized)."""
    code = ("import atexit, sys\n"
            "from kb.cli import _terminal, main\n"
            "class Kept:\n"
            "    def __del__(self):\n"
            "        print('finalized', file=sys.stderr)\n"
            "kept = Kept()\n"
            "install = _terminal.install\n"
            "def install_and_register():\n"
            "    install()\n"
            "    atexit.register(print, 'handler ran', file=sys.stderr)\n"
            "_terminal.install = install_and_register\n"
            f"sys.argv = ['kb', '--index', {str(default_index)!r}, 'rule', '702.19b']\n"
            "main()\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO)
    assert result.returncode == 0
    assert "702.19b" in result.stdout and result.stdout.endswith("\n")
    assert result.stderr == "handler ran\n"
    missing = subprocess.run([sys.executable, "-c", code.replace("'702.19b'", "'702.999z'")],
                             capture_output=True, text=True, cwd=REPO)
    assert missing.returncode == 1 and missing.stderr.startswith("kb: ")
    assert missing.stderr.endswith("handler ran\n")


def on_a_terminal(*args: str, **env: str) -> str:
    """Run kb with a pseudo-terminal for stdin and stdout, as a user at a terminal does;
    what it printed there."""
    main, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-m", "kb", *args], cwd=REPO, stdin=child,
                               stdout=child, stderr=subprocess.PIPE,
                               env={**os.environ, "LINES": "40", "COLUMNS": "100", **env})
    os.close(child)
    out = b""
    with contextlib.suppress(OSError):  # EIO once the child has closed the terminal
        while chunk := os.read(main, 65536):
            out += chunk
    os.close(main)
    assert process.wait(timeout=60) == 0, process.stderr.read()  # type: ignore[union-attr]
    return out.decode("utf-8", "replace")


def test_no_color_is_honoured(default_index):
    args = ("--index", str(default_index), "search", "trample", "--limit", "1")
    assert "\x1b[1m" in on_a_terminal(*args)
    assert "\x1b[" not in on_a_terminal(*args, NO_COLOR="1")


def test_long_output_goes_through_the_pager_on_a_terminal(default_index, tmp_path):
    """On a terminal, `kb rule 7` (hundreds of lines) is handed to $PAGER; `kb rule 702.19b`
    (a few) is not."""
    pager = tmp_path / "pager.sh"
    seen = tmp_path / "seen.txt"
    pager.write_text(f"#!/bin/sh\ncat > {seen}\n")
    pager.chmod(0o755)
    on_a_terminal("--index", str(default_index), "rule", "7", PAGER=str(pager))
    assert seen.read_text(encoding="utf-8").startswith("7. Additional Rules  [en, 2026-04-17")
    seen.unlink()
    shown = on_a_terminal("--index", str(default_index), "rule", "702.19b", PAGER=str(pager))
    assert not seen.exists() and shown.startswith("702.19b  [en, 2026-04-17")
