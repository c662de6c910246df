"""Damaged indexes: every command answers as before or says the index is damaged.

An index of the embedded corpus is built once; each round copies its published generation,
damages one file of the copy (bytes flipped at random places, the file cut short, or deleted:
the store, a search segment, the vocabulary, the manifest, ...) and runs the reading commands
on it. Each must either print exactly what it printed on the undamaged index (exit 0), or exit
1 with one line saying the index is damaged; a traceback, an "internal error", a hang or any
other answer is a failure. Finally ``kb build`` must repair the damage (same answers again).

Run: ``python bench/fuzz_index.py [--rounds 200] [--seed 1]`` (also ``bench/fuzz_long.py
--indexes N``). Exit status 1 when anything failed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb.build import build  # noqa: E402
from kb.corpus import embedded_corpus  # noqa: E402
from kb.indexdir import IndexDir  # noqa: E402

COMMANDS = (
    ("search", "écho"), ("search", "--json", "trample"), ("search", "sacrifiez"),
    ("export", "--kind", "rule"), ("export", "--kind", "ruling"), ("versions",),
    ("card", "Aetherling"), ("terms", "écho"),
)
DAMAGES = ("flip", "truncate", "delete")


def kb(index: Path, *args: str) -> tuple[int, str, str]:
    env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)}
    try:
        done = subprocess.run([sys.executable, "-m", "kb", *args], env=env, text=True,
                              capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return -1, "", "hung (120 s)"
    return done.returncode, done.stdout, done.stderr


def damage(path: Path, how: str, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    if how == "delete" or not data:
        path.unlink()
    elif how == "truncate":
        path.write_bytes(bytes(data[: rng.randrange(len(data))]))
    else:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))


def verdict(expected: tuple[int, str, str], got: tuple[int, str, str]) -> str | None:
    """None when ``got`` is the undamaged answer or a one-line "damaged" error."""
    code, out, err = got
    if code == expected[0] and out == expected[1]:
        return None
    if code == 1 and "damaged" in err and "Traceback" not in err and len(err.splitlines()) == 1:
        return None
    return f"exit {code}, stderr {err.strip()[:300]!r}, stdout {out[:120]!r}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    failures: list[str] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kb-fuzz-index-") as tmp:
        good = Path(tmp) / "good"
        build(good, [embedded_corpus()])
        expected = {c: kb(good, *c) for c in COMMANDS}
        source = IndexDir(good).current()
        assert source is not None
        files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file())
        outcomes = {"same": 0, "damaged": 0}
        for n in range(args.rounds):
            index = Path(tmp) / f"round{n}"
            gen = index / "builds" / source.name
            shutil.copytree(source, gen)
            (index / "current").symlink_to(Path("builds") / source.name)
            target, how = rng.choice(files), rng.choice(DAMAGES)
            damage(gen / target, how, rng)
            for command in COMMANDS:
                got = kb(index, *command)
                problem = verdict(expected[command], got)
                if problem:
                    failures.append(f"{how} {target}: kb {' '.join(command)}: {problem}")
                else:
                    outcomes["same" if got[0] == expected[command][0] else "damaged"] += 1
            build(index, [embedded_corpus()])
            for command in COMMANDS[:2]:
                if kb(index, *command)[1] != expected[command][1]:
                    failures.append(f"{how} {target}: not repaired by kb build "
                                    f"(kb {' '.join(command)})")
            shutil.rmtree(index)
    for failure in failures:
        print("FAILED", failure)
    print(f"{args.rounds} damaged indexes, {args.rounds * len(COMMANDS)} commands in "
          f"{time.perf_counter() - started:.0f} s: {outcomes['same']} answered as before, "
          f"{outcomes['damaged']} said damaged, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
