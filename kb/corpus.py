"""Where documents come from: the embedded corpus and the folders a user names.

The embedded corpus is the repository's ``corpus/`` folder, installed inside the package as
``kb/corpus`` so that a non-editable install finds it too.

A corpus folder is walked in name order. Links to folders are followed, each folder once, so a
link back to a folder already read (a loop) is reported rather than followed forever; so is
anything that cannot be a document: a name that is not UTF-8 (kb stores names as text), a
named pipe or device, a folder that holds no document (``rules.txt/``, a directory named like
a file, with nothing in it). Links to files and files that turn out unreadable (a broken link,
a link loop, no permission) are yielded as documents and reported when the build reads them.
"""

from __future__ import annotations

import errno
import gzip
import os
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import kb

# Files that describe a corpus rather than belong to it.
DOCUMENTATION_FILES = frozenset({"MANIFEST.toml", "README.md", "SOURCES.md", "__init__.py"})
# Folders of a corpus that hold kb's own data about the documents, not documents: the
# scenarios that replay the worked examples (``kb check``).
DATA_FOLDERS = frozenset({"scenarios"})


def embedded_corpus() -> Path:
    """The embedded corpus folder: inside the installed package, or the checkout's corpus/."""
    package = Path(kb.__file__).resolve().parent
    for candidate in (package / "corpus", package.parent / "corpus"):
        if (candidate / "MANIFEST.toml").is_file():
            return candidate
    raise FileNotFoundError(f"embedded corpus not found beside {package}")


@dataclass(frozen=True, slots=True)
class CorpusFile:
    path: Path
    display: str  # the name users see: relative to its corpus folder


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A path in a corpus folder that cannot be read as a document, and why."""

    path: Path
    reason: str


def discover(folders: list[Path]) -> Iterator[CorpusFile | Unreadable]:
    """Every document below the folders in name order, skipping hidden files and folders,
    documentation files and data folders, with what cannot be read reported in place."""
    for folder in folders:
        if not folder.is_dir():
            yield Unreadable(folder, "not a folder")
            continue
        for item in _walk(folder, set()):
            if isinstance(item, Path):
                yield CorpusFile(item, str(item.relative_to(folder)))
            else:
                yield item


def _walk(folder: Path, seen: set[tuple[int, int]]) -> Iterator[Path | Unreadable]:
    """The files below ``folder`` and the problems met, following links to folders once."""
    try:
        status = folder.stat()
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        yield Unreadable(folder, _os_reason(exc))
        return
    if (status.st_dev, status.st_ino) in seen:
        yield Unreadable(folder, _already_read(folder))
        return
    seen.add((status.st_dev, status.st_ino))
    found = 0
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith("."):
            continue
        if not _is_utf8(entry.name):
            yield Unreadable(_shown(path), "name is not valid UTF-8: rename it to read it")
            continue
        kind = _kind(path)
        if kind == "folder":
            if entry.name.startswith("__") or entry.name in DATA_FOLDERS:
                continue
            for item in _walk(path, seen):
                found += 1
                yield item
        elif kind == "other":
            found += 1
            yield Unreadable(path, "not a regular file (a named pipe, socket or device)")
        elif entry.name not in DOCUMENTATION_FILES:
            found += 1
            yield path
    if not found:
        yield Unreadable(folder, "folder holds no document")


def _kind(path: Path) -> str:
    """"folder", "file" or "other" (a named pipe, socket or device, which reading could block
    on), for a link what it points to. A link that cannot be followed (broken, a loop) is a
    "file": reading it fails, and the build reports why."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return "file"
    if stat.S_ISDIR(mode):
        return "folder"
    return "file" if stat.S_ISREG(mode) else "other"


def _already_read(folder: Path) -> str:
    target = folder.resolve()
    if target in folder.parent.resolve().parents or target == folder.parent.resolve():
        return f"symbolic link loop: links back to {target}, not followed"
    return f"link to a folder already read ({target}): not read twice"


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes, kept by Python as lone surrogates
        return False
    return True


def _shown(path: Path) -> Path:
    """The path with bytes that are not UTF-8 shown as U+FFFD, so that it can be printed."""
    return Path(os.fsencode(path).decode("utf-8", errors="replace"))


def _os_reason(exc: OSError) -> str:
    return exc.strerror.lower() if exc.strerror else f"{type(exc).__name__}: {exc}"


def read_bytes(path: Path) -> bytes:
    """The document's bytes, decompressed when the file is gzip. A damaged gzip file raises
    an ``OSError`` saying so, as any other file that cannot be read."""
    data = path.read_bytes()
    if path.suffix != ".gz":
        return data
    try:
        return gzip.decompress(data)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise OSError(errno.EIO, f"not a readable gzip file ({exc})") from exc
