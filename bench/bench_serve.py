"""``kb serve`` under load: 50 concurrent clients for 30 s on 127.0.0.1, over a mix of rule
pages, searches and card pages; then the same while ``kb build`` publishes new indexes.

The server is a real ``kb serve`` process. The clients are one asyncio process of plain
HTTP/1.1 keep-alive connections (a client library would spend more CPU than the server on this
2-core machine), each sending its next request as soon as the previous answer arrives (a closed
loop: latency includes the queue behind the other 49). The requests are drawn at random (fixed
seed) from every rule number of the latest version, the queries of the search relevance set
(tests/search/relevance.toml, half French) and every card address, 50/30/20.

Phases: ``single`` one client, for the unloaded latency; ``load`` 50 clients; ``uncached``
50 clients against a server keeping no rendered answers (``--cache 0``), every answer computed;
``build`` 50 clients while ``kb build`` publishes again and again. Baseline of the same run:
the site's stylesheet (a static file through the same server and middleware) under the same
load, so the ratios say what kb's work adds to the server's floor on a loaded machine.
Goals (issue 15): 0 errors, rule page p95 <= 50 ms, search p95 <= 100 ms.

Run: ``python bench/bench_serve.py [--clients 50] [--seconds 30] [--workers 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from pathlib import Path
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb.model import Card, Rule  # noqa: E402
from kb.reader import KnowledgeBase  # noqa: E402
from kb.web.data import slug  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
KB = Path(sys.executable).with_name("kb")
MIX = (("rule", 0.5), ("search", 0.3), ("card", 0.2))
BASELINE = "/static/kb.css"


def urls(index: Path) -> dict[str, list[str]]:
    with KnowledgeBase(index) as kb:
        latest = kb.store.versions()[-1]
        rules = [f"/rule/{r.number}" for r in kb.store.query(kind="rule",
                                                            source_id=f"cr:en:{latest}")
                 if isinstance(r, Rule)]
        cards = sorted({f"/card/{slug(c.name)}" for c in kb.store.query(kind="card")
                        if isinstance(c, Card) and slug(c.name)})
    queries = tomllib.loads((REPO / "tests/search/relevance.toml").read_text("utf-8"))
    searches = [f"/search?q={quote(q['q'])}" for q in queries["query"]]
    return {"rule": rules, "search": searches, "card": cards}


class Client:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(v) for k, _, v in (h.partition(":") for h in lines[1:])
                      if k.lower() == "content-length")
        await self.reader.readexactly(length)
        return status


async def load(port: int, pool: dict[str, list[str]], clients: int, seconds: float,
               seed: int) -> dict[str, list[tuple[float, int]]]:
    """kind -> [(seconds, status)] of every request answered within ``seconds``."""
    found: dict[str, list[tuple[float, int]]] = {k: [] for k in (*pool, "baseline")}
    kinds = [k for k, _ in MIX] + ["baseline"]
    weights = [w * 0.95 for _, w in MIX] + [0.05]
    end = time.monotonic() + seconds

    async def one(n: int) -> None:
        rng = random.Random(seed * 1000 + n)
        client = Client(port)
        while time.monotonic() < end:
            kind = rng.choices(kinds, weights)[0]
            path = BASELINE if kind == "baseline" else rng.choice(pool[kind])
            start = time.perf_counter()
            try:
                status = await client.get(path)
            except (OSError, asyncio.IncompleteReadError, ValueError, StopIteration):
                status, client = 0, Client(port)
            found[kind].append((time.perf_counter() - start, status))

    await asyncio.gather(*(one(n) for n in range(clients)))
    return found


def summary(found: dict[str, list[tuple[float, int]]], seconds: float) -> dict[str, dict]:
    out = {}
    for kind, rows in found.items():
        times = sorted(t for t, _ in rows)
        if not times:
            continue
        q = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
        out[kind] = {"requests": len(rows), "per_s": round(len(rows) / seconds, 1),
                     "errors": sum(1 for _, s in rows if s != 200),
                     "p50_ms": round(q[49] * 1000, 1), "p95_ms": round(q[94] * 1000, 1),
                     "p99_ms": round(q[98] * 1000, 1)}
    total = sum(len(r) for r in found.values())
    out["all"] = {"requests": total, "per_s": round(total / seconds, 1),
                  "errors": sum(1 for r in found.values() for _, s in r if s != 200)}
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(index: Path, cache: int, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen([str(KB), "--index", str(index), "serve", "--port", str(port),
                               "--cache", str(cache), "--workers", str(workers)],
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("kb serve did not start")


def corpus(folder: Path) -> Path:
    """The shared CR files, linked, and a copy of the oldest that :func:`touch` changes so
    that every ``kb build`` has something to parse and publishes a new generation."""
    folder.mkdir()
    files = sorted((SHARED / "cr-en").glob("*.txt"))
    for path in files[1:]:
        (folder / path.name).symlink_to(path)
    (folder / files[0].name).write_bytes(files[0].read_bytes())
    return folder


def touch(folder: Path, n: int) -> None:
    oldest = sorted(folder.glob("*.txt"))[0]
    with oldest.open("ab") as handle:  # blank lines: the same records, another checksum
        handle.write(b"\n" * (n % 2 + 1))


def build(index: Path, folder: Path) -> None:
    subprocess.run([str(KB), "--index", str(index), "build", "--corpus", str(folder)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def phase(name: str, port: int, pool: dict[str, list[str]], clients: int, seconds: float,
          seed: int) -> dict[str, dict]:
    result = summary(asyncio.run(load(port, pool, clients, seconds, seed)), seconds)
    print(f"\n{name}: {clients} clients, {seconds:.0f} s")
    print(f"  {'kind':<9}{'req/s':>8}{'errors':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind, row in result.items():
        if kind != "all":
            print(f"  {kind:<9}{row['per_s']:>8}{row['errors']:>8}{row['p50_ms']:>9}"
                  f"{row['p95_ms']:>9}{row['p99_ms']:>9}")
    print(f"  all      {result['all']['per_s']:>8}{result['all']['errors']:>8}")
    base = result.get("baseline", {}).get("p95_ms")
    if base:
        print("  p95 / baseline p95: " + ", ".join(
            f"{k} {result[k]['p95_ms'] / base:.1f}x" for k, _ in MIX if k in result))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=1, help="kb serve --workers")
    parser.add_argument("--json", type=Path, help="Also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kb-bench-serve-") as tmp:
        index, folder = Path(tmp) / "index", corpus(Path(tmp) / "corpus")
        build(index, folder)
        pool = urls(index)
        print(f"{len(pool['rule'])} rule pages, {len(pool['search'])} searches, "
              f"{len(pool['card'])} cards; {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.1f}")
        figures = {}
        server, port = start_server(index, 2000, args.workers)
        try:
            figures["single"] = phase("single", port, pool, 1, min(args.seconds, 10), 1)
            figures["load"] = phase("load", port, pool, args.clients, args.seconds, 2)
            stop = False
            builds = 0

            def rebuild() -> None:
                nonlocal builds
                while not stop:
                    touch(folder, builds)
                    build(index, folder)
                    builds += 1

            builder = threading.Thread(target=rebuild)
            builder.start()
            try:
                figures["build"] = phase("build", port, pool, args.clients, args.seconds, 3)
            finally:
                stop = True
                builder.join()
            figures["build"]["builds_published"] = builds
            print(f"  kb build published {builds} new indexes during the phase")
        finally:
            server.terminate()
            server.wait(10)
        server, port = start_server(index, 0, args.workers)
        try:
            figures["uncached"] = phase("uncached", port, pool, args.clients, args.seconds, 4)
        finally:
            server.terminate()
            server.wait(10)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
