"""Download the current official Comprehensive Rules into the user's corpus folder.

The official rules page links the plain-text rules under a name that changes with every release
("MagicCompRules 20260417.txt"), so the page is read first and its link to the text file found.
The download is checked before anything is written, because a cut rules file looks like a good
one to every later build: it must be whole (as long as the server said, under a size cap),
decode, parse as a whole Comprehensive Rules document (an effective date, rules, the glossary
and the credits that close it), hold no fewer rules than the installed version less a few
percent, and be newer than what is installed. Only then is it stored, named by its effective
date, in one atomic rename: a failed or interrupted fetch leaves the corpus as it was.

Standard library HTTP (urllib). A server that never ends, sends a byte at a time (slowloris) or
never finishes its headers is cut at one overall deadline: a watchdog shuts the connection's
socket down, which no per-read timeout does. A password in the address is sent, never printed.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.client
import math
import os
import re
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.error import HTTPError, URLError
from urllib.parse import quote, unquote, urljoin, urlsplit
from urllib.request import HTTPHandler, HTTPSHandler, Request, build_opener

from bs4 import BeautifulSoup

from kb.corpus import read_bytes
from kb.errors import KbError
from kb.i18n import _
from kb.model import GlossaryEntry, Passage, Rule
from kb.sources import cr_text
from kb.text.decode import BinaryContentError, decode

RULES_PAGE = "https://magic.wizards.com/en/rules"
DEFAULT_TIMEOUT = 30.0  # seconds for the whole fetch: page and rules file
MAX_BYTES = 32 << 20  # the 2026 rules are under 1 MB; a body past this never ends
_CHUNK = 1 << 16
_MIN_RULES = 500  # every official version since 2006 has over 1,000
# A new version may drop rules, but not this share of the installed version's: more is a cut.
RULE_DROP = 0.05
_DATE_IN_NAME = re.compile(r"(\d{8})")

# Called with the bytes read so far and the total when the server says it (else None).
Progress = Callable[[int, int | None], None]


class FetchError(KbError):
    """The page or the rules file could not be downloaded, or is not what was expected."""


@dataclass(frozen=True)
class Fetched:
    url: str  # the text file downloaded
    path: Path  # where it is stored
    version: str  # its effective date
    size: int
    sha256: str
    rules: int
    glossary: int
    unchanged: bool  # the same file was already there
    # Nothing written because the installed rules are as new or newer: their version.
    installed: str | None = None


@dataclass(frozen=True)
class Installed:
    """The latest rules version already installed (embedded or fetched)."""

    version: str
    rules: int
    path: Path


def stored_name(version: str) -> str:
    """The file name of a rules version in the corpus: its effective date."""
    return f"MagicCompRules {version}.txt"


def fetch(dest: Path, page_url: str = RULES_PAGE, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Progress | None = None, installed: list[Path] | None = None,
          max_bytes: int = MAX_BYTES) -> Fetched:
    """Find the rules text linked from ``page_url``, download and check it, and store it in
    ``dest`` (created if needed) as ``MagicCompRules <effective date>.txt`` when it is newer
    than every rules file in ``dest`` and the folders ``installed``. ``timeout`` bounds the
    whole fetch."""
    check_url(page_url)
    deadline = deadline_after(timeout)
    page = download(page_url, deadline, max_bytes=max_bytes)
    url = find_rules_link(page.decode("utf-8", errors="replace"), page_url)
    data = download(url, deadline, progress, max_bytes=max_bytes)
    version, rules, glossary = check_rules(data, url)
    path = dest / stored_name(version)
    digest = hashlib.sha256(data).hexdigest()
    if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == digest:
        return Fetched(shown(url), path, version, len(data), digest, rules, glossary, True)
    have = latest_installed([dest, *(installed or [])])
    if have is not None:
        if rules < have.rules * (1 - RULE_DROP):
            raise FetchError(
                _("{url}: only {rules} rules against {installed} in the installed {version} "
                  "({file}): the download looks cut; nothing written").format(
                    url=shown(url), rules=rules, installed=have.rules, version=have.version,
                    file=have.path.name))
        if version <= have.version:
            return Fetched(shown(url), have.path, version, len(data), digest, rules, glossary,
                           False, installed=have.version)
    _write_atomically(path, data)
    return Fetched(shown(url), path, version, len(data), digest, rules, glossary, False)


def latest_installed(folders: list[Path]) -> Installed | None:
    """The latest whole rules file in ``folders`` (their top level, where ``kb fetch`` stores
    and where the embedded one is), with its rule count."""
    best: Installed | None = None
    for folder in folders:
        for path in sorted(folder.glob("*CompRules*.txt*")) if folder.is_dir() else []:
            try:
                version, rules, _ = check_rules(read_bytes(path), path.name)
            except (FetchError, OSError):
                continue  # not a whole rules file: nothing to compare with
            if best is None or version > best.version:
                best = Installed(version, rules, path)
    return best


def deadline_after(timeout: float) -> float:
    """The :func:`time.monotonic` time ``timeout`` seconds from now, when a whole fetch must be
    done; FetchError for a timeout that is not a positive number."""
    if not (timeout > 0 and math.isfinite(timeout)):
        raise FetchError(_("not a timeout: {timeout} (give seconds, more than 0)").format(
            timeout=timeout))
    return time.monotonic() + timeout


def check_url(url: str) -> None:
    """An http(s) address with a host and a readable port; :class:`FetchError` otherwise."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError as exc:
        raise FetchError(_("not a valid address: {url} ({reason})").format(
            url=shown(url), reason=exc)) from exc
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(_("not an http(s) address: {url}").format(url=shown(url)))


