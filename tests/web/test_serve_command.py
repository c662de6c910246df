"""``kb serve`` from the command line: its help, its exit status without an index, and a real
server process answering a rule, a search and a card."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from kb.cli import cli

KB = Path(sys.executable).with_name("kb")


def test_help_names_the_options() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--open", "--json", "--workers", "--cache"):
        assert option in result.output
    assert "127.0.0.1" in result.output


def test_no_index_is_exit_1(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--index", str(tmp_path / "none"), "serve"])
    assert result.exit_code == 1
    assert "no index" in result.output and "kb build" in result.output


def test_bad_port_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--index", str(tmp_path), "serve", "--port", "70000"])
    assert result.exit_code == 2


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


def test_serve_answers_a_rule_a_search_and_a_card(cr_index: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([str(KB), "--index", str(cr_index), "serve", "--port", str(port),
                               "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert server.stdout is not None
        head = ""
        while not head.rstrip().endswith("}"):
            line = server.stdout.readline()
            assert line, server.stderr.read() if server.stderr else "no output"
            head += line
        info = json.loads(head)
        assert info["url"] == f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while True:
            try:
                status, html = _get(info["url"] + "rule/702.19b")
                break
            except OSError:
                assert time.monotonic() < deadline, "kb serve did not answer"
                time.sleep(0.2)
        assert status == 200 and "702.19b" in html
        status, html = _get(info["url"] + "search?q=pi%C3%A9tinement")
        assert status == 200 and 'class="result-head"' in html
        status, html = _get(info["url"] + "card/aetherlin")
        assert status == 200 and "Ætherlin" in html
        status, body = _get(info["api"] + "versions")
        assert [v["version"] for v in json.loads(body)][-1] == "2026-04-17"
    finally:
        server.terminate()
        server.wait(20)
