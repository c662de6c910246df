"""A damaged index is said to be damaged, never served, and never reused by the next build."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kb.build import build
from kb.corpus import embedded_corpus
from kb.index import writer
from kb.index.writer import SEARCH_DIR, IndexWriteError
from kb.indexdir import STORE_FILE, IndexDir, verify
from tests.conftest import REPO

SEED = "000_3e28a88beae8982b.txt"  # the Echo keyword page: 702.27 in French and English
ECHO_FR = "Écho"  # the French title of 702.27 on that page


def kb_cli(index: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "kb", *args], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """An index of the Echo page alone; (index folder, corpus folder)."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / SEED).write_bytes((embedded_corpus() / SEED).read_bytes())
    index = tmp_path / "idx"
    build(index, [corpus])
    return index, corpus


def generation(index: Path) -> Path:
    found = IndexDir(index).current()
    assert found is not None
    return found


def flip_in_store(index: Path, needle: str) -> None:
    """Alter a record's text in place wherever the file holds it, as a bad disk would (same
    length, so SQLite itself sees nothing wrong)."""
    path = generation(index) / STORE_FILE
    data = path.read_bytes()
    assert needle.encode() in data
    path.write_bytes(data.replace(needle.encode(), b"XX" + needle.encode()[2:]))


def assert_damaged(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 1, result.stdout
    assert "damaged" in result.stderr and "kb build" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_flipped_record_is_reported_not_served_and_the_next_build_reparses(built):
    index, corpus = built
    assert ECHO_FR in kb_cli(index, "export", "--kind", "rule", "--lang", "fr").stdout
    flip_in_store(index, "Les cartes du bloc")
    assert_damaged(kb_cli(index, "export", "--kind", "rule", "--lang", "fr"))
    report = build(index, [corpus])
    assert not report.unchanged and not any(s.reused for s in report.sources)
    assert "checksums" in report.problems[0].reason
    fixed = kb_cli(index, "export", "--kind", "rule", "--lang", "fr")
    assert fixed.returncode == 0 and "Les cartes du bloc" in fixed.stdout


@pytest.mark.parametrize("damage", ["flip", "truncate", "delete"])
def test_a_damaged_search_segment_is_never_reused(built, damage):
    index, corpus = built
    before = kb_cli(index, "search", "--json", "écho")
    assert before.returncode == 0
    (segment,) = (generation(index) / SEARCH_DIR).glob("*.seg")
    if damage == "flip":
        data = bytearray(segment.read_bytes())
        for at in range(100, len(data), 97):
            data[at] ^= 0xFF
        segment.write_bytes(bytes(data))
    elif damage == "truncate":
        segment.write_bytes(segment.read_bytes()[: segment.stat().st_size // 2])
    else:
        segment.unlink()
    assert verify(generation(index))
    result = kb_cli(index, "search", "écho")
    if damage != "flip":  # a reader sees a size or a file missing at once
        assert_damaged(result)
        assert_damaged(kb_cli(index, "export", "--kind", "rule"))
    elif result.returncode != 0:  # Whoosh may not read the flipped bytes: if it fails, say so
        assert_damaged(result)
    doctor = kb_cli(index, "doctor")
    assert doctor.returncode == 1 and "damaged" in doctor.stderr
    build(index, [corpus])
    assert verify(generation(index)) == []
    assert kb_cli(index, "search", "--json", "écho").stdout == before.stdout
    assert kb_cli(index, "doctor").returncode == 0


def test_a_current_link_loop_is_no_index_then_a_build_repairs_it(built):
    index, corpus = built
    (index / "current").unlink()
    (index / "current").symlink_to("current")
    for command in (["export"], ["search", "écho"], ["versions"]):
        result = kb_cli(index, *command)
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert "kb build" in result.stderr
    build(index, [corpus])
    assert kb_cli(index, "search", "écho").returncode == 0


def test_a_full_disk_while_indexing_keeps_the_previous_index(built, monkeypatch):
    index, corpus = built
    served = generation(index)
    (corpus / "second.txt").write_bytes((embedded_corpus() / "004_a6e7784aa109b725.txt")
                                        .read_bytes())

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.whoosh_index, "create_in", no_space)
    monkeypatch.setattr(writer, "_worker_processes", lambda: 1)
    with pytest.raises(IndexWriteError, match="disk full.*previous index is still served"):
        build(index, [corpus])
    assert generation(index) == served
    assert not list((index / "builds").glob("*.partial"))


def test_doctor_finds_a_store_damaged_below_sqlite(built):
    index, _ = built
    path = generation(index) / STORE_FILE
    with sqlite3.connect(path) as conn:  # a page SQLite itself finds wrong
        conn.execute("PRAGMA writable_schema=ON")
    data = bytearray(path.read_bytes())
    data[4096 + 10: 4096 + 60] = b"\x00" * 50
    path.write_bytes(bytes(data))
    result = kb_cli(index, "doctor", "--json")
    assert result.returncode == 1 and "problems" in result.stdout


def test_a_full_disk_while_writing_the_store_keeps_the_previous_index(built, monkeypatch):
    index, corpus = built
    served = generation(index)
    (corpus / SEED).write_text((corpus / SEED).read_text(encoding="utf-8") + "\n- x\n",
                               encoding="utf-8")

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr("kb.build.Store.add_source", full)
    with pytest.raises(IndexWriteError, match="disk full.*previous index is still served"):
        build(index, [corpus])
    assert generation(index) == served and verify(served) == []
    assert not list((index / "builds").glob("*.partial"))


def test_an_index_of_an_older_kb_is_no_damage(built):
    """An index written before generations had manifests (and an older store schema) is
    named as such, with its fix, not as damaged."""
    index, _ = built
    generation = IndexDir(index).current()
    (generation / "manifest.json").unlink()
    with sqlite3.connect(generation / STORE_FILE) as conn:
        conn.execute("UPDATE meta SET value='3' WHERE key='schema_version'")
    done = kb_cli(index, "rule", "702.27")
    assert done.returncode == 1 and "damaged" not in done.stderr
    assert "built by another version of kb; run 'kb build'" in done.stderr