def shown(url: str) -> str:
    """The address as it may be printed: without a user name and password."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rpartition("@")[2]
        return parts._replace(netloc=host).geturl() if "@" in parts.netloc else url
    except ValueError:
        return re.sub(r"//[^/@]*@", "//", url)


def find_rules_link(html: str, page_url: str) -> str:
    """The absolute address of the Comprehensive Rules text file the page links to.

    A link counts when its path ends in ``.txt`` and its file name says "CompRules"; of
    several, the one with the latest date in its name (a page may still list the previous
    release).
    """
    soup = BeautifulSoup(html, "html.parser")
    found = []
    for anchor in soup.find_all("a", href=True):
        href = urljoin(page_url, str(anchor["href"]).strip())
        name = unquote(urlsplit(href).path.rsplit("/", 1)[-1])
        if name.lower().endswith(".txt") and "comprules" in name.lower():
            date = _DATE_IN_NAME.search(name)
            found.append((date[1] if date else "", href))
    if not found:
        raise FetchError(_("{url}: no link to a Comprehensive Rules .txt file on the page")
                         .format(url=page_url))
    return max(found)[1]


def download(url: str, deadline: float, progress: Progress | None = None, *,
             max_bytes: int = MAX_BYTES, out: BinaryIO | None = None) -> bytes:
    """The body at ``url`` (http or https only), read before ``deadline`` (a
    :func:`time.monotonic` time) and no longer than ``max_bytes``; :class:`FetchError` on any
    failure, the address printed without its password. With ``out``, the body is written
    to it as it comes and ``b""`` returned: a 90 MB model is not held in memory."""
    check_url(url)
    parts = urlsplit(url)
    name = shown(url)
    # Official file names hold a space: quote what is not quoted yet.
    safe = parts._replace(netloc=parts.netloc.rpartition("@")[2],
                          path=quote(parts.path, safe="/%:@!$&'()*+,;=")).geturl()
    headers = {"User-Agent": "kb-rules-fetch/1 (+urllib)"}
    if parts.username is not None:
        secret = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(secret).decode("ascii")
    seconds = deadline - time.monotonic()
    if seconds <= 0:
        raise FetchError(_("{url}: no time left (raise --timeout)").format(url=name))
    read, total = 0, None
    with _watchdog(seconds) as (opener, expired):
        try:
            with opener.open(Request(safe, headers=headers), timeout=seconds) as response:
                length = response.headers.get("Content-Length")
                total = int(length) if length and length.isdigit() else None
                if total is not None and total > max_bytes:
                    raise FetchError(_("{url}: {total} bytes announced, more than the {limit} "
                                       "expected; nothing written").format(
                        url=name, total=total, limit=size_shown(max_bytes)))
                chunks = []
                while chunk := response.read(_CHUNK):
                    read += len(chunk)
                    if read > max_bytes:
                        raise FetchError(_("{url}: more than {limit} and still sending; "
                                           "nothing written").format(
                            url=name, limit=size_shown(max_bytes)))
                    if out is None:
                        chunks.append(chunk)
                    else:
                        out.write(chunk)
                    if progress:
                        progress(read, total)
                if expired.is_set():  # the watchdog's shutdown reads as the body's end
                    raise OSError("deadline")
        except FetchError:
            raise
        except HTTPError as exc:
            raise FetchError(_("{url}: HTTP {code} {reason}").format(
                url=name, code=exc.code, reason=exc.reason)) from exc
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if expired.is_set():
                raise FetchError(_("{url}: not complete within {seconds:.3g} s (the server is "
                                   "too slow or never ends; raise --timeout to wait longer)")
                                 .format(url=name, seconds=seconds)) from exc
            if isinstance(exc, http.client.IncompleteRead):
                raise FetchError(_("{url}: download cut short ({read} bytes, {missing} "
                                   "missing); nothing written").format(
                    url=name, read=len(exc.partial), missing=exc.expected)) from exc
            if isinstance(exc, URLError):
                raise FetchError(_("cannot reach {host}: {reason}").format(
                    host=parts.hostname + (f":{parts.port}" if parts.port else ""),
                    reason=_reason(exc.reason))) from exc
            if isinstance(exc, TimeoutError):
                raise FetchError(_("{url}: no answer within {seconds:.3g} s").format(
                    url=name, seconds=seconds)) from exc
            raise FetchError(f"{name}: {_reason(exc)}") from exc
    if total is not None and read != total:
        raise FetchError(_("{url}: download cut short ({read} of {total} bytes); nothing "
                           "written").format(url=name, read=read, total=total))
    return b"".join(chunks)


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[tuple[object, threading.Event]]:
    """An opener whose connections are shut down when ``seconds`` have passed, whatever they
    are doing (a per-read timeout is reset by every byte a slow server sends)."""
    sockets: list[socket.socket] = []
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    class Watched(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            sockets.append(self.sock)

    class WatchedTLS(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            sockets.append(self.sock)

    class Plain(HTTPHandler):
        def http_open(self, req: Request) -> http.client.HTTPResponse:
            return self.do_open(Watched, req)

    class TLS(HTTPSHandler):
        def https_open(self, req: Request) -> http.client.HTTPResponse:
            return self.do_open(WatchedTLS, req, context=self._context)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield build_opener(Plain, TLS), expired
    finally:
        timer.cancel()


def size_shown(size: int) -> str:
    """A size as a person reads it: "32 MB", "455 kB"."""
    if size >= 1 << 20:
        return _("{size:.3g} MB").format(size=size / (1 << 20))
    return _("{size:.3g} kB").format(size=size / 1024)


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason)


def check_rules(data: bytes, url: str) -> tuple[str, int, int]:
    """The effective date, rule and glossary counts of a downloaded rules text; FetchError
    when it is not a whole Comprehensive Rules document."""
    try:
        text = decode(data).text
    except BinaryContentError as exc:
        raise FetchError(_("{url}: not a text file ({reason})").format(url=url, reason=exc)
                         ) from exc
    if not cr_text.sniff(text):
        raise FetchError(_("{url}: not a Comprehensive Rules text (no title, effective date "
                           "and contents at its start)").format(url=url))
    parsed = cr_text.parse(text, url.rsplit("/", 1)[-1])
    rules = sum(isinstance(r, Rule) for r in parsed.records)
    glossary = sum(isinstance(r, GlossaryEntry) for r in parsed.records)
    credits = any(isinstance(r, Passage) and r.role == "credits" for r in parsed.records)
    if parsed.version is None or rules < _MIN_RULES or not glossary or not credits:
        credited = _("with credits") if credits else _("no credits")
        raise FetchError(_("{url}: incomplete rules text ({rules} rules, {glossary} glossary "
                           "entries, {credits}, effective date {date}); nothing written").format(
            url=url, rules=rules, glossary=glossary, credits=credited,
            date=parsed.version or _("missing")))
    return parsed.version, rules, glossary


def _write_atomically(path: Path, data: bytes) -> None:
    """Write beside the target under a hidden name (builds skip hidden files), then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
