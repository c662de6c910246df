"""Semantic ranking: how near a sentence-embedding model puts a query to each of today's
English rules, blended into kb's own ranking of the answers.

Why: on players' whole questions, the words that name the rule are few among many (a card's
story, an engine's bug report), and lexical statistics do not tell them apart. A sentence
model (all-MiniLM-L6-v2) reads the question whole: blended with kb's scores, the answering
rule reached the first three for .33 of the held-out players' English questions, against .23
for kb alone and .24 for FTS5 (issue 23; ``bench/bench_search.py`` measures it with the
mechanism switched off).

It is optional twice over. The model is the user's own files: a Sentence-Transformers ONNX
export (``model.onnx`` and ``tokenizer.json``, as ``sentence-transformers/all-MiniLM-L6-v2``
publishes them, which ``kb fetch --model`` downloads: :mod:`kb.fetch_model`), given to
``kb build --model``. The runtime (numpy, onnxruntime, tokenizers) is
the ``semantic`` extra. An index built without a model has no vectors, and a search never
imports any of it. The model is English: French key words reach it as their English gloss
(``kb.search.Searcher._gloss``, the term table's translations); French questions are ranked
by kb alone (their blend lost French questions on the held-out half).

The build embeds each English rule and example of the latest rules version with its section's
title in front ("Trample: The controller of an attacking creature with trample ...": the
development half preferred it), and writes ``semantic/vectors.npy`` (one normalised row per
text) and ``semantic/vectors.json`` (the rows' records, the model's files and the version).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import KbError
from kb.i18n import _

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from kb.store import Store

Progress = Callable[[list[list[str]]], Iterable[list[str]]]  # kb.build's, over batches of texts

FOLDER = "semantic"
VECTORS = "vectors.npy"
META = "vectors.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
FORMAT = 1  # of vectors.json; another format is a build without vectors
BATCH = 32  # texts encoded at once
MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained on at most 256 word pieces
SWITCH_INTERVAL = 0.0005  # seconds: how soon the ranking hands the lock to the model's thread
POOL = 200  # rules, nearest first, that a query's nearness is normalised over
WEIGHT = 0.6  # the model's share of an answer's worth (kb's is the rest): chosen on the
# development half by a two-fold split (0.6 on both halves, for questions and key words)


class SemanticError(KbError):
    """The model's files are missing, unreadable or not a sentence model kb can run."""


def model_files(folder: Path) -> dict[str, list[int]]:
    """What identifies the model a build embedded with: its files' sizes and modification
    times (reading 90 MB for a checksum at every search would cost more than the search)."""
    out = {}
    for name in (MODEL_FILE, TOKENIZER_FILE):
        path = folder / name
        try:
            st = path.stat()
        except OSError as exc:
            raise SemanticError(_("{path}: the sentence model's file cannot be read ({reason})")
                                .format(path=path, reason=exc.strerror or exc)) from exc
        out[name] = [st.st_size, st.st_mtime_ns]
    return out


def runtime() -> tuple[Any, Any, Any]:
    """numpy, onnxruntime and tokenizers' ``Tokenizer``: SemanticError naming the extra to
    install when one is missing (``kb fetch --model`` asks before it downloads 90 MB)."""
    try:
        import numpy
        import onnxruntime
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise SemanticError(_("semantic ranking needs numpy, onnxruntime and tokenizers: "
                              'pip install "kb[semantic]" ({reason})').format(reason=exc)
                            ) from exc
    return numpy, onnxruntime, Tokenizer


class Encoder:
    """A Sentence-Transformers ONNX export: word pieces in, the mean of the token vectors out,
    normalised (what ``sentence-transformers`` computes for all-MiniLM-L6-v2)."""

    def __init__(self, folder: Path, threads: int = 0) -> None:
        """``threads``: the model's own, 0 for one a core (a build's batches)."""
        self.folder = folder
        self.files = model_files(folder)
        numpy, onnxruntime, Tokenizer = runtime()  # noqa: N806 - a class
        self.np = numpy  # for the callers that hold its arrays
        try:
            self._tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3  # warnings about the graph are not the user's
            options.intra_op_num_threads = threads
            self._session = onnxruntime.InferenceSession(
                str(folder / MODEL_FILE), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - both libraries raise their own kinds
            raise SemanticError(_("{folder}: not a sentence model kb can run ({reason})")
                                .format(folder=folder, reason=exc)) from exc
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._inputs = [i.name for i in self._session.get_inputs()]
        shape = self._session.get_outputs()[0].shape
        if len(shape) != 3 or "input_ids" not in self._inputs:
            raise SemanticError(_("{folder}: not a sentence model kb can run ({reason})").format(
                folder=folder, reason="its first output is not one vector per word piece"))
        self.width = shape[-1] if isinstance(shape[-1], int) else 0  # the vectors' length

    def encode(self, texts: Sequence[str]) -> Any:
        """One normalised row per text (a float32 numpy array), ``BATCH`` texts at a time."""
        np = self.np
        rows = [np.zeros((0, self.width), dtype=np.float32)]
        for start in range(0, len(texts), BATCH):
            pieces = self._tokenizer.encode_batch(list(texts[start:start + BATCH]))
            ids = np.array([p.ids for p in pieces], dtype=np.int64)
            mask = np.array([p.attention_mask for p in pieces], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask,
                    "token_type_ids": np.zeros_like(ids)}
            tokens = self._session.run(None, {name: feed[name] for name in self._inputs})[0]
            summed = (tokens * mask[..., None]).sum(axis=1)
            mean = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1)
            rows.append(mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12))
        return np.concatenate(rows).astype(np.float32)


