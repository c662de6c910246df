"""Search: build time, warm query latency and cold ``kb search``, beside SQLite FTS5.

kb: a full build of the embedded corpus and the shared corpus (parse, link, store, index);
queries of the relevance set (tests/search/relevance.toml) through a warm ``Searcher``; a cold
``kb search`` in a new process, to its exit. Baseline, measured in the same run over the same
records: an FTS5 table (unicode61 tokenizer, diacritics removed) of the searchable records'
texts, filled from the built store (its build time), queried with the same words (each query's
words ORed), and a cold Python process that opens it and runs one query. Figures are medians
and ratios to the baseline, so that machine noise cancels out. Quality (hit@1, hit@3, MRR@10)
is kb's, on the relevance set.

Run: ``python bench/bench_search.py [--builds 3] [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb.build import build  # noqa: E402
from kb.corpus import embedded_corpus  # noqa: E402
from kb.index.documents import SEARCHED_KINDS  # noqa: E402
from kb.indexdir import STORE_FILE, IndexDir  # noqa: E402
from kb.search import Searcher  # noqa: E402
from kb.store import Store, record_text, record_title  # noqa: E402
from tests.search.relevance import judge, load, scores  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
KB = Path(sys.executable).with_name("kb")
COLD_QUERY = "piétinement"
# A whole question of 40 words, as pasted from a forum (the bound: 100 ms warm).
LONG_QUESTION = (
    "when a creature with first strike and trample attacks and is blocked by a creature with "
    "deathtouch and lifelink what happens to the damage dealt to the defending player and the "
    "creatures that are blocking it in the combat damage step")


def fts_build(store: Path, target: Path) -> float:
    started = time.perf_counter()
    conn = sqlite3.connect(target)
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, body,"
                 " tokenize='unicode61 remove_diacritics 2')")
    source = Store.open(store)
    rows = ((r.id, f"{record_title(r) or ''} {record_text(r)}") for kind in SEARCHED_KINDS
            for r in source.query(kind=kind))
    conn.executemany("INSERT INTO docs VALUES (?, ?)", rows)
    source.close()
    conn.commit()
    conn.close()
    return time.perf_counter() - started


def fts_query(words: str) -> str:
    tokens = re.findall(r"\w+", words)
    return " OR ".join(f'"{t}"' for t in tokens) or '""'


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not (SHARED / "SOURCES.md").is_file():
        sys.exit(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    work = Path(tempfile.mkdtemp(prefix="kb-bench-search-"))
    folders = [embedded_corpus(), SHARED]

    kb_build, fts = [], []
    for n in range(args.builds):
        index = work / f"index{n}"
        started = time.perf_counter()
        build(index, folders)
        kb_build.append(time.perf_counter() - started)
        store = IndexDir(index).current() / STORE_FILE  # type: ignore[operator]
        fts_path = work / f"fts{n}.sqlite"
        fts.append(fts_build(store, fts_path))
    index, fts_path = work / "index0", work / "fts0.sqlite"

    queries = load()
    warm, warm_fts, long_question = [], [], []
    with Searcher(index) as searcher:
        by_group: dict[str, list] = {}
        for q in queries:
            by_group.setdefault(q.group, []).append(judge(searcher, q))
        measured = scores([o for outcomes in by_group.values() for o in outcomes])
        for _ in range(args.rounds):
            started = time.perf_counter()
            searcher.search(LONG_QUESTION, limit=10)
            long_question.append((time.perf_counter() - started) * 1000)
        conn = sqlite3.connect(fts_path)
        for _ in range(args.rounds):
            for q in queries:
                started = time.perf_counter()
                searcher.search(q.q, limit=10)
                warm.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                conn.execute("SELECT id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10",
                             (fts_query(q.q),)).fetchall()
                warm_fts.append((time.perf_counter() - started) * 1000)

    cold, cold_fts = [], []
    # As installed (pip compiles the modules once): a PYTHONDONTWRITEBYTECODE environment
    # would recompile kb's modules in every process (30 ms), which no install does.
    compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([str(KB), "--index", str(index), "search", COLD_QUERY], env=compiled,
                   check=True, capture_output=True)
    fts_script = ("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("
                  "'SELECT id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10',"
                  "(sys.argv[2],)).fetchall()[:1])")
    for _ in range(args.rounds):
        started = time.perf_counter()
        subprocess.run([str(KB), "--index", str(index), "search", "--json", COLD_QUERY],
                       check=True, capture_output=True, env=compiled)
        cold.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", fts_script, str(fts_path), fts_query(COLD_QUERY)],
                       check=True, capture_output=True)
        cold_fts.append((time.perf_counter() - started) * 1000)

    rows = [
        ("full build (s, median)", statistics.median(kb_build), statistics.median(fts)),
        ("warm query p50 (ms)", statistics.median(warm), statistics.median(warm_fts)),
        ("warm query p95 (ms)", percentile(warm, 0.95), percentile(warm_fts, 0.95)),
        ("cold search (ms, median)", statistics.median(cold), statistics.median(cold_fts)),
    ]
    print(f"{len(queries)} queries x {args.rounds} rounds, {args.builds} builds; "
          f"machine load {os.getloadavg()[0]:.1f}")
    print(f"{'measure':28} {'kb':>10} {'FTS5':>10} {'ratio':>8}")
    for name, mine, base in rows:
        print(f"{name:28} {mine:10.2f} {base:10.2f} {mine / base:7.1f}x")
    print(f"40-word question, warm (ms, median): {statistics.median(long_question):.1f} "
          f"({len(LONG_QUESTION.split())} words)")
    print(f"quality: hit@1 {measured.hit1:.3f}  hit@3 {measured.hit3:.3f}  "
          f"MRR@10 {measured.mrr10:.3f}")
    for group, outcomes in sorted(by_group.items()):
        s = scores(outcomes)
        print(f"  {group:14} n={len(outcomes):3}  hit@1 {s.hit1:.3f}  hit@3 {s.hit3:.3f}  "
              f"MRR@10 {s.mrr10:.3f}")


if __name__ == "__main__":
    main()
