"""Time of ``kb check`` over every scenario: median of N runs of the whole command (a fresh
process each run, as a user types it), against baselines measured in the same run: the same
process doing nothing but ``kb versions`` (start-up and opening the index), and loading the
scenario files alone.

Needs an index; by default one is built once from the embedded corpus and the whole shared
corpus into a temporary folder. Run: ``python bench/bench_check.py [--runs 7] [--index DIR]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb.api import build_index  # noqa: E402
from kb.check import load, scenario_files  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
KB = [sys.executable, "-m", "kb"]
BUDGET = 2.0  # seconds: issue 13's bound on kb check over every scenario


def timed_command(index: Path, *args: str) -> float:
    started = time.perf_counter()
    subprocess.run([*KB, "--index", str(index), *args], check=True, capture_output=True)
    return time.perf_counter() - started


def timed_load() -> float:
    started = time.perf_counter()
    load(scenario_files())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--index", type=Path, help="an index folder already built")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            index = Path(tmp) / "index"
            build_index(index, [SHARED] if SHARED.is_dir() else [])
        checks, versions, loads = [], [], []
        for _ in range(args.runs):
            checks.append(timed_command(index, "check", "--json"))
            versions.append(timed_command(index, "versions"))
            loads.append(timed_load())
    c, v, s = (statistics.median(x) for x in (checks, versions, loads))
    scenarios = len(load(scenario_files()).scenarios)
    print(f"kb check --json (all {scenarios} scenarios): median {c:.3f} s over {args.runs} runs"
          f" ({'within' if c < BUDGET else 'OVER'} the {BUDGET:.0f} s budget)")
    print(f"baseline kb versions (start-up, open the index): median {v:.3f} s")
    print(f"baseline loading the scenario files alone: median {s:.3f} s")
    print(f"ratios check/versions {c / v:.1f}x, check/load {c / s:.1f}x")


if __name__ == "__main__":
    main()