@dataclass(frozen=True, slots=True)
class Document:
    record: str  # the rule's or example's record id
    rule: str  # the rule number it answers
    text: str  # as embedded: the section's title, then the text


def documents(store: Store) -> tuple[str | None, list[Document]]:
    """Today's English rules and examples, each with its section's title in front: the
    latest rules version, and its texts in the store's order."""
    from kb.model import Example, Rule

    versions = store.versions()
    if not versions:
        return None, []
    latest = versions[-1]
    rules = [r for r in store.query(kind="rule", language="en", version=latest)
             if isinstance(r, Rule)]
    titles = {r.number: r.title for r in rules if r.title}
    out = []
    for rule in rules:
        out.append(Document(rule.id, rule.number,
                            _with_section(titles, rule.number, rule.title or rule.text)))
    for example in store.query(kind="example", language="en", version=latest):
        if isinstance(example, Example):
            out.append(Document(example.id, example.rule,
                                _with_section(titles, example.rule, example.text)))
    return latest, out


def _with_section(titles: dict[str, str], number: str, text: str) -> str:
    """702.19b's text after "Trample: ", 702.19's after "Keyword Abilities: "."""
    head, _dot, tail = number.partition(".")
    section = (number.rstrip("abcdefghijkmnpqrstuvwxyz") if tail and not tail.isdigit()
               else head)
    title = titles.get(section)
    return f"{title}: {text}" if title else text


def _digest(model: dict[str, list[int]], version: str | None, docs: Iterable[Document]) -> str:
    h = hashlib.sha256(json.dumps([FORMAT, model, version]).encode())
    for doc in docs:
        h.update(f"{doc.record}\x00{doc.rule}\x00{doc.text}\x01".encode())
    return h.hexdigest()


def write_vectors(generation: Path, store: Store, encoder: Encoder,
                  previous: Path | None = None, progress: Progress | None = None) -> int:
    """Embed today's English rules and examples into ``generation``; the vectors of
    ``previous`` are reused when the model and every text are the same. Returns how many
    texts the index has vectors for."""
    version, docs = documents(store)
    digest = _digest(encoder.files, version, docs)
    target = generation / FOLDER
    target.mkdir(exist_ok=True)
    old = previous / FOLDER if previous is not None else None
    if old is not None and (_read_meta(old) or {}).get("digest") == digest:
        for name in (VECTORS, META):
            shutil.copyfile(old / name, target / name)
        return len(docs)
    texts = [d.text for d in docs]
    batches = [texts[start:start + BATCH] for start in range(0, len(texts), BATCH)]
    steps = progress(batches) if progress is not None else batches
    np = encoder.np
    matrix = np.concatenate([encoder.encode([]), *(encoder.encode(b) for b in steps)])
    with (target / VECTORS).open("wb") as handle:
        np.save(handle, matrix)
    meta = {"format": FORMAT, "digest": digest, "model": str(encoder.folder.resolve()),
            "model_files": encoder.files, "version": version,
            "records": [d.record for d in docs], "rules": [d.rule for d in docs]}
    (target / META).write_text(json.dumps(meta), encoding="utf-8")
    return len(docs)


def _damaged(path: Path) -> SemanticError:
    return SemanticError(_("{path}: unreadable or of another kb (rebuild the index)").format(
        path=path))


