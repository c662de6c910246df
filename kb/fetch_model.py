"""Download the sentence model that semantic ranking uses (:mod:`kb.index.semantic`): the ONNX
export of all-MiniLM-L6-v2 that Sentence-Transformers publishes on Hugging Face.

Why kb fetches it rather than asking for it: the model is two files at a known address, and
a user who wants semantic ranking should not have to export one. The files are pinned: a
revision of the model's repository in the address, and each file's size and SHA-256 (the
published files', as other projects that pin this model record them, and the tokenizer's
checked byte for byte against an export made here). A file is refused unless it is exactly
the published one: a mirror (``--url``) must serve the same bytes. Each file is streamed to
a hidden file beside its place, both are checked, and only then renamed into place: an
interrupted or refused fetch leaves the folder as it was, and a file already there and whole
is not fetched again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kb.fetch import FetchError, Progress, check_url, deadline_after, download, shown
from kb.i18n import _
from kb.index.semantic import MODEL_FILE, TOKENIZER_FILE

MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_URL = ("https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/"
             "1110a243fdf4706b3f48f1d95db1a4f5529b4d41")
MODEL_TIMEOUT = 600.0  # seconds for the whole fetch: 90 MB on a slow line


@dataclass(frozen=True, slots=True)
class ModelFile:
    name: str  # in the model's folder, as kb.index.semantic reads it
    remote: str  # under the model's address
    size: int
    sha256: str


FILES = (
    ModelFile(TOKENIZER_FILE, "tokenizer.json", 466_247,
              "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
    ModelFile(MODEL_FILE, "onnx/model.onnx", 90_405_214,
              "6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452"),
)


@dataclass(frozen=True)
class FetchedModel:
    url: str  # the model's address
    folder: Path
    written: tuple[str, ...]  # the files downloaded; the others were there, whole
    files: tuple[ModelFile, ...]


def fetch_model(dest: Path, url: str = MODEL_URL, *, timeout: float = MODEL_TIMEOUT,
                progress: Progress | None = None,
                files: tuple[ModelFile, ...] | None = None) -> FetchedModel:
    """Download into ``dest`` (created if needed) each of ``files`` (:data:`FILES`) it does
    not hold whole, from under ``url``; FetchError, and nothing written, when one is not the
    published file. ``timeout`` bounds the whole fetch."""
    files = FILES if files is None else files
    check_url(url)
    deadline = deadline_after(timeout)
    missing = [f for f in files if not _holds(dest / f.name, f)]
    created = not dest.exists()
    parts: list[Path] = []
    try:
        for file in missing:
            address = f"{url.rstrip('/')}/{file.remote}"
            parts.append(_streamed(address, dest, file, deadline, progress))
        for file, part in zip(missing, parts, strict=True):
            os.replace(part, dest / file.name)
    finally:
        for part in parts:
            part.unlink(missing_ok=True)
        if created and dest.is_dir() and not any(dest.iterdir()):
            with contextlib.suppress(OSError):  # a refused fetch leaves no empty folder
                dest.rmdir()
    return FetchedModel(shown(url), dest, tuple(f.name for f in missing), files)


def _streamed(address: str, dest: Path, file: ModelFile, deadline: float,
              progress: Progress | None) -> Path:
    """``file`` downloaded to a hidden file in ``dest`` (builds and kb's model reader see
    only the final names), checked; FetchError, the hidden file removed, when it is not the
    published one."""
    dest.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".part", dir=dest)
    part = Path(temp)
    try:
        with os.fdopen(fd, "wb") as out:
            download(address, deadline, progress, max_bytes=file.size, out=out)
            out.flush()
            os.fsync(out.fileno())
        size, digest = part.stat().st_size, _sha256(part)
        if size != file.size or digest != file.sha256:
            raise FetchError(_("{url}: not the published {name} ({size} bytes, sha256 {digest}; "
                               "expected {expected_size} bytes, sha256 {expected}); nothing "
                               "written").format(
                url=shown(address), name=file.name, size=size, digest=digest,
                expected_size=file.size, expected=file.sha256))
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return part


def _holds(path: Path, file: ModelFile) -> bool:
    """Whether ``path`` is the published file already (its size first: no 90 MB read for a
    file that cannot be it)."""
    try:
        return path.stat().st_size == file.size and _sha256(path) == file.sha256
    except OSError:
        return False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()
