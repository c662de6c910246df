"""A damaged index is said to be damaged, never served, and never reused by the next build."""

from __future__ import annotations

import errno
import json
import os
import shutil
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


# -- issue 25: the index folder is kb's alone, and readers verify what they serve -----------


def two_folder_index(tmp_path: Path) -> tuple[Path, Path]:
    """An index built from two folders (--only), then built again after one of them changed:
    two generations, both whole. Returns (index, the folder that would be dropped)."""
    from tests.test_build import OTHER_SEED, seed_folder

    index = tmp_path / "idx"
    a, b = seed_folder(tmp_path, "a", SEED), seed_folder(tmp_path, "b", OTHER_SEED)
    assert kb_cli(index, "build", "--only", "--corpus", str(a), "--corpus", str(b)).returncode == 0
    (b / "more.txt").write_bytes((embedded_corpus() / "001_f4c4515b1d59e611.txt").read_bytes())
    assert kb_cli(index, "build").returncode == 0
    return index, b


def break_current(index: Path, how: str, elsewhere: Path) -> None:
    pointer = index / "current"
    target = generation(index)
    pointer.unlink()
    if how == "dangling":
        pointer.symlink_to("builds/no-such-generation")
    elif how == "loop":
        pointer.symlink_to("current")
    elif how == "elsewhere":  # a whole generation, but not one of this index's
        shutil.copytree(target, elsewhere)
        pointer.symlink_to(elsewhere)


@pytest.mark.parametrize("how", ["missing", "dangling", "loop", "elsewhere"])
def test_a_lost_current_link_loses_no_folder_no_generation_and_no_refusal(tmp_path, how):
    """Issue 25, case 1: `rm idx/current; kb build` rebuilt the embedded corpus alone (the
    remembered folders forgotten, no "would drop" refusal) and deleted the intact older
    generation."""
    from tests.test_build import OTHER_SEED, files_of

    index, b = two_folder_index(tmp_path)
    newest = generation(index)
    older = [g for g in (index / "builds").iterdir() if g != newest]
    assert len(older) == 1
    break_current(index, how, tmp_path / "elsewhere")
    refused = kb_cli(index, "build", "--only", "--corpus", str(b))
    assert refused.returncode == 1 and SEED in refused.stderr and "--replace" in refused.stderr
    assert generation(index) == newest  # the refused build still repaired the link
    break_current(index, how, tmp_path / "elsewhere2")
    repaired = kb_cli(index, "build", "--json")
    assert repaired.returncode == 0, repaired.stderr
    report = json.loads(repaired.stdout)
    assert report["unchanged"] is True  # the same folders, the same files: nothing to write
    assert any("restored" in p["reason"] for p in report["problems"])
    assert generation(index) == newest and older[0].is_dir()
    assert files_of(index) == {SEED, OTHER_SEED, "more.txt"}


def test_a_folder_that_is_not_an_index_is_refused_and_left_as_it_was(tmp_path):
    """Issue 25, case 2: `mkdir -p d/builds/p; echo x > d/builds/p/f; KB_INDEX=d kb build`
    deleted d/builds/p and replaced a file named current with a symlink."""
    folder = tmp_path / "d"
    (folder / "builds" / "p").mkdir(parents=True)
    (folder / "builds" / "p" / "f").write_text("x\n")
    (folder / "current").write_text("my notes\n")
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    result = kb_cli(folder, "build")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "not a kb index" in result.stderr
    assert "builds/" in result.stderr and "current" in result.stderr  # what is there
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before
    assert (folder / "builds" / "p" / "f").read_text() == "x\n"
    assert (folder / "current").read_text() == "my notes\n"


def test_an_empty_folder_becomes_an_index_and_is_marked_first(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / SEED).write_bytes((embedded_corpus() / SEED).read_bytes())
    build(folder, [corpus])
    from kb.indexdir import MARKER_FILE

    marker = json.loads((folder / MARKER_FILE).read_text(encoding="utf-8"))
    assert marker["folders"] == [str(corpus.resolve())]
    assert IndexDir(folder).current() is not None


def test_a_build_starting_in_a_new_folder_is_a_build_running_not_a_foreign_folder(tmp_path):
    """Two builds into a new folder at once: the first takes its lock (the folder then holds
    only build.lock) before it writes the marker. The second said "not a kb index" instead
    of "another kb build is running" (tests/test_concurrency.py, seen on a loaded machine)."""
    from filelock import FileLock

    from kb.indexdir import LOCK_FILE, BuildLockedError

    folder = tmp_path / "new"
    folder.mkdir()
    # The first build, between its lock and its marker:
    with (FileLock(folder / LOCK_FILE, timeout=0),
          pytest.raises(BuildLockedError, match="another kb build is running"),
          IndexDir(folder).lock()):
        pass
    # ... and one killed there left its lock file: the folder is still kb's.
    with IndexDir(folder).lock():
        pass
    assert IndexDir(folder).marker.is_file()


def test_an_index_of_a_kb_from_before_the_marker_is_adopted(built):
    """An index whose generations carry manifests, built before the marker existed, is kb's:
    the next build marks it and goes on."""
    from kb.indexdir import MARKER_FILE

    index, corpus = built
    (index / MARKER_FILE).unlink()
    (corpus / "second.txt").write_bytes((embedded_corpus() / "004_a6e7784aa109b725.txt")
                                        .read_bytes())
    report = build(index, [corpus])
    assert not report.unchanged and (index / MARKER_FILE).is_file()


