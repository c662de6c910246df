"""Where kb keeps its index and the documents it downloads, when nobody says."""

from __future__ import annotations

import os
from pathlib import Path

import kb


def default_index_root() -> Path:
    """``$KB_INDEX``; else the ``indexes/`` of the kb checkout we run in or from; else
    ``$XDG_DATA_HOME/kb/indexes`` (an installed kb run from anywhere)."""
    if env := os.environ.get("KB_INDEX"):
        return Path(env)
    for checkout in (Path.cwd(), Path(kb.__file__).resolve().parent.parent):
        if (checkout / "pyproject.toml").is_file() and (checkout / "indexes").is_dir():
            return checkout / "indexes"
    return _data_home() / "kb" / "indexes"


def user_corpus_dir() -> Path:
    """Where ``kb fetch`` keeps the documents it downloads, for every build to ingest:
    ``$KB_CORPUS``; else ``$XDG_DATA_HOME/kb/corpus`` (``~/.local/share/kb/corpus``)."""
    if env := os.environ.get("KB_CORPUS"):
        return Path(env)
    return _data_home() / "kb" / "corpus"


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