def _read_meta(folder: Path) -> dict | None:
    try:
        meta = json.loads((folder / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) and meta.get("format") == FORMAT else None


class Vectors:
    """A generation's vectors, and the model that embeds a query beside them: read on the
    first query that may use them (an index with vectors costs a word's look-up nothing)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._meta: dict | None = None
        self._encoder: Encoder | None = None
        self._matrix: Any = None  # numpy arrays, once the first query loads the model
        self._rule_of_row: Any = None
        self._worker: ThreadPoolExecutor | None = None  # nearness_soon's thread, on first use

    @classmethod
    def open(cls, generation: Path) -> Vectors | None:
        """The generation's vectors, or None when it was built without a model."""
        folder = generation / FOLDER
        return cls(folder) if (folder / META).is_file() else None

    @property
    def meta(self) -> dict:
        if self._meta is None:
            meta = _read_meta(self.folder)
            if meta is None:
                raise _damaged(self.folder / META)
            self._meta = meta
        return self._meta

    @cached_property
    def _rule_records(self) -> dict[str, str]:
        """Today's English rules' record ids by number (an example's id ends "/exN")."""
        return {number: record for record, number
                in zip(self.meta["records"], self.meta["rules"], strict=True)
                if "/" not in record.rpartition(":")[2]}

    @property
    def version(self) -> str:
        """The rules version the vectors are of (the latest when the index was built)."""
        return self.meta["version"]

    @property
    def model(self) -> Path:
        """The model's folder: where it was at the build, or ``$KB_MODEL``."""
        return Path(os.environ.get("KB_MODEL") or self.meta["model"])

    def record_of(self, rule: str) -> str | None:
        """The record id of today's English rule of this number."""
        return self._rule_records.get(rule)

    def _load(self) -> Encoder:
        """The model, if it is the build's, and the vectors, if they are whole."""
        # One thread: a query's encoding runs on nearness_soon's thread beside the ranking,
        # a core each (two threads of the model's took the ranking's core: no faster).
        encoder = Encoder(self.model, threads=1)
        if encoder.files != self.meta["model_files"]:
            raise SemanticError(_("{folder}: not the model the index was embedded with "
                                  "(rebuild with kb build --model)").format(folder=self.model))
        try:
            matrix = encoder.np.load(self.folder / VECTORS, mmap_mode="r")
            whole = matrix.shape == (len(self.meta["rules"]), encoder.width)
        except (OSError, ValueError):
            whole = False
        if not whole:
            raise _damaged(self.folder / VECTORS)
        numbers: dict[str, int] = {}  # each row's rule, as a small integer
        self._rule_of_row = encoder.np.array([numbers.setdefault(n, len(numbers))
                                              for n in self.meta["rules"]])
        self._encoder, self._matrix = encoder, matrix
        return encoder

    def nearness_soon(self, text: str) -> Future[dict[str, float]]:
        """:meth:`nearness`, computed on a thread of the vectors' own while the caller ranks
        by words: the model's run and numpy's release the interpreter's lock, so most of a
        query's encoding (about 5 ms of a warm search's 25) is hidden, and a first query's
        model loads while the index is read."""
        if self._worker is None:
            from concurrent.futures import ThreadPoolExecutor

            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-model")
            # The thread needs the interpreter's lock a few times a query (to start, to hand
            # the word pieces over, to take the vectors back), and a thread that ranks in
            # Python keeps it SWITCH_INTERVAL at a time: 5 ms by default, the encoding's cost.
            sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        return self._worker.submit(self.nearness, text)

    def close(self) -> None:
        """Stop the thread, once the queries it runs are done."""
        if self._worker is not None:
            self._worker.shutdown(cancel_futures=True)
            self._worker = None

    def nearness(self, text: str) -> dict[str, float]:
        """Today's ``POOL`` rules nearest to ``text``, by rule number, each scaled from 0 (the
        farthest of them) to 1 (the nearest); a rule is as near as its nearest text."""
        encoder = self._encoder or self._load()
        np = encoder.np
        # einsum's own loop, not numpy's BLAS: the threads OpenBLAS leaves spinning after a
        # matrix product take the cores the model's next encoding needs (twice as slow on two).
        near = np.einsum("ij,j->i", self._matrix, encoder.encode([text])[0])
        rows = np.argsort(-near, kind="stable")
        # Each rule's nearest text is its first row in that order; the POOL nearest rules.
        _rules, first = np.unique(self._rule_of_row[rows], return_index=True)
        rows = rows[np.sort(first)[:POOL]]
        if not len(rows) or near[rows[0]] <= near[rows[-1]]:
            return {}  # no rule nearer than another (a query of no word the model knows)
        high, low = float(near[rows[0]]), float(near[rows[-1]])
        rules = self.meta["rules"]
        return {rules[row]: (float(near[row]) - low) / (high - low) for row in rows}


def blend(worth: dict[str, float], nearness: dict[str, float],
          weight: float = WEIGHT) -> dict[str, float]:
    """Answers' worth blended with the model's nearness, best first: kb's worth scaled from
    0 to 1 over its answers, ``weight`` of the model's nearness added to ``1 - weight`` of
    it; a rule the model puts near that kb did not find is an answer (``"rule N"``) on the
    model's word alone, one kb found that the model does not is on kb's alone."""
    if not nearness:
        return worth
    high = max(worth.values(), default=0.0)
    low = min(worth.values(), default=0.0)
    span = high - low
    out = {key: (1 - weight) * ((value - low) / span if span > 0 else 1.0)
           for key, value in worth.items()}
    for rule, near in nearness.items():
        key = f"rule {rule}"
        out[key] = out.get(key, 0.0) + weight * near
    return dict(sorted(out.items(), key=lambda item: -item[1]))
