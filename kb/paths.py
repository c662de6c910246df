"""Where kb keeps its index and the documents it downloads, when nobody says, and how it names
those places to a person."""

from __future__ import annotations

import os
from pathlib import Path

import kb
from kb.i18n import _


def default_index_root() -> Path:
    """``$KB_INDEX``; else the ``indexes/`` of the kb checkout this kb is imported from (an
    editable install, or ``python -m kb`` inside a checkout); else the platform's user data
    folder (``~/.local/share/kb/indexes`` on Linux, ``~/Library/Application Support/kb/
    indexes`` on macOS, ``%LOCALAPPDATA%\\kb\\indexes`` on Windows).

    Never the working folder: ``kb build`` in a checkout and ``kb rule`` in any other folder
    must find the same index (an installed kb run inside its checkout once built into the
    checkout's ``indexes/``, then looked in the user data folder everywhere else)."""
    if env := os.environ.get("KB_INDEX"):
        return Path(env)
    checkout = Path(kb.__file__).resolve().parent.parent
    if is_kb_checkout(checkout) and (checkout / "indexes").is_dir():
        return checkout / "indexes"
    return _data_home() / "indexes"


def is_kb_checkout(folder: Path) -> bool:
    """True when ``folder`` holds kb's own sources: its ``pyproject.toml`` names the project
    ``kb``. Another project's folder that happens to have an ``indexes/`` is left alone."""
    import tomllib  # here, not above: a command given its index never asks

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


def user_model_dir() -> Path:
    """Where ``kb fetch --model`` keeps the sentence model: ``$KB_MODEL`` (where ``kb build``
    looks for one); else ``models/all-MiniLM-L6-v2`` in the platform's user data folder."""
    if env := os.environ.get("KB_MODEL"):
        return Path(env)
    return _data_home() / "models" / "all-MiniLM-L6-v2"


def shown(path: Path | str) -> str:
    """A folder as a person reads it: relative to the working folder when it is inside it
    (and the working folder is not the home folder or above it), ``~/...`` inside the home
    folder, else absolute."""
    absolute = Path(os.path.abspath(path))
    home, here = Path.home(), Path.cwd()
    bases = [(home, "~")] if home.is_relative_to(here) else [(here, ""), (home, "~")]
    for base, prefix in bases:
        try:
            rest = absolute.relative_to(base)
        except ValueError:
            continue
        if prefix:
            return str(Path(prefix) / rest)
        return str(rest) if str(rest) != "." else "."
    return str(absolute)


def no_index_message(root: Path) -> str:
    """"No index here": where kb looked, and the two ways to point it elsewhere."""
    return _("no index in {folder}: run 'kb build' first, or name the folder of an index with "
             "--index DIR or KB_INDEX (kb looks in --index, else $KB_INDEX, else the indexes/ "
             "of the kb checkout it runs from, else {default})").format(
        folder=shown(root), default=shown(_data_home() / "indexes"))


def _data_home() -> Path:
    """The platform's user data folder for kb (``$XDG_DATA_HOME/kb`` on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("kb", appauthor=False)
