"""Where documents come from: the embedded corpus and the folders a user names.

The embedded corpus is the repository's ``corpus/`` folder, installed inside the package as
``kb/corpus`` so that a non-editable install finds it too.
"""

from __future__ import annotations

import gzip
import os
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
    """Every document below the folders, sorted, skipping hidden and documentation files."""
    for folder in folders:
        if not folder.is_dir():
            yield Unreadable(folder, "not a folder")
            continue
        for path in sorted(_walk(folder)):
            if path.name in DOCUMENTATION_FILES or path.name.startswith("."):
                continue
            yield CorpusFile(path, str(path.relative_to(folder)))


def _walk(folder: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = [d for d in dirnames
                       if not d.startswith((".", "__")) and d not in DATA_FOLDERS]
        for name in filenames:
            yield Path(dirpath) / name


def read_bytes(path: Path) -> bytes:
    """The document's bytes, decompressed when the file is gzip."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        return gzip.decompress(data)
    return data
