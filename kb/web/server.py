"""Running the site for ``kb serve``: uvicorn, set up to face a network.

- **The address first**: the listening socket is bound before anything is printed, so an
  address that cannot be used (taken, not this machine's, a privileged port) is one line and
  exit 1 (:func:`listen`), never "Serving ..." followed by uvicorn's exit 3.
- **Timeouts**: an idle keep-alive connection is closed after :data:`KEEP_ALIVE` seconds;
  a connection that has not sent a whole request head :data:`HEADER_TIMEOUT` seconds after
  it opened (or after its last answer) is closed, however slowly it drips bytes
  (:class:`GuardedH11`; uvicorn's own keep-alive timer restarts on every byte). Descriptors
  are raised to the hard limit, so that thousands of idle connections are held without
  refusing real ones.
- **A bounded log**: at most :data:`LOG_BURST` records per :data:`LOG_WINDOW` seconds per
  process; the rest are counted and the count said when records pass again
  (:class:`BoundedLog`). A flood of bad requests cannot fill the disk.
- **No orphan workers**: with ``--workers N`` each worker watches its parent and stops when
  it is gone (a SIGKILL to the main process leaves no worker holding the port).

The site itself (routes, the Host check, headers, the concurrency limit) is
:func:`kb.web.app.create_app`.
"""

from __future__ import annotations

import copy
import errno
import json
import logging
import os
import signal
import socket
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from kb.errors import KbError
from kb.i18n import _
from kb.web.guard import LOCAL_HOSTS, MAX_REQUESTS

HEADER_TIMEOUT = 10.0  # seconds to send a whole request head
KEEP_ALIVE = 5  # seconds an idle keep-alive connection is kept
LOG_BURST = 20  # log records that pass ...
LOG_WINDOW = 60.0  # ... per this many seconds
BACKLOG = 2048  # connections the kernel queues before the server accepts them
_ENV = "KB_SERVE"  # the settings, for the worker processes


@dataclass(frozen=True)
class Settings:
    """What ``kb serve`` was asked for: the site's options and the server's."""

    index: str
    threads: int = 3
    cache: int = 2000
    hosts: tuple[str, ...] = LOCAL_HOSTS
    max_requests: int = MAX_REQUESTS
    header_timeout: float = HEADER_TIMEOUT
    parent: int = 0  # the main process, which workers watch

    def app(self) -> Any:
        from kb.web.app import create_app

        return create_app(Path(self.index), self.threads, self.cache, hosts=self.hosts,
                          max_requests=self.max_requests)


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head (see the module
    docstring); the deadline is the config's ``kb_header_timeout``."""

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: Any = None
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a whole head came: the answer is due
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request's head is due in its turn

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        timeout = getattr(self.config, "kb_header_timeout", HEADER_TIMEOUT)
        self._head_deadline = self.loop.call_later(timeout, self._too_slow)

    def _disarm(self) -> None:
        if getattr(self, "_head_deadline", None) is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _too_slow(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class BoundedLog(logging.Filter):
    """Lets :data:`LOG_BURST` records pass per :data:`LOG_WINDOW` seconds; counts the others
    and says how many were left out on the next record that passes."""

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self._lock = threading.Lock()
        self._window_start = 0.0
        self._passed = 0
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        with self._lock:
            now = time.monotonic()
            if now - self._window_start >= LOG_WINDOW:
                self._window_start, self._passed = now, 0
            if self._passed >= LOG_BURST:
                self._dropped += 1
                return False
            self._passed += 1
            if self._dropped:
                record.msg = f"{record.msg} ({self._dropped} log records left out before this)"
                self._dropped = 0
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging, every handler bounded, with asyncio's and the site's own records."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"bounded": {"()": f"{__name__}.BoundedLog"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["bounded"]
    for name in ("asyncio", "kb.web"):
        config["loggers"][name] = {"handlers": ["default"], "level": "WARNING",
                                   "propagate": False}
    return config


def listen(host: str, port: int) -> socket.socket:
    """The listening socket on ``host:port``; a :class:`KbError` naming why when the address
    cannot be used."""
    where = f"{host if ':' not in host else f'[{host}]'}:{port}"
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise KbError(_("cannot listen on {where}: {reason} (give --host an address of this "
                        "machine, such as 127.0.0.1)").format(where=where,
                                                              reason=exc.strerror)) from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise KbError(_("cannot listen on {where}: {reason}").format(
            where=where, reason=_why(exc))) from exc
    sock.set_inheritable(True)
    return sock


def _why(exc: OSError) -> str:
    reason = (exc.strerror or str(exc)).lower()
    if exc.errno == errno.EADDRINUSE:
        return reason + _(" (another server is there: choose another --port)")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return reason + _(" (ports below 1024 need privileges: choose another --port)")
    if exc.errno == errno.EADDRNOTAVAIL:
        return reason + _(" (not an address of this machine: check --host)")
    return reason


def serve(settings: Settings, sock: socket.socket, workers: int = 1) -> None:
    """Run the site on ``sock`` until interrupted: one process, or ``workers`` processes
    sharing it (each with its own readers and caches; a Python process uses one core)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    _more_descriptors()
    options: dict[str, Any] = {
        "log_config": log_config(), "log_level": "warning", "access_log": False,
        "http": GuardedH11, "timeout_keep_alive": KEEP_ALIVE, "backlog": BACKLOG,
        "timeout_graceful_shutdown": 5, "server_header": False,
    }
    if workers == 1:
        config = uvicorn.Config(settings.app(), **options)
    else:
        os.environ[_ENV] = json.dumps(asdict(settings) | {"parent": os.getpid()})
        config = uvicorn.Config(f"{__name__}:from_environment", factory=True, workers=workers,
                                **options)
    config.kb_header_timeout = settings.header_timeout  # type: ignore[attr-defined]
    server = uvicorn.Server(config)
    if workers == 1:
        server.run(sockets=[sock])
    else:
        Multiprocess(config, sockets=[sock]).run()


def from_environment() -> Any:
    """The application as each worker process of ``kb serve --workers N`` builds it (uvicorn
    starts workers from an import path, so the settings travel in the environment), with a
    watch on the main process."""
    data = json.loads(os.environ[_ENV])
    settings = Settings(**{**data, "hosts": tuple(data["hosts"])})
    threading.Thread(target=_watch_parent, args=(settings.parent,), daemon=True,
                     name="kb-parent-watch").start()
    return settings.app()


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """Stop this worker (as Ctrl-C would) once its main process is gone: the workers of a
    killed ``kb serve`` must not keep the port."""
    while os.getppid() == parent:
        time.sleep(every)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(10)  # a graceful stop takes at most the graceful timeout
    os._exit(1)


def _more_descriptors() -> None:
    """Raise the soft limit of open files to the hard one: each idle connection holds one."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, 1 << 16) if hard == resource.RLIM_INFINITY else hard
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
