"""Where kb keeps its index and the documents it downloads, when nobody says."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import kb


def default_index_root() -> Path:
    """``$KB_INDEX``; else the ``indexes/`` of the kb checkout we run in or from; else the
    platform's user data folder (``~/.local/share/kb/indexes`` on Linux, ``~/Library/
    Application Support/kb/indexes`` on macOS, ``%LOCALAPPDATA%\\kb\\indexes`` on Windows)."""
    if env := os.environ.get("KB_INDEX"):
        return Path(env)
    for checkout in (Path.cwd(), Path(kb.__file__).resolve().parent.parent):
        if is_kb_checkout(checkout) and (checkout / "indexes").is_dir():
            return checkout / "indexes"
    return _data_home() / "indexes"


def is_kb_checkout(folder: Path) -> bool:
    """True when ``folder`` holds kb's own sources: its ``pyproject.toml`` names the project
    ``kb``. Another project's folder that happens to have an ``indexes/`` is left alone."""
    try:
        with (folder / "pyproject.toml").open("rb") as handle:
            return tomllib.load(handle).get("project", {}).get("name") == "kb"
    except (OSError, tomllib.TOMLDecodeError, AttributeError):
        return False


def user_corpus_dir() -> Path:
    """Where ``kb fetch`` keeps the documents it downloads, for every build to ingest:
    ``$KB_CORPUS``; else ``corpus`` in the platform's user data folder."""
    if env := os.environ.get("KB_CORPUS"):
        return Path(env)
    return _data_home() / "corpus"


def _data_home() -> Path:
    """The platform's user data folder for kb (``$XDG_DATA_HOME/kb`` on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("kb", appauthor=False)
