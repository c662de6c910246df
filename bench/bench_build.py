"""Build time of the five shared CR versions: median of N full (non-incremental) builds.

Baseline, measured in the same run: the floor of the job, reading and decoding the same files
and inserting every line into SQLite with no parsing. Reported as a ratio so that machine noise
cancels out. Two stages are also timed alone against the same baseline (they were wall-clock
asserts in the tests, which a loaded machine failed): following rules across the five versions
(``build_lineage``) and parsing the 11 MB MTGJSON subset.
Run: ``python bench/bench_build.py [--runs 5]``.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb.build import build  # noqa: E402
from kb.corpus import read_bytes  # noqa: E402
from kb.link.identity import build_lineage  # noqa: E402
from kb.model import Rule  # noqa: E402
from kb.sources import cr_text, mtgjson  # noqa: E402
from kb.text.decode import decode  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))


def baseline(files: list[Path], folder: Path) -> float:
    started = time.perf_counter()
    conn = sqlite3.connect(folder / "baseline.sqlite")
    conn.execute("CREATE TABLE lines (file TEXT, line INTEGER, text TEXT)")
    for path in files:
        text = decode(path.read_bytes()).text
        conn.executemany("INSERT INTO lines VALUES (?, ?, ?)",
                         ((path.name, i, t) for i, t in enumerate(text.split("\n"), 1)))
    conn.commit()
    conn.close()
    return time.perf_counter() - started


def full_build(folder: Path, work: Path) -> float:
    started = time.perf_counter()
    build(work, [folder])  # a fresh index folder each run: nothing is reused
    return time.perf_counter() - started


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def stages(files: list[Path]) -> dict[str, Callable[[], object]]:
    """The stages timed alone: each a call on inputs parsed beforehand."""
    versions = {}
    for path in files:
        rules = [r for r in cr_text.parse(decode(path.read_bytes()).text, path.name).records
                 if isinstance(r, Rule)]
        versions[rules[0].version] = rules
    subset = SHARED / "rulings" / "mtgjson_subset_rulings_foreign.json.gz"
    text = decode(read_bytes(subset)).text
    return {"build_lineage, five versions": lambda: build_lineage(versions),
            "mtgjson subset parse": lambda: mtgjson.parse(text, subset.name)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    folder = SHARED / "cr-en"
    if not folder.is_dir():
        sys.exit(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    files = sorted(folder.glob("*.txt"))
    builds, bases = [], []
    for i in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            bases.append(baseline(files, Path(tmp)))
            builds.append(full_build(folder, Path(tmp) / f"idx{i}"))
    b, base = statistics.median(builds), statistics.median(bases)
    print(f"full build of {len(files)} CR versions: median {b:.3f} s over {args.runs} runs")
    print(f"baseline (decode + insert raw lines): median {base:.3f} s")
    print(f"ratio build/baseline: {b / base:.1f}x")
    for name, fn in stages(files).items():
        took = statistics.median(timed(fn) for _ in range(args.runs))
        print(f"{name}: median {took:.3f} s = {took / base:.1f}x baseline")


if __name__ == "__main__":
    main()
