"""Where the index goes when nobody says: the indexes/ of the kb checkout kb runs from, else the
user data folder, the same from every working folder (issue 22: after 'kb build' in the
checkout, kb run from another folder said "no index")."""

from __future__ import annotations

from pathlib import Path

import kb
from kb import paths


def _checkout(folder: Path, name: str = "kb") -> Path:
    (folder / "indexes").mkdir(parents=True)
    (folder / "kb").mkdir()
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\n')
    return folder


def test_the_index_of_the_checkout_kb_runs_from_whatever_the_working_folder(tmp_path,
                                                                          monkeypatch):
    monkeypatch.delenv("KB_INDEX", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mine = _checkout(tmp_path / "mine")
    monkeypatch.setattr(kb, "__file__", str(mine / "kb" / "__init__.py"))
    for folder in (mine, tmp_path, mine / "indexes"):
        monkeypatch.chdir(folder)
        assert paths.default_index_root() == mine / "indexes"


def test_an_installed_kb_uses_the_user_data_folder_even_inside_a_checkout(tmp_path,
                                                                          monkeypatch):
    """kb installed (not from a checkout): the working folder never decides, so a build in a
    checkout and a lookup elsewhere meet in the same folder."""
    monkeypatch.delenv("KB_INDEX", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(kb, "__file__", str(tmp_path / "site-packages" / "kb" / "__init__.py"))
    checkout = _checkout(tmp_path / "checkout")
    for folder in (checkout, tmp_path):
        monkeypatch.chdir(folder)
        assert paths.default_index_root() == tmp_path / "data" / "kb" / "indexes"


def test_a_folder_is_a_kb_checkout_only_if_its_pyproject_names_kb(tmp_path):
    assert not paths.is_kb_checkout(_checkout(tmp_path / "other", name="not-kb"))
    assert paths.is_kb_checkout(_checkout(tmp_path / "mine"))


def test_a_broken_pyproject_is_not_a_checkout(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project\nname=")
    assert not paths.is_kb_checkout(tmp_path)
    assert not paths.is_kb_checkout(tmp_path / "missing")


def test_env_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("KB_INDEX", str(tmp_path / "x"))
    assert paths.default_index_root() == Path(tmp_path / "x")


def test_folders_are_shown_from_where_the_reader_stands(tmp_path, monkeypatch):
    home, work = tmp_path / "home", tmp_path / "home" / "kb"
    work.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    assert paths.shown(work / "indexes") == "indexes"
    assert paths.shown("indexes") == "indexes"
    assert paths.shown(home / ".local" / "share") == "~/.local/share"
    assert paths.shown("/elsewhere/indexes") == "/elsewhere/indexes"
    monkeypatch.chdir(home)  # in the home folder, ~/ says more than a relative path
    assert paths.shown(home / ".local" / "share") == "~/.local/share"


def test_no_index_names_where_kb_looked_and_how_to_point_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = paths.no_index_message(tmp_path / "nowhere")
    assert message.startswith("no index in nowhere: run 'kb build' first")
    assert "--index DIR or KB_INDEX" in message
