"""Download the sentence model that semantic ranking uses (:mod:`kb.index.semantic`): the ONNX
export of all-MiniLM-L6-v2 that Sentence-Transformers publishes on Hugging Face.

Why kb fetches it rather than asking for it: the model is two files at a known address, and
a user who wants semantic ranking should not have to export one. The files are pinned: a
revision of the model's repository in the address, and each file's size and SHA-256 (the
published files', as other projects that pin this model record them, and the tokenizer's
checked byte for byte against an export made here). A file is refused unless it is exactly
the published one: a mirror (``--url``) must serve the same bytes. Each file is checked
before any is written, and each is written by one atomic rename: an interrupted fetch leaves
the folder as it was, and a file already there and whole is not fetched again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from kb.fetch import (
    FetchError,
    Progress,
    check_url,
    deadline_after,
    download,
    shown,
    write_atomically,
)
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
    fetched = []
    for file in missing:
        address = f"{url.rstrip('/')}/{file.remote}"
        data = download(address, deadline, progress, max_bytes=file.size)
        digest = hashlib.sha256(data).hexdigest()
        if len(data) != file.size or digest != file.sha256:
            raise FetchError(_("{url}: not the published {name} ({size} bytes, sha256 {digest}; "
                               "expected {expected_size} bytes, sha256 {expected}); nothing "
                               "written").format(
                url=shown(address), name=file.name, size=len(data), digest=digest,
                expected_size=file.size, expected=file.sha256))
        fetched.append(data)
    for file, data in zip(missing, fetched, strict=True):
        write_atomically(dest / file.name, data)
    return FetchedModel(shown(url), dest, tuple(f.name for f in missing), files)


def _holds(path: Path, file: ModelFile) -> bool:
    """Whether ``path`` is the published file already (its size first: no 90 MB read for a
    file that cannot be it)."""
    try:
        if path.stat().st_size != file.size:
            return False
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return False
    return digest.hexdigest() == file.sha256
