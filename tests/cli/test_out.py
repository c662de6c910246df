"""``--out`` of kb export and kb report (issue 17): rename only over a regular file or a new
path; devices, pipes and the targets of links written straight into; every failure exit 1
naming the file and what to do, and never "Wrote"."""

from __future__ import annotations

import json
import os
import stat
import threading

import pytest

from tests.cli.conftest import kb

COMMANDS = [("export", "--kind", "toc"), ("report", "--category", "ingest", "--format", "json")]


def lines_of(path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("command", COMMANDS)
def test_a_new_file_and_a_regular_file_are_replaced_whole(default_index, tmp_path, command):
    out = tmp_path / "out.json"
    assert kb(default_index, *command, "--out", str(out)).exit_code == 0
    first = out.read_bytes()
    out.write_text("old contents\n")
    out.chmod(0o640)
    result = kb(default_index, *command, "--out", str(out))
    assert result.exit_code == 0 and "Wrote" in result.stderr
    assert out.read_bytes() == first
    assert stat.S_IMODE(out.stat().st_mode) == 0o640  # the file's mode is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # nothing left aside


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_is_written_through_to_its_target(default_index, tmp_path, command):
    target, link = tmp_path / "target.json", tmp_path / "link.json"
    target.write_text("old\n")
    link.symlink_to(target)
    assert kb(default_index, *command, "--out", str(link)).exit_code == 0
    assert link.is_symlink() and target.read_text() != "old\n"


def test_a_pipe_is_written_straight_into(default_index, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = kb(default_index, "export", "--kind", "toc", "--out", str(fifo))
    reader.join(timeout=30)
    assert result.exit_code == 0
    rows = [json.loads(line) for line in got[0].decode().splitlines()]
    assert len(rows) == int(result.stderr.split()[1]) > 0
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_full_device_is_exit_1_and_never_wrote(default_index, command):
    result = kb(default_index, *command, "--out", "/dev/full")
    assert result.exit_code == 1
    assert result.stderr.startswith("kb: cannot write /dev/full: disk full")
    assert "Wrote" not in result.output and "Traceback" not in result.output
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_missing_folder_is_named(default_index, tmp_path):
    out = tmp_path / "no" / "such" / "x.jsonl"
    result = kb(default_index, "export", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr == (f"kb: cannot write {out}: the folder {out.parent} does not exist "
                             "(create it, or give --out a path in an existing folder)\n")


def test_a_path_below_a_file_is_named(default_index, tmp_path):
    (tmp_path / "file").write_text("x")
    result = kb(default_index, "export", "--out", str(tmp_path / "file" / "x.jsonl"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"kb: cannot write {tmp_path / 'file' / 'x.jsonl'}: ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_named(default_index, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    result = kb(default_index, "export", "--out", str(folder / "x.jsonl"))
    assert result.exit_code == 1
    assert "the folder or file is read-only: choose another --out" in result.stderr


def test_a_read_only_folder_is_named_whoever_runs(default_index, tmp_path, monkeypatch):
    """The same message when creating the file is refused (as it is to non-root users in a
    read-only folder, and to everyone on a read-only file system)."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    out = tmp_path / "x.jsonl"
    result = kb(default_index, "export", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr == (f"kb: cannot write {out}: Permission denied (the folder or file "
                             "is read-only: choose another --out)\n")
    assert not out.exists()


def test_a_dash_is_stdout_and_an_empty_name_a_usage_error(default_index, tmp_path):
    result = kb(default_index, "export", "--kind", "toc", "--out", "-")
    assert result.exit_code == 0 and result.stdout.startswith('{"kind": "toc"')
    for bad in ("", f"{tmp_path}/"):
        result = kb(default_index, "export", "--out", bad)
        assert result.exit_code == 2 and "is not a file name" in result.output


@pytest.mark.parametrize("inside", ["current/kb.sqlite", "export.jsonl", "builds"])
def test_out_never_writes_inside_the_index_folder(default_index, inside):
    """Issue 25, case 3: `kb export --out $KB_INDEX/current/kb.sqlite` overwrote the live
    store without a word."""
    from kb.indexdir import IndexDir

    store = IndexDir(default_index).current() / "kb.sqlite"
    before = store.read_bytes()
    target = default_index / inside
    if inside == "builds":
        target = next(target.iterdir()) / "search" / "vocabulary.json"
    result = kb(default_index, "export", "--kind", "toc", "--out", str(target))
    assert result.exit_code == 1
    assert "inside the index folder" in result.stderr and "another --out" in result.stderr
    assert store.read_bytes() == before
    assert not (default_index / "export.jsonl").exists()
