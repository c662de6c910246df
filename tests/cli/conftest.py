"""Indexes the command-line tests share: the default install's (the embedded corpus alone,
the current English rules among it) and one of the French CR table alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kb.cli import cli


@pytest.fixture(scope="session")
def default_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from kb.build import build
    from kb.corpus import embedded_corpus

    index = tmp_path_factory.mktemp("default-index")
    build(index, [embedded_corpus()])
    return index


@pytest.fixture(scope="session")
def french_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 003 alone: the French CR table of rule 707, no English rules at all."""
    from kb.build import build
    from kb.corpus import embedded_corpus

    folder = tmp_path_factory.mktemp("french")
    shutil.copy(embedded_corpus() / "003_45f11bb513e6f443.txt", folder)
    index = tmp_path_factory.mktemp("french-index")
    build(index, [folder])
    return index


def kb(index: Path, *args: str, **env: str) -> Result:
    return CliRunner().invoke(cli, ["--index", str(index), *args], env=env or None)
