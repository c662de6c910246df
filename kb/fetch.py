"""Download the current official Comprehensive Rules into the user's corpus folder.

The official rules page links the plain-text rules under a name that changes with every
release ("MagicCompRules 20260417.txt"), so the page is read first and its link to the text
file found. The download is checked before anything is written: it must decode, be recognized
as a rules document by :mod:`kb.sources.cr_text` and parse as a whole one (rules, glossary,
an effective date). Only then is it stored, named by its effective date, in one atomic rename:
a failed or interrupted fetch leaves the corpus as it was.

Standard library HTTP (urllib) with a timeout on every request; errors are one line.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import quote, unquote, urljoin, urlsplit
from urllib.request import Request, urlopen

from bs4 import BeautifulSoup

from kb.errors import KbError
from kb.model import GlossaryEntry, Rule
from kb.sources import cr_text
from kb.text.decode import BinaryContentError, decode

RULES_PAGE = "https://magic.wizards.com/en/rules"
DEFAULT_TIMEOUT = 30.0
_CHUNK = 1 << 16
_MIN_RULES = 500  # every official version since 2006 has over 1,000
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


def stored_name(version: str) -> str:
    """The file name of a rules version in the corpus: its effective date."""
    return f"MagicCompRules {version}.txt"


def fetch(dest: Path, page_url: str = RULES_PAGE, *, timeout: float = DEFAULT_TIMEOUT,
          progress: Progress | None = None) -> Fetched:
    """Find the rules text linked from ``page_url``, download and check it, store it in
    ``dest`` (created if needed) as ``MagicCompRules <effective date>.txt``."""
    page = download(page_url, timeout)
    url = find_rules_link(page.decode("utf-8", errors="replace"), page_url)
    data = download(url, timeout, progress)
    version, rules, glossary = check_rules(data, url)
    path = dest / stored_name(version)
    digest = hashlib.sha256(data).hexdigest()
    unchanged = path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == digest
    if not unchanged:
        _write_atomically(path, data)
    return Fetched(url, path, version, len(data), digest, rules, glossary, unchanged)


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
        raise FetchError(f"{page_url}: no link to a Comprehensive Rules .txt file on the page")
    return max(found)[1]


def download(url: str, timeout: float, progress: Progress | None = None) -> bytes:
    """The body at ``url`` (http or https only); :class:`FetchError` on any failure."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise FetchError(f"not an http(s) address: {url}")
    # Official file names hold a space: quote what is not quoted yet.
    safe = parts._replace(path=quote(parts.path, safe="/%:@!$&'()*+,;=")).geturl()
    request = Request(safe, headers={"User-Agent": "kb-rules-fetch/1 (+urllib)"})
    try:
        with urlopen(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            chunks, read = [], 0
            while chunk := response.read(_CHUNK):
                chunks.append(chunk)
                read += len(chunk)
                if progress:
                    progress(read, total)
    except HTTPError as exc:
        raise FetchError(f"{url}: HTTP {exc.code} {exc.reason}") from exc
    except URLError as exc:
        raise FetchError(f"cannot reach {parts.netloc}: {_reason(exc.reason)}") from exc
    except TimeoutError as exc:
        raise FetchError(f"{url}: no answer within {timeout:g} s") from exc
    except OSError as exc:  # a connection reset midway, and the like
        raise FetchError(f"{url}: {_reason(exc)}") from exc
    if total is not None and read != total:
        raise FetchError(f"{url}: download cut short ({read} of {total} bytes)")
    return b"".join(chunks)


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
        raise FetchError(f"{url}: not a text file ({exc})") from exc
    if not cr_text.sniff(text):
        raise FetchError(f"{url}: not a Comprehensive Rules text (no title, effective date "
                         "and contents at its start)")
    parsed = cr_text.parse(text, url.rsplit("/", 1)[-1])
    rules = sum(isinstance(r, Rule) for r in parsed.records)
    glossary = sum(isinstance(r, GlossaryEntry) for r in parsed.records)
    if parsed.version is None or rules < _MIN_RULES or not glossary:
        raise FetchError(f"{url}: incomplete rules text ({rules} rules, {glossary} glossary "
                         f"entries, effective date {parsed.version or 'missing'})")
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
