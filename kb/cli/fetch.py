"""``kb fetch``: download the current official Comprehensive Rules, or the sentence model for
semantic ranking, and rebuild."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option, progress_bar
from kb.cli._terminal import raw
from kb.fetch import DEFAULT_TIMEOUT, RULES_PAGE, FetchError, Progress, check_url, fetch
from kb.fetch_model import MODEL_NAME, MODEL_TIMEOUT, MODEL_URL, fetch_model
from kb.i18n import _
from kb.paths import shown, user_corpus_dir, user_model_dir

if TYPE_CHECKING:
    from kb.build import BuildReport


def _check_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    try:
        if value is not None:
            check_url(value)
    except FetchError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return value


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not math.isfinite(value):  # FloatRange lets nan through
        raise click.BadParameter(_("{value} is not a number of seconds").format(value=value),
                                 ctx, param)
    return value


@click.command("fetch", cls=KbCommand)
@click.option("--model", "sentence_model", is_flag=True,
              help="Download the sentence model for semantic ranking instead of the rules: "
                   "all-MiniLM-L6-v2's ONNX export from Hugging Face (90 MB, checked against "
                   "the published files' checksums); the index is rebuilt with it.")
@click.option("--url", default=None, callback=_check_url,
              help="The rules page that links the current rules text (default: "
                   "https://magic.wizards.com/en/rules); with --model, the address the model's "
                   "files are under (default: Hugging Face's, at a pinned revision).")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to store the file in (default: $KB_CORPUS, else "
                   "~/.local/share/kb/corpus; with --model: $KB_MODEL, else "
                   "~/.local/share/kb/models/all-MiniLM-L6-v2).")
@click.option("--timeout", type=click.FloatRange(min=0.1, max=24 * 3600), default=None,
              callback=_finite,
              help="Seconds for the whole fetch (default: 30; 600 with --model).")
@click.option("--no-build", is_flag=True, help="Store the file but do not rebuild the index.")
@json_option
@click.pass_context
def command(ctx: click.Context, sentence_model: bool, url: str | None, dest: Path | None,
            timeout: float | None, no_build: bool, as_json: bool) -> None:
    """Download the current Comprehensive Rules text from the official rules page, check that
    it parses, store it named by its effective date, and rebuild the index with it."""
    if sentence_model:
        _fetch_model(ctx, url, dest, timeout, no_build, as_json)
        return
    from kb.corpus import embedded_corpus

    folder = dest or user_corpus_dir()
    with _download_bar() as progress:
        got = fetch(folder, url or RULES_PAGE, timeout=timeout or DEFAULT_TIMEOUT,
                    progress=progress, installed=[embedded_corpus()])
    report = None
    if not no_build and got.installed is None:
        from kb import api

        report = api.build_index(index_root(ctx), [folder], progress=progress_bar)
    if as_json:
        emit_json({"url": got.url, "path": got.path, "version": got.version, "bytes": got.size,
                   "sha256": got.sha256, "rules": got.rules, "glossary": got.glossary,
                   "unchanged": got.unchanged, "installed": got.installed,
                   "built": _built_json(report)})
        return
    if got.installed is not None:
        click.echo(_("The rules online ({online}) are not newer than the installed "
                     "{installed} ({path}); nothing written.").format(
            online=got.version, installed=got.installed, path=got.path))
        return
    if got.unchanged:
        message = _("Rules of {version} ({rules} rules, {glossary} glossary entries) already "
                    "stored, unchanged: {path}")
    else:
        message = _("Rules of {version} ({rules} rules, {glossary} glossary entries) stored: "
                    "{path}")
    click.echo(message.format(version=got.version, rules=got.rules, glossary=got.glossary,
                              path=got.path))
    _say_built(report)


def _fetch_model(ctx: click.Context, url: str | None, dest: Path | None,
                 timeout: float | None, no_build: bool, as_json: bool) -> None:
    """``kb fetch --model``: the model's files, then a build that embeds the rules with it."""
    from kb.index.semantic import runtime

    if not no_build:
        runtime()  # a build with the model needs it: said before 90 MB are downloaded
    folder = dest or user_model_dir()
    with _download_bar() as progress:
        got = fetch_model(folder, url or MODEL_URL, timeout=timeout or MODEL_TIMEOUT,
                          progress=progress)
    report = None
    if not no_build:
        from kb import api

        report = api.build_index(index_root(ctx), [], progress=progress_bar, model=folder)
    if as_json:
        emit_json({"url": got.url, "path": got.folder, "model": MODEL_NAME,
                   "files": {f.name: {"bytes": f.size, "sha256": f.sha256,
                                      "written": f.name in got.written} for f in got.files},
                   "unchanged": not got.written, "built": _built_json(report)})
        return
    message = (_("Sentence model {model} stored: {path}") if got.written
               else _("Sentence model {model} already stored, unchanged: {path}"))
    click.echo(message.format(model=MODEL_NAME, path=shown(got.folder)))
    _say_built(report)


def _built_json(report: BuildReport | None) -> dict | None:
    return None if report is None else {"index": report.index, "versions": report.versions,
                                        "vectors": report.vectors}


def _say_built(report: BuildReport | None) -> None:
    if report is not None:
        click.echo(_("Built {index} in {seconds:.1f} s; rules versions: {versions}").format(
            index=shown(report.index), seconds=report.seconds, versions=", ".join(report.versions)))


@contextmanager
def _download_bar() -> Iterator[Progress | None]:
    """Kilobytes read (and the share of the whole when the server says its size), on one line
    of stderr when it is a terminal; nothing in scripts and CI logs."""
    if not sys.stderr.isatty():
        yield None
        return
    shown = False

    def update(read: int, total: int | None) -> None:
        nonlocal shown
        shown = True
        if total:
            line = _("Downloading: {read} of {total} kB ({share}%)").format(
                read=read // 1024, total=total // 1024, share=100 * read // max(total, 1))
        else:
            line = _("Downloading: {read} kB").format(read=read // 1024)
        click.echo(f"\r{line}", nl=False, file=raw(sys.stderr))

    try:
        yield update
    finally:
        if shown:
            click.echo(err=True)
