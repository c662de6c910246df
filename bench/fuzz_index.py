"""Damaged indexes: every read answers as before or says the index is damaged.

An index of the embedded corpus is built once, and every read below is answered on it. Then,
each round, every file of its published generation in turn is damaged in a copy (bytes
flipped at random places by default; also cut short or deleted with ``--damages``): the store,
each search segment, the vocabulary, the manifest, ... and every read is made again on the
copy, from the command line and from the web site. Each must answer exactly as on the
undamaged index, or say the index is damaged (the command line: exit 1 and one line on stderr
saying so; the web: 503 saying so); a traceback, an "internal error", a 500, a hang or any
other answer is a *different answer*, counted and listed. In the first round, ``kb build`` must
then repair each damage (the same answers again).

Run: ``python bench/fuzz_index.py [--rounds 20] [--seed 1] [--damages flip]``
(``--subprocess`` runs each command in its own process, as a user would, at ten times the
time; also ``bench/fuzz_long.py --indexes N``). Exit status 1 when any answer differed.
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
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kb.build import build  # noqa: E402
from kb.cli import cli  # noqa: E402
from kb.corpus import embedded_corpus  # noqa: E402
from kb.indexdir import IndexDir  # noqa: E402
from kb.web.app import create_app  # noqa: E402

COMMANDS = (
    ("search", "écho"), ("search", "--json", "trample"), ("search", "sacrifiez"),
    ("export", "--kind", "rule"), ("export", "--kind", "ruling"), ("versions",),
    ("card", "Aetherling"), ("terms", "écho"), ("rule", "702.19b"), ("history", "702.27"),
    ("versions", "--json"),
)
PAGES = ("/", "/rule/702.19b", "/search?q=trample", "/api/search?q=%C3%A9cho",
         "/api/versions", "/api/rules/702.27a", "/card/aetherling", "/glossary")
DAMAGES = ("flip", "truncate", "delete")
Answer = tuple[int, str, str]  # exit status or HTTP status, output, error output


def command(index: Path, args: tuple[str, ...], separate: bool) -> Answer:
    if separate:
        env = {**os.environ, "KB_INDEX": str(index), "PYTHONPATH": str(REPO)}
        try:
            done = subprocess.run([sys.executable, "-m", "kb", *args], env=env, text=True,
                                  capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            return -1, "", "hung (120 s)"
        return done.returncode, done.stdout, done.stderr
    result = CliRunner().invoke(cli, ["--index", str(index), *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return -2, result.stdout, f"{type(result.exception).__name__}: {result.exception}"
    return result.exit_code, result.stdout, result.stderr


def pages(index: Path) -> dict[str, Answer]:
    with TestClient(create_app(index), raise_server_exceptions=False) as client:
        answers = {}
        for page in PAGES:
            response = client.get(page)
            answers[page] = (response.status_code, response.text, "")
        return answers


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


def verdict(expected: Answer, got: Answer, web: bool) -> str | None:
    """"same", "damaged", or None for a different answer."""
    code, out, err = got
    if code == expected[0] and out == expected[1]:
        return "same"
    if web and code == 503 and "damaged" in out:
        return "damaged"
    if (not web and code == 1 and "damaged" in err and "Traceback" not in err
            and len(err.splitlines()) == 1):
        return "damaged"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--damages", default="flip",
                    help=f"comma-separated, among {', '.join(DAMAGES)}")
    ap.add_argument("--subprocess", action="store_true",
                    help="run each command in a process of its own")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    damages = [d for d in args.damages.split(",") if d]
    failures: list[str] = []
    outcomes: Counter[str] = Counter()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kb-fuzz-index-") as tmp:
        good = Path(tmp) / "good"
        build(good, [embedded_corpus()])
        expected = {c: command(good, c, args.subprocess) for c in COMMANDS}
        expected_pages = pages(good)
        source = IndexDir(good).current()
        assert source is not None
        files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file())
        for n in range(args.rounds):
            for target in files:
                how = rng.choice(damages)
                index = Path(tmp) / f"round{n}"
                gen = index / "builds" / source.name
                shutil.copytree(source, gen)
                (index / "current").symlink_to(Path("builds") / source.name)
                damage(gen / target, how, rng)
                reads = [(f"kb {' '.join(c)}", expected[c], command(index, c, args.subprocess),
                          False) for c in COMMANDS]
                reads += [(f"GET {p}", expected_pages[p], got, True)
                          for p, got in pages(index).items()]
                for name, want, got, web in reads:
                    outcome = verdict(want, got, web)
                    outcomes[outcome or "different"] += 1
                    if outcome is None:
                        failures.append(f"{how} {target}: {name}: status {got[0]}, "
                                        f"{(got[2] or got[1]).strip()[:300]!r}")
                if n == 0:  # kb build repairs each kind of damage
                    build(index, [embedded_corpus()])
                    if any(command(index, c, args.subprocess)[1] != expected[c][1]
                           for c in COMMANDS[:3]):
                        failures.append(f"{how} {target}: not repaired by kb build")
                shutil.rmtree(index)
    for failure in failures:
        print("FAILED", failure)
    reads = sum(outcomes.values())
    print(f"{args.rounds} rounds x {len(files)} files damaged ({', '.join(damages)}): {reads} "
          f"reads ({len(COMMANDS)} commands, {len(PAGES)} pages) in "
          f"{time.perf_counter() - started:.0f} s: {outcomes['same']} answered as before, "
          f"{outcomes['damaged']} said damaged, {outcomes['different']} different answers; "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
