"""Builds are atomic, incremental, locked, and lose nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.build import build
from kb.corpus import embedded_corpus
from kb.errors import NoIndexError
from kb.indexdir import BuildLockedError, IndexDir
from kb.reader import KnowledgeBase
from tests.conftest import CR_EN, cr_file

REPO = Path(__file__).resolve().parents[1]


def cr_folder(tmp_path: Path, *dates: str) -> Path:
    folder = tmp_path / "cr"
    folder.mkdir(exist_ok=True)
    for date in dates:
        shutil.copyfile(cr_file(date), folder / f"MagicCompRules {date}.txt")
    return folder


def test_embedded_corpus_builds_and_reports_the_seeds(tmp_path):
    report = build(tmp_path / "idx", [embedded_corpus()])
    assert sorted(s.file for s in report.sources) == sorted(
        p.name for p in embedded_corpus().glob("*.txt")  # the seeds and the CR
    )
    assert report.problems == []
    # Seed 003 lost the numbers of 707.1 to 707.14 (those written "707.3."), and left six
    # paragraphs in English: 707.2, 707.8, 707.8a, 707.10f, 707.10g, 707.14.
    table = next(s for s in report.sources if s.file.startswith("003_"))
    assert table.flags == {"inferred": 14, "untranslated": 6}
    assert all(s.format != "unknown" for s in report.sources)


def test_incremental_build_reuses_unchanged_sources(tmp_path):
    folder = cr_folder(tmp_path, "20260417")
    first = build(tmp_path / "idx", [folder])
    assert [s.reused for s in first.sources] == [False]
    shutil.copyfile(cr_file("20250207"), folder / "MagicCompRules 20250207.txt")
    second = build(tmp_path / "idx", [folder])
    reused = {s.file: s.reused for s in second.sources}
    assert reused == {"MagicCompRules 20250207.txt": False, "MagicCompRules 20260417.txt": True}
    assert second.sources[1].counts == first.sources[0].counts
    with KnowledgeBase(tmp_path / "idx") as kb:
        assert kb.rule("702.19b")[0].text.startswith("The controller of an attacking creature")


def test_a_new_row_of_the_official_vocabulary_rebuilds_the_term_table(tmp_path, monkeypatch):
    """The official French vocabulary (kb/link/official_terms.tsv) is data the link stage
    makes the term table of; a kb shipping new rows kept answering from the old table, the
    build saying "Nothing changed" (the parsers' fingerprint covered their code only)."""
    import kb
    from kb import build as build_module

    package = tmp_path / "kb"
    shutil.copytree(Path(kb.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__", "locale", "web"))
    monkeypatch.setattr(kb, "__file__", str(package / "__init__.py"))
    before = build_module.parser_stamp()
    with (package / "link" / "official_terms.tsv").open("a", encoding="utf-8") as table:
        table.write("en jeu\tin play\n")
    assert build_module.parser_stamp() != before


def test_same_document_twice_is_reported_not_duplicated(tmp_path):
    folder = cr_folder(tmp_path, "20260417")
    other = tmp_path / "other"
    other.mkdir()
    (other / "copy.txt").write_bytes(cr_file("20260417").read_bytes().replace(b"\n", b"\r\n"))
    report = build(tmp_path / "idx", [folder, other])
    assert [p.file for p in report.problems] == ["copy.txt"]
    assert "same document as MagicCompRules 20260417.txt" in report.problems[0].reason


def test_bad_files_are_named_and_the_rest_builds(tmp_path):
    folder = cr_folder(tmp_path, "20260417")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "blob.bin").write_bytes(bytes(range(32)) * 100)
    report = build(tmp_path / "idx", [folder])
    assert {p.file: p.reason for p in report.problems} == {
        "empty.txt": "empty file", "blob.bin": "binary content, not text"}
    assert report.versions == ["2026-04-17"]


def test_a_second_build_while_one_runs_is_refused(tmp_path):
    index = IndexDir(tmp_path / "idx")
    with index.lock(), pytest.raises(BuildLockedError, match="another kb build is running"):
        build(tmp_path / "idx", [embedded_corpus()])


def test_store_of_another_schema_is_not_read(tmp_path):
    build(tmp_path / "idx", [embedded_corpus()])
    store = IndexDir(tmp_path / "idx").current_store()
    conn = sqlite3.connect(store)
    conn.execute("UPDATE meta SET value='0' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(NoIndexError, match="schema version 0"):
        KnowledgeBase(tmp_path / "idx")
    build(tmp_path / "idx", [embedded_corpus()])  # and the next build replaces it
    KnowledgeBase(tmp_path / "idx").close()


def kb_cli(index: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "kb", *args], env=env, capture_output=True,
                          text=True, **kwargs)


@pytest.mark.parametrize("moment, delay", [("kb.sqlite", 0.0), ("kb.sqlite", 0.2),
                                            ("kb.sqlite", 0.5), ("search", 0.0),
                                            ("search", 0.3)])
def test_build_killed_halfway_leaves_the_previous_store_serving(tmp_path, moment, delay):
    """Killed while it writes the store, or the search index, aside: the previous store and
    index answer exactly as before."""
    if not CR_EN.is_dir():
        pytest.skip(f"shared corpus not found at {CR_EN}: set KB_SHARED_CORPUS")
    index = tmp_path / "idx"
    small = cr_folder(tmp_path, "20260417")
    assert kb_cli(index, "build", "--corpus", str(small)).returncode == 0
    before = kb_cli(index, "rule", "702.19b").stdout
    found_before = kb_cli(index, "search", "--json", "trample").stdout

    # A larger build (every shared version, twice), killed while it writes aside.
    big = tmp_path / "big"
    big.mkdir()
    for i, path in enumerate(sorted(CR_EN.glob("*.txt")) * 2):
        shutil.copyfile(path, big / f"{i}-{path.name}")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kb", "build", "--corpus", str(big)],
        env={**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not list((index / "builds").glob(f"*.partial/{moment}")):
        assert proc.poll() is None, "the build ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    time.sleep(delay)
    assert proc.poll() is None, "the build ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()

    after = kb_cli(index, "rule", "702.19b")
    assert after.returncode == 0 and after.stdout == before
    assert kb_cli(index, "search", "--json", "trample").stdout == found_before
    assert kb_cli(index, "versions").stdout.count("MagicCompRules") == 1
    # The next build clears the dead one's leftovers and publishes.
    assert kb_cli(index, "build", "--corpus", str(small)).returncode == 0
    assert not list((index / "builds").glob("*.partial"))


def test_the_same_card_from_two_mtgjson_files_is_kept_once(tmp_path):
    rulings = CR_EN.parent / "rulings"
    if not rulings.is_dir():
        pytest.skip(f"shared corpus not found at {rulings.parent}: set KB_SHARED_CORPUS")
    folder = tmp_path / "mtgjson"
    folder.mkdir()
    for name in ("mtgjson_v5.2.0_DGM.json", "mtgjson_subset_rulings_foreign.json.gz"):
        shutil.copyfile(rulings / name, folder / name)
    report = build(tmp_path / "idx", [folder])
    assert report.problems == []
    # The subset holds every DGM card (SOURCES.md), so nothing of DGM is stored twice.
    subset, dgm = report.sources
    assert dgm.flags["duplicates"] > 0
    with KnowledgeBase(tmp_path / "idx") as kb:
        ids = [row["id"] for row in kb.export(kind="card")]
    assert len(ids) == len(set(ids))
    assert "mtgjson:aetherling" in ids


# -- the folders an index is built from (issue 12) ------------------------------------------

SEED = "000_3e28a88beae8982b.txt"  # the Echo keyword page, French and English 702.27
OTHER_SEED = "004_a6e7784aa109b725.txt"  # a dated rulings list


def seed_folder(tmp_path: Path, name: str, seed: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / seed).write_bytes((embedded_corpus() / seed).read_bytes())
    return folder


def files_of(index: Path) -> set[str]:
    with KnowledgeBase(index) as kb:
        return {s.file for s in kb.store.sources()}


def test_a_missing_corpus_folder_is_a_usage_error_and_the_index_still_answers(tmp_path):
    index = tmp_path / "idx"
    assert kb_cli(index, "build", "--only", "--corpus",
                  str(seed_folder(tmp_path, "a", SEED))).returncode == 0
    before = kb_cli(index, "export", "--kind", "rule")
    missing = kb_cli(index, "build", "--corpus", str(tmp_path / "no-such-folder"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    assert "Traceback" not in missing.stderr
    after = kb_cli(index, "export", "--kind", "rule")
    assert before.returncode == 0 and "702.27" in before.stdout and after.stdout == before.stdout


def test_the_index_remembers_its_folders_adds_and_refuses_to_drop(tmp_path):
    index = tmp_path / "idx"
    a, b = seed_folder(tmp_path, "a", SEED), seed_folder(tmp_path, "b", OTHER_SEED)
    assert kb_cli(index, "build", "--only", "--corpus", str(a)).returncode == 0
    assert files_of(index) == {SEED}
    # No arguments: the same set again (nothing changed, nothing written).
    again = kb_cli(index, "build", "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["unchanged"] is True
    # --corpus adds a folder to those remembered.
    assert kb_cli(index, "build", "--corpus", str(b)).returncode == 0
    assert files_of(index) == {SEED, OTHER_SEED}
    assert kb_cli(index, "build").returncode == 0 and files_of(index) == {SEED, OTHER_SEED}
    # --only b would drop the Echo page: refused, naming it; the index is untouched.
    refused = kb_cli(index, "build", "--only", "--corpus", str(b))
    assert refused.returncode == 1 and SEED in refused.stderr and "--replace" in refused.stderr
    assert files_of(index) == {SEED, OTHER_SEED}
    assert kb_cli(index, "build", "--only", "--replace", "--corpus", str(b)).returncode == 0
    assert files_of(index) == {OTHER_SEED}


def test_a_build_that_would_drop_a_rules_version_names_it(tmp_path):
    index = tmp_path / "idx"
    folder = cr_folder(tmp_path, "20250207", "20260417")
    assert kb_cli(index, "build", "--only", "--corpus", str(folder)).returncode == 0
    (folder / "MagicCompRules 20250207.txt").unlink()
    refused = kb_cli(index, "build")
    assert refused.returncode == 1
    assert "rules versions 2025-02-07" in refused.stderr
    assert "MagicCompRules 20250207.txt" in refused.stderr
    assert "2025-02-07" in kb_cli(index, "versions").stdout


def test_a_lost_manifest_loses_neither_the_folders_nor_the_refusal(tmp_path):
    index = tmp_path / "idx"
    a, b = seed_folder(tmp_path, "a", SEED), seed_folder(tmp_path, "b", OTHER_SEED)
    assert kb_cli(index, "build", "--only", "--corpus", str(a), "--corpus", str(b)).returncode == 0
    current = IndexDir(index).current()
    assert current is not None
    (current / "manifest.json").unlink()
    refused = kb_cli(index, "build", "--only", "--corpus", str(b))
    assert refused.returncode == 1 and SEED in refused.stderr
    rebuilt = kb_cli(index, "build")  # the folders come back from the store
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert files_of(index) == {SEED, OTHER_SEED}
