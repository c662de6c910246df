"""Where the index goes when nobody says: a kb checkout's indexes/, else the user data folder."""

from __future__ import annotations

from pathlib import Path

from kb import paths


def test_a_folder_is_a_kb_checkout_only_if_its_pyproject_names_kb(tmp_path, monkeypatch):
    monkeypatch.delenv("KB_INDEX", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    other = tmp_path / "other"
    (other / "indexes").mkdir(parents=True)
    (other / "pyproject.toml").write_text('[project]\nname = "not-kb"\n')
    monkeypatch.chdir(other)
    assert not paths.is_kb_checkout(other)
    assert paths.default_index_root() != other / "indexes"

    mine = tmp_path / "mine"
    (mine / "indexes").mkdir(parents=True)
    (mine / "pyproject.toml").write_text('[project]\nname = "kb"\n')
    monkeypatch.chdir(mine)
    assert paths.default_index_root() == mine / "indexes"


def test_a_broken_pyproject_is_not_a_checkout(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project\nname=")
    assert not paths.is_kb_checkout(tmp_path)
    assert not paths.is_kb_checkout(tmp_path / "missing")


def test_env_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("KB_INDEX", str(tmp_path / "x"))
    assert paths.default_index_root() == Path(tmp_path / "x")
