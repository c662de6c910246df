"""Where documents come from: the embedded corpus and the folders a user names.

The embedded corpus is the repository's ``corpus/`` folder, installed inside the package as
``kb/corpus`` so that a non-editable install finds it too.

A corpus folder is walked in name order, without recursion (a folder 1,100 levels deep is
walked like any other). kb reads only what the user put in the folder:

* a link that leads out of the corpus folder (to ``/etc/passwd``, ``/proc/self``) is not
  followed unless ``follow_links`` (``kb build --follow-links``), and reported;
* the system's special files (anything under ``/proc``, ``/sys``, ``/dev``: ``/proc/kmsg``
  blocks a reader forever), named pipes, sockets and devices are never read;
* a kb index folder (its marker, or ``builds/`` beside ``current`` or ``build.lock``) inside a
  corpus folder
  is kb's own output, not documents: skipped and reported;
* a document, or a gzip file once decompressed (streamed, never all at once), larger than
  ``MAX_DOCUMENT_BYTES`` is refused rather than exhausting memory.

Links to folders are followed, each folder once, so a link back to a folder already read (a
loop) is reported rather than followed forever; so is anything that cannot be a document: a
name that is not UTF-8 (kb stores names as text), a folder that holds no document
(``rules.txt/``, a directory named like a file, with nothing in it). Links to files and files
that turn out unreadable (a broken link, a link loop, no permission) are yielded as documents
and reported when the build reads them.
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
from kb.indexdir import is_index_folder

# Files that describe a corpus rather than belong to it.
DOCUMENTATION_FILES = frozenset({"MANIFEST.toml", "README.md", "SOURCES.md", "__init__.py"})
# Folders of a corpus that hold kb's own data about the documents, not documents: the
# scenarios that replay the worked examples (``kb check``), the numbering table of every
# published rules version (kb.link.numbering).
DATA_FOLDERS = frozenset({"scenarios", "numbering"})
# Pseudo file systems whose files are not documents (reading some blocks or never ends).
SYSTEM_FOLDERS = (Path("/proc"), Path("/sys"), Path("/dev"))
# The largest document kb reads, decompressed: rules files are a few MB, MTGJSON set files
# tens of MB; the whole MTGJSON AllPrintings (about 500 MB) is refused, split it by set.
MAX_DOCUMENT_BYTES = 256 << 20
_CHUNK = 1 << 20


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


def discover(folders: list[Path], follow_links: bool = False
             ) -> Iterator[CorpusFile | Unreadable]:
    """Every document below the folders in name order, skipping hidden files and folders,
    documentation files and data folders, with what cannot be read reported in place."""
    for folder in folders:
        if not folder.is_dir():
            yield Unreadable(folder, "not a folder")
            continue
        if _within_any(folder.resolve(), SYSTEM_FOLDERS):
            yield Unreadable(folder, "a folder of the system's special files: never read")
            continue
        for item in _walk(folder, follow_links):
            if isinstance(item, Path):
                yield CorpusFile(item, str(item.relative_to(folder)))
            else:
                yield item


def _walk(root: Path, follow_links: bool) -> Iterator[Path | Unreadable]:
    """The files below ``root`` and the problems met, in name order, depth first, with an
    explicit stack: links to folders are followed once, links out of ``root`` only if
    ``follow_links``."""
    seen: set[tuple[int, int]] = set()
    inside = root.resolve()
    # Each frame: a folder, its entries still to visit, and how many items it yielded.
    stack: list[tuple[Path, Iterator[os.DirEntry[str]], list[int]]] = []
    opened = _open_folder(root, seen)
    if isinstance(opened, Unreadable):
        yield opened
        return
    stack.append((root, opened, [0]))
    while stack:
        folder, entries, found = stack[-1]
        entry = next(entries, None)
        item: Path | Unreadable | None
        if entry is None:
            stack.pop()
            item = None if found[0] else Unreadable(folder, "folder holds no document")
        else:
            visited = _visit(Path(entry.path), inside, follow_links)
            if visited is None or isinstance(visited, Unreadable) or visited[1] == "file":
                item = visited if not isinstance(visited, tuple) else visited[0]
            else:
                opened = _open_folder(visited[0], seen)
                if not isinstance(opened, Unreadable):
                    stack.append((visited[0], opened, [0]))
                    continue
                item = opened
        if item is not None:
            for frame in stack:
                frame[2][0] += 1
            yield item


def _open_folder(folder: Path, seen: set[tuple[int, int]]
                 ) -> Iterator[os.DirEntry[str]] | Unreadable:
    try:
        status = folder.stat()
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError as exc:
        return Unreadable(folder, _os_reason(exc))
    if (status.st_dev, status.st_ino) in seen:
        return Unreadable(folder, _already_read(folder))
    seen.add((status.st_dev, status.st_ino))
    return iter(entries)


def _visit(path: Path, inside: Path, follow_links: bool
           ) -> tuple[Path, str] | Unreadable | None:
    """What to do with one entry: (path, "file" or "folder"), a problem, or None to skip."""
    name = path.name
    if name.startswith("."):
        return None
    if not _is_utf8(name):
        return Unreadable(_shown(path), "name is not valid UTF-8: rename it to read it")
    # Only a link can lead elsewhere (resolving every path would cost its depth each time).
    target = _target(path) if path.is_symlink() else None
    if target is not None and _within_any(target, SYSTEM_FOLDERS):
        return Unreadable(path, f"a special file of the system ({target}): never read")
    if target is not None and not follow_links and not _within_any(target, (inside,)):
        return Unreadable(path, f"link to {target}, outside the corpus folder: not followed "
                                "(kb build --follow-links follows it)")
    kind = _kind(path)
    if kind == "folder":
        if name.startswith("__") or name in DATA_FOLDERS:
            return None
        if is_index_folder(path):
            return Unreadable(path, "a kb index folder, not documents: skipped (keep the "
                                    "index outside the corpus folder)")
        return path, "folder"
    if kind == "other":
        return Unreadable(path, "not a regular file (a named pipe, socket or device)")
    return None if name in DOCUMENTATION_FILES else (path, "file")


def _target(path: Path) -> Path | None:
    """Where the path leads once every link is followed (None for a loop)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def _within_any(path: Path, folders: tuple[Path, ...]) -> bool:
    return any(path == folder or folder in path.parents for folder in folders)


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


def read_bytes(path: Path, limit: int | None = None) -> bytes:
    """The document's bytes, decompressed when the file is gzip. A damaged gzip file, or a
    document larger than ``limit`` (``MAX_DOCUMENT_BYTES``) once decompressed, raises an
    ``OSError`` saying so, as any other file that cannot be read. Decompression is streamed,
    so a small file that expands to gigabytes stops at the limit."""
    limit = MAX_DOCUMENT_BYTES if limit is None else limit
    too_big = OSError(errno.EFBIG, f"larger than {limit:,} bytes{{}}: not read")
    with path.open("rb") as raw:
        if path.suffix != ".gz":
            data = raw.read(limit + 1)
            if len(data) > limit:
                raise OSError(errno.EFBIG, too_big.strerror.format(""))
            return data
        out = bytearray()
        try:
            with gzip.GzipFile(fileobj=raw) as unzipped:
                while chunk := unzipped.read(_CHUNK):
                    out += chunk
                    if len(out) > limit:
                        raise OSError(errno.EFBIG, too_big.strerror.format(" decompressed"))
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            raise OSError(errno.EIO, f"not a readable gzip file ({exc})") from exc
        return bytes(out)
