"""Where kb keeps its index when nobody says."""

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
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "kb" / "indexes"
