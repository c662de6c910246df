"""The outermost layer of ``kb serve``: what every response needs, whoever made it (a page, an
error page, a redirect, Starlette's own answer to a bug).

- **Host check**: a request whose ``Host`` is not one of the names the site is served under
  (the localhost names, and those ``kb serve --allow-host`` adds) gets 400. Without it, a page
  on any web site could reach a server on 127.0.0.1 through DNS rebinding (its own name
  resolving to 127.0.0.1), and redirects would send visitors to the name it claimed.
- **Relative redirects**: a ``Location`` is sent as a path, never as ``http://<Host>/...``.
- **Security headers** on every response, errors and 500s included: the Content-Security-
  Policy (no script but the site's own file, no inline style, no outside request of any
  kind), ``nosniff``, ``DENY`` framing, no referrer; ``Vary: Accept-Language, Cookie``, as
  every answer is in the language those headers choose.
- **A concurrency limit**: past ``max_requests`` requests being answered at once, a request
  gets 503 with ``Retry-After`` at once, rather than a queue that grows without bound.
- **Nothing escapes**: an exception that reaches this layer is logged (the log is bounded by
  :mod:`kb.web.server`) and, if no answer was started, answered 500 with the headers.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kb.i18n import _
from kb.web.language import VARY

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    VARY,  # every answer depends on the language chosen (kb.web.language)
]
_OWN = {name for name, _ in HEADERS}
# The names a local server answers to when nobody says otherwise.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
# Requests answered at once by one process; more wait for none and get 503.
MAX_REQUESTS = 100

log = logging.getLogger("kb.web")


def host_of(header: str) -> str:
    """The host name of a ``Host`` header, without its port: ``[::1]:8765`` -> ``::1``."""
    value = header.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else ""
    if value.count(":") > 1:  # an IPv6 address without brackets has no port
        return value
    name, colon, port = value.rpartition(":")
    return (name if colon and port.isdigit() else value).rstrip(".")


class Hosts:
    """The ``Host`` names a site answers to: exact names or addresses, ``*.example.org`` for
    a domain's subdomains, ``*`` for any (behind a proxy that checks names itself)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(host_of(n) if not n.startswith("*") else n.lower() for n in names)

    def allows(self, header: str | None) -> bool:
        if "*" in self.names:
            return True
        host = host_of(header or "")
        if not host:
            return False
        return host in self.names or any(
            n.startswith("*.") and host.endswith(n[1:]) for n in self.names)


def is_loopback(host: str) -> bool:
    """Whether a bind address is reachable from this machine only."""
    if host_of(host) == "localhost":
        return True
    try:
        return ipaddress.ip_address(host_of(host)).is_loopback
    except ValueError:
        return False


class Guard:
    """The ASGI layer around the whole application (see the module docstring). ``hosts``
    None checks no ``Host``: the application embedded in a test client, or in a server of the
    caller's own; ``kb serve`` always gives the names."""

    def __init__(self, app: ASGIApp, hosts: Hosts | None = None,
                 max_requests: int = MAX_REQUESTS) -> None:
        self.app = app
        self.hosts = hosts
        self.max_requests = max_requests
        self.active = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = scope.get("path", "").startswith("/api")
        if self.hosts is not None and not self.hosts.allows(_header(scope, b"host")):
            await _answer(send, 400, _("this site is not served under that host name (kb "
                                       "serve --allow-host NAME adds one)"), api)
            return
        if self.active >= self.max_requests:
            await _answer(send, 503, _("the server is busy: try again in a moment"), api,
                          [(b"retry-after", b"1")])
            return
        self.active += 1
        started = False

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = _headers(message.get("headers", []))
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except Exception:
            log.exception("error answering %s %s", scope.get("method"), scope.get("path"))
            if not started:
                await _answer(send, 500, _("internal error"), api)
        finally:
            self.active -= 1


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The response's headers with ours (replacing any of the same name) and a relative
    ``Location``."""
    out = []
    for name, value in headers:
        if name.lower() in _OWN:
            continue
        if name.lower() == b"location":
            value = _relative(value.decode("latin-1")).encode("latin-1")
        out.append((name, value))
    return out + HEADERS


def _relative(location: str) -> str:
    """``http://host/search?q=x`` -> ``/search?q=x``: the site only ever redirects to itself,
    and a path cannot lead a visitor to the host name a request claimed."""
    parts = urlsplit(location)
    if not parts.scheme and not parts.netloc:
        return location
    path = "/" + parts.path.lstrip("/")
    return path + (f"?{parts.query}" if parts.query else "")


async def _answer(send: Send, status: int, message: str, api: bool,
                  extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """A short answer made here (JSON under ``/api/``, as the API's errors are)."""
    if api:
        kind = {400: "usage", 503: "busy"}.get(status, "internal")
        body = json.dumps({"error": {"status": status, "code": 1, "kind": kind,
                                     "message": message}}).encode()
        media = b"application/json"
    else:
        body, media = (message + "\n").encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", media), (b"content-length", str(len(body)).encode()),
        *(extra or []), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
