"""The ``kb`` console script: started without the cyclic garbage collector, which only the
look-ups leave off."""

from __future__ import annotations

import gc
import subprocess
import sys

import click
import pytest

import kb.cli
from kb import entry
from tests.conftest import REPO


@pytest.fixture
def collector():
    """The collector's state restored after the test, whatever it turned."""
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_the_command_line_starts_without_the_collector(monkeypatch, collector):
    seen = []
    monkeypatch.setattr(kb.cli, "main", lambda: seen.append(gc.isenabled()))
    gc.enable()
    entry.main()
    assert seen == [False]


@pytest.mark.parametrize("name, enabled", [("search", False), ("rule", False),
                                           ("build", True), ("serve", True)])
def test_a_look_up_leaves_it_off_and_any_other_command_turns_it_on(name, enabled, collector):
    gc.disable()
    assert kb.cli.cli.get_command(click.Context(kb.cli.cli), name) is not None
    assert gc.isenabled() is enabled


def test_python_m_kb_runs_the_same_command_line():
    out = subprocess.run([sys.executable, "-m", "kb", "--help"], capture_output=True,
                         text=True, check=True, cwd=REPO).stdout
    assert "search" in out and "build" in out
