"""The cost of many Comprehensive Rules versions: N = 5, 20, 50 and all of the CR archive.

For each N (versions spread evenly over the archive, oldest and newest always in), each step
runs ``kb`` in a child process, as a user would, and is measured for wall time, the peak memory
of the whole process tree (the sum of the resident sizes of kb and its index-writer workers,
sampled every 20 ms from /proc) and the disk of the index folder afterwards:

- ``full``: the first build into an empty index folder;
- ``again``: a rebuild with nothing changed (and whether it wrote a new generation);
- ``one-changed``: a rebuild after one version's file was edited (one rule reworded);
- ``history``: ``kb history 702.19``; ``diff``: ``kb diff OLDEST NEWEST``.

Baseline, measured in the same run and the same way: a child process that reads and decodes
the same files (gunzip included) and does nothing else. Every figure is a median over
``--runs`` and is printed with its ratio to that baseline, so that a loaded machine (two cores
shared by many processes here) shows in both. Run: ``python bench/bench_versions.py
[--sizes 5,20,50,all] [--runs 3]``; ``--json`` prints the rows for scripts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Beside the shared corpus (``KB_SHARED_CORPUS``, as the tests find it), or ``KB_CR_ARCHIVE``.
_SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
ARCHIVE = Path(os.environ.get("KB_CR_ARCHIVE", _SHARED.parent / "cr-archive"))
PAGE = os.sysconf("SC_PAGE_SIZE")

READ_ONLY = """
import sys
from pathlib import Path
from kb.corpus import read_bytes
from kb.text.decode import decode
for name in sys.argv[1:]:
    decode(read_bytes(Path(name)))
"""


@dataclass
class Run:
    seconds: float
    peak_mb: float
    cpu: float  # user + system seconds of the process tree: steadier than wall time on a
    # machine shared with other work


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21]) * PAGE
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


def measure(argv: list[str], env: dict[str, str]) -> Run:
    """Run ``argv``; its wall time and the peak of its process tree's memory."""
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(child.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = child.communicate()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    if child.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({child.returncode}):\n{err.decode()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(seconds, peak / 2**20, cpu)


def disk_mb(folder: Path) -> float:
    """Bytes of distinct files under ``folder`` (a file hard-linked twice counts once)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in folder.rglob("*"):
        st = path.lstat()
        if path.is_file() and not path.is_symlink() and (st.st_dev, st.st_ino) not in seen:
            seen.add((st.st_dev, st.st_ino))
            total += st.st_size
    return total / 2**20


def generations(index: Path) -> int:
    return sum(1 for p in (index / "builds").iterdir() if not p.name.endswith(".partial"))


def pick(files: list[Path], n: int) -> list[Path]:
    """``n`` files spread evenly over ``files``, first and last included."""
    if n >= len(files):
        return list(files)
    step = (len(files) - 1) / (n - 1)
    return [files[round(i * step)] for i in range(n)]


def reword(path: Path) -> None:
    """Edit one rule of a gzipped CR file in place (a real change, same structure)."""
    text = gzip.decompress(path.read_bytes())
    at = text.index(b"702.19b")
    end = text.index(b"\n", at)
    path.write_bytes(gzip.compress(text[:end] + b" (reworded by the bench)" + text[end:]))


@dataclass
class Row:
    n: int
    step: str
    seconds: float
    peak_mb: float
    disk_mb: float
    ratio: float  # seconds / baseline seconds of the same N
    cpu: float = 0.0
    cpu_ratio: float = 0.0  # cpu / baseline cpu of the same N
    note: str = ""


def bench_size(files: list[Path], runs: int, work: Path) -> list[Row]:
    n = len(files)
    kb = [sys.executable, "-m", "kb"]
    env = {**os.environ, "KB_CORPUS": str(work / "no-user-corpus"), "PYTHONPATH": str(REPO)}
    base = [measure([sys.executable, "-c", READ_ONLY, *map(str, files)], env)
            for _ in range(runs)]
    base_s = statistics.median(r.seconds for r in base)
    base_cpu = statistics.median(r.cpu for r in base)
    rows = [Row(n, "baseline (read+decode)", base_s,
                statistics.median(r.peak_mb for r in base), 0.0, 1.0, base_cpu, 1.0)]
    steps: dict[str, list[Run]] = {}
    disks: dict[str, list[float]] = {}
    notes: dict[str, str] = {}
    for i in range(runs):
        corpus = work / f"corpus{i}"
        corpus.mkdir()
        for f in files:
            shutil.copy(f, corpus / f.name)
        index = work / f"idx{i}"
        build = [*kb, "--index", str(index), "build", "--no-embedded", "--corpus", str(corpus)]
        for step in ("full", "again"):
            gens = generations(index) if index.exists() else 0
            steps.setdefault(step, []).append(measure(build, env))
            disks.setdefault(step, []).append(disk_mb(index))
            if step == "again":
                notes[step] = ("wrote a new generation" if generations(index) > gens
                               else "wrote nothing new")
        reword(corpus / files[-1].name)
        steps.setdefault("one-changed", []).append(measure(build, env))
        disks.setdefault("one-changed", []).append(disk_mb(index))
        oldest, newest = (f.name.split(".")[0] for f in (files[0], files[-1]))
        for step, argv in (("history 702.19", ["history", "702.19"]),
                           ("diff oldest newest", ["diff", oldest, newest])):
            steps.setdefault(step, []).append(measure([*kb, "--index", str(index), *argv], env))
            disks.setdefault(step, []).append(disk_mb(index))
        shutil.rmtree(index)
        shutil.rmtree(corpus)
    for step, measured in steps.items():
        seconds = statistics.median(r.seconds for r in measured)
        cpu = statistics.median(r.cpu for r in measured)
        rows.append(Row(n, step, seconds, statistics.median(r.peak_mb for r in measured),
                        statistics.median(disks[step]), seconds / base_s, cpu, cpu / base_cpu,
                        notes.get(step, "")))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5,20,50,all")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = sorted(ARCHIVE.glob("*.txt.gz"))
    if not files:
        sys.exit(f"CR archive not found at {ARCHIVE}: set KB_CR_ARCHIVE")
    rows: list[Row] = []
    for size in args.sizes.split(","):
        n = len(files) if size == "all" else int(size)
        with tempfile.TemporaryDirectory(prefix="kb-bench-versions-") as tmp:
            rows += bench_size(pick(files, n), args.runs, Path(tmp))
        if not args.json:
            _print([r for r in rows if r.n == min(n, len(files))])
    if args.json:
        print(json.dumps([asdict(r) for r in rows], indent=2))
    print(f"load average at the end: {os.getloadavg()}", file=sys.stderr)


def _print(rows: list[Row]) -> None:
    print(f"\nN = {rows[0].n} versions (median of runs)")
    print(f"{'step':<24}{'seconds':>9}{'x base':>8}{'cpu s':>8}{'x base':>8}{'peak MB':>9}"
          f"{'disk MB':>9}  note")
    for r in rows:
        print(f"{r.step:<24}{r.seconds:>9.2f}{r.ratio:>8.1f}{r.cpu:>8.2f}{r.cpu_ratio:>8.1f}"
              f"{r.peak_mb:>9.0f}{r.disk_mb:>9.0f}  {r.note}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