def test_a_store_altered_in_place_is_damaged_not_a_different_answer(built):
    """Issue 25, case 4: bytes altered inside kb.sqlite (same size) where no record checksum
    covers them (the kind column) changed `kb versions` silently; readers checked sizes."""
    index, _ = built
    before = kb_cli(index, "export", "--kind", "rule")
    assert before.returncode == 0 and "702.27" in before.stdout
    path = generation(index) / STORE_FILE
    size = path.stat().st_size
    with sqlite3.connect(path) as conn:  # a valid file that says something else
        assert conn.execute("UPDATE records SET kind='rulf' WHERE kind='rule' AND number "
                            "LIKE '702.27%'").rowcount > 1
    conn.close()
    assert path.stat().st_size == size
    for command in (["export", "--kind", "rule"], ["versions"], ["search", "écho"]):
        assert_damaged(kb_cli(index, *command))


@pytest.mark.parametrize("suffix", ["-journal", "-wal"])
def test_a_stray_journal_is_ignored_by_readers_and_removed_by_the_next_build(built, suffix):
    """Issue 25, case 5: a kb.sqlite-journal beside the store made every read fail, while
    `kb build` said "Nothing changed" and left the index unreadable."""
    index, corpus = built
    before = kb_cli(index, "export", "--kind", "rule")
    store = generation(index) / STORE_FILE
    hot = store.parent / "copy.sqlite"  # a real hot journal: a write interrupted mid-way
    shutil.copyfile(store, hot)
    conn = sqlite3.connect(hot, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("DELETE FROM records")
    conn.execute("PRAGMA cache_spill=1")
    conn.execute("PRAGMA cache_size=1")
    conn.execute("DELETE FROM bodies")
    journal = Path(f"{hot}-journal")
    stray = Path(f"{store}{suffix}")
    stray.write_bytes(journal.read_bytes() if journal.exists() else b"\x00" * 4096)
    conn.execute("ROLLBACK")
    conn.close()
    hot.unlink()
    for command in (["export", "--kind", "rule"], ["search", "écho"]):
        got = kb_cli(index, *command)
        assert got.returncode == 0, got.stderr
    assert kb_cli(index, "export", "--kind", "rule").stdout == before.stdout
    rebuilt = kb_cli(index, "build", "--json")
    assert rebuilt.returncode == 0
    assert any(stray.name in p["file"] for p in json.loads(rebuilt.stdout)["problems"])
    assert not stray.exists() and verify(generation(index)) == []


def test_a_malformed_manifest_is_damage_that_kb_build_repairs(built):
    """Issue 25, case 12: a manifest.json of the wrong types made doctor, search and build
    fail with an internal ValueError, so `kb build` could not repair it."""
    index, _ = built
    before = kb_cli(index, "search", "--json", "écho")
    manifest = generation(index) / "manifest.json"
    manifest.write_text(json.dumps({"files": {"kb.sqlite": "abc"}, "inputs": {
        "folders": 3, "sources": ["x"]}}), encoding="utf-8")
    assert_damaged(kb_cli(index, "search", "écho"))
    doctor = kb_cli(index, "doctor")
    assert doctor.returncode == 1 and "damaged" in doctor.stderr
    assert "Traceback" not in doctor.stderr and "internal" not in doctor.stderr
    rebuilt = kb_cli(index, "build")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert kb_cli(index, "search", "--json", "écho").stdout == before.stdout
    assert kb_cli(index, "doctor").returncode == 0


def test_whole_files_are_read_once_for_the_user_s_next_processes(built, tmp_path, monkeypatch):
    """Readers check every checksum, but a command on an index of a hundred versions must not
    read 150 MB each time: what a process found whole is remembered (by inode, size and
    times) for the next; a file altered since is read again and found damaged."""
    from kb import indexdir

    index, _ = built
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(indexdir, "_WHOLE", {})
    monkeypatch.setattr(indexdir, "_loaded", [])
    indexdir.check_serving(generation(index))  # reads every file once
    assert (tmp_path / "cache" / "whole.json").is_file()
    # A new process: nothing in memory, the cache file read; no file is read again.
    monkeypatch.setattr(indexdir, "_WHOLE", {})
    monkeypatch.setattr(indexdir, "_loaded", [])
    real = indexdir._sha256
    read: list[Path] = []
    monkeypatch.setattr(indexdir, "_sha256", lambda path: read.append(path) or real(path))
    indexdir.check_serving(generation(index))
    assert read == []
    flip_in_store(index, "Les cartes du bloc")  # the same size, altered in place
    with pytest.raises(indexdir.CorruptIndexError, match="checksum differs"):
        indexdir.check_serving(generation(index))
    assert read == [generation(index) / STORE_FILE]


def test_damage_is_said_in_the_reader_s_language(built):
    """Issue 22: the damage message is kb's, in the interface language (the file named as it
    is); the JSON error keeps its code."""
    index, _ = built
    path = generation(index) / STORE_FILE
    with path.open("r+b") as handle:  # truncated: the manifest's size no longer holds
        handle.truncate(path.stat().st_size - 1)
    env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO),
           "LANG": "fr_FR.UTF-8"}
    french = subprocess.run([sys.executable, "-m", "kb", "versions"], env=env,
                            capture_output=True, text=True, timeout=300)
    assert french.returncode == 1
    assert french.stderr.startswith("kb: l’index est endommagé\u00a0: ")
    assert "(tronqué ou modifié)" in french.stderr
    assert "lancez «\u00a0kb build\u00a0»" in french.stderr
    assert_damaged(kb_cli(index, "versions"))  # and in English under the tests' LANG=C
