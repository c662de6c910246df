"""Readers during a build, and two builds at once (separate processes, as users run them)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CR_EN, REPO, cr_file


def kb(index: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "kb", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def answer(index: Path, *args: str) -> tuple[int, str, str]:
    proc = kb(index, *args)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def folder(tmp_path: Path, name: str, *dates: str) -> Path:
    target = tmp_path / name
    target.mkdir()
    for date in dates:
        shutil.copyfile(cr_file(date), target / f"MagicCompRules {date}.txt")
    return target


def test_readers_get_the_old_or_the_new_index_while_a_build_runs(tmp_path):
    index = tmp_path / "idx"
    # --no-embedded: the embedded corpus holds the 2026 rules, which would make both the same.
    assert answer(index, "build", "--no-embedded", "--corpus",
                  str(folder(tmp_path, "old", "20250207")))[0] == 0
    old = (answer(index, "search", "--json", "trample")[1],
           answer(index, "rule", "702.19b", "--json")[1])
    new_corpus = folder(tmp_path, "new", "20260417")
    build = kb(index, "build", "--only", "--replace", "--corpus", str(new_corpus))
    seen = []
    while build.poll() is None:
        search, rule = answer(index, "search", "--json", "trample"), answer(
            index, "rule", "702.19b", "--json")
        assert search[0] == 0 and rule[0] == 0, (search[2], rule[2])
        seen.append((search[1], rule[1]))
    assert build.returncode == 0, build.stderr.read() if build.stderr else ""
    new = (answer(index, "search", "--json", "trample")[1],
           answer(index, "rule", "702.19b", "--json")[1])
    assert old[0] != new[0] and old[1] != new[1]
    # Each answer is wholly the old index's or the new one's, never a mix or an error (the
    # build may publish between the two commands of one round).
    assert seen and all(found in (old[0], new[0]) and rule in (old[1], new[1])
                        for found, rule in seen)


def test_two_builds_at_once_one_refuses_and_nothing_breaks(tmp_path):
    if not CR_EN.is_dir():
        pytest.skip(f"shared corpus not found at {CR_EN}: set KB_SHARED_CORPUS")
    index = tmp_path / "idx"
    corpus = folder(tmp_path, "c", "20260417", "20250207")
    first, second = kb(index, "build", "--corpus", str(corpus)), kb(
        index, "build", "--corpus", str(corpus))
    results = [(p.wait(timeout=300), p.stderr.read()) for p in (first, second)]
    codes = sorted(code for code, _ in results)
    if codes == [0, 1]:
        refused = next(err for code, err in results if code == 1)
        assert "another kb build is running" in refused and "Traceback" not in refused
    else:  # the first finished before the second asked for the lock
        assert codes == [0, 0]
    status, out, _ = answer(index, "search", "--json", "trample")
    assert status == 0 and json.loads(out)["hits"][0]["number"] == "702.19"
