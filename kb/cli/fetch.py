"""``kb fetch``: download the current official Comprehensive Rules and rebuild."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from kb.cli._command import KbCommand
from kb.cli._output import emit_json, index_root, json_option, progress_bar
from kb.cli._terminal import raw
from kb.fetch import DEFAULT_TIMEOUT, RULES_PAGE, FetchError, Progress, check_url, fetch
from kb.i18n import _
from kb.paths import shown, user_corpus_dir


def _check_url(ctx: click.Context, param: click.Parameter, value: str) -> str:
    try:
        check_url(value)
    except FetchError as exc:
        raise click.BadParameter(str(exc), ctx, param) from None
    return value


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not math.isfinite(value):  # FloatRange lets nan through: nan compares false
        raise click.BadParameter(_("{value} is not a number of seconds").format(value=value),
                                 ctx, param)
    return value


@click.command("fetch", cls=KbCommand)
@click.option("--url", default=RULES_PAGE, show_default=True, callback=_check_url,
              help="The rules page that links the current rules text.")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to store the file in (default: $KB_CORPUS, else "
                   "~/.local/share/kb/corpus).")
@click.option("--timeout", type=click.FloatRange(min=0.1, max=24 * 3600),
              default=DEFAULT_TIMEOUT, show_default=True, callback=_finite,
              help="Seconds for the whole fetch (the page and the rules file).")
@click.option("--no-build", is_flag=True, help="Store the file but do not rebuild the index.")
@json_option
@click.pass_context
def command(ctx: click.Context, url: str, dest: Path | None, timeout: float, no_build: bool,
            as_json: bool) -> None:
    """Download the current Comprehensive Rules text from the official rules page, check that
    it parses, store it named by its effective date, and rebuild the index with it."""
    from kb.corpus import embedded_corpus

    folder = dest or user_corpus_dir()
    with _download_bar() as progress:
        got = fetch(folder, url, timeout=timeout, progress=progress,
                    installed=[embedded_corpus()])
    report = None
    if not no_build and got.installed is None:
        from kb import api

        report = api.build_index(index_root(ctx), [folder], progress=progress_bar)
    if as_json:
        emit_json({"url": got.url, "path": got.path, "version": got.version, "bytes": got.size,
                   "sha256": got.sha256, "rules": got.rules, "glossary": got.glossary,
                   "unchanged": got.unchanged, "installed": got.installed,
                   "built": None if report is None else {"index": report.index,
                                                         "versions": report.versions}})
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
