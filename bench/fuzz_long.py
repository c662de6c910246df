"""The long fuzzing run: 10,000 damaged documents per parser, checked as the CI suite checks a
few dozen (see tests/fuzz: no exception, determinism, well-formed records, conservation).

Each parser's documents are drawn from its seeds (split evenly among them), one process per
parser. Reported per parser: examples, seconds, examples per second, the baseline (checking
the undamaged seeds, median of 20 runs, measured in the same process) and the ratio of the mean
damaged example to it, what became of the documents (read by the seed's parser, by another, by
none, refused as binary), and the failures, each with the minimal example hypothesis shrank
it to, saved under --out. Exit status 1 when anything failed.

Run: ``python bench/fuzz_long.py [--examples 10000] [--jobs 4] [--parsers cr_text,mtgjson]``;
``--indexes N`` first damages N built indexes (see ``bench/fuzz_index.py``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.fuzz.mutations import documents  # noqa: E402
from tests.fuzz.properties import check  # noqa: E402
from tests.fuzz.seeds import SEEDS, seed_text  # noqa: E402


@dataclass
class Run:
    parser: str
    examples: int = 0
    seconds: float = 0.0
    baseline: float = 0.0  # seconds to check one undamaged seed (median)
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[tuple[str, str, bytes]] = field(default_factory=list)  # seed, error, input
    skipped: list[str] = field(default_factory=list)  # seeds absent (no shared corpus)


def fuzz(parser: str, examples: int) -> Run:
    run = Run(parser)
    names = [n for n, (fmt, _) in SEEDS.items() if fmt == parser]
    present = [n for n in names if seed_text(n) is not None]
    run.skipped = [n for n in names if n not in present]
    run.baseline = statistics.median(_timed(seed_text(n).encode()) for n in present
                                     for _ in range(20 // len(present) or 1))
    started = time.perf_counter()
    for i, name in enumerate(present):
        _fuzz_seed(run, name, examples // len(present) + (i < examples % len(present)))
    run.seconds = time.perf_counter() - started
    return run


def _fuzz_seed(run: Run, name: str, examples: int) -> None:
    last: list[bytes] = []

    @settings(max_examples=examples, deadline=None, database=None, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck))
    @given(documents(seed_text(name)))
    def damaged(data: bytes) -> None:
        run.examples += 1
        try:
            outcome = check(data)
        except Exception:
            last[:] = [data]  # hypothesis ends by replaying the minimal failing example
            raise
        result = outcome.result
        run.outcomes["binary" if result is None else
                     run.parser if result.format == run.parser else
                     "none" if result.format == "unknown" else "other"] += 1

    try:
        damaged()
    except Exception as exc:  # a failure: keep it, fuzz the next seed
        run.failures.append((name, f"{type(exc).__name__}: {exc}"[:300], last[0] if last else b""))


def _timed(data: bytes) -> float:
    started = time.perf_counter()
    check(data)
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=int, default=10_000, help="damaged documents per parser")
    ap.add_argument("--jobs", type=int, default=4, help="parsers fuzzed at once")
    ap.add_argument("--parsers", help="comma-separated parser names (default: all)")
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                    help="folder for the minimal failing inputs")
    ap.add_argument("--indexes", type=int, default=0,
                    help="also damage this many built indexes (bench/fuzz_index.py)")
    args = ap.parse_args()
    if args.indexes:
        from bench.fuzz_index import main as fuzz_indexes

        if fuzz_indexes(["--rounds", str(args.indexes)]):
            return 1
    parsers = sorted({fmt for fmt, _ in SEEDS.values()})
    if args.parsers:
        parsers = [p for p in parsers if p in args.parsers.split(",")]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = list(pool.map(fuzz, parsers, [args.examples] * len(parsers)))
    print(f"{'parser':<14}{'examples':>9}{'seconds':>9}{'ex/s':>7}{'baseline ms':>13}"
          f"{'ratio':>7}  outcomes (own/other/none/binary)  failures")
    for run in runs:
        mean = run.seconds / max(run.examples, 1)
        o = run.outcomes
        print(f"{run.parser:<14}{run.examples:>9}{run.seconds:>9.1f}"
              f"{run.examples / max(run.seconds, 1e-9):>7.0f}{run.baseline * 1000:>13.1f}"
              f"{mean / run.baseline if run.baseline else 0:>7.1f}  "
              f"{o[run.parser]}/{o['other']}/{o['none']}/{o['binary']:<20}  {len(run.failures)}"
              + (f"  (no shared corpus: {', '.join(run.skipped)})" if run.skipped else ""))
    failures = [(run.parser, *f) for run in runs for f in run.failures]
    for n, (parser, seed, error, data) in enumerate(failures, 1):
        args.out.mkdir(exist_ok=True)
        path = args.out / f"{n:02d}-{seed}.bin"
        path.write_bytes(data)
        print(f"FAILED {parser} ({seed}): {error}\n  minimal input ({len(data)} bytes): {path}")
    total = sum(r.examples for r in runs)
    print(f"{total} examples in {time.perf_counter() - started:.0f} s, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
